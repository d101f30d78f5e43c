/* SPDX-License-Identifier: MIT */
/* tools/mpi/wtime.c — the computation eel-mpi's benchmarks insert (Bell et
 * al. 2003 §4.3's, Al-Tawil & Moritz 2001 Figure 2's wait delta): a spin of
 * eel's cycle counter (include/eel/cycles.h), its rate measured against
 * MPI_Wtime. */
#include <time.h>

#include <eel/cycles.h>

#include "wtime.h"

static double cycles_per_ns;

void compute_init(void)
{
	double t0 = now_ns(), t1;
	uint64_t c0 = eel_cycles(), c1;

	do {
		t1 = now_ns();
		c1 = eel_cycles();
	} while (t1 - t0 < 2e7);
	cycles_per_ns = (double)(c1 - c0) / (t1 - t0);
}

void compute_ns(double d)
{
	if (d > 0)
		eel_spin_cycles((uint64_t)(d * cycles_per_ns + 0.5));
}

double compute_cost_ns(double d)
{
	return d > 0 ? eel_spin_cost_cycles((uint64_t)(d * cycles_per_ns + 0.5), 0) / cycles_per_ns : 0;
}

void barrier_asleep(MPI_Comm c)
{
	struct timespec nap = { 0, 10 * 1000 * 1000 };
	MPI_Request r;
	int done = 0;

	MPI_Ibarrier(c, &r);
	for (MPI_Test(&r, &done, MPI_STATUS_IGNORE); !done; MPI_Test(&r, &done, MPI_STATUS_IGNORE))
		nanosleep(&nap, NULL);
}
