/* tools/mpi/wtime.h — eel-mpi's clock: MPI_Wtime in ns, the computation a
 * benchmark inserts (a spin on that clock: the CPU busy, MPI not called),
 * and the median of a set of times. */
#ifndef EEL_TOOLS_MPI_WTIME_H
#define EEL_TOOLS_MPI_WTIME_H

#include <mpi.h>
#include <stdlib.h>

static inline double now_ns(void)
{
	return MPI_Wtime() * 1e9;
}

/* d ns of computation, without a call into MPI */
static inline void compute_ns(double d)
{
	for (double end = now_ns() + d; d > 0 && now_ns() < end;)
		;
}

static inline int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* sorts v */
static inline double median_of(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#endif
