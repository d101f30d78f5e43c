/* SPDX-License-Identifier: MIT */
/* tools/report/plot_allpairs.c — eel-bench's allpairs under mpirun or srun
 * (schema 5): the median EEL of every ordered pair as a heat map, row the
 * measuring rank, column its peer; a flagged pair (beyond the pairs' median
 * + k x MAD) is marked. Bell et al. 2003 §4.1's ping-pong, pair by pair. */
#include <math.h>

#include "plots.h"

int plot_allpairs(const struct plot *self, const struct report *r, struct sbuf *gp, struct sbuf *caption)
{
	const struct jr_val *pairs = jr_get(r->run->root, "allpairs.pairs");
	double lo = INFINITY, hi = 0, ranks = num_at(r->run->root, "launch.ranks"), k = num_at(r->run->root, "allpairs.flag_k");
	size_t n = jr_len(pairs, "");
	int measured = 0, flagged = 0;

	if (!n || !isfinite(ranks) || ranks < 2 || ranks > 4096) {
		sb_printf(caption, "not measured: the run has no allpairs matrix (mpirun -np N eel-bench -t allpairs)");
		return 0;
	}
	gp_title(gp, r, self);
	sb_printf(gp, "$m << EOD\n# to from eel_median_ns\n");
	for (size_t i = 0; i < n; i++) {
		const struct jr_val *p = jr_at(pairs, i);
		double a = num_at(p, "from"), b = num_at(p, "to"), e = num_at(p, "eel.median_ns");
		int ok = 0;

		if (!isfinite(a) || !isfinite(b) || !isfinite(e) || e <= 0 || !jr_bool(p, "measured", &ok) || !ok)
			continue;
		sb_printf(gp, "%g %g %g\n", b, a, e);
		lo = fmin(lo, e);
		hi = fmax(hi, e);
		measured++;
	}
	sb_printf(gp, "EOD\n$f << EOD\n");
	for (size_t i = 0; i < n; i++) {
		const struct jr_val *p = jr_at(pairs, i);
		int f = 0;

		if (jr_bool(p, "eel.flagged", &f) && f) {
			sb_printf(gp, "%g %g\n", num_at(p, "to"), num_at(p, "from"));
			flagged++;
		}
	}
	sb_printf(gp, "EOD\n");
	if (!measured) {
		sb_printf(caption, "not measured: no pair of the allpairs matrix was measured");
		return 0;
	}
	sb_printf(gp, "set xrange [-0.5:%g]\nset yrange [%g:-0.5]\nset cbrange [%g:%g]\n", ranks - 0.5, ranks - 0.5, lo,
		  hi > lo ? hi : lo + 1);
	sb_printf(gp, "set xlabel \"to rank\"\nset ylabel \"from rank (it keeps the time)\"\n"
		      "set cblabel \"EEL median (ns)\"\nset palette defined (0 \"#f7fbff\", 1 \"#6baed6\", 2 \"#08306b\")\n"
		      "set size ratio -1\nset tics out\nunset key\n");
	if (ranks <= 32)
		sb_printf(gp, "set xtics 1\nset ytics 1\n");
	/* a box a pair (the diagonal has none): filled in the palette's colour of its EEL */
	sb_printf(gp, "plot $m using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette%s\n",
		  flagged ? ", $f using 1:2 with points pt 6 ps 2 lw 2 lc rgb \"#d62728\"" : "");
	sb_printf(caption, "The median EEL (RTT/2 of each 8-byte round trip) of every ordered pair of %.0f ranks, "
			   "measured in the rounds of a round-robin schedule. %d pair%s flagged (circled): beyond the "
			   "pairs' median + %g x MAD.", ranks, flagged, flagged == 1 ? "" : "s", isfinite(k) ? k : 3);
	return 1;
}
