/* SPDX-License-Identifier: MIT */
/* tools/mpi/model.h — LogGP of an MPI layer from Al-Tawil & Moritz 2001's
 * timers (tools/mpi/model.c): no MPI here, so that the unit test can give
 * it known timings. Times in ns, sizes in bytes. */
#ifndef EEL_TOOLS_MPI_MODEL_H
#define EEL_TOOLS_MPI_MODEL_H

#include <stdint.h>

/* The eight send modes of MPI (Al-Tawil & Moritz 2001, Table 1). */
enum mpi_mode {
	MODE_STANDARD, MODE_SYNCHRONOUS, MODE_BUFFERED, MODE_READY,            /* blocking */
	MODE_ISTANDARD, MODE_ISYNCHRONOUS, MODE_IBUFFERED, MODE_IREADY,        /* non-blocking */
	MODES
};
#define MODE_NONBLOCKING(m) ((m) >= MODE_ISTANDARD)
extern const char *const mode_name[MODES];   /* "MPI_Send", ... */

#define MPI_MAX_SIZES 24

/* The medians of Figure 2's four timers for each mode and size. */
struct fig2 {
	int nsizes;
	uint32_t size[MPI_MAX_SIZES];
	double t11[MODES][MPI_MAX_SIZES];  /* P1 around its send: the send overhead */
	double t12[MODES][MPI_MAX_SIZES];  /* P1 around its receive, the message there: blocking receive overhead */
	double t21[MODES][MPI_MAX_SIZES];  /* P2 around its receive from a barrier: overhead (+ latency, + transfer) */
	double t22[MODES][MPI_MAX_SIZES];  /* P2 around its send */
};

/* Al-Tawil & Moritz 2001, "Experimental Methodology" and section 3.2. */
struct mpi_loggp {
	double o_s, o_r;   /* non-blocking standard send (timer11) and receive (timer21) at the smallest size */
	double L;          /* blocking synchronous, smallest size: timer21 - timer12 (an upper bound) */
	double g;          /* ~ o_s: "the minimum distance between consecutive sends can be approximated with a send overhead" */
	double G;          /* ns/B: slope of the blocking receive time (timer21) less the non-blocking receive overhead */
	int have_G;          /* 0: too few sizes of 4 KiB or more (G_sizes < 2), or the slope was not > 0 */
	int G_sizes;
};

/* The protocols of Figure 1 and the times formulas (1)-(7) give them. */
enum protocol { PROTO_T, PROTO_TA, PROTO_RTA, PROTO_RAT, PROTOS };
extern const char *const proto_name[PROTOS];
/* The sender's time of protocol p for a k-byte message: (1) T, (3) TA, (5) RTA, (6) RAT. */
double proto_send_ns(const struct mpi_loggp *m, enum protocol p, double k);
/* The end-to-end delivery time: (2) T, (3) TA, (4) RTA, (7) RAT. */
double proto_deliver_ns(const struct mpi_loggp *m, enum protocol p, double k);
/* The protocol whose sender time is nearest a measured one. */
enum protocol proto_nearest(const struct mpi_loggp *m, double k, double send_ns);

void mpi_loggp_of(const struct fig2 *f, struct mpi_loggp *m);

#endif
