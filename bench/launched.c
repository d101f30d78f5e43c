/* SPDX-License-Identifier: MIT */
/* bench/launched.c — eel-bench as one of N ranks started by mpirun or srun:
 * the mesh up (mesh.c), the patterns measured (patterns.c), rank 0's report
 * (report_mesh.c). Every rank says its own failures; rank 0 prints the
 * results. */
#include <stdio.h>

#include "mesh.h"

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
