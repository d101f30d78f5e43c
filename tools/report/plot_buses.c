/* SPDX-License-Identifier: MIT */
/* tools/report/plot_buses.c — the bus what-if (`eel-bench --bus LIST`, schema
 * 6): one stacked bar per bus of the stamped stages of one 8-byte put (means,
 * with the turnaround: they add up to EEL), as Bell et al. 2003 Fig. 3 stacks
 * them, its EEL (the fastest unstamped run) across, and each bus's G under
 * its name. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "plots.h"

int plot_buses(const struct plot *self, const struct report *r, struct sbuf *gp, struct sbuf *caption)
{
	const struct jr_val *buses = jr_get(r->run->root, "buses");
	struct sbuf boxes = { 0 }, tics = { 0 }, totals = { 0 }, keys = { 0 }, eel = { 0 };
	struct stage_keys seen = { .n = 0 };
	double top = 0;
	int n = 0;

	for (size_t i = 0; i < jr_len(buses, ""); i++) {
		const struct jr_val *b = jr_at(buses, i), *parts = jr_get(b, "breakdown.parts");
		const char *name = jr_str(b, "bus.name");
		double y = 0, x = (double)n + 1, G = num_at(b, "parameters.G.ns_per_byte");
		double e = num_at(b, "parameters.eel.ns.min");

		if (!jr_len(parts, ""))
			continue;
		for (size_t k = 0; k < jr_len(parts, "") + 1; k++) {
			const char *part = k < jr_len(parts, "") ? jr_str(jr_at(parts, k), "name") : "turn";
			double ns = k < jr_len(parts, "") ? num_at(jr_at(parts, k), "ns.mean") : num_at(b, "breakdown.turn_ns.mean");

			if (!part || !isfinite(ns) || ns <= 0)
				continue;
			sb_printf(&boxes, "%g %g %g %g %g %g %u\n", x, y + ns / 2, x - 0.3, x + 0.3, y, y + ns, stage_color(part));
			y += ns;
			stage_key(&keys, &seen, part);
		}
		sb_printf(&totals, "%g %g \"%.0f ns\"\n", x, y, y);
		if (isfinite(e) && e > 0) {
			sb_printf(&eel, "%g %g\n", x, e);
			top = fmax(top, e);
		}
		sb_printf(&tics, "%s\"", n ? ", " : "");
		sb_gpstr(&tics, name ? name : "none");
		if (isfinite(G))
			sb_printf(&tics, "\\nG %.3f ns/B", G);
		sb_printf(&tics, "\" %g", x);
		top = fmax(top, y);
		n++;
	}
	if (!n) {
		sb_printf(caption, "not measured: the run has no buses with a breakdown (eel-bench --bus LIST)");
		sb_free(&boxes);
		sb_free(&tics);
		sb_free(&totals);
		sb_free(&keys);
		sb_free(&eel);
		return 0;
	}
	gp_title(gp, r, self);
	sb_printf(gp, "$boxes << EOD\n%sEOD\n$totals << EOD\n%sEOD\n", sb_str(&boxes), sb_str(&totals));
	if (sb_str(&eel)[0])
		sb_printf(gp, "$eel << EOD\n%sEOD\n", sb_str(&eel));
	bus_axes(gp, "ns (one 8-byte put)", n, top, &tics);
	sb_printf(gp, "set key outside right top vertical font \",9\" title \"stage\"\n");
	sb_printf(gp, "plot $boxes using 1:2:3:4:5:6:7 with boxxyerror lc rgb variable notitle, \\\n"
		      "     $totals using 1:2:3 with labels offset 0,0.7 font \",9\" notitle%s%s\n",
		  sb_str(&eel)[0] ? ", \\\n     $eel using 1:2:(0.3) with xerrorbars pt 0 lw 2 lc rgb \"black\" "
				    "title \"EEL (the fastest run)\"" : "", sb_str(&keys));
	sb_printf(caption, "One bar per bus: the stamped stages of one 8-byte put (means over the stamped ping-pong "
			   "rounds, bottom to top in the order of the stages, with the turnaround), the same firmware on "
			   "each modelled bus; a black bar across: its EEL (the fastest unstamped run's); under each bus "
			   "its G (the flood's per-byte gap).");
	sb_free(&boxes);
	sb_free(&tics);
	sb_free(&totals);
	sb_free(&keys);
	sb_free(&eel);
	return 1;
}
