/* SPDX-License-Identifier: MIT */
/* tools/report/plot_overlap.c — Bell et al. 2003 section 4.3, the CPU overlap test:
 * the time per message at queue depth 1 as computation D is inserted per
 * message, on the sending and on the receiving side. The largest D that does
 * not raise the time is D_max, and o = g - D_max (o = g when the first D
 * already raises it). */
#include <math.h>

#include "plots.h"

static int curve(struct sbuf *gp, const struct jr_val *c, const char *name, double *top, double *dmax)
{
	const struct jr_val *d = jr_get(c, "d_ns"), *t = jr_get(c, "ns_per_msg");
	int n = 0;

	sb_printf(gp, "$%s << EOD\n", name);
	for (size_t i = 0; i < jr_len(d, "") && i < jr_len(t, ""); i++) {
		double x = num_at(jr_at(d, i), ""), y = num_at(jr_at(t, i), "");

		if (!isfinite(x) || !isfinite(y))
			continue;
		sb_printf(gp, "%g %g\n", x, y);
		*top = fmax(*top, y);
		*dmax = fmax(*dmax, x);
		n++;
	}
	sb_printf(gp, "EOD\n");
	return n;
}

static void mark(struct sbuf *gp, int id, const struct jr_val *o, const char *side, const char *color, double top,
		 double xmax)
{
	double dm = num_at(o, "dmax_ns"), g = num_at(o, "g_ns"), ns = num_at(o, "ns");
	int sep = 1;

	/* schema 7: not separable on this NIC, ns null: D_max marked, no o */
	jr_bool(o, "separable", &sep);
	if (isfinite(dm) && !sep) {
		sb_printf(gp, "set arrow %d from first %g, graph 0 to first %g, graph 1 nohead dt 2 lc rgb \"%s\"\n", id, dm,
			  dm, color);
		sb_printf(gp, "set label %d \"%s: D_max = %.0f ns; o not separable on this NIC\" at first %g, first %g "
			      "%s font \",9\" tc rgb \"%s\"\n", id, side, dm, dm, top * (id == 1 ? 0.12 : 0.05),
			  dm > xmax / 2 ? "right offset -0.5,0" : "left offset 0.5,0", color);
		return;
	}
	if (!isfinite(dm) || !isfinite(ns))
		return;
	sb_printf(gp, "set arrow %d from first %g, graph 0 to first %g, graph 1 nohead dt 2 lc rgb \"%s\"\n", id, dm, dm,
		  color);
	sb_printf(gp, "set label %d \"%s: D_max = %.0f ns, o = g - D_max = %.0f - %.0f = %.0f ns\" at first %g, first %g "
		      "%s font \",9\" tc rgb \"%s\"\n", id, side, dm, isfinite(g) ? g : NAN, dm, ns, dm,
		  top * (id == 1 ? 0.12 : 0.05), dm > xmax / 2 ? "right offset -0.5,0" : "left offset 0.5,0", color);
}

int plot_overlap(const struct plot *self, const struct report *r, struct sbuf *gp, struct sbuf *caption)
{
	const struct jr_val *root = r->run->root;
	const struct jr_val *s = jr_get(root, "curves.overlap_send"), *v = jr_get(root, "curves.overlap_recv");
	double top = 0, dmax = 0;
	int ns, nr;

	if (!s && !v) {
		sb_printf(caption, "not measured: the run has no overlap curves (eel-bench -t overlap)");
		return 0;
	}
	gp_title(gp, r, self);
	ns = curve(gp, s, "send", &top, &dmax);
	nr = curve(gp, v, "recv", &top, &dmax);
	if (!ns && !nr) {
		sb_printf(caption, "not measured: the overlap curves hold no points");
		return 0;
	}
	if (!(top > 0)) {   /* all 0: an empty y range, which gnuplot refuses */
		sb_printf(caption, "not measured: every point of the overlap curves is 0");
		return 0;
	}
	mark(gp, 1, jr_get(root, "parameters.o_s"), "send", "#1f77b4", top, dmax);
	mark(gp, 2, jr_get(root, "parameters.o_r"), "receive", "#d62728", top, dmax);
	sb_printf(gp, "set xrange [0:%g]\nset yrange [0:%g]\n", dmax * 1.05 + 1, top * 1.1);
	sb_printf(gp, "set xlabel \"computation D inserted per message, ns\"\nset ylabel \"ns per message (q = 1)\"\n"
		      "set key top left font \",9\"\nset grid lc rgb \"#dddddd\"\n");
	sb_printf(gp, "plot $send using 1:2 with linespoints pt 7 lc rgb \"#1f77b4\" title \"send side: computation between "
		      "starting and completing a put\", \\\n"
		      "     $recv using 1:2 with linespoints pt 5 lc rgb \"#d62728\" title \"receive side: computation before "
		      "each detection\"\n");
	sb_printf(caption, "Flat while the computation hides behind the message; the knee is D_max. The dashed lines "
			   "mark each side's D_max.");
	{
		int sep = 1;

		jr_bool(jr_get(root, "parameters.o_s"), "separable", &sep);
		if (!sep)
			sb_printf(caption, " On this NIC o = g - D_max is not separable: the NIC runs on the host's CPU, and "
					   "its work is in the time per message too.");
	}
	return 1;
}
