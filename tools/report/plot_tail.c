/* SPDX-License-Identifier: MIT */
/* tools/report/plot_tail.c — the ping-pong's tail (Bell et al. 2003 §4.1, every
 * round trip kept: parameters.eel_tail, docs/json.md) as HdrHistogram draws
 * it (Tene, "HdrHistogram"): the percentile spectrum, RTT/2 at or below which
 * a fraction q of the rounds fall against 1/(1-q), both axes logarithmic, so
 * p50, p90, p99, p99.9 ... sit a decade apart. p50, p99, p99.9 and the max
 * are marked; EEL (the minimum of the runs' means) is drawn across. */
#include <math.h>

#include "plots.h"

/* The spectrum's steps: each bucket's highest value from the fraction of
 * rounds below it on; the last step ends at x = count (the slowest round). */
static int spectrum(struct sbuf *gp, const struct jr_val *h, double count, double *ylo)
{
	double below = 0, x = 1, last = 0;
	int n = 0;

	sb_printf(gp, "$s << EOD\n# 1/(1-q) RTT/2_ns\n");
	for (size_t i = 0; i < jr_len(h, ""); i++) {
		double lo, hi, c;

		if (!jr_num(jr_at(h, i), "[0]", &lo) || !jr_num(jr_at(h, i), "[1]", &hi) ||
		    !jr_num(jr_at(h, i), "[2]", &c) || !(c > 0) || !(hi > 0))
			continue;
		x = below < count ? count / (count - below) : count;
		sb_printf(gp, "%.10g %.10g\n", x, hi);
		*ylo = fmin(*ylo, lo > 0 ? lo : hi);
		last = hi;
		below += c;
		n++;
	}
	if (n)
		sb_printf(gp, "%.10g %.10g\n", fmax(count, x), last);
	sb_printf(gp, "EOD\n");
	return n;
}

int plot_tail(const struct plot *self, const struct report *r, struct sbuf *gp, struct sbuf *caption)
{
	static const struct { const char *key, *name; double q; } mark[] = {
		{ "p50_ns", "p50", 0.5 }, { "p99_ns", "p99", 0.99 }, { "p99_9_ns", "p99.9", 0.999 },
	};
	static const struct { const char *label; double x; } tic[] = {
		/* a tic's label is a format to gnuplot: %% for % */
		{ "0%%", 1 }, { "50%%", 2 }, { "90%%", 10 }, { "99%%", 100 }, { "99.9%%", 1e3 }, { "99.99%%", 1e4 },
		{ "99.999%%", 1e5 }, { "99.9999%%", 1e6 }, { "99.99999%%", 1e7 },
	};
	const struct jr_val *t = jr_get(r->run->root, "parameters.eel_tail");
	double count = num_at(t, "count"), max = num_at(t, "max_ns"), eel = num_at(r->run->root, "parameters.eel.ns.min");
	double cost = num_at(t, "timing_cost_ns"), ylo = INFINITY;

	if (!t) {
		sb_printf(caption, "not measured: the run has no tail (eel-bench 0.1.0 of schema 8 or later, -t pingpong)");
		return 0;
	}
	if (!(count >= 1) || !(max > 0) || !jr_len(t, "histogram")) {
		sb_printf(caption, "not measured: the tail has no round trips, or none above 0 ns");
		return 0;
	}
	gp_title(gp, r, self);
	if (!spectrum(gp, jr_get(t, "histogram"), count, &ylo)) {
		sb_printf(caption, "not measured: the tail's histogram has no bucket with a round in it");
		return 0;
	}
	sb_printf(gp, "set logscale xy\nset xrange [1:%.10g]\nset yrange [%.10g:%.10g]\nset xtics (", count * 1.5,
		  ylo / 1.3, max * 1.6);
	for (size_t k = 0; k < sizeof(tic) / sizeof(tic[0]) && tic[k].x <= count; k++)
		sb_printf(gp, "%s\"%s\" %g", k ? ", " : "", tic[k].label, tic[k].x);
	sb_printf(gp, ")\nset xlabel \"fraction of round trips at or below (1/(1-q), logarithmic)\"\n"
		      "set ylabel \"RTT/2 (ns, logarithmic)\"\nset key top left font \",9\"\nset grid lc rgb \"#dddddd\"\n");
	for (size_t k = 0; k < sizeof(mark) / sizeof(mark[0]); k++) {
		double v = num_at(t, mark[k].key), x = 1 / (1 - mark[k].q);

		if (isfinite(v) && v > 0 && x <= count)
			sb_printf(gp, "set label %zu \"%s %.1f ns\" at first %g, first %.10g left offset 0.8,-0.9 font \",9\" front\n"
				      "set object %zu circle at first %g, first %.10g size screen 0.005 fs solid fc rgb \"#d62728\" front\n",
				  k + 1, mark[k].name, v, x, v, k + 1, x, v);
	}
	sb_printf(gp, "set label 9 \"max %.1f ns\" at first %.10g, first %.10g right offset -0.8,0.6 font \",9\" front\n"
		      "set object 9 circle at first %.10g, first %.10g size screen 0.005 fs solid fc rgb \"#d62728\" front\n",
		  max, count, max, count, max);
	sb_printf(gp, "plot $s using 1:2 with steps lt 1 lw 2 title \"every round trip, RTT/2 (%.0f rounds)\"", count);
	if (isfinite(eel) && eel > 0)
		sb_printf(gp, ", \\\n     %.10g with lines dt 2 lc rgb \"#555555\" title \"EEL: the fastest run's mean, %.1f ns\"",
			  eel, eel);
	sb_printf(gp, "\n");
	sb_printf(caption, "Every round trip of the tail runs (%.0f rounds: runs of their own beside EEL's, stamps off, "
			   "each timed alone), as HdrHistogram draws it: RTT/2 at or below which a fraction q of the rounds "
			   "fall, against 1/(1-q). A step is one bucket of the histogram (at most 0.78%% wide). ", count);
	if (isfinite(cost))
		sb_printf(caption, "Timing each round added %+.1f ns to a run's mean (the median run by run).", cost);
	return 1;
}
