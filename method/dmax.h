/* SPDX-License-Identifier: MIT */
/* method/dmax.h — the CPU-overlap test's search for D_max (Bell et al. 2003
 * §4.3), one rule for eel-bench (bench/overlap.c) and eel-mpi
 * (tools/mpi/bell_overlap.c) (method/dmax.c): the caller gives the time per
 * message at a computation of D ns. Times in ns. */
#ifndef EEL_METHOD_DMAX_H
#define EEL_METHOD_DMAX_H

/* At most 1 + 64 steps + 4 halvings are measured. */
#define OVERLAP_MAX_POINTS 96

struct overlap_curve {
	int n;                              /* the points measured, in order of D */
	double d_ns[OVERLAP_MAX_POINTS];    /* inserted computation per message, as measured */
	double t_ns[OVERLAP_MAX_POINTS];    /* time per message at it (the caller's: min over runs) */
	double g_ns;                        /* t at D = 0 */
	double dmax_ns;                     /* largest D that did not raise the time */
	int dmax_extrapolated;              /* D_max is the knee found from the rise past it, not a D measured */
	double o_ns;                        /* the overhead: g - D_max */
	int rose_at_first;                  /* the first D already raised it: o = g */
};

/* *t: the time per message at computation d asked for, *da: the computation
 * per message as measured; 0, or -1 to end the search. */
typedef int (*dmax_time_fn)(void *ctx, double d, double *t, double *da);

/* The search, its curve in *c; -1 when a measurement failed. */
int dmax_search(dmax_time_fn time_at, void *ctx, struct overlap_curve *c);

#endif
