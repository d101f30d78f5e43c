/* SPDX-License-Identifier: MIT */
/* tools/report/plot_bulk.c — bulk transfers against message size n:
 *   bulk_time  T(n) (an n-byte store and its completion, Culler et al. 1996 Fig. 7a),
 *              the echo (RTT/2 of n bytes, Taboada et al. 2003 and Dongarra & Dunigan 1997), o_s(n) (Culler et al. 1996
 *              Fig. 10) and the four fits: T0 + n/R on T(n) (Culler et al. 1996),
 *              alpha + beta n (Hockney, Dongarra & Dunigan 1997), t0 + ti n tb/(t0 + n tb) + n tb
 *              (Taboada et al. 2003) and o_s + L + o_r + G n (LogGP) on the echo;
 *   bulk_bw    BW(n) = n / T(n) (Culler et al. 1996 Fig. 7b) and n / fit(n). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "plots.h"

struct fits {
	int t0r, hock, m003, loggp;
};

/* The points and the fits as gnuplot data and functions; 0 when the run has no bulk section. */
static int data(const struct report *r, struct sbuf *gp, struct sbuf *caption, struct fits *f, double *nmin,
		double *nmax)
{
	const struct jr_val *b = jr_get(r->run->root, "bulk"), *pts = jr_get(b, "points");
	const struct jr_val *fit = jr_get(b, "fits"), *val = jr_get(fit, "validation");
	double T0, R, a, be, t0, ti, tb, os, L, orr, G;
	int n = 0;

	*nmin = INFINITY;
	*nmax = 0;
	sb_printf(gp, "$pts << EOD\n# n T(n)_min echo_min o_s(n)\n");
	for (size_t i = 0; i < jr_len(pts, ""); i++) {
		const struct jr_val *p = jr_at(pts, i);
		struct stat5 t, e;
		double size = num_at(p, "size"), o = num_at(p, "o_s_ns");
		int ht = stat_at(p, "t_ns", &t), he = stat_at(p, "echo_ns", &e);

		if (!isfinite(size) || size <= 0 || (!ht && !he))
			continue;
		sb_printf(gp, "%g %g %g %g\n", size, ht ? t.min : NAN, he ? e.min : NAN, isfinite(o) ? o : NAN);
		*nmin = fmin(*nmin, size);
		*nmax = fmax(*nmax, size);
		n++;
	}
	sb_printf(gp, "EOD\n$val << EOD\n# n measured (the fits' validation sizes)\n");
	for (size_t i = 0; i < jr_len(val, ""); i++) {
		double size = num_at(jr_at(val, i), "size"), m = num_at(jr_at(val, i), "measured_ns");

		if (isfinite(size) && size > 0 && isfinite(m))
			sb_printf(gp, "%g %g\n", size, m);
	}
	sb_printf(gp, "EOD\n");
	if (!n) {
		sb_printf(caption, "not measured: the run has no bulk section (eel-bench -t bulk)");
		return 0;
	}
	T0 = num_at(fit, "t0r.t0_ns");
	R = num_at(fit, "t0r.r_bytes_per_ns");
	f->t0r = isfinite(T0) && isfinite(R) && R > 0;
	if (f->t0r)
		sb_printf(gp, "t0r(n) = %.9g + n / %.9g\n", T0, R);
	a = num_at(fit, "hockney.alpha_ns");
	be = num_at(fit, "hockney.beta_ns_per_byte");
	f->hock = isfinite(a) && isfinite(be);
	if (f->hock)
		sb_printf(gp, "hock(n) = %.9g + %.9g * n\n", a, be);
	t0 = num_at(fit, "model003.t0_ns");
	ti = num_at(fit, "model003.ti_ns");
	tb = num_at(fit, "model003.tb_ns_per_byte");
	f->m003 = isfinite(t0) && isfinite(ti) && isfinite(tb);
	if (f->m003)
		sb_printf(gp, "m003(n) = %.9g + %.9g * (n * %.9g) / (%.9g + n * %.9g) + n * %.9g\n", t0, ti, tb, t0, tb, tb);
	os = num_at(fit, "loggp.o_s_ns");
	L = num_at(fit, "loggp.L_ns");
	orr = num_at(fit, "loggp.o_r_ns");
	G = num_at(fit, "loggp.G_ns_per_byte");
	f->loggp = isfinite(os) && isfinite(L) && isfinite(orr) && isfinite(G);
	if (f->loggp)
		sb_printf(gp, "loggp(n) = %.9g + %.9g + %.9g + %.9g * n\n", os, L, orr, G);
	return 1;
}

static void fit_title(struct sbuf *s, const struct jr_val *fit, const char *key, const char *what)
{
	double err = num_at(fit, key);
	char obj[32];
	int valid = 1;

	/* key is "<fit>.err"; schema 7's "<fit>.valid" false: over 100%, no model of the curve */
	snprintf(obj, sizeof(obj), "%.*s", (int)(strchr(key, '.') ? strchr(key, '.') - key : 0), key);
	jr_bool(jr_get(fit, obj), "valid", &valid);
	if (!valid && isfinite(err))
		sb_printf(s, "title \"%s: the curve is not of this form (error %.0f %%)\"", what, err * 100);
	else if (isfinite(err))
		sb_printf(s, "title \"%s, error %.1f %%\"", what, err * 100);
	else
		sb_printf(s, "title \"%s\"", what);
}

static void fit_lines(struct sbuf *gp, const struct jr_val *fit, const struct fits *f, int bw)
{
	const char *fmt = bw ? "x / %s(x)" : "%s(x)";

	if (f->t0r) {
		sb_printf(gp, ", \\\n     ");
		sb_printf(gp, fmt, "t0r");
		sb_printf(gp, " with lines dt 2 lw 1.5 lc rgb \"#1f77b4\" title \"T0 + n/R on T(n) (Culler et al. 1996)\"");
	}
	if (f->hock) {
		sb_printf(gp, ", \\\n     ");
		sb_printf(gp, fmt, "hock");
		sb_printf(gp, " with lines dt 3 lw 2 lc rgb \"#2ca02c\" ");
		fit_title(gp, fit, "hockney.err", "Hockney alpha + beta n (Dongarra & Dunigan 1997)");
	}
	if (f->m003) {
		sb_printf(gp, ", \\\n     ");
		sb_printf(gp, fmt, "m003");
		sb_printf(gp, " with lines lt 1 lw 1.5 lc rgb \"#d62728\" ");
		fit_title(gp, fit, "model003.err", "Taboada et al. 2003's model");
	}
	if (f->loggp) {
		sb_printf(gp, ", \\\n     ");
		sb_printf(gp, fmt, "loggp");
		sb_printf(gp, " with lines dt 4 lw 1.5 lc rgb \"#9467bd\" ");
		fit_title(gp, fit, "loggp.err", "LogGP o_s + L + o_r + G n");
	}
	sb_printf(gp, "\n");
}

int plot_bulk_time(const struct plot *self, const struct report *r, struct sbuf *gp, struct sbuf *caption)
{
	const struct jr_val *fit = jr_get(r->run->root, "bulk.fits");
	struct fits f = { 0 };
	double lo, hi;

	gp_title(gp, r, self);
	if (!data(r, gp, caption, &f, &lo, &hi))
		return 0;
	sb_printf(gp, "set logscale xy 10\nset xrange [%g:%g]\nset samples 400\nset format y \"%%g\"\n", lo / 1.5, hi * 1.5);
	sb_printf(gp, "set xlabel \"n, bytes\"\nset ylabel \"ns\"\nset key top left font \",8\" spacing 1.1\n"
		      "set grid lc rgb \"#dddddd\"\n");
	sb_printf(gp, "plot $pts using 1:2 with points pt 7 ps 1 lc rgb \"#1f77b4\" title \"T(n): n-byte store and its completion\", \\\n"
		      "     $pts using 1:3 with points pt 5 ps 1 lc rgb \"#d62728\" title \"echo: RTT/2 of n bytes\", \\\n"
		      "     $pts using 1:4 with points pt 9 ps 1 lc rgb \"#ff7f0e\" title \"o_s(n) from the m-D signature\", \\\n"
		      "     $val using 1:2 with points pt 2 ps 0.8 lc rgb \"#555555\" title \"echo at the validation sizes\"");
	fit_lines(gp, fit, &f, 0);
	sb_printf(caption, "Measured minima at each size; the lines are the fits the run reports, each with its average "
			   "absolute relative error over the validation sizes (Taboada et al. 2003's accuracy measure). Culler et al. 1996 warns "
			   "that T0 of T0 + n/R says little about a small message.");
	return 1;
}

int plot_bulk_bw(const struct plot *self, const struct report *r, struct sbuf *gp, struct sbuf *caption)
{
	const struct jr_val *fit = jr_get(r->run->root, "bulk.fits");
	struct fits f = { 0 };
	double lo, hi;

	gp_title(gp, r, self);
	if (!data(r, gp, caption, &f, &lo, &hi))
		return 0;
	sb_printf(gp, "set logscale x 10\nset xrange [%g:%g]\nset yrange [0:*]\nset samples 400\n", lo / 1.5, hi * 1.5);
	sb_printf(gp, "set xlabel \"n, bytes\"\nset ylabel \"bytes/ns (= GB/s)\"\nset key top left font \",8\" spacing 1.1\n"
		      "set grid lc rgb \"#dddddd\"\n");
	sb_printf(gp, "plot $pts using 1:($1/$2) with linespoints pt 7 ps 1 lc rgb \"#1f77b4\" title \"BW(n) = n / T(n)\", \\\n"
		      "     $pts using 1:($1/$3) with linespoints pt 5 ps 1 lc rgb \"#d62728\" title \"n / echo\"");
	fit_lines(gp, fit, &f, 1);
	sb_printf(caption, "Bandwidth delivered at each size from the measured minima, and n divided by each fit: "
			   "where a fit's curve leaves the points, the model misses that size range.");
	return 1;
}
