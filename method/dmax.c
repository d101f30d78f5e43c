/* SPDX-License-Identifier: MIT */
/* method/dmax.c — Bell et al. 2003 §4.3, the CPU-overlap test's search
 * (method/dmax.h): "By taking the maximum amount of CPU time that can be
 * added without increasing the benchmark time, and subtracting it from g,
 * the send overhead (o_s) can be inferred ... even a trivial amount of
 * inserted computation increases the benchmark's time, and so o_s = g"; o_r
 * likewise on the receiving side. eel-bench's figures and MPI's come from
 * this one rule: D rises in steps of g/16 until the time is more than 3%
 * above g, a rise confirmed by the next step; then four halvings of the
 * interval; D_max is put at the knee, the smallest D seen to raise the time
 * less that rise (past the knee each message costs o + D), no higher than
 * the last D that did not raise it (when one did not). D is the computation
 * as measured (the caller's *da), not the D asked for, which a small D's
 * spin overshoots; the point at D = 0 inserts none.
 */
#include "dmax.h"

#define COARSE_STEPS 16   /* the first pass: D in steps of g/16 */
#define BISECT 4          /* then the edge to g/256 */
#define OV_RISE 0.03      /* a time more than 3% above g has risen */

/* One point of the curve, kept in order of D (after the points of the same D). */
static void add(struct overlap_curve *c, double d, double t)
{
	int at = c->n;

	if (c->n == OVERLAP_MAX_POINTS)
		return;
	while (at > 0 && c->d_ns[at - 1] > d) {
		c->d_ns[at] = c->d_ns[at - 1];
		c->t_ns[at] = c->t_ns[at - 1];
		at--;
	}
	c->d_ns[at] = d;
	c->t_ns[at] = t;
	c->n++;
}

static int point(dmax_time_fn time_at, void *ctx, struct overlap_curve *c, double d, double *t, double *da)
{
	if (time_at(ctx, d, t, da))
		return -1;
	add(c, d > 0 ? *da : 0, *t);
	return 0;
}

/* The knee from the last D asked for that did not raise the time (lo, as
 * measured lo_a) and the smallest that did (hi_a, its time t_hi). lo_a is
 * where the rise crossed the noise threshold (OV_RISE above g), not where it
 * began: past the knee each message costs o + D, so the time at hi puts the
 * knee at hi - (t(hi) - g). Without that, o_s came out low by up to 3% of g. */
static double knee(double g, double lo_a, double hi_a, double t_hi)
{
	double dmax = hi_a > lo_a ? hi_a - (t_hi - g) : lo_a;

	/* at most the largest D seen not to raise the time; when none was
	 * (the first step rose), anywhere below the first that did: the
	 * least computation a point can insert (its spin's clock reads) may
	 * lie past the knee, and only the rise tells where the knee is */
	if (lo_a > 0 && dmax > lo_a)
		dmax = lo_a;
	return dmax < 0 ? 0 : dmax;
}

int dmax_search(dmax_time_fn time_at, void *ctx, struct overlap_curve *c)
{
	/* lo, hi, rise: the D asked for (the steps and halvings); lo_a, hi_a,
	 * rise_a: the same as measured, which the curve, D_max and the knee are in */
	double g, thr, step, t, da, lo = 0, hi = 0, rise = 0, t_rise = 0, t_hi = 0, dmax;
	double lo_a = 0, hi_a = 0, rise_a = 0;

	c->n = 0;
	if (point(time_at, ctx, c, 0, &g, &da))
		return -1;
	thr = g * (1 + OV_RISE);
	step = g / COARSE_STEPS;
	for (int k = 1; k <= 4 * COARSE_STEPS; k++) {
		if (point(time_at, ctx, c, k * step, &t, &da))
			return -1;
		if (t <= thr) {
			lo = k * step;
			lo_a = da;
			rise = 0;
		} else if (!rise) {
			rise = k * step;      /* a rise: confirm it with the next step */
			rise_a = da;
			t_rise = t;
		} else {
			hi = rise;
			hi_a = rise_a;
			t_hi = t_rise;
			break;
		}
	}
	if (!hi) {
		hi = rise ? rise : lo; /* t >= D, so it always rises: kept for safety */
		hi_a = rise ? rise_a : lo_a;
		t_hi = t_rise;
	}
	for (int b = 0; b < BISECT && hi > lo; b++) {
		double mid = (lo + hi) / 2;

		if (point(time_at, ctx, c, mid, &t, &da))
			return -1;
		if (t > thr) {
			hi = mid;
			hi_a = da;
			t_hi = t;
		} else {
			lo = mid;
			lo_a = da;
		}
	}
	dmax = knee(g, lo_a, hi_a, t_hi);
	c->dmax_extrapolated = dmax != lo_a;
	c->g_ns = g;
	c->dmax_ns = dmax;
	c->rose_at_first = dmax == 0;
	c->o_ns = g - dmax;
	return 0;
}
