/* SPDX-License-Identifier: MIT */
/* bench/launch/launch.h — eel-bench started by a launcher (mpirun, srun): the ranks
 * find each other through PMIx (bench/launch/launch_pmix.c). PMIx carries only what
 * the ranks must know of each other, between timed regions: endpoints before
 * the first, results after the last, and its fences as barriers between them;
 * never a timed message.
 */
#ifndef EEL_BENCH_LAUNCH_H
#define EEL_BENCH_LAUNCH_H

#include <stddef.h>

struct launch {
	int rank, size;
	int local_size;      /* ranks on this machine, as the launcher says (PMIX_LOCAL_SIZE); 0: not said */
	void *priv;          /* the PMIx state (launch_pmix.c) */
	char err[256];       /* the last failure: what and the fix */
};

/* Was this process started by a PMIx launcher (PMIX_RANK and PMIX_NAMESPACE set)? */
int launch_detected(void);
/* NULL when eel-bench was built with PMIx; else why launched mode is missing
 * and how to get it (bench/launch/launch_none.c stands in for launch_pmix.c). */
const char *launch_missing(void);
/* PMIx_Init; rank and size. 0, or -1 with l->err. */
int launch_init(struct launch *l);
/* PMIx_Put of a blob under key, visible to every rank after launch_exchange. */
int launch_put(struct launch *l, const char *key, const void *buf, size_t len);
/* PMIx_Commit, then one PMIx_Fence over all ranks that collects the data. */
int launch_exchange(struct launch *l);
/* PMIx_Get of rank's blob under key into buf (at most cap bytes); *len its size. */
int launch_get(struct launch *l, int rank, const char *key, void *buf, size_t cap, size_t *len);
/* A PMIx_Fence that carries nothing: a barrier between timed regions. */
int launch_barrier(struct launch *l);
void launch_fini(struct launch *l);

#endif
