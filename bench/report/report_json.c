/* SPDX-License-Identifier: MIT */
/* bench/report/report_json.c — the run as one JSON document (schema "eel.run",
 * described in docs/json.md). Written to a new temporary file and renamed,
 * so a failed run never leaves half a file.
 *
 * The frame: the machine, the NIC, the options, the parameters, each
 * method's section in order, the machine's drift, the curves, the counters,
 * the warnings. Each method writes its own keys (bench/<method>_report.c);
 * the order of the sections is here. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "bench/bench.h"
#include "bench/bus_runs.h"
#include "bench/report/json.h"
#include "bench/report/outfile.h"
#include "bench/report/report.h"


static void machine(struct json *j, const struct session *s, const struct results *r)
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
	placement_json(j, &r->place);
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

/* Bell et al. 2003's parameters and Culler et al. 1996's L, each method's own. */
static void parameters(struct json *j, const struct session *s, const struct results *r)
{
	json_obj(j, "parameters");
	pingpong_json_parameters(j, s, r);
	overlap_json_parameters(j, s, r);
	flood_json_parameters(j, s, r);
	bus_bw_json(j, r);
	overlap_json_potential(j, s, r);
	signature_json_parameters(j, s, r);
	json_obj_end(j);
}

/* One machine per run (main.c): the short ping-pong at the run's start and end */
static void drift(struct json *j, const struct results *r)
{
	static const struct { uint32_t bit; const char *name; } t[] = {
		{ T_PINGPONG, "pingpong" }, { T_FLOOD, "flood" }, { T_OVERLAP, "overlap" }, { T_SIGNATURE, "signature" },
		{ T_BULK, "bulk" }, { T_DECOMPOSE, "decompose" }, { T_LIMIT, "limit" }, { T_SWEEP, "sweep" },
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

/* Every run's figures, each method's own. */
static void curves(struct json *j, const struct results *r)
{
	json_obj(j, "curves");
	pingpong_json_curves(j, r);
	flood_json_curves(j, r);
	overlap_json_curves(j, r);
	limit_json_curves(j, r);
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
	struct warning w[MAX_WARNINGS];
	int nw = report_warnings(s, r, w, MAX_WARNINGS);
	struct eel_bus bus;

	machine(j, s, r);
	nic(j, s, r, uri);
	provenance_json(j, &r->nic_info);
	if (!eel_bus_from_text(uri, &bus) && bus.kind != EEL_BUS_NONE)
		bus_json(j, &bus);
	options(j, s);
	parameters(j, s, r);
	breakdown_json(j, s, r);
	decompose_json(j, r);
	signature_json(j, s, r);
	bulk_json(j, r);
	drift(j, r);
	limit_json(j, r);
	sweep_json(j, r);
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
		json_str(j, NULL, w[i].text);
	json_arr_end(j);
	/* the same warnings, each with its kind and the figures it concerns */
	json_arr(j, "warning_figures");
	for (int i = 0; i < nw; i++) {
		json_obj(j, NULL);
		json_str(j, "text", w[i].text);
		json_str(j, "kind", warn_kind_name[w[i].kind]);
		json_arr(j, "figures");
		for (int k = 0; k < FIGURES; k++)
			if (w[i].figures & (1u << k))
				json_str(j, NULL, figure_name[k]);
		json_arr_end(j);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_num(j, "wall_s", r->wall_s);
	budget_json(j, &r->timing);
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
	 * whole in `buses` (docs/json.md, `buses[]`) */
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
