/* SPDX-License-Identifier: MIT */
/* tools/mpi/bell_overlap.c — Bell et al. 2003 §4.3, the CPU-overlap test over
 * MPI: "identical to the flood test with a message size of 8 bytes and a
 * queue depth of one, except that an increasing amount of computation is
 * gradually inserted ... between the calls that initiate and complete a
 * non-blocking send operation" (o_s: MPI_Isend, computation, MPI_Wait, timed
 * by the sender to the receiver's reply).
 *
 * o_r as eel-bench measures it (bench/overlap.c), so that MPI's o_r and
 * eel's come from one method: "the computation is done in isolation,
 * followed by a 'quiet' call to guarantee all messages have been received"
 * -- the receiver's n MPI_Irecv posted before the point's barrier, the first
 * message waited for (its clock starts), (n - 1) x D of computation with no
 * call into MPI, then one MPI_Waitall for the rest; its time per message
 * rises once D + o_r exceeds the gap. And the paper's form for APIs with
 * receive calls, which MPI has: "inserting computation in between the start
 * and completion of non-blocking receive calls" (MPI_Irecv, D, MPI_Wait
 * for each message, timed by the receiver from the first message to the
 * last), given beside it as o_r (MPI_Irecv/MPI_Wait).
 *
 * The search for D_max is method/dmax.c's (eel-bench's rule); the
 * measuring rank says each D to the other (MPI_Bcast, before the point's
 * barrier: not timed), a negative D ends the sweep. Each point is the least of --overlap-runs runs; o is the
 * median of --overlap-sweeps sweeps, the curve that sweep's.
 */
#include <math.h>

#include "bell.h"
#include "method/stats.h"
#include "wtime.h"

enum side { SEND_SIDE, RECV_ISOLATED, RECV_SIDE };

struct point_ctx {
	MPI_Comm pc;
	const struct bell_opts *o;
	char *buf;
	MPI_Request *r;
	char *iso;             /* ov_msgs x 8 bytes, and their requests: RECV_ISOLATED's receiver */
	MPI_Request *iso_r;
	enum side side;
};

/* RECV_ISOLATED's receiver: every receive posted, the first message waited
 * for, (n - 1) x d of computation, then all the rest at once (the quiet);
 * ns per message from the first one's arrival. The sender is the flood's. */
static double recv_isolated(const struct point_ctx *c, double d)
{
	int n = c->o->ov_msgs;
	double t0, t;

	for (int i = 0; i < n; i++)
		MPI_Irecv(c->iso + (size_t)i * 8, 8, MPI_BYTE, 0, BELL_TAG_DATA, c->pc, &c->iso_r[i]);
	MPI_Barrier(c->pc);
	MPI_Wait(&c->iso_r[0], MPI_STATUS_IGNORE);
	t0 = now_ns();
	for (int i = 1; i < n; i++)
		compute_ns(d);   /* the computation, in isolation */
	MPI_Waitall(n - 1, c->iso_r + 1, MPI_STATUSES_IGNORE);
	t = (now_ns() - t0) / (n - 1);
	MPI_Send(NULL, 0, MPI_BYTE, 0, BELL_TAG_REPLY, c->pc);
	return t;
}

/* one point on both ranks: the measuring rank's least time over the runs */
static double run_point(const struct point_ctx *c, double d)
{
	double best = 0;
	int me;

	MPI_Comm_rank(c->pc, &me);
	for (int run = 0; run < c->o->ov_runs; run++) {
		double t = c->side == RECV_ISOLATED && me == 1 ? recv_isolated(c, d) : bell_flood_run(c->pc, 8, 1, c->o->ov_msgs, c->side == SEND_SIDE ? d : 0,
					  c->side == RECV_SIDE ? d : 0, c->buf, c->r);

		best = run == 0 || t < best ? t : best;
	}
	return best;
}

static int time_at(void *ctx, double d, double *t, double *da)
{
	const struct point_ctx *c = ctx;

	MPI_Bcast(&d, 1, MPI_DOUBLE, c->side == SEND_SIDE ? 0 : 1, c->pc);
	*t = run_point(c, d);
	*da = compute_cost_ns(d);
	return 0;
}

/* The side's sweeps on the measuring rank (the sender for o_s, the receiver
 * for o_r), the other following. */
static void side_run(MPI_Comm pc, const struct bell_opts *o, char *buf, MPI_Request *r, char *iso,
		     MPI_Request *iso_r, enum side side, struct bell_overlap *ov)
{
	static struct overlap_curve sw[BELL_MAX_SWEEPS];
	struct point_ctx c = { pc, o, buf, r, iso, iso_r, side };
	int me, root = side == SEND_SIDE ? 0 : 1;
	double v[BELL_MAX_SWEEPS], stop = -1;

	MPI_Comm_rank(pc, &me);
	if (me != root) {
		for (;;) {
			double d;

			MPI_Bcast(&d, 1, MPI_DOUBLE, root, pc);
			if (d < 0)
				return;
			run_point(&c, d);
		}
	}
	for (int k = 0; k < o->ov_sweeps; k++) {
		dmax_search(time_at, &c, &sw[k]);
		v[k] = sw[k].o_ns;
	}
	MPI_Bcast(&stop, 1, MPI_DOUBLE, root, pc);
	ov->nsweeps = o->ov_sweeps;
	ov->o_ns = stat_median(v, o->ov_sweeps);
	ov->o_min_ns = v[0];
	ov->o_max_ns = v[o->ov_sweeps - 1];
	ov->curve = sw[0];
	for (int k = 1; k < o->ov_sweeps; k++)
		if (fabs(sw[k].o_ns - ov->o_ns) < fabs(ov->curve.o_ns - ov->o_ns))
			ov->curve = sw[k];
}

int bell_overlap(MPI_Comm pc, const struct bell_opts *o, char *buf, MPI_Request *r, char *iso, MPI_Request *iso_r,
		 struct bell *b)
{
	int me;

	MPI_Comm_rank(pc, &me);
	side_run(pc, o, buf, r, iso, iso_r, SEND_SIDE, &b->os);
	side_run(pc, o, buf, r, iso, iso_r, RECV_ISOLATED, &b->or_);
	side_run(pc, o, buf, r, iso, iso_r, RECV_SIDE, &b->or_irecv);
	/* the receive side's results to rank 0, after the timed regions */
	if (me == 1) {
		MPI_Send(&b->or_, (int)sizeof(b->or_), MPI_BYTE, 0, BELL_TAG_REPLY, pc);
		MPI_Send(&b->or_irecv, (int)sizeof(b->or_irecv), MPI_BYTE, 0, BELL_TAG_REPLY, pc);
	} else {
		MPI_Recv(&b->or_, (int)sizeof(b->or_), MPI_BYTE, 1, BELL_TAG_REPLY, pc, MPI_STATUS_IGNORE);
		MPI_Recv(&b->or_irecv, (int)sizeof(b->or_irecv), MPI_BYTE, 1, BELL_TAG_REPLY, pc, MPI_STATUS_IGNORE);
	}
	return 0;
}
