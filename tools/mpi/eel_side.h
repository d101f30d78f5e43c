/* SPDX-License-Identifier: MIT */
/* tools/mpi/eel_side.h — eel's own figures on the hosts and NIC of ranks 0
 * and 1 (tools/mpi/eel_side.c): eel-bench's two-host TCP mode run as a
 * child of each, before the MPI measurements. */
#ifndef EEL_TOOLS_MPI_EEL_SIDE_H
#define EEL_TOOLS_MPI_EEL_SIDE_H

#include <mpi.h>
#include <stddef.h>

#include "bell.h"

struct eel_side_opts {
	const char *uri;          /* -d */
	const char *bench;        /* --eel-bench, or NULL: eel-bench beside this program */
	int timeout_s;            /* a child still running after this is killed */
};

/* eel-bench's Bell et al. 2003 figures (its --json "parameters") */
struct eel_figs {
	double eel_ns, o_s_ns, o_r_ns, g_ns, G_ns_per_byte;
	/* o_s and o_r not separable on eel's NIC (eel.run 7: it runs on the host's
	 * CPU): o_s_ns and o_r_ns are then the CPU-overlap test's g(q=1) - D_max,
	 * which holds the NIC's work too, as they always did there */
	int not_separable;
	char backend[64];
	char server_host[256];
	int port;
};

/* Collective over world (every rank calls it; ranks 0 and 1 run eel-bench
 * with the measurement counts of o). 0 on every rank, rank 0 holding f; or
 * -1 on every rank, rank 0 holding one line in err naming the problem and
 * the fix. */
int eel_side_run(MPI_Comm world, const struct eel_side_opts *e, const struct bell_opts *o, struct eel_figs *f,
		 char *err, size_t errlen);

#endif
