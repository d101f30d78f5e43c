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

#define COST_CALLS 32 /* spins timed together for one D */
#define COST_TRIES 3  /* of which the least mean is D (noise only adds) */

double compute_cost_ns(double d)
{
	double best = -1;

	if (d <= 0)
		return 0;
	for (int k = 0; k < COST_TRIES; k++) {
		uint64_t c0 = eel_cycles();
		double x;

		for (int i = 0; i < COST_CALLS; i++)
			compute_ns(d);
		x = (double)(eel_cycles() - c0) / cycles_per_ns / COST_CALLS;
		best = best < 0 || x < best ? x : best;
	}
	return best;
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
