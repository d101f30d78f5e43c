/* SPDX-License-Identifier: MIT */
/* bench/report/report_json.c — the run as one JSON document (schema "eel.run",
 * described in docs/json.md). Written to a new temporary file and renamed,
 * so a failed run never leaves half a file. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "bench/bench.h"
#include "json.h"
#include "outfile.h"


static void stat_obj(struct json *j, const char *key, const struct stat *s)
{
	json_obj(j, key);
	json_num(j, "min", s->min);
	json_num(j, "p25", s->p25);
	json_num(j, "median", s->median);
	json_num(j, "p75", s->p75);
	json_num(j, "max", s->max);
	json_num(j, "mean", s->mean);
	json_num(j, "spread", s->spread);
	json_u64(j, "n", (uint64_t)s->n);
	json_u64(j, "outliers", (uint64_t)s->outliers);
	json_obj_end(j);
}

/* A parameter measured as a distribution: ns and cycles. */
static void param_stat(struct json *j, const struct session *s, const char *key, const struct stat *st,
		       const char *method)
{
	json_obj(j, key);
	stat_obj(j, "ns", st);
	json_obj(j, "cycles");
	json_u64(j, "min", (uint64_t)(st->min * s->clk->hz / 1e9 + 0.5));
	json_u64(j, "median", (uint64_t)(st->median * s->clk->hz / 1e9 + 0.5));
	json_obj_end(j);
	json_str(j, "method", method);
	json_obj_end(j);
}

/* Bell et al. 2003 4.3's o_s or o_r: where they are not separable on this NIC
 * (derived.c), `ns` and `cycles` are null and `why` says why; the overlap
 * test's figure is kept as g_less_dmax_ns (and over the sweeps), which is
 * o only where separable. */
static void overlap_obj(struct json *j, const struct session *s, const char *key, const struct overlap_curve *c,
			const struct stat *sweeps, const char *method)
{
	const char *why;
	int sep = overheads_separable(s->caps, &why);

	json_obj(j, key);
	json_num(j, "ns", sep ? c->o_ns : NAN);
	json_bool(j, "separable", sep);
	if (!sep)
		json_str(j, "why", why);
	json_num(j, "g_less_dmax_ns", c->o_ns);
	stat_obj(j, "sweeps", sweeps);
	if (sep)
		json_u64(j, "cycles", (uint64_t)(c->o_ns * s->clk->hz / 1e9 + 0.5));
	else
		json_num(j, "cycles", NAN);
	json_num(j, "g_ns", c->g_ns);
	json_num(j, "dmax_ns", c->dmax_ns);
	json_bool(j, "rose_at_first", c->rose_at_first);
	json_bool(j, "dmax_extrapolated", c->dmax_extrapolated);
	json_str(j, "method", method);
	json_obj_end(j);
}

/* A figure derived from others (derived.c), as the table states it: `ns`
 * (and `cycles`) only where resolved, else null with `bound_ns` (at most
 * that) or `why`; never a negative duration. */
static void derived_obj(struct json *j, const struct session *s, const char *key, const struct derived *d,
			const char *method)
{
	json_obj(j, key);
	json_num(j, "ns", d->resolved ? d->ns : NAN);
	if (d->resolved)
		json_u64(j, "cycles", (uint64_t)(d->ns * s->clk->hz / 1e9 + 0.5));
	else
		json_num(j, "cycles", NAN);
	json_bool(j, "separable", d->separable);
	json_bool(j, "resolved", d->resolved);
	json_num(j, "bound_ns", d->separable && !d->resolved ? d->bound_ns : NAN);
	json_num(j, "uncertainty_ns", d->u_ns);
	if (d->why)
		json_str(j, "why", d->why);
	json_str(j, "method", method);
	json_obj_end(j);
}

static void curve(struct json *j, const char *key, const double *x, const double *y, int n)
{
	json_obj(j, key);
	json_arr(j, "d_ns");
	for (int i = 0; i < n; i++)
		json_num(j, NULL, x[i]);
	json_arr_end(j);
	json_arr(j, "ns_per_msg");
	for (int i = 0; i < n; i++)
		json_num(j, NULL, y[i]);
	json_arr_end(j);
	json_obj_end(j);
}

static void machine(struct json *j, const struct session *s)
{
	const struct eel_clock *c = s->clk;
	struct utsname u;
	char cpu[128], host[256] = "";

	machine_cpu_model(cpu, sizeof(cpu));
	uname(&u);
	gethostname(host, sizeof(host) - 1);
	json_obj(j, "machine");
	json_str(j, "hostname", host);
	json_str(j, "cpu_model", cpu);
	json_u64(j, "cores_online", (uint64_t)sysconf(_SC_NPROCESSORS_ONLN));
	json_str(j, "kernel", u.release);
	json_str(j, "arch", u.machine);
	json_obj(j, "clock");
	json_str(j, "source", c->source);
	json_num(j, "hz", c->hz);
	json_num(j, "hz_spread_ppm", c->hz_spread_ppm);
	json_bool(j, "invariant", c->invariant);
	json_u64(j, "timer_cycles", c->timer_cycles);
	json_num(j, "timer_ns", c->timer_cycles * c->ns_per_cycle);
	json_u64(j, "stamp_cycles", c->stamp_cycles);
	json_num(j, "resolution_cycles", c->resolution_cycles); /* a real number: a VM's TSC may step by 24.45 */
	json_num(j, "resolution_ns", c->resolution_cycles * c->ns_per_cycle);
	json_num(j, "stamp_ns", c->stamp_cycles * c->ns_per_cycle);
	json_str(j, "kernel_clocksource", c->kernel_clocksource);
	json_obj_end(j);
	json_obj_end(j);
}

/* The NIC's PCI facts (this end's), and the link's payload bound modelled from them. */
static void pci(struct json *j, const struct nic_pci *p)
{
	const struct eel_pci_facts *f = &p->f;

	if (!p->addr[0])
		return;
	json_obj(j, "pci");
	json_str(j, "addr", p->addr);
	if (!p->have) {
		json_str(j, "error", p->error);
		json_obj_end(j);
		return;
	}
	json_str(j, "vendor", f->vendor);
	json_str(j, "device", f->device);
	json_str(j, "driver", f->driver);
	json_num(j, "numa_node", f->numa_node);
	json_num(j, "iommu_group", f->iommu_group);
	json_bool(j, "pcie", f->pcie_type >= 0);
	json_obj(j, "link");
	json_u64(j, "speed_mts", f->link_speed_mts);
	json_u64(j, "width", f->link_width);
	json_u64(j, "speed_max_mts", f->link_speed_max_mts);
	json_u64(j, "width_max", f->link_width_max);
	json_obj_end(j);
	json_u64(j, "max_payload", f->max_payload);
	json_u64(j, "max_read_req", f->max_read_req);
	json_arr(j, "bar_sizes");
	for (int b = 0; b < EEL_PCI_FACTS_BARS; b++)
		json_u64(j, NULL, f->bar[b].size);
	json_arr_end(j);
	if (p->payload_bytes_per_ns > 0) {
		json_obj(j, "model");
		json_num(j, "link_bytes_per_ns", p->link_bytes_per_ns);
		json_num(j, "payload_bytes_per_ns", p->payload_bytes_per_ns);
		json_str(j, "method", "modelled: MT/s x lanes x encoding (8b/10b, 128b/130b, 242/256), "
			 "max_payload / (max_payload + 24) a TLP; DLLPs and read requests not counted: an upper bound");
		json_obj_end(j);
	}
	json_obj_end(j);
}

static void nic(struct json *j, const struct session *s, const struct results *r, const char *uri)
{
	const struct eel_caps *c = s->caps;
	static const char *const stage[EEL_STAGES] = {
		"post", "doorbell", "doorbell_done", "nic_fetch", "nic_tx", "nic_rx", "dma_start",
		"dma_done", "detect", "complete",
	};

	json_obj(j, "nic");
	json_str(j, "uri", uri);
	json_str(j, "backend", c->backend);
	json_str(j, "name", c->name);
	json_obj(j, "caps");
	json_bool(j, "eregs", c->flags & EEL_CAP_EREGS);
	json_bool(j, "notify", c->flags & EEL_CAP_NOTIFY);
	json_bool(j, "one_sided_hw", c->flags & EEL_CAP_ONESIDED_HW);
	json_bool(j, "reliable_hw", c->flags & EEL_CAP_RELIABLE_HW);
	json_bool(j, "nic_clock", c->flags & EEL_CAP_NIC_CLOCK);
	json_bool(j, "shared_clock", c->flags & EEL_CAP_SHARED_CLOCK);
	json_bool(j, "hosted_firmware", c->flags & EEL_CAP_HOSTED_FW);
	json_u64(j, "max_inline", c->max_inline);
	json_u64(j, "max_put", c->max_put);
	json_u64(j, "mtu", c->mtu);
	json_u64(j, "sq_depth", c->sq_depth);
	json_arr(j, "stamps");
	for (int k = 0; k < EEL_STAGES; k++)
		if (c->stamp_mask & (1u << k))
			json_str(j, NULL, stage[k]);
	json_arr_end(j);
	json_str(j, "doorbell", c->doorbell);
	json_str(j, "attach", c->attach);
	json_str(j, "clock", c->clock);
	json_obj_end(j);
	/* the emulated stage costs: as asked, and as they last (measured) */
	json_arr(j, "delays");
	for (int k = 0; k < STAGE_PARTS; k++) {
		if (!(c->delay_asked_ns[k] > 0))
			continue;
		json_obj(j, NULL);
		json_str(j, "part", stage_part_name[k]);
		json_num(j, "asked_ns", c->delay_asked_ns[k]);
		json_num(j, "ns", c->delay_ns[k]);
		json_obj_end(j);
	}
	json_arr_end(j);
	pci(j, &r->pci);
	json_obj_end(j);
}

static void options(struct json *j, const struct session *s)
{
	const struct plan *p = &s->plan;

	json_obj(j, "options");
	json_bool(j, "pair", s->pair);
	json_num(j, "cpu", s->cpu);
	json_u64(j, "iters", p->iters);
	json_u64(j, "runs", p->runs);
	json_u64(j, "warmup", p->warmup);
	json_arr(j, "sizes");
	for (uint32_t i = 0; i < p->nsizes; i++)
		json_u64(j, NULL, p->sizes[i]);
	json_arr_end(j);
	json_arr(j, "depths");
	for (uint32_t i = 0; i < p->ndepths; i++)
		json_u64(j, NULL, p->depths[i]);
	json_arr_end(j);
	json_u64(j, "flood_msgs", p->flood_msgs);
	json_u64(j, "flood_bytes", p->flood_bytes);
	json_u64(j, "flood_runs", p->flood_runs);
	json_str(j, "flood_memory", p->flood_cold ? "cold" : "warm");
	json_u64(j, "overlap_msgs", p->overlap_msgs);
	json_u64(j, "overlap_runs", p->overlap_runs);
	json_u64(j, "overlap_sweeps", p->overlap_sweeps);
	json_bool(j, "verify", p->verify);
	json_u64(j, "stamp_every", p->stamp_every);
	json_u64(j, "timeout_ms", p->timeout_ms);
	json_obj_end(j);
}

static void parameters(struct json *j, const struct session *s, const struct results *r)
{
	json_obj(j, "parameters");
	if (r->pp.done) {
		param_stat(j, s, "eel", &r->pp.eel, "Bell et al. 2003 4.1: ping-pong of 8-byte puts, RTT/2, min over runs");
		if (r->pp.eel_stamped.n) {
			param_stat(j, s, "eel_stamped", &r->pp.eel_stamped, "as eel, with stage stamps on");
			stat_obj(j, "stamp_cost", &r->pp.stamp_cost);
		}
	}
	if (r->ov.done) {
		overlap_obj(j, s, "o_s", &r->ov.send, &r->ov.os_sweeps,
			    "Bell et al. 2003 4.3: flood q=1 with computation; o_s = g - D_max (the median sweep's)");
		overlap_obj(j, s, "o_r", &r->ov.recv, &r->ov.or_sweeps,
			    "Bell et al. 2003 4.3: receiver computes n x D in isolation, then one quiet; o_r = g - D_max (the median sweep's)");
	}
	if (r->fl.done) {
		json_obj(j, "g");
		json_num(j, "ns", r->fl.g_ns);
		json_u64(j, "cycles", (uint64_t)(r->fl.g_ns * s->clk->hz / 1e9 + 0.5));
		json_u64(j, "size", s->plan.sizes[0]);
		json_u64(j, "q", r->fl.g_q);
		json_str(j, "method", "Bell et al. 2003 4.2: flood, min over runs, best queue depth");
		json_obj_end(j);
		json_obj(j, "G");
		json_num(j, "ns_per_byte", r->fl.G_ns_per_byte);
		json_u64(j, "q", r->fl.G_q);
		json_u64(j, "from_size", r->fl.G_min_size);
		json_str(j, "memory", s->plan.flood_cold ? "cold" : "warm");
		json_str(j, "method", "Bell et al. 2003 4.2: least-squares slope of the time per message over the "
			 "bandwidth-bound sizes (from_size up) at the depth that gave g");
		stat_obj(j, "runs", &r->fl.G_runs);
		json_obj_end(j);
		json_num(j, "bandwidth_bytes_per_ns", r->fl.bw_bytes_per_ns);
		stat_obj(j, "bandwidth_runs", &r->fl.bw_runs);
		json_num(j, "M_bytes", r->fl.M_bytes);
		stat_obj(j, "M_runs", &r->fl.M_runs);
	}
	if (r->pp.done && r->ov.done) {
		struct derived d = overlap_potential(s, r);

		derived_obj(j, s, "overlap_potential", &d, "Bell et al. 2003 5.2: EEL - (o_s + o_r), each its median "
			    "(EEL over the ping-pong runs, o_s and o_r over the overlap sweeps); uncertainty: half of each "
			    "one's interquartile range, added; none (bound 0) when below 0 beyond it");
	}
	if (r->sig.done)
		derived_obj(j, s, "L", &r->sig.L, "Culler et al. 1996: RTT/2 - o_s - o_r from the signature; uncertainty: "
			    "half the RTT's 95% interval, half L's range over the D curves, their steady points' widest interval");
	json_obj_end(j);
}

/* One machine per run (main.c): the short ping-pong at the run's start and end */
static void drift(struct json *j, const struct results *r)
{
	static const struct { uint32_t bit; const char *name; } t[] = {
		{ T_PINGPONG, "pingpong" }, { T_FLOOD, "flood" }, { T_OVERLAP, "overlap" }, { T_SIGNATURE, "signature" },
		{ T_BULK, "bulk" }, { T_DECOMPOSE, "decompose" }, { T_LIMIT, "limit" },
	};

	if (!r->drift.done)
		return;
	json_obj(j, "machine_drift");
	stat_obj(j, "start_ns", &r->drift.start);
	stat_obj(j, "end_ns", &r->drift.end);
	json_bool(j, "changed", r->drift.changed);
	json_u64(j, "runs", DRIFT_RUNS);
	json_u64(j, "iters", r->drift.iters);
	json_arr(j, "tests_between");
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (r->drift.tests & t[i].bit)
			json_str(j, NULL, t[i].name);
	json_arr_end(j);
	json_str(j, "method", "a ping-pong of 8-byte puts at the run's start and at its end, each run its median round "
		 "trip / 2; changed: the medians apart by more than both interquartile ranges and by more than 10%");
	json_obj_end(j);
}

/* A duration's statistics: each figure at least 0 (a stamp's cost taken off
 * one sample can leave it below, which no duration is). */
static void duration_obj(struct json *j, const char *key, const struct stat *st)
{
	struct stat c = *st;

	c.min = fmax(c.min, 0);
	c.p25 = fmax(c.p25, 0);
	c.median = fmax(c.median, 0);
	c.p75 = fmax(c.p75, 0);
	c.max = fmax(c.max, 0);
	c.mean = fmax(c.mean, 0);
	stat_obj(j, key, &c);
}

static void resolved(struct json *j, int ok, double unc, double bound)
{
	json_bool(j, "resolved", ok);
	json_num(j, "unc_ns", unc);
	if (!ok)
		json_num(j, "bound_ns", bound);
}

static void breakdown(struct json *j, const struct session *s, const struct results *r)
{
	const struct breakdown *bd = &r->bd;

	if (!bd->done)
		return;
	json_obj(j, "breakdown");
	json_u64(j, "samples", (uint64_t)bd->samples);
	json_str(j, "clock", s->caps->clock);
	json_str(j, "stamping", bd->chosen ? "chosen" : "every");
	json_arr(j, "parts");
	for (int k = 0; k < STAGE_PARTS; k++) {
		if (bd->absorbed[k] || !bd->have[k])
			continue;
		json_obj(j, NULL);
		json_str(j, "name", bd->name[k]);
		json_str(j, "what", bd->what[k]);
		json_str(j, "method", bd->across_derived && part_between_ends(bd, k) ? "EEL less the other parts" :
			 "stamped");
		if (bd->span_extra[k]) {
			json_arr(j, "merged");
			for (int i = k; i <= k + bd->span_extra[k]; i++)
				json_str(j, NULL, stage_part_name[i]);
			json_arr_end(j);
		}
		duration_obj(j, "ns", &bd->part[k]);
		/* less its lowest and highest tenth: a figure a rare interruption
		 * does not move (the mean is the one that adds up) */
		json_num(j, "trimmed_ns", fmax(bd->part_trim[k], 0));
		resolved(j, bd->part_resolved[k], bd->part_unc[k], bd->part_bound[k]);
		json_obj_end(j);
	}
	json_arr_end(j);
	if (bd->have[STAGE_PARTS]) {
		duration_obj(j, "total_ns", &bd->total);
		json_num(j, "total_unc_ns", bd->total_unc);
	}
	if (bd->have_rounds) {
		json_u64(j, "rounds", (uint64_t)bd->nrtt);
		if (bd->turn_st.n) {
			duration_obj(j, "turn_ns", &bd->turn_st);
			json_obj(j, "turn");
			resolved(j, bd->turn_resolved, bd->turn_unc, bd->turn_bound);
			json_obj_end(j);
		}
		stat_obj(j, "round_ns", &bd->round);
	}
	/* what each stamp costs the path in place, and how that was found */
	json_obj(j, "stamp_cost_ns");
	for (int st = 0; st < EEL_ST_COMPLETE; st++)
		if (bd->mask & (1u << st))
			json_num(j, stamp_key[st], bd->cost_ns[st]);
	json_obj_end(j);
	json_arr(j, "stamp_cost_measured");
	for (int st = 0; st < EEL_ST_COMPLETE; st++)
		if (bd->in_place[st])
			json_str(j, NULL, stamp_key[st]);
	json_arr_end(j);
	json_num(j, "stamp_alone_ns", bd->stamp_alone_ns);
	json_num(j, "resolution_ns", bd->q_ns);
	json_u64(j, "preempted", (uint64_t)bd->interrupted);
	json_num(j, "eel_ns", bd->eel_ref_ns);
	json_num(j, "parts_sum_ns", bd->parts_sum_ns);
	json_num(j, "residual_ns", bd->residual_ns);
	json_num(j, "residual_unc_ns", bd->residual_unc_ns);
	json_num(j, "perturbation_ns", bd->perturbation_ns);
	json_num(j, "oneway_gap_ns", bd->oneway_gap_ns);
	json_obj_end(j);
}

static void arr(struct json *j, const char *key, const double *v, int n)
{
	json_arr(j, key);
	for (int i = 0; i < n; i++)
		json_num(j, NULL, v[i]);
	json_arr_end(j);
}

static void signature(struct json *j, const struct session *s, const struct results *r)
{
	const struct signature_res *g = &r->sig;

	if (!g->done)
		return;
	json_obj(j, "signature");
	json_u64(j, "size", g->size);
	json_str(j, "method", "Culler et al. 1996: message cost vs burst length M for several delays D");
	json_num(j, "rtt_ns", g->rtt_ns);
	json_num(j, "o_s_ns", g->o_s_ns);
	json_num(j, "g_ns", g->g_ns);
	json_num(j, "o_r_ns", g->o_r_ns);
	json_num(j, "L_ns", g->L.resolved ? g->L.ns : NAN);   /* parameters.L says why not */
	json_obj(j, "accuracy");
	json_num(j, "target", 0.05);
	json_num(j, "confidence", 0.95);
	json_u64(j, "batch", 50);
	json_u64(j, "points", (uint64_t)g->points);
	json_u64(j, "unconverged", (uint64_t)g->unconverged);
	json_obj_end(j);
	json_arr(j, "curves");
	for (int k = 0; k < g->ncurves; k++) {
		const struct sig_curve *c = &g->curve[k];
		double m[SIG_MAX_M], cost[SIG_MAX_M], ci[SIG_MAX_M], n[SIG_MAX_M];

		for (int i = 0; i < c->n; i++) {
			m[i] = c->pt[i].m;
			cost[i] = c->pt[i].cost_ns;
			ci[i] = c->pt[i].ci_ns;
			n[i] = c->pt[i].samples;
		}
		json_obj(j, NULL);
		json_num(j, "d_ns", c->d_ns);
		json_num(j, "d_asked_ns", c->d_asked_ns);
		json_num(j, "g_ns", c->g_ns);
		json_u64(j, "send_only_max_m", c->send_only_max_m);
		json_u64(j, "steady_min_m", c->steady_min_m);
		arr(j, "m", m, c->n);
		arr(j, "cost_ns", cost, c->n);
		arr(j, "ci_ns", ci, c->n);
		arr(j, "samples", n, c->n);
		json_arr(j, "converged");
		for (int i = 0; i < c->n; i++)
			json_bool(j, NULL, c->pt[i].converged);
		json_arr_end(j);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
	(void)s;
}

static void part(struct json *j, const struct dec_part *p)
{
	json_obj(j, NULL);
	json_str(j, "name", p->name);
	json_str(j, "what", p->what);
	json_num(j, "ns", fmax(p->ns, 0)); /* a duration: never below 0 (unresolved: a bound) */
	json_bool(j, "resolved", !p->unresolved);
	if (p->unresolved)
		json_num(j, "bound_ns", p->bound_ns);
	json_str(j, "method", p->method);
	json_str(j, "how", p->how);
	if (p->merged[0]) {
		char m[96], *save = NULL;

		snprintf(m, sizeof(m), "%s", p->merged);
		json_arr(j, "merged");
		for (char *t = strtok_r(m, ",", &save); t; t = strtok_r(NULL, ",", &save))
			json_str(j, NULL, t);
		json_arr_end(j);
	}
	if (p->has_check) {
		json_num(j, "stamped_ns", fmax(p->stamped_ns, 0));
		json_num(j, "noise_ns", p->noise_ns);
		json_bool(j, "agrees", p->agrees);
		json_bool(j, "isolated", p->isolated);
		if (!p->isolated)
			json_str(j, "not_isolated", p->why_not);
		if (p->within[0])
			json_str(j, "within", p->within);
	}
	json_obj_end(j);
}

static void decompose(struct json *j, const struct results *r)
{
	const struct decompose_res *d = &r->dec;

	if (!d->done)
		return;
	json_obj(j, "decompose");
	json_num(j, "eel_ns", d->eel_ns);
	json_num(j, "residual_ns", d->residual_ns);
	json_arr(j, "parts");
	for (int i = 0; i < d->nparts; i++)
		part(j, &d->part[i]);
	json_arr_end(j);
	json_arr(j, "checks");
	for (int i = 0; i < d->nchecks; i++)
		part(j, &d->check[i]);
	json_arr_end(j);
	json_obj(j, "variants");
	json_num(j, "eel_put_ns", d->eel_put);
	if (d->have_dma)
		json_num(j, "eel_put_dma_ns", d->eel_dma);
	if (d->have_ereg)
		json_num(j, "eel_eput_ns", d->eel_ereg);
	json_obj_end(j);
	json_obj_end(j);
}

/* a fit's error, and whether it is a model of the curve (at most FIT_MAX_ERR) */
static void fit_err(struct json *j, double err, int valid)
{
	json_num(j, "err", err);
	json_bool(j, "valid", valid);
}

static void bulk(struct json *j, const struct results *r)
{
	const struct bulk_res *b = &r->bulk;
	int lg = b->loggp_separable;

	if (!b->done)
		return;
	json_obj(j, "bulk");
	json_arr(j, "points");
	for (int i = 0; i < b->npt; i++) {
		json_obj(j, NULL);
		json_u64(j, "size", b->pt[i].size);
		stat_obj(j, "t_ns", &b->pt[i].t);
		json_num(j, "bw_bytes_per_ns", b->pt[i].size / b->pt[i].t.min);
		stat_obj(j, "echo_ns", &b->pt[i].echo);
		json_num(j, "o_s_ns", b->pt[i].o_s_ns);
		json_bool(j, "send_only", isfinite(b->pt[i].o_s_ns));
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj(j, "fits");
	json_obj(j, "t0r");
	json_num(j, "t0_ns", b->t0r.a);
	json_num(j, "r_bytes_per_ns", b->t0r.b > 0 ? 1 / b->t0r.b : 0);
	fit_err(j, b->err_t0r, b->valid_t0r);
	json_str(j, "on", "t_ns");
	json_str(j, "method", "Culler et al. 1996: least-squares line T(n) = T0 + n/R");
	json_obj_end(j);
	json_obj(j, "hockney");
	json_num(j, "alpha_ns", b->hockney.a);
	json_num(j, "beta_ns_per_byte", b->hockney.b);
	json_num(j, "n_half_bytes", b->n_half);
	json_num(j, "bw_bytes_per_ns", b->hockney.b > 0 ? 1 / b->hockney.b : 0);
	fit_err(j, b->err_hockney, b->valid_hockney);
	json_str(j, "on", "echo_ns");
	json_str(j, "method", "Dongarra & Dunigan 1997 2.2: t = alpha + beta n, least squares; n_1/2 = alpha/beta");
	json_obj_end(j);
	json_obj(j, "hockney003");
	json_num(j, "t0_ns", b->m003_t0);
	json_num(j, "tb_ns_per_byte", b->m003_tb);
	fit_err(j, b->err_h003, b->valid_h003);
	json_num(j, "n_star_bytes", b->nstar_fit);
	json_str(j, "on", "echo_ns");
	json_str(j, "method", "Taboada et al. 2003 2: Hockney's T = t0 + n tb, t0 measured at the smallest size, tb the slope");
	json_obj_end(j);
	json_obj(j, "echo_test");
	json_num(j, "latency_ns", b->lat0_ns);
	json_num(j, "bw_1e6_bytes_per_ns", b->bw_1e6);
	json_str(j, "method", "Dongarra & Dunigan 1997: echo at the smallest size; 10^6 B / (RTT/2)");
	json_obj_end(j);
	json_obj(j, "model003");
	json_num(j, "t0_ns", b->m003_t0);
	json_num(j, "ti_ns", b->m003_ti);
	json_num(j, "tb_ns_per_byte", b->m003_tb);
	json_num(j, "bw_bytes_per_ns", b->m003_tb > 0 ? 1 / b->m003_tb : 0);
	json_num(j, "specific_perf_per_ns", b->m003_t0 > 0 ? 1 / b->m003_t0 : 0);
	fit_err(j, b->err_003, b->valid_003);
	json_str(j, "on", "echo_ns");
	json_str(j, "method", "Taboada et al. 2003 3: T = t0 + ti (n tb)/(t0 + n tb) + n tb; t0 at the smallest size (8 B)");
	json_obj_end(j);
	if (b->have_loggp) {
		/* not separable on this NIC (derived.c): no o_s + L + o_r, no error */
		json_obj(j, "loggp");
		json_num(j, "o_s_ns", lg ? b->loggp_os : NAN);
		json_num(j, "L_ns", lg && r->sig.L.resolved ? b->loggp_L : NAN);
		json_num(j, "o_r_ns", lg ? b->loggp_or : NAN);
		json_num(j, "G_ns_per_byte", b->loggp_G);
		fit_err(j, b->err_loggp, b->valid_loggp);
		json_bool(j, "separable", lg);
		if (!lg)
			json_str(j, "why", r->sig.L.why);
		json_str(j, "method", "o_s + L + o_r + G n (signature and flood)");
		json_obj_end(j);
	}
	json_num(j, "validation_n_star_bytes", b->nstar_pilot);
	json_arr(j, "validation");
	for (int i = 0; i < b->nv; i++) {
		double n = b->v_size[i];

		json_obj(j, NULL);
		json_u64(j, "size", b->v_size[i]);
		json_num(j, "measured_ns", b->v_meas[i]);
		json_num(j, "measured_t_ns", b->v_tmeas[i]);
		json_num(j, "t0r_ns", b->t0r.a + b->t0r.b * n);
		json_num(j, "hockney_ns", b->hockney.a + b->hockney.b * n);
		json_num(j, "hockney003_ns", b->m003_t0 + b->m003_tb * n);
		json_num(j, "model003_ns", model003(b->m003_t0, b->m003_ti, b->m003_tb, n));
		if (lg)
			json_num(j, "loggp_ns", b->loggp_os + b->loggp_L + b->loggp_or + b->loggp_G * n);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
	json_obj_end(j);
}

static void curves(struct json *j, const struct results *r)
{
	json_obj(j, "curves");
	if (r->pp.done) {
		json_obj(j, "pingpong");
		json_arr(j, "eel_ns");
		for (int i = 0; i < r->pp.nruns; i++)
			json_num(j, NULL, r->pp.eel_ns[i]);
		json_arr_end(j);
		json_arr(j, "eel_stamped_ns");
		for (int i = 0; i < r->pp.eel_stamped.n; i++)
			json_num(j, NULL, r->pp.eel_stamped_ns[i]);
		json_arr_end(j);
		json_obj_end(j);
	}
	if (r->fl.done) {
		json_arr(j, "flood");
		for (int i = 0; i < r->fl.npt; i++) {
			const struct flood_point *p = &r->fl.pt[i];

			json_obj(j, NULL);
			json_u64(j, "size", p->size);
			json_u64(j, "q", p->q);
			json_u64(j, "msgs", p->msgs);
			stat_obj(j, "ns_per_msg", &p->t);
			json_num(j, "bytes_per_ns", p->t.min > 0 ? p->size / p->t.min : 0);
			json_obj_end(j);
		}
		json_arr_end(j);
	}
	if (r->ov.done) {
		curve(j, "overlap_send", r->ov.send.d_ns, r->ov.send.t_ns, r->ov.send.n);
		curve(j, "overlap_recv", r->ov.recv.d_ns, r->ov.recv.t_ns, r->ov.recv.n);
	}
	if (r->lim.done) {
		json_obj(j, "limit");
		json_arr(j, "one_way_ns");
		for (int i = 0; i < r->lim.nruns; i++)
			json_num(j, NULL, r->lim.one_way_ns[i]);
		json_arr_end(j);
		json_obj_end(j);
	}
	json_obj_end(j);
}

/* Before anything is measured: can the document be written where it is to go?
 * (Found out after a long run, a bad path would lose the run.) */
int report_json_check(const char *path)
{
	struct out o;

	return out_open(path, &o, 1);
}

/* What every document begins with: its schema, eel's version, when, the command. */
void report_json_head(struct json *j, int argc, char **argv)
{
	time_t now = time(NULL);
	char when[32];

	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	json_str(j, "schema", "eel.run");
	json_u64(j, "schema_version", SCHEMA_VERSION);
	json_str(j, "eel_version", EEL_VERSION);
	json_str(j, "created", when);
	json_arr(j, "command");
	for (int i = 0; i < argc; i++)
		json_str(j, NULL, argv[i]);
	json_arr_end(j);
}

/* One run's fields, into the object open at j (the document, or one of its
 * buses). */
static void run_fields(struct json *j, const struct session *s, const struct results *r, const char *uri)
{
	char w[MAX_WARNINGS][240];
	int nw = report_warnings(s, r, w, MAX_WARNINGS);
	struct eel_bus bus;

	machine(j, s);
	nic(j, s, r, uri);
	if (!eel_bus_from_text(uri, &bus) && bus.kind != EEL_BUS_NONE)
		bus_json(j, &bus);
	options(j, s);
	parameters(j, s, r);
	breakdown(j, s, r);
	decompose(j, r);
	signature(j, s, r);
	bulk(j, r);
	drift(j, r);
	if (r->lim.done && r->lim.floor) {
		json_obj(j, "limit");
		json_str(j, "kind", "floor");
		json_str(j, "method", "eel_floor: bare echo of one minimum-size frame on the NIC's own carrier; "
			 "each run its median round trip / 2, EEL beside it alike");
		stat_obj(j, "one_way_ns", &r->lim.one_way);
		json_num(j, "eel_over_floor", r->lim.eel_over.median);
		stat_obj(j, "eel_over", &r->lim.eel_over);
		stat_obj(j, "eel_beside_ns", &r->lim.eel_beside);
		json_obj_end(j);
	} else if (r->lim.done) {
		json_obj(j, "limit");
		json_str(j, "kind", "cacheline");
		stat_obj(j, "one_way_ns", &r->lim.one_way);
		json_num(j, "eel_over_limit", r->lim.eel_over.median);
		stat_obj(j, "eel_over", &r->lim.eel_over);
		stat_obj(j, "eel_beside_ns", &r->lim.eel_beside);
		json_num(j, "counter_offset_lo_ns", r->lim.skew_lo_ns);
		json_num(j, "counter_offset_hi_ns", r->lim.skew_hi_ns);
		json_obj_end(j);
	}
	curves(j, r);
	json_obj(j, "counters");
	json_obj(j, "local");
	for (int i = 0; i < r->ncounters; i++)
		json_u64(j, r->counters[i].name, r->counters[i].value);
	json_obj_end(j);
	json_obj(j, "peer");
	for (int i = 0; i < r->ncounters; i++)
		json_u64(j, r->counters[i].name, r->peer_counter_values[i]);
	json_obj_end(j);
	json_obj_end(j);
	json_arr(j, "warnings");
	for (int i = 0; i < nw; i++)
		json_str(j, NULL, w[i]);
	json_arr_end(j);
	json_num(j, "wall_s", r->wall_s);
}

int report_json(const char *path, const struct session *s, const struct results *r, const char *uri,
		int argc, char **argv, const struct bus_run *buses, int nbus)
{
	struct json j;
	struct out o;
	FILE *f;

	if (out_open(path, &o, 0))
		return -1;
	f = o.f;
	json_begin(&j, f);
	report_json_head(&j, argc, argv);
	run_fields(&j, s, r, uri);
	/* --bus LIST: the document is the first bus's run, and every bus's run
	 * whole in `buses` (issue 11) */
	if (nbus) {
		json_arr(&j, "buses");
		for (int i = 0; i < nbus; i++) {
			json_obj(&j, NULL);
			run_fields(&j, &buses[i].s, &buses[i].r, buses[i].uri);
			json_obj_end(&j);
		}
		json_arr_end(&j);
	}
	return report_json_finish(path, &j, &o);
}

/* The document written whole and renamed into place, or nothing. */
int report_json_finish(const char *path, struct json *j, struct out *o)
{
	if (json_end(j)) {
		/* nothing was written: the document could not be built (out of memory) */
		fputs("eel-bench: the JSON document could not be built (out of memory)\n", stderr);
		out_abort(o);
		return -1;
	}
	return out_close(path, o);
}
