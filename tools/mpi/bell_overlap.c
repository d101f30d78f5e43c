/* tools/mpi/bell_overlap.c — Bell et al. 2003 §4.3, the CPU-overlap test over
 * MPI: "identical to the flood test with a message size of 8 bytes and a
 * queue depth of one, except that an increasing amount of computation is
 * gradually inserted ... between the calls that initiate and complete a
 * non-blocking send operation" (o_s: MPI_Isend, computation, MPI_Wait, timed
 * by the sender to the receiver's reply); "Receive side overhead o_r is
 * measured in a similar manner by inserting computation in between the
 * start and completion of non-blocking receive calls" (o_r: MPI_Irecv,
 * computation, MPI_Wait, timed by the receiver from the first message to
 * the last, as eel-bench times its receive side, bench/overlap.c). MPI has
 * receive calls, so the paper's other form for APIs without them (the
 * computation in isolation, then a quiet) is not the one taken here. The
 * search for D_max is sweep.c's; the measuring rank says each D to the
 * other (MPI_Bcast, before the point's barrier: not timed), a negative D
 * ends the sweep. Each point is the least of --overlap-runs runs; o is the
 * median of --overlap-sweeps sweeps, the curve that sweep's.
 */
#include <math.h>

#include "bell.h"
#include "wtime.h"

enum side { SEND_SIDE, RECV_SIDE };

struct point_ctx {
	MPI_Comm pc;
	const struct bell_opts *o;
	char *buf;
	MPI_Request *r;
	enum side side;
};

/* one point on both ranks: the measuring rank's least time over the runs */
static double run_point(const struct point_ctx *c, double d)
{
	double best = 0;

	for (int run = 0; run < c->o->ov_runs; run++) {
		double t = bell_flood_run(c->pc, 8, 1, c->o->ov_msgs, c->side == SEND_SIDE ? d : 0,
					  c->side == RECV_SIDE ? d : 0, c->buf, c->r);

		best = run == 0 || t < best ? t : best;
	}
	return best;
}

static int time_at(void *ctx, double d, double *t)
{
	const struct point_ctx *c = ctx;

	MPI_Bcast(&d, 1, MPI_DOUBLE, c->side == SEND_SIDE ? 0 : 1, c->pc);
	*t = run_point(c, d);
	return 0;
}

/* The side's sweeps on the measuring rank (the sender for o_s, the receiver
 * for o_r), the other following. */
static void side_run(MPI_Comm pc, const struct bell_opts *o, char *buf, MPI_Request *r, enum side side,
		     struct bell_overlap *ov)
{
	static struct sweep sw[BELL_MAX_SWEEPS];
	struct point_ctx c = { pc, o, buf, r, side };
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
		sweep_run(time_at, &c, &sw[k]);
		v[k] = sw[k].o_ns;
	}
	MPI_Bcast(&stop, 1, MPI_DOUBLE, root, pc);
	ov->nsweeps = o->ov_sweeps;
	ov->o_ns = median_of(v, o->ov_sweeps);
	ov->o_min_ns = v[0];
	ov->o_max_ns = v[o->ov_sweeps - 1];
	ov->curve = sw[0];
	for (int k = 1; k < o->ov_sweeps; k++)
		if (fabs(sw[k].o_ns - ov->o_ns) < fabs(ov->curve.o_ns - ov->o_ns))
			ov->curve = sw[k];
}

int bell_overlap(MPI_Comm pc, const struct bell_opts *o, char *buf, MPI_Request *r, struct bell *b)
{
	int me;

	MPI_Comm_rank(pc, &me);
	side_run(pc, o, buf, r, SEND_SIDE, &b->os);
	side_run(pc, o, buf, r, RECV_SIDE, &b->or_);
	/* the receive side's result to rank 0, after the timed regions */
	if (me == 1)
		MPI_Send(&b->or_, (int)sizeof(b->or_), MPI_BYTE, 0, BELL_TAG_REPLY, pc);
	else
		MPI_Recv(&b->or_, (int)sizeof(b->or_), MPI_BYTE, 1, BELL_TAG_REPLY, pc, MPI_STATUS_IGNORE);
	return 0;
}
