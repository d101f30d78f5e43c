/* SPDX-License-Identifier: MIT */
/* tools/mpi/bell_pingpong.c — Bell et al. 2003 §4.1, the ping-pong test over
 * MPI: an 8-byte message to the other rank, which receives it and replies
 * with another; the first blocks for the reply and starts again; --iters
 * round trips a run (the paper: 10,000), the total time over the round trips
 * halved is EEL, "the average time taken to get from a send call on one
 * processor to the end of the receive call on its remote counterpart"; the
 * least over runs (the paper: "the minimum observed timings over 10 runs or
 * more"). Non-blocking calls throughout (§4: "nonblocking 'put' operations
 * were used for all tests"): MPI_Irecv of the reply posted, MPI_Isend,
 * both waited for; the other rank's MPI_Irecv, wait, MPI_Isend, wait.
 */
#include "bell.h"
#include "method/stats.h"
#include "wtime.h"

#define EEL_BYTES 8

int bell_pingpong(MPI_Comm pc, const struct bell_opts *o, char *buf, struct bell *b)
{
	double v[BELL_MAX_RUNS], best = 0;
	int me;

	MPI_Comm_rank(pc, &me);
	for (int run = -1; run < o->runs; run++) {
		int iters = run < 0 ? o->warmup : o->iters;
		double t0;

		MPI_Barrier(pc);
		t0 = now_ns();
		for (int i = 0; i < iters; i++) {
			MPI_Request r[2];

			if (me == 0) {
				MPI_Irecv(buf + EEL_BYTES, EEL_BYTES, MPI_BYTE, 1, BELL_TAG_DATA, pc, &r[1]);
				MPI_Isend(buf, EEL_BYTES, MPI_BYTE, 1, BELL_TAG_DATA, pc, &r[0]);
				MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
			} else {
				MPI_Irecv(buf, EEL_BYTES, MPI_BYTE, 0, BELL_TAG_DATA, pc, &r[0]);
				MPI_Wait(&r[0], MPI_STATUS_IGNORE);
				MPI_Isend(buf, EEL_BYTES, MPI_BYTE, 0, BELL_TAG_DATA, pc, &r[1]);
				MPI_Wait(&r[1], MPI_STATUS_IGNORE);
			}
		}
		if (run >= 0 && iters) {
			v[run] = (now_ns() - t0) / iters / 2;
			best = run == 0 || v[run] < best ? v[run] : best;
		}
	}
	if (me == 0) {
		b->eel_ns = best;
		b->eel_median_ns = stat_median(v, o->runs);
	}
	return 0;
}
