/* bench/report_json.c — the run as one JSON document (schema "eel.run",
 * described in README.md "JSON schema"). Written to FILE.tmp and renamed,
 * so a failed run never leaves half a file. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "json.h"

#define SCHEMA_VERSION 1

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

static void overlap_obj(struct json *j, const struct session *s, const char *key, const struct overlap_curve *c,
			const char *method)
{
	json_obj(j, key);
	json_num(j, "ns", c->o_ns);
	json_u64(j, "cycles", (uint64_t)(c->o_ns * s->clk->hz / 1e9 + 0.5));
	json_num(j, "g_ns", c->g_ns);
	json_num(j, "dmax_ns", c->dmax_ns);
	json_bool(j, "rose_at_first", c->rose_at_first);
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
	json_u64(j, "resolution_cycles", c->resolution_cycles);
	json_num(j, "resolution_ns", c->resolution_cycles * c->ns_per_cycle);
	json_num(j, "stamp_ns", c->stamp_cycles * c->ns_per_cycle);
	json_str(j, "kernel_clocksource", c->kernel_clocksource);
	json_obj_end(j);
	json_obj_end(j);
}

static void nic(struct json *j, const struct session *s, const char *uri)
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
	json_u64(j, "overlap_msgs", p->overlap_msgs);
	json_u64(j, "overlap_runs", p->overlap_runs);
	json_bool(j, "verify", p->verify);
	json_u64(j, "stamp_every", p->stamp_every);
	json_u64(j, "timeout_ms", p->timeout_ms);
	json_obj_end(j);
}

static void parameters(struct json *j, const struct session *s, const struct results *r)
{
	json_obj(j, "parameters");
	if (r->pp.done) {
		param_stat(j, s, "eel", &r->pp.eel, "seed 000 4.1: ping-pong of 8-byte puts, RTT/2, min over runs");
		if (r->pp.eel_stamped.n)
			param_stat(j, s, "eel_stamped", &r->pp.eel_stamped, "as eel, with stage stamps on");
	}
	if (r->ov.done) {
		overlap_obj(j, s, "o_s", &r->ov.send, "seed 000 4.3: flood q=1 with computation; o_s = g - D_max");
		overlap_obj(j, s, "o_r", &r->ov.recv, "seed 000 4.3: receiver computes before each detection");
	}
	if (r->fl.done) {
		json_obj(j, "g");
		json_num(j, "ns", r->fl.g_ns);
		json_u64(j, "cycles", (uint64_t)(r->fl.g_ns * s->clk->hz / 1e9 + 0.5));
		json_u64(j, "size", s->plan.sizes[0]);
		json_u64(j, "q", r->fl.g_q);
		json_str(j, "method", "seed 000 4.2: flood, min over runs, best queue depth");
		json_obj_end(j);
		json_obj(j, "G");
		json_num(j, "ns_per_byte", r->fl.G_ns_per_byte);
		json_u64(j, "q", r->fl.G_q);
		json_str(j, "method", "seed 000 4.2: (t(largest) - t(smallest)) / (largest - smallest)");
		json_obj_end(j);
		json_num(j, "bandwidth_bytes_per_ns", r->fl.bw_bytes_per_ns);
		json_num(j, "M_bytes", r->fl.M_bytes);
	}
	if (r->pp.done && r->ov.done)
		json_num(j, "overlap_potential_ns", r->pp.eel.min - r->ov.send.o_ns - r->ov.recv.o_ns);
	json_obj_end(j);
}

static void breakdown(struct json *j, const struct session *s, const struct results *r)
{
	if (!r->bd.done)
		return;
	json_obj(j, "breakdown");
	json_u64(j, "samples", (uint64_t)r->bd.samples);
	json_str(j, "clock", s->caps->clock);
	json_arr(j, "parts");
	for (int k = 0; k < STAGE_PARTS; k++) {
		json_obj(j, NULL);
		json_str(j, "name", stage_part_name[k]);
		json_str(j, "what", stage_part_what[k]);
		json_str(j, "method", "stamped");
		stat_obj(j, "ns", &r->bd.part[k]);
		json_obj_end(j);
	}
	json_arr_end(j);
	stat_obj(j, "total_ns", &r->bd.total);
	json_num(j, "residual_ns", r->bd.residual_ns);
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

int report_json(const char *path, const struct session *s, const struct results *r, const char *uri,
		int argc, char **argv)
{
	char tmp[4096], when[32], w[MAX_WARNINGS][240];
	int nw = report_warnings(s, r, w, MAX_WARNINGS);
	time_t now = time(NULL);
	struct json j;
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f) {
		fprintf(stderr, "eel-bench: cannot write %s: %s: give --json a path in a writable folder\n", path,
			strerror(errno));
		return -1;
	}
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	json_begin(&j, f);
	json_str(&j, "schema", "eel.run");
	json_u64(&j, "schema_version", SCHEMA_VERSION);
	json_str(&j, "eel_version", EEL_VERSION);
	json_str(&j, "created", when);
	json_arr(&j, "command");
	for (int i = 0; i < argc; i++)
		json_str(&j, NULL, argv[i]);
	json_arr_end(&j);
	machine(&j, s);
	nic(&j, s, uri);
	options(&j, s);
	parameters(&j, s, r);
	breakdown(&j, s, r);
	if (r->lim.done) {
		json_obj(&j, "limit");
		stat_obj(&j, "one_way_ns", &r->lim.one_way);
		if (r->pp.done)
			json_num(&j, "eel_over_limit", r->pp.eel.min / r->lim.one_way.min);
		json_num(&j, "counter_offset_lo_ns", r->lim.skew_lo_ns);
		json_num(&j, "counter_offset_hi_ns", r->lim.skew_hi_ns);
		json_obj_end(&j);
	}
	curves(&j, r);
	json_obj(&j, "counters");
	json_obj(&j, "local");
	for (int i = 0; i < r->ncounters; i++)
		json_u64(&j, r->counters[i].name, r->counters[i].value);
	json_obj_end(&j);
	json_obj(&j, "peer");
	for (int i = 0; i < r->ncounters; i++)
		json_u64(&j, r->counters[i].name, r->peer_counter_values[i]);
	json_obj_end(&j);
	json_obj_end(&j);
	json_arr(&j, "warnings");
	for (int i = 0; i < nw; i++)
		json_str(&j, NULL, w[i]);
	json_arr_end(&j);
	json_num(&j, "wall_s", r->wall_s);
	json_end(&j);
	if (fflush(f) || ferror(f) || fclose(f) || rename(tmp, path)) {
		fprintf(stderr, "eel-bench: writing %s failed: %s\n", path, strerror(errno));
		remove(tmp);
		return -1;
	}
	return 0;
}
