/* SPDX-License-Identifier: MIT */
/* tools/mpi/fig2.h — Al-Tawil & Moritz 2001's Figure 2 between two ranks
 * (tools/mpi/fig2.c), and the blocking ping-pong beside it. */
#ifndef EEL_TOOLS_MPI_FIG2_H
#define EEL_TOOLS_MPI_FIG2_H

#include <mpi.h>

#include "model.h"

struct fig2_opts {
	int reps;          /* timed repetitions per mode and size (the paper: at least 600) */
	int warm;          /* untimed ones before (the paper: 10) */
	double delta_ns;   /* P1's wait before its receive, plus 2 ns a byte: the message is there */
	int pp_iters;      /* ping-pong round trips per run (over 64 KiB: a hundredth, 10 at least) */
	int pp_runs;
};

/* Figure 2 for one mode and size on the two ranks of pc (rank 0 is P1):
 * P1 gets the medians of timer11 and timer12, P2 of timer21 and timer22. */
int fig2_point(MPI_Comm pc, enum mpi_mode mode, uint32_t size, const struct fig2_opts *o, void *buf,
	       double t[2]);
/* Blocking standard-mode ping-pong of size bytes: on P1 the minimum over
 * runs of each run's mean half round trip (ns). */
int fig2_pingpong(MPI_Comm pc, uint32_t size, const struct fig2_opts *o, void *buf, double *half_rtt_ns);

#endif
