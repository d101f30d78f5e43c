/* SPDX-License-Identifier: MIT */
/* tools/mpi/wtime.h — eel-mpi's clock: MPI_Wtime in ns, the computation a
 * benchmark inserts (tools/mpi/wtime.c: a spin on eel's cycle counter, the
 * CPU busy, MPI not called). */
#ifndef EEL_TOOLS_MPI_WTIME_H
#define EEL_TOOLS_MPI_WTIME_H

#include <mpi.h>

static inline double now_ns(void)
{
	return MPI_Wtime() * 1e9;
}

/* The cycle counter's rate against MPI_Wtime, measured once before any
 * timed region (20 ms). */
void compute_init(void);
/* d ns of computation, without a call into MPI: eel_spin_cycles, whose
 * least cost is two reads of the counter (a clock_gettime pair would add
 * tens of ns to the smallest D of the overlap test) */
void compute_ns(double d);
/* What compute_ns(d) inserts, measured: d and the spin's own reads of the
 * counter (the least of 3 means of 32 calls), 0 for d = 0. */
double compute_cost_ns(double d);
/* A barrier of c waited in 10 ms naps, not spun: for the ranks that wait
 * while others measure (or while eel-bench runs) on the same cores. */
void barrier_asleep(MPI_Comm c);

#endif
