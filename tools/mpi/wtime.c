/* tools/mpi/wtime.c — the computation eel-mpi's benchmarks insert (Bell et
 * al. 2003 §4.3's, Al-Tawil & Moritz 2001 Figure 2's wait delta): a spin of
 * eel's cycle counter (include/eel/cycles.h), its rate measured against
 * MPI_Wtime. */
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
