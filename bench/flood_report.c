/* SPDX-License-Identifier: MIT */
/* bench/flood_report.c — the flood (flood.c, Bell et al. 2003 4.2) in the table (g,
 * G, bandwidth, M, the PCIe payload bound beside 1/G; the curves under -v) and in
 * the JSON document (parameters g, G, bandwidth, M; curves flood: docs/json.md). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/report/json.h"
#include "bench/report/report.h"

/* A figure's median and spread run by run for the table, "-" where no run
 * gave one (G measured from the minimum timings, but no single run's slope) */
static void runs_cells(const struct stat *st, const char *fmt, char med[24], char spr[16])
{
	if (st->n) {
		snprintf(med, 24, fmt, st->median);
		snprintf(spr, 16, "%6.1f %%", 100 * st->spread);
	} else {
		snprintf(med, 24, "-");
		snprintf(spr, 16, "-");
	}
}

void flood_table_rows(FILE *f, const struct session *s, const struct results *r)
{
	const struct flood_point *g8 = NULL;
	char how[128];

	if (!r->fl.done)
		return;
	for (int i = 0; i < r->fl.npt; i++)
		if (r->fl.pt[i].size == s->plan.sizes[0] && r->fl.pt[i].q == r->fl.g_q)
			g8 = &r->fl.pt[i];
	snprintf(how, sizeof(how), "flood %u B, best of q=%u..%u: q=%u (4.2)", s->plan.sizes[0],
		 s->plan.depths[0], s->plan.depths[s->plan.ndepths - 1], r->fl.g_q);
	if (g8)
		row_stat(f, s, "g", &g8->t, how);
	if (flood_G_measured(&r->fl)) {
		/* the first column: from the minimum timings (Bell et al. 2003), as g's; then the
		 * median and spread of the same taken run by run */
		char med[3][24], spr[3][16];

		runs_cells(&r->fl.G_runs, "%8.4f ns/B", med[0], spr[0]);
		runs_cells(&r->fl.bw_runs, "%8.2f GB/s", med[1], spr[1]);
		runs_cells(&r->fl.M_runs, "%10.0f B ", med[2], spr[2]);
		fprintf(f, "  %-20s %8.4f ns/B %13s %8s  %8s   least squares, flood %u..%u B at %sq=%u, "
			"%s memory (4.2)\n", "G", r->fl.G_ns_per_byte, med[0], spr[0],
			"", r->fl.G_min_size, s->plan.sizes[s->plan.nsizes - 1],
			r->fl.G_q == r->fl.g_q ? "g's " : "the next best ", r->fl.G_q,
			s->plan.flood_cold ? "cold" : "warm");
		fprintf(f, "  %-20s %8.2f GB/s %13s %8s  %8s   1/G\n", "bandwidth",
			r->fl.bw_bytes_per_ns, med[1], spr[1], "");
		fprintf(f, "  %-20s %10.0f B  %13s %8s  %8s   g/G: larger messages are bandwidth-bound (5.5)\n",
			"M = g/G", r->fl.M_bytes, med[2], spr[2], "");
		if (r->pci.payload_bytes_per_ns > 0)
			fprintf(f, "  %-20s %8.2f GB/s %13s %8s  %8s   modelled from the PCI facts: at most, over "
				"the link (MPS %u B, 24 B a TLP); 1/G is %.0f%% of it\n", "PCIe payload",
				r->pci.payload_bytes_per_ns, "", "", "", r->pci.f.max_payload,
				100 * r->fl.bw_bytes_per_ns / r->pci.payload_bytes_per_ns);
	}
}

/* -v: ns per message (min of runs) by size and queue depth */
void flood_table_curves(FILE *f, const struct results *r)
{
	if (!r->fl.done)
		return;
	fprintf(f, "\n  flood: ns per message (min of runs) by size and queue depth\n  %10s", "size \\ q");
	for (int i = 0; i < r->fl.npt && r->fl.pt[i].size == r->fl.pt[0].size; i++)
		fprintf(f, " %9u", r->fl.pt[i].q);
	for (int i = 0; i < r->fl.npt; i++) {
		if (i == 0 || r->fl.pt[i].size != r->fl.pt[i - 1].size)
			fprintf(f, "\n  %10u", r->fl.pt[i].size);
		fprintf(f, " %9.1f", r->fl.pt[i].t.min);
	}
	fputc('\n', f);
}

/* A figure taken run by run (G, its bandwidth, M), null where no run gave
 * one (G not measured: flood_runs_derive leaves it empty), not a stat of 0s. */
static void runs_obj(struct json *j, const char *key, const struct stat *st)
{
	if (st->n)
		stat_obj(j, key, st);
	else
		json_none(j, key);
}

void flood_json_parameters(struct json *j, const struct session *s, const struct results *r)
{
	int measured = flood_G_measured(&r->fl); /* else G, its bandwidth and M are null */

	if (!r->fl.done)
		return;
	json_obj(j, "g");
	json_num(j, "ns", r->fl.g_ns);
	json_u64(j, "cycles", (uint64_t)(r->fl.g_ns * s->clk->hz / 1e9 + 0.5));
	json_u64(j, "size", s->plan.sizes[0]);
	json_u64(j, "q", r->fl.g_q);
	json_str(j, "method", "Bell et al. 2003 4.2: flood, min over runs, best queue depth");
	json_obj_end(j);
	json_obj(j, "G");
	if (measured) {
		json_num(j, "ns_per_byte", r->fl.G_ns_per_byte);
		json_u64(j, "q", r->fl.G_q);
		json_u64(j, "from_size", r->fl.G_min_size);
	} else {
		/* not measured: null and why (as the table's warning), not 0 ns/B,
		 * which would read as a bandwidth without bound */
		json_none(j, "ns_per_byte");
		json_str(j, "why", FLOOD_G_UNMEASURED);
		json_u64(j, "q", r->fl.G_q);
		json_none(j, "from_size");
	}
	json_str(j, "memory", s->plan.flood_cold ? "cold" : "warm");
	json_str(j, "method", "Bell et al. 2003 4.2: least-squares slope of the time per message over the "
		 "bandwidth-bound sizes (from_size up) at the depth that gave g");
	runs_obj(j, "runs", &r->fl.G_runs);
	json_obj_end(j);
	json_num(j, "bandwidth_bytes_per_ns", measured ? r->fl.bw_bytes_per_ns : NAN);
	runs_obj(j, "bandwidth_runs", &r->fl.bw_runs);
	json_num(j, "M_bytes", measured ? r->fl.M_bytes : NAN);
	runs_obj(j, "M_runs", &r->fl.M_runs);
}

/* curves: every point, size by queue depth */
void flood_json_curves(struct json *j, const struct results *r)
{
	if (!r->fl.done)
		return;
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
