/* SPDX-License-Identifier: MIT */
/* tools/report/plot_map.c — Dongarra & Dunigan 1997 Fig. 5: the latency/bandwidth space,
 * log-log, small-message latency across and large-message bandwidth up: the
 * upper left is fast. The papers' machines come from data/historical.csv:
 * Dongarra & Dunigan 1997 Table 1 (latency at n = 0, bandwidth at n = 10^6) and Taboada et al. 2003
 * Tables 1-2 (t0 and 1/tb of MPI and Java point-to-point sends). This NIC is
 * placed by its EEL (8 bytes) and its bandwidth: n / echo at the largest bulk
 * size when the run has one (Dongarra & Dunigan 1997's measure), else 1/G from the flood. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "plots.h"

struct pt {
	double lat, bw;
	char label[64];
	int cls;   /* 0: Dongarra & Dunigan 1997 multiprocessor, 1: Dongarra & Dunigan 1997 LAN, 2: Taboada et al. 2003 cluster */
};

#define MAX_PTS 128

static void label_of(const struct hist_row *r, int dup, char *buf, size_t len)
{
	char sw[24], *lan;

	snprintf(sw, sizeof(sw), "%.23s", r->software);
	if (!strncmp(r->source, "Taboada et al. 2003", 19)) {
		if (strstr(sw, " Send"))
			*strstr(sw, " Send") = 0;
		snprintf(buf, len, "%s %.23s", strncmp(r->machine, "Myrinet", 7) ? "SCI" : "Myrinet", sw);
		return;
	}
	sw[strcspn(sw, ", ")] = 0;
	if (dup || !strcmp(sw, "PVM") || !strcmp(sw, "MPI") || !strcmp(sw, "MPL"))
		snprintf(buf, len, "%.36s %.23s", r->machine, sw);
	else
		snprintf(buf, len, "%.60s", r->machine);
	lan = strstr(buf, " (LAN)");
	if (lan)
		memmove(lan, lan + 6, strlen(lan + 6) + 1);
}

static int history(const struct hist *h, struct pt *p)
{
	int n = 0;

	for (int i = 0; i < h->n && n < MAX_PTS; i++) {
		const struct hist_row *r = &h->row[i];
		int s004 = !strncmp(r->source, "Dongarra & Dunigan 1997", 23) && !strcmp(r->measurement, "latency");
		int s003 = !strncmp(r->source, "Taboada et al. 2003", 19) && !strcmp(r->measurement, "t0");
		double bw;
		int dup = 0;

		if (!s004 && !s003)
			continue;
		bw = hist_value(h, r->machine, r->software, s004 ? "bandwidth" : "bandwidth_asymptotic");
		if (!isfinite(bw) || bw <= 0 || r->value <= 0)
			continue;
		for (int k = 0; k < h->n; k++)
			dup |= k != i && !strcmp(h->row[k].machine, r->machine) && !strcmp(h->row[k].measurement, "latency") &&
			       strcmp(h->row[k].software, r->software);
		p[n].lat = r->value;
		p[n].bw = bw;
		p[n].cls = s003 ? 2 : strstr(r->machine, "(LAN)") ? 1 : 0;
		label_of(r, dup, p[n].label, sizeof(p[n].label));
		n++;
	}
	return n;
}

int plot_map(const struct plot *self, const struct report *r, struct sbuf *gp, struct sbuf *caption)
{
	static const char *const cls_title[] = {
		"Dongarra & Dunigan 1997 Table 1: multiprocessors (latency n = 0, bandwidth n = 10^6)",
		"Dongarra & Dunigan 1997 Table 1: LANs (TCP/IP)",
		"Taboada et al. 2003 Tables 1-2: clusters (t0, 1/tb)",
	};
	static const char *const cls_color[] = { "#1f77b4", "#7f7f7f", "#2ca02c" };
	const struct jr_val *root = r->run->root, *pts = jr_get(root, "bulk.points");
	struct pt p[MAX_PTS];
	double lat = num_at(root, "parameters.eel.ns.min"), bw = NAN, bw_n = 0, lo_l = INFINITY, hi_l = 0, lo_b = INFINITY,
	       hi_b = 0;
	const char *how_bw = "";
	int n = history(r->hist, p);

	if (!isfinite(lat))
		lat = num_at(root, "decompose.eel_ns");
	for (size_t i = 0; i < jr_len(pts, ""); i++) {
		double size = num_at(jr_at(pts, i), "size"), e = num_at(jr_at(pts, i), "echo_ns.min");

		if (isfinite(size) && isfinite(e) && e > 0 && size > bw_n) {
			bw_n = size;
			bw = size / e;
			how_bw = "n / echo at the largest bulk size";
		}
	}
	if (!isfinite(bw)) {
		bw = num_at(root, "parameters.bandwidth_bytes_per_ns");
		how_bw = "1/G from the flood";
	}
	if (!isfinite(lat) || !isfinite(bw) || lat <= 0 || bw <= 0) {
		sb_printf(caption, "not measured: placing this NIC needs its EEL (eel-bench -t pingpong) and a bandwidth "
				   "(-t bulk or -t flood)");
		return 0;
	}
	gp_title(gp, r, self);
	for (int c = 0; c < 3; c++) {
		sb_printf(gp, "$h%d << EOD\n", c);
		for (int i = 0; i < n; i++) {
			if (p[i].cls != c)
				continue;
			sb_printf(gp, "%g %g \"", p[i].lat, p[i].bw);
			sb_gpstr(gp, p[i].label);
			sb_printf(gp, "\"\n");
			lo_l = fmin(lo_l, p[i].lat);
			hi_l = fmax(hi_l, p[i].lat);
			lo_b = fmin(lo_b, p[i].bw);
			hi_b = fmax(hi_b, p[i].bw);
		}
		sb_printf(gp, "EOD\n");
	}
	lo_l = fmin(lo_l, lat);
	hi_l = fmax(hi_l, lat);
	lo_b = fmin(lo_b, bw);
	hi_b = fmax(hi_b, bw);
	sb_printf(gp, "$nic << EOD\n%g %g \"", lat, bw);
	sb_gpstr(gp, r->nic);
	sb_printf(gp, "\"\nEOD\n");
	sb_printf(gp, "set logscale xy 10\nset xrange [%g:%g]\nset yrange [%g:%g]\nset format x \"%%g\"\nset format y \"%%g\"\n",
		  lo_l / 2, hi_l * 3, lo_b / 3, hi_b * 4);
	sb_printf(gp, "set xlabel \"latency, ns (small message: EEL, Dongarra & Dunigan 1997 n = 0, Taboada et al. 2003 t0)\"\n"
		      "set ylabel \"bandwidth, bytes/ns (large message)\"\n");
	sb_printf(gp, "set key bottom left font \",8\" box opaque\nset grid lc rgb \"#e5e5e5\"\n");
	sb_printf(gp, "set label 1 \"fast\" at graph 0.03, graph 0.95 font \",9\" tc rgb \"#999999\"\n");
	sb_printf(gp, "plot ");
	for (int c = 0; c < 3; c++)
		sb_printf(gp, "$h%d using 1:2:3 with labels point pt 7 ps 0.7 lc rgb \"%s\" tc rgb \"#444444\" offset char 0.6,0.25 "
			      "left font \",7\" title \"%s\", \\\n     ", c, cls_color[c], cls_title[c]);
	sb_printf(gp, "$nic using 1:2:3 with labels point pt 3 ps 2.5 lw 2 lc rgb \"#d62728\" tc rgb \"#d62728\" "
		      "offset char 1,0.5 left font \",10\" title \"this NIC: EEL, %s\"\n", how_bw);
	sb_printf(caption, "Dongarra & Dunigan 1997 Fig. 5 places each machine by its zero-byte latency and its 1 MB bandwidth; here "
			   "%d historical points from %s, and this NIC at EEL %.0f ns and %.3g bytes/ns (%s%s). Taboada et al. 2003's "
			   "clusters are placed by t0 and 1/tb.",
		  n, r->hist->n ? "data/historical.csv" : "no historical data (not found)", lat, bw, how_bw,
		  bw_n > 0 ? "" : "");
	if (bw_n > 0)
		sb_printf(caption, " The largest bulk size here is %.0f bytes; Dongarra & Dunigan 1997 used 10^6.", bw_n);
	return 1;
}
