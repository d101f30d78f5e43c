/* SPDX-License-Identifier: MIT */
/* tools/mpi/sweep.h — the CPU-overlap test's search for D_max (Bell et al.
 * 2003 §4.3), with no MPI in it (tools/mpi/sweep.c): the caller gives the
 * time per message at a computation of D ns. Times in ns. */
#ifndef EEL_TOOLS_MPI_SWEEP_H
#define EEL_TOOLS_MPI_SWEEP_H

#define SWEEP_MAX_STEPS 96

struct sweep {
	int n;                          /* the points measured, in order of D */
	double d_ns[SWEEP_MAX_STEPS];   /* the computation inserted per message, as measured */
	double t_ns[SWEEP_MAX_STEPS];   /* the time per message at it */
	double g_ns;                    /* the time at D = 0 */
	double dmax_ns;                 /* the largest D that does not raise it */
	double o_ns;                    /* g - D_max */
	int rose_at_first;              /* the first D raised it: o = g */
};

/* *t: the time per message at computation d asked for (the least over
 * runs), *da: the computation per message as measured; 0 or -1. */
typedef int (*sweep_time_fn)(void *ctx, double d, double *t, double *da);

int sweep_run(sweep_time_fn time_at, void *ctx, struct sweep *s);

#endif
