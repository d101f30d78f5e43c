/* SPDX-License-Identifier: MIT */
/* tools/mpi/sweep.c — Bell et al. 2003 §4.3, the CPU-overlap test's search:
 * "By taking the maximum amount of CPU time that can be added without
 * increasing the benchmark time, and subtracting it from g, the send
 * overhead (o_s) can be inferred ... even a trivial amount of inserted
 * computation increases the benchmark's time, and so o_s = g"; o_r likewise
 * on the receiving side. The search is eel-bench's (bench/overlap.c), so
 * that MPI's figures and eel's come from one rule: D rises in steps of g/16
 * until the time is more than 3% above g, a rise confirmed by the next step;
 * then four halvings of the interval; D_max is put at the knee, the
 * smallest D seen to raise the time less that rise (past the knee each
 * message costs o + D), no higher than the last D that did not raise it
 * (when one did not). D is the computation as measured (the caller's *da),
 * not the D asked for, which a small D's spin overshoots.
 */
#include "sweep.h"

#define STEPS 16       /* the first pass: D in steps of g/16 */
#define HALVINGS 4     /* then the edge to g/256 */
#define RISE 0.03      /* a time more than 3% above g has risen */

static int point(sweep_time_fn time_at, void *ctx, struct sweep *s, double d, double *t, double *da)
{
	int at = s->n;

	if (time_at(ctx, d, t, da))
		return -1;
	d = *da;
	if (s->n == SWEEP_MAX_STEPS)
		return 0;
	while (at > 0 && s->d_ns[at - 1] > d) {    /* kept in order of D */
		s->d_ns[at] = s->d_ns[at - 1];
		s->t_ns[at] = s->t_ns[at - 1];
		at--;
	}
	s->d_ns[at] = d;
	s->t_ns[at] = *t;
	s->n++;
	return 0;
}

int sweep_run(sweep_time_fn time_at, void *ctx, struct sweep *s)
{
	/* ok, raised, first_rise: the D asked for (the steps and halvings);
	 * the _a: the same as measured, which the knee is in */
	double g, limit, step, t, da, ok = 0, raised = 0, t_raised = 0, first_rise = 0, t_first = 0, knee;
	double ok_a = 0, raised_a = 0, first_a = 0;

	s->n = 0;
	if (point(time_at, ctx, s, 0, &g, &da))
		return -1;
	limit = g * (1 + RISE);
	step = g / STEPS;
	for (int k = 1; k <= 4 * STEPS && !raised; k++) {
		if (point(time_at, ctx, s, k * step, &t, &da))
			return -1;
		if (t <= limit) {
			ok = k * step;
			ok_a = da;
			first_rise = 0;
		} else if (first_rise) {
			raised = first_rise;       /* confirmed by this step */
			raised_a = first_a;
			t_raised = t_first;
		} else {
			first_rise = k * step;
			first_a = da;
			t_first = t;
		}
	}
	if (!raised) {
		raised = first_rise ? first_rise : ok;
		raised_a = first_rise ? first_a : ok_a;
		t_raised = t_first;
	}
	for (int h = 0; h < HALVINGS && raised > ok; h++) {
		double mid = (ok + raised) / 2;

		if (point(time_at, ctx, s, mid, &t, &da))
			return -1;
		if (t > limit) {
			raised = mid;
			raised_a = da;
			t_raised = t;
		} else {
			ok = mid;
			ok_a = da;
		}
	}
	knee = raised_a > ok_a ? raised_a - (t_raised - g) : ok_a;
	if (ok_a > 0 && knee > ok_a)
		knee = ok_a; /* none did not raise it: the knee may lie under the least D a point inserts */
	s->dmax_ns = knee > 0 ? knee : 0;
	s->g_ns = g;
	s->o_ns = g - s->dmax_ns;
	s->rose_at_first = s->dmax_ns == 0;
	return 0;
}
