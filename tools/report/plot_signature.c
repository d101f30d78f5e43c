/* SPDX-License-Identifier: MIT */
/* tools/report/plot_signature.c — Culler et al. 1996 Fig. 4/5: the average cost of a
 * message vs the number M issued back to back, one curve per computation D
 * inserted between them; o_s (the send-only regime) and g (the steady state
 * at D = 0) marked. Points that did not reach the seed's 5% accuracy at 95%
 * confidence are ringed. */
#include <math.h>

#include "plots.h"

static void hline(struct sbuf *gp, int id, double y, const char *what, const char *color)
{
	sb_printf(gp, "set arrow %d from graph 0, first %g to graph 1, first %g nohead dt 2 lw 1.5 lc rgb \"%s\" front\n",
		  id, y, y, color);
	sb_printf(gp, "set label %d \"%s = %.0f ns\" at graph %s, first %g %s offset 0,0.6 tc rgb \"%s\" font \",9\" front\n",
		  id, what, y, id == 1 ? "0.01" : "0.99", y, id == 1 ? "left" : "right", color);
}

int plot_signature(const struct plot *self, const struct report *r, struct sbuf *gp, struct sbuf *caption)
{
	const struct jr_val *sig = jr_get(r->run->root, "signature"), *curves = jr_get(sig, "curves");
	struct sbuf plot = { 0 };
	double o_s = num_at(sig, "o_s_ns"), g = num_at(sig, "g_ns"), top = 0, mmax = 1, maxcost = 0;
	int ncurves = 0, unconv = 0;

	if (!jr_len(curves, "")) {
		sb_printf(caption, "not measured: the run has no signature section (eel-bench -t signature)");
		return 0;
	}
	gp_title(gp, r, self);
	for (size_t k = 0; k < jr_len(curves, ""); k++) {
		const struct jr_val *c = jr_at(curves, k);
		size_t n = jr_len(c, "m");
		double d = num_at(c, "d_ns");
		int pts = 0;

		if (!n || jr_len(c, "cost_ns") != n)
			continue;
		sb_printf(gp, "$c%zu << EOD\n", k);
		for (size_t i = 0; i < n; i++) {
			double m = num_at(jr_at(jr_get(c, "m"), i), ""), cost = num_at(jr_at(jr_get(c, "cost_ns"), i), "");
			double ci = num_at(jr_at(jr_get(c, "ci_ns"), i), "");
			int conv = 1;

			if (!isfinite(m) || !isfinite(cost) || m <= 0)
				continue;
			jr_bool(jr_at(jr_get(c, "converged"), i), "", &conv);
			sb_printf(gp, "%g %g %g %d\n", m, cost, isfinite(ci) ? ci : 0, conv);
			unconv += !conv;
			mmax = fmax(mmax, m);
			maxcost = fmax(maxcost, cost);
			pts++;
		}
		sb_printf(gp, "EOD\n");
		if (!pts)
			continue;
		top = fmax(top, num_at(c, "g_ns"));
		sb_printf(&plot, "%s$c%zu using 1:2:3 with yerrorlines lt %d pt 7 ps 0.6 lw 1.5 title \"D = %.0f ns\"",
			  ncurves ? ", \\\n     " : "", k, ncurves + 1, isfinite(d) ? d : 0);
		sb_printf(&plot, ", $c%zu using 1:($4 == 0 ? $2 : NaN) with points pt 6 ps 1.6 lc rgb \"black\" notitle", k);
		ncurves++;
	}
	if (!ncurves) {
		sb_printf(caption, "not measured: the signature section holds no curve with points");
		sb_free(&plot);
		return 0;
	}
	if (unconv)
		sb_printf(&plot, ", NaN with points pt 6 ps 1.6 lc rgb \"black\" title \"not at 5%% / 95%%\"");
	if (isfinite(o_s)) {
		hline(gp, 1, o_s, "o_s", "#1f77b4");
		top = fmax(top, o_s);
	}
	if (isfinite(g)) {
		hline(gp, 2, g, "g", "#d62728");
		top = fmax(top, g);
	}
	if (!(top > 0))
		top = maxcost > 0 ? maxcost : 1;
	/* the steady costs set the scale; noisy points above it are clipped, not allowed to flatten the curves */
	sb_printf(gp, "set logscale x 2\nset xrange [0.8:%g]\nset yrange [0:%g]\n", mmax * 1.25, top * 1.5);
	sb_printf(gp, "set xlabel \"M, messages issued back to back (8-byte puts)\"\n"
		      "set ylabel \"average cost per message, ns\"\n");
	sb_printf(gp, "set key outside right top font \",9\"\nset grid lc rgb \"#dddddd\"\n");
	sb_printf(gp, "plot %s\n", sb_str(&plot));
	sb_printf(caption, "Each curve is one delay D between messages; error bars are the confidence interval of each "
			   "point. Small M: send-only regime (cost o_s); large M: steady state (cost g at D = 0, "
			   "g' = o_s + o_r + D beyond the idle time). Points above the plot are clipped.");
	if (unconv)
		sb_printf(caption, " %d ringed point%s did not reach 5%% accuracy at 95%% confidence within the samples "
				   "allowed.", unconv, unconv == 1 ? "" : "s");
	sb_free(&plot);
	return 1;
}
