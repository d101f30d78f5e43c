/* SPDX-License-Identifier: MIT */
/* tools/mpi/model.c — LogGP of an MPI layer from Figure 2's timers, and the
 * protocol decomposition of Al-Tawil & Moritz 2001 (tools/mpi/model.h). */
#include <math.h>

#include "method/fit.h"
#include "model.h"

const char *const mode_name[MODES] = {
	"MPI_Send", "MPI_Ssend", "MPI_Bsend", "MPI_Rsend", "MPI_Isend", "MPI_Issend", "MPI_Ibsend", "MPI_Irsend",
};

const char *const proto_name[PROTOS] = { "T", "TA", "RTA", "RAT" };

/* "Experimental Methodology": o_s by timer11, the non-blocking receive
 * overhead by timer21, L as timer21 - timer12 of the blocking synchronous
 * send (the receive that waits for the first data or protocol message, less
 * the receive that does not), g ~ o_s, and G from the blocking receive time
 * less the non-blocking receive overhead: its least-squares slope over the
 * sizes from 4 KiB up (where the per-byte part shows). */
void mpi_loggp_of(const struct fig2 *f, struct mpi_loggp *m)
{
	double x[MPI_MAX_SIZES], y[MPI_MAX_SIZES];
	struct fit_line line = { 0, 0 };   /* method/fit.c's least squares */
	int n = 0;

	m->o_s = f->t11[MODE_ISTANDARD][0];
	m->o_r = f->t21[MODE_ISTANDARD][0];
	m->L = f->t21[MODE_SYNCHRONOUS][0] - f->t12[MODE_SYNCHRONOUS][0];
	m->g = m->o_s;
	for (int i = 0; i < f->nsizes; i++)
		if (f->size[i] >= 4096) {
			x[n] = f->size[i];
			y[n++] = f->t21[MODE_STANDARD][i] - f->t21[MODE_ISTANDARD][i];
		}
	/* a slope of 0 or less is no per-byte cost: the blocking receive did not
	 * grow with the size (noise at the large sizes) */
	m->G_sizes = n;
	m->have_G = !fit_linear(x, y, n, &line) && line.b > 0;
	m->G = m->have_G ? line.b : 0;
}

/* Section 3.2: the sender may go on after (1) T: o_s; (3) TA: the two
 * messages' 2 o_s + 2 L + 2 o_r; (5) RTA: 2 o_s + 3 L + 2 o_r + (k-1) G;
 * (6) RAT: 4 o_s + 3 L + 2 o_r + (k-1) G. */
double proto_send_ns(const struct mpi_loggp *m, enum protocol p, double k)
{
	double kG = k > 1 ? (k - 1) * m->G : 0;

	switch (p) {
	case PROTO_T: return m->o_s;
	case PROTO_TA: return 2 * m->o_s + 2 * m->L + 2 * m->o_r;
	case PROTO_RTA: return 2 * m->o_s + 3 * m->L + 2 * m->o_r + kG;
	default: return 4 * m->o_s + 3 * m->L + 2 * m->o_r + kG;
	}
}

/* (2) T: o_s + L + o_r; (3) TA: 2 o_s + 2 L + 2 o_r; (4) RTA: 2 o_s + 2 L +
 * o_r + (k-1) G; (7) RAT: 4 o_s + 4 L + 3 o_r + (k-1) G. */
double proto_deliver_ns(const struct mpi_loggp *m, enum protocol p, double k)
{
	double kG = k > 1 ? (k - 1) * m->G : 0;

	switch (p) {
	case PROTO_T: return m->o_s + m->L + m->o_r;
	case PROTO_TA: return 2 * m->o_s + 2 * m->L + 2 * m->o_r;
	case PROTO_RTA: return 2 * m->o_s + 2 * m->L + m->o_r + kG;
	default: return 4 * m->o_s + 4 * m->L + 3 * m->o_r + kG;
	}
}

enum protocol proto_nearest(const struct mpi_loggp *m, double k, double send_ns)
{
	enum protocol best = PROTO_T;

	for (int p = 1; p < PROTOS; p++)
		if (fabs(proto_send_ns(m, p, k) - send_ns) < fabs(proto_send_ns(m, best, k) - send_ns))
			best = p;
	return best;
}
