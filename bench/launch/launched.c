/* SPDX-License-Identifier: MIT */
/* bench/launch/launched.c — eel-bench as one of N ranks started by mpirun or srun:
 * the mesh up (mesh.c), the patterns measured (patterns.c), rank 0's report
 * (report_mesh.c). Every rank says its own failures; rank 0 prints the
 * results. */
#include <stdio.h>
#include <stdlib.h>

#include "launch.h"
#include "mesh.h"

/* PMIx's launchers (mpirun, srun --mpi=pmix) set both in every rank. */
int launch_detected(void)
{
	return getenv("PMIX_RANK") && getenv("PMIX_NAMESPACE");
}

int launched_main(const struct cli *c, int argc, char **argv)
{
	static struct mesh m;
	static struct rank_res all[MESH_MAX];
	int rc = mesh_open(&m, c);

	if (!rc)
		rc = patterns_run(&m, c, all);
	if (!rc && m.rank == 0) {
		if (!c->quiet)
			report_mesh_table(stdout, &m, c, all);
		if (c->json && report_mesh_json(c->json, &m, c, all, argc, argv))
			rc = -1;
	}
	mesh_close(&m);
	return rc ? 1 : 0;
}
