/* SPDX-License-Identifier: MIT */
/* tools/report/plot_flood_q.c — Bell et al. 2003 Fig. 5: the gap between smallest
 * messages (ns per message in the flood test) against the queue depth q. */
#include <math.h>

#include "plots.h"

int plot_flood_q(const struct plot *self, const struct report *r, struct sbuf *gp, struct sbuf *caption)
{
	const struct jr_val *fl = jr_get(r->run->root, "curves.flood");
	double smallest = INFINITY, qmax = 1, top = 0, g = num_at(r->run->root, "parameters.g.ns");
	double gq = num_at(r->run->root, "parameters.g.q");
	int n = 0;

	for (size_t i = 0; i < jr_len(fl, ""); i++) {
		double s = num_at(jr_at(fl, i), "size");

		if (isfinite(s))
			smallest = fmin(smallest, s);
	}
	if (!isfinite(smallest)) {
		sb_printf(caption, "not measured: the run has no flood curves (eel-bench -t flood)");
		return 0;
	}
	gp_title(gp, r, self);
	sb_printf(gp, "$q << EOD\n# q min p25 median p75\n");
	for (size_t i = 0; i < jr_len(fl, ""); i++) {
		const struct jr_val *p = jr_at(fl, i);
		struct stat5 st;
		double q = num_at(p, "q");

		if (num_at(p, "size") != smallest || !isfinite(q) || q <= 0 || !stat_at(p, "ns_per_msg", &st))
			continue;
		sb_printf(gp, "%g %g %g %g %g\n", q, st.min, st.p25, st.median, st.p75);
		qmax = fmax(qmax, q);
		top = fmax(top, isfinite(st.p75) ? st.p75 : st.min);
		n++;
	}
	sb_printf(gp, "EOD\n");
	if (!n) {
		sb_printf(caption, "not measured: no flood point at the smallest size");
		return 0;
	}
	if (!(top > 0)) {   /* all 0: an empty y range, which gnuplot refuses */
		sb_printf(caption, "not measured: every flood figure at the smallest size is 0");
		return 0;
	}
	if (isfinite(g) && isfinite(gq))
		sb_printf(gp, "set label 1 \"g = %.1f ns at q = %.0f\" at first %g, first %g right offset -1.5,-1 font \",9\" front\n"
			      "set object 1 circle at first %g, first %g size screen 0.012 fs empty border lc rgb \"#d62728\" lw 2 front\n",
			  g, gq, gq, g, gq, g);
	sb_printf(gp, "set logscale x 2\nset xrange [%g:%g]\nset yrange [0:%g]\n", 0.7, qmax * 1.4, top * 1.15);
	sb_printf(gp, "set xlabel \"queue depth q (puts kept outstanding)\"\nset ylabel \"ns per %.0f-byte message\"\n",
		  smallest);
	sb_printf(gp, "set key top right font \",9\"\nset grid lc rgb \"#dddddd\"\n");
	sb_printf(gp, "plot $q using 1:2 with linespoints lt 1 pt 7 lw 2 title \"minimum over runs (g)\", \\\n"
		      "     $q using 1:4:3:5 with yerrorbars lt 2 pt 1 title \"median, p25..p75\"\n");
	sb_printf(caption, "The flood test at the smallest size (%.0f B): keep q puts outstanding, wait for q/2, issue "
			   "q/2. g is the best minimum over the depths (Bell et al. 2003 Fig. 6 takes the best g).", smallest);
	return 1;
}
