/* SPDX-License-Identifier: MIT */
/* tests/unit/test_mpi_sweep.c — eel-mpi's CPU-overlap search (method/dmax.c,
 * eel-bench's too; Bell et al. 2003 §4.3) on known curves: a time per message of max(g, o + D)
 * gives D_max = g - o and o; a send overhead that is the gap (o + D from the
 * first D) gives o = g, rose_at_first; one slow point the next step does not
 * confirm is not the edge; a failing measurement ends the sweep. */
#include "check.h"
#include "method/dmax.h"

struct curve {
	double g, o, spike_at, spike, floor; /* floor: what a spin costs beyond its d */
	int calls, fail_at;
};

static int time_at(void *ctx, double d, double *t, double *da)
{
	struct curve *c = ctx;

	if (++c->calls == c->fail_at)
		return -1;
	*da = d > 0 ? d + c->floor : 0; /* the spin's own cost on top */
	*t = c->o + *da > c->g ? c->o + *da : c->g;
	if (c->spike_at > 0 && d == c->spike_at)
		*t += c->spike;
	return 0;
}

int main(void)
{
	static struct overlap_curve s;
	struct curve c = { .g = 1000, .o = 300 };

	CHECK_EQ_U(dmax_search(time_at, &c, &s), 0);
	CHECK_EQ_D(s.g_ns, 1000, 0);
	CHECK_EQ_D(s.dmax_ns, 700, 1e-9);
	CHECK_EQ_D(s.o_ns, 300, 1e-9);
	CHECK(!s.rose_at_first, "D_max 700 > 0");
	CHECK(s.n >= 2 && s.n <= OVERLAP_MAX_POINTS, "%d points kept", s.n);
	for (int i = 1; i < s.n; i++)
		CHECK(s.d_ns[i] >= s.d_ns[i - 1], "the curve in order of D at %d", i);

	c = (struct curve){ .g = 800, .o = 800 };
	CHECK_EQ_U(dmax_search(time_at, &c, &s), 0);
	CHECK_EQ_D(s.o_ns, 800, 1e-9);
	CHECK(s.rose_at_first && s.dmax_ns == 0, "o = g when the first D raises the time");

	/* one slow point at 2 g/16, not confirmed by 3 g/16: the edge stays at 700 */
	c = (struct curve){ .g = 1000, .o = 300, .spike_at = 125, .spike = 500 };
	CHECK_EQ_U(dmax_search(time_at, &c, &s), 0);
	CHECK_EQ_D(s.o_ns, 300, 1e-9);

	/* a small g, whose halvings go under the spin's own cost (24 ns): the
	 * knee at 5 ns from the D measured (taken as asked for, it was o = g) */
	c = (struct curve){ .g = 400, .o = 395, .floor = 24 };
	CHECK_EQ_U(dmax_search(time_at, &c, &s), 0);
	CHECK(!s.rose_at_first, "a knee at 5 ns under a floor of 24 taken for o = g");
	CHECK_EQ_D(s.o_ns, 395, 400.0 / 256);

	c = (struct curve){ .g = 1000, .o = 300, .fail_at = 3 };
	CHECK(dmax_search(time_at, &c, &s) == -1, "a failed point ends the sweep with -1");
	CHECK_DONE();
}
