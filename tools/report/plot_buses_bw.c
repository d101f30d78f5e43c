/* SPDX-License-Identifier: MIT */
/* tools/report/plot_buses_bw.c — the bus what-if's bandwidth (`eel-bench --bus
 * LIST`, schema 9): one bar per bus of the flood's bandwidth at 64 KB (Bell
 * et al. 2003 4.2's flood, `parameters.bandwidth_64k`), and beside it the
 * bus's usable rate in the model (`bus.tlp_gbps`: Neugebauer et al. 2018
 * section 3's TLP bandwidth, a coherent link's line rate). */
#include <math.h>
#include <stdio.h>

#include "plots.h"

int plot_buses_bw(const struct plot *self, const struct report *r, struct sbuf *gp, struct sbuf *caption)
{
	const struct jr_val *buses = jr_get(r->run->root, "buses");
	struct sbuf bars = { 0 }, link = { 0 }, tics = { 0 };
	double top = 0, q = NAN, msgs = NAN;
	int n = 0, nlink = 0;

	for (size_t i = 0; i < jr_len(buses, ""); i++) {
		const struct jr_val *b = jr_at(buses, i);
		const char *name = jr_str(b, "bus.name");
		double bw = num_at(b, "parameters.bandwidth_64k.gbit_per_s"), tlp = num_at(b, "bus.tlp_gbps");
		double x = (double)n + 1;

		if (!isfinite(bw) || bw <= 0)
			continue;
		if (!n) {
			q = num_at(b, "parameters.bandwidth_64k.q");
			msgs = num_at(b, "parameters.bandwidth_64k.msgs");
		}
		sb_printf(&bars, "%g %g \"%.1f Gb/s\"\n", x, bw, bw);
		if (isfinite(tlp) && tlp > 0) {
			sb_printf(&link, "%g %g\n", x, tlp);
			top = fmax(top, tlp);
			nlink++;
		}
		sb_printf(&tics, "%s\"", n ? ", " : "");
		sb_gpstr(&tics, name ? name : "none");
		sb_printf(&tics, "\" %g", x);
		top = fmax(top, bw);
		n++;
	}
	if (!n) {
		sb_printf(caption, "not measured: the run has no buses with a flood at 64 KB (eel-bench --bus LIST, "
				   "schema 9)");
		sb_free(&bars);
		sb_free(&link);
		sb_free(&tics);
		return 0;
	}
	gp_title(gp, r, self);
	sb_printf(gp, "$bars << EOD\n%sEOD\n", sb_str(&bars));
	if (nlink)
		sb_printf(gp, "$link << EOD\n%sEOD\n", sb_str(&link));
	bus_axes(gp, "Gb/s (64 KB puts)", n, top, &tics);
	sb_printf(gp, "set boxwidth 0.6\n");
	sb_printf(gp, "set key outside right top vertical font \",9\"\n");
	sb_printf(gp, "plot $bars using 1:2 with boxes lc rgb \"#1f77b4\" title \"the flood at 64 KB\", \\\n"
		      "     $bars using 1:2:3 with labels offset 0,0.7 font \",9\" notitle%s\n",
		  nlink ? ", \\\n     $link using 1:2 with points pt 7 ps 1.2 lc rgb \"#d62728\" "
			  "title \"the bus's usable rate (model)\"" : "");
	sb_printf(caption, "One bar per bus: the flood's bandwidth at 64 KB (65536-byte puts at q = %.0f, %.0f a run; "
			   "size x 8 / the fastest run's time per put), the same firmware on each modelled bus; a dot: "
			   "the bus's usable rate in the model (PCIe's TLP bandwidth after framing and DLLPs, a "
			   "coherent link's line rate), which a NIC with enough DMA reads in flight approaches.", q, msgs);
	sb_free(&bars);
	sb_free(&link);
	sb_free(&tics);
	return 1;
}
