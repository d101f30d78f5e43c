/* SPDX-License-Identifier: MIT */
/* tools/mpi/report.h — everything one eel-mpi run measured, and its JSON
 * document (schema "eel.mpi", tools/mpi/report_json.c; docs/launch.md, "The MPI
 * layer: eel-mpi", describes it). */
#ifndef EEL_TOOLS_MPI_REPORT_H
#define EEL_TOOLS_MPI_REPORT_H

#include "bell.h"
#include "eel_side.h"
#include "fig2.h"
#include "model.h"

#define MPI_SCHEMA_VERSION 2

struct mpi_run {
	int ranks;
	const struct fig2_opts *fo;
	const struct bell_opts *bo;
	int tier_peer[2];                /* intra-node, inter-node: rank 0's peer, or -1 */
	const struct fig2 *fig;          /* [2] */
	const struct mpi_loggp *loggp;   /* [2] */
	const double (*pp)[2];           /* [2][2]: half round trip at 8 B and at 1 MiB (ns) */
	const struct bell *bell;
	const char *uri;                 /* -d, or NULL */
	const struct eel_figs *eel;
	int have_netpipe;
	double np_lat_ns, np_bw_bytes_per_ns;   /* NetPIPE's latency at 8 B, bandwidth at 1 MiB */
	int np_tier;                            /* the tier whose ping-pong stands beside it */
	const char *command;
};

/* Writes the document to path whole (a temporary file beside it, renamed);
 * 0, or -1 with one line in err (nothing left at path then). */
/* Whether a document could be written there (before a long run); 0 or -1 with err. */
int mpi_json_check(const char *path, char *err, size_t errlen);
int mpi_json_write(const char *path, const struct mpi_run *r, char *err, size_t errlen);

#endif
