/* SPDX-License-Identifier: MIT */
/* tools/mpi/fig2.c — the point-to-point benchmark of Al-Tawil & Moritz 2001,
 * Figure 2, exactly: P1 and P2 meet at a barrier, then
 *
 *   P1: timer11 around Send[type] to P2 (the send overhead); if non-blocking,
 *       test for completion; barrier; wait delta (for the message to
 *       arrive); timer12 around Receive[type] from P2 (the receive
 *       overhead); if non-blocking, test for completion.
 *   P2: timer21 around Receive[type] from P1 (for the blocking synchronous
 *       send, receive overhead plus latency); if non-blocking, test; barrier;
 *       timer22 around Send[type] to P1; if non-blocking, test.
 *
 * ten untimed repetitions first, then n timed ones (the paper: at least 600).
 * A ready-mode send needs its receive posted first (MPI says so): the
 * receiving rank posts it before the barrier, and its Receive is the wait
 * for that receive. The time is MPI_Wtime's, in ns.
 */
#include <stdlib.h>

#include "fig2.h"
#include "method/stats.h"
#include "wtime.h"

static void test_completion(MPI_Request *r)
{
	int done = 0;

	while (!done)
		MPI_Test(r, &done, MPI_STATUS_IGNORE);
}

static void send_of(enum mpi_mode m, void *buf, uint32_t size, int peer, MPI_Comm c, MPI_Request *r)
{
	switch (m) {
	case MODE_STANDARD: MPI_Send(buf, (int)size, MPI_BYTE, peer, 0, c); break;
	case MODE_SYNCHRONOUS: MPI_Ssend(buf, (int)size, MPI_BYTE, peer, 0, c); break;
	case MODE_BUFFERED: MPI_Bsend(buf, (int)size, MPI_BYTE, peer, 0, c); break;
	case MODE_READY: MPI_Rsend(buf, (int)size, MPI_BYTE, peer, 0, c); break;
	case MODE_ISTANDARD: MPI_Isend(buf, (int)size, MPI_BYTE, peer, 0, c, r); break;
	case MODE_ISYNCHRONOUS: MPI_Issend(buf, (int)size, MPI_BYTE, peer, 0, c, r); break;
	case MODE_IBUFFERED: MPI_Ibsend(buf, (int)size, MPI_BYTE, peer, 0, c, r); break;
	default: MPI_Irsend(buf, (int)size, MPI_BYTE, peer, 0, c, r); break;
	}
}

/* Receive[type]: blocking, or posting the non-blocking receive; for a ready
 * send, the wait for (or the test of) the receive posted before the barrier. */
static void recv_of(enum mpi_mode m, void *buf, uint32_t size, int peer, MPI_Comm c, MPI_Request *r, int posted)
{
	if (posted) {
		if (!MODE_NONBLOCKING(m))
			MPI_Wait(r, MPI_STATUS_IGNORE);
		return;
	}
	if (MODE_NONBLOCKING(m))
		MPI_Irecv(buf, (int)size, MPI_BYTE, peer, 0, c, r);
	else
		MPI_Recv(buf, (int)size, MPI_BYTE, peer, 0, c, MPI_STATUS_IGNORE);
}

int fig2_point(MPI_Comm pc, enum mpi_mode mode, uint32_t size, const struct fig2_opts *o, void *buf, double t[2])
{
	int me, peer, ready = mode == MODE_READY || mode == MODE_IREADY, nb = MODE_NONBLOCKING(mode);
	double *a = malloc(sizeof(double) * (size_t)o->reps), *b = malloc(sizeof(double) * (size_t)o->reps);
	double delta = o->delta_ns + 2.0 * size;

	if (!a || !b) {
		free(a);
		free(b);
		return -1;
	}
	MPI_Comm_rank(pc, &me);
	peer = !me;
	for (int i = -o->warm; i < o->reps; i++) {
		MPI_Request sr = MPI_REQUEST_NULL, rr = MPI_REQUEST_NULL;
		double t0, t1, t2, t3;

		if (me == 1 && ready)
			MPI_Irecv(buf, (int)size, MPI_BYTE, peer, 0, pc, &rr);
		MPI_Barrier(pc);
		if (me == 0) {
			t0 = now_ns();
			send_of(mode, buf, size, peer, pc, &sr);
			t1 = now_ns();                                  /* timer11 */
			if (nb)
				test_completion(&sr);
			if (ready)
				MPI_Irecv(buf, (int)size, MPI_BYTE, peer, 0, pc, &rr);
			MPI_Barrier(pc);
			compute_ns(delta);                      /* wait delta */
			t2 = now_ns();
			recv_of(mode, buf, size, peer, pc, &rr, ready);
			t3 = now_ns();                                  /* timer12 */
			if (nb)
				test_completion(&rr);
		} else {
			t0 = now_ns();
			recv_of(mode, buf, size, peer, pc, &rr, ready);
			t1 = now_ns();                                  /* timer21 */
			if (nb)
				test_completion(&rr);
			MPI_Barrier(pc);
			t2 = now_ns();
			send_of(mode, buf, size, peer, pc, &sr);
			t3 = now_ns();                                  /* timer22 */
			if (nb)
				test_completion(&sr);
		}
		if (i >= 0) {
			a[i] = t1 - t0;
			b[i] = t3 - t2;
		}
	}
	t[0] = stat_median(a, o->reps);
	t[1] = stat_median(b, o->reps);
	free(a);
	free(b);
	return 0;
}

int fig2_pingpong(MPI_Comm pc, uint32_t size, const struct fig2_opts *o, void *buf, double *half_rtt_ns)
{
	/* a large message's round trips are long: a hundredth as many, 10 at least */
	int me, iters = size > 65536 ? (o->pp_iters / 100 > 10 ? o->pp_iters / 100 : 10) : o->pp_iters;

	MPI_Comm_rank(pc, &me);
	*half_rtt_ns = 0;
	for (int run = -1; run < o->pp_runs; run++) {
		double t0;

		MPI_Barrier(pc);
		t0 = now_ns();
		for (int i = 0; i < iters; i++)
			if (me == 0) {
				MPI_Send(buf, (int)size, MPI_BYTE, 1, 1, pc);
				MPI_Recv(buf, (int)size, MPI_BYTE, 1, 1, pc, MPI_STATUS_IGNORE);
			} else {
				MPI_Recv(buf, (int)size, MPI_BYTE, 0, 1, pc, MPI_STATUS_IGNORE);
				MPI_Send(buf, (int)size, MPI_BYTE, 0, 1, pc);
			}
		if (me == 0 && run >= 0) {
			double h = (now_ns() - t0) / iters / 2;

			if (run == 0 || h < *half_rtt_ns)
				*half_rtt_ns = h;
		}
	}
	return 0;
}
