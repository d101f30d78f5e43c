/* SPDX-License-Identifier: MIT */
/* bench/launch/launch_none.c — launch.h for an eel-bench built without PMIx's
 * development files (bench/launch/launch.mk): a process started by mpirun or srun is
 * still recognised, and told how to get launched mode instead of running as
 * if it were alone. */
#include <stdio.h>
#include <string.h>

#include "launch.h"

const char *launch_missing(void)
{
	return "this eel-bench was built without PMIx (pkg-config pmix found nothing), so it cannot run "
	       "under mpirun or srun: run `sudo tools/setup mpi`, then rebuild eel (make)";
}

int launch_init(struct launch *l)
{
	snprintf(l->err, sizeof(l->err), "%s", launch_missing());
	l->priv = NULL;
	return -1;
}

int launch_put(struct launch *l, const char *key, const void *buf, size_t len)
{
	return launch_init(l);
}

int launch_exchange(struct launch *l)
{
	return launch_init(l);
}

int launch_get(struct launch *l, int rank, const char *key, void *buf, size_t cap, size_t *len)
{
	*len = 0;
	return launch_init(l);
}

int launch_barrier(struct launch *l)
{
	return launch_init(l);
}

void launch_fini(struct launch *l)
{
	memset(l, 0, sizeof(*l));
}
