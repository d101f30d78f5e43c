/* SPDX-License-Identifier: MIT */
/* tools/mpi/bell.h — Bell et al. 2003's parameter set (section 4: EEL, o_s,
 * o_r, g, G) over MPI with non-blocking MPI_Isend and MPI_Irecv, between
 * the two ranks of a communicator (rank 0 the sender): the ping-pong
 * (bell_pingpong.c), the flood (bell_flood.c), the CPU-overlap test
 * (bell_overlap.c, its search in method/dmax.c). Times in ns, sizes in bytes. */
#ifndef EEL_TOOLS_MPI_BELL_H
#define EEL_TOOLS_MPI_BELL_H

#include <mpi.h>
#include <stdint.h>

#include "method/dmax.h"

#define BELL_MAX_SIZES 24
#define BELL_MAX_DEPTHS 16
#define BELL_MAX_RUNS 100
#define BELL_MAX_SWEEPS 9
#define BELL_TAG_DATA 31
#define BELL_TAG_REPLY 32

struct bell_opts {
	int iters, runs, warmup;          /* ping-pong: round trips per run, runs (their minimum), untimed before */
	uint32_t size[BELL_MAX_SIZES];    /* flood sizes, ascending; the first is g's (8 B) */
	int nsizes;
	uint32_t depth[BELL_MAX_DEPTHS];  /* flood queue depths */
	int ndepths;
	int flood_msgs;                   /* messages per flood run, at most ... */
	uint32_t flood_bytes;             /* ... and bytes */
	int flood_runs;
	int ov_msgs, ov_runs, ov_sweeps;  /* CPU-overlap: messages per point, runs per point, sweeps per side */
};

struct bell_flood_point {
	uint32_t size, q;
	int msgs;
	double min_ns, median_ns;         /* time per message over the runs */
};

/* one side of the CPU-overlap test: o over the sweeps, and the sweep whose o is their median */
struct bell_overlap {
	double o_ns, o_min_ns, o_max_ns;
	int nsweeps;
	struct overlap_curve curve;
};

struct bell {
	double eel_ns, eel_median_ns;     /* §4.1: RTT/2, the least and the median over runs of each run's mean */
	double g_ns;                      /* §4.2: 8 B, the best queue depth */
	uint32_t g_q;
	double G_ns_per_byte;             /* §4.2: slope over the bandwidth-bound sizes at g's depth; NAN: none */
	uint32_t G_q, G_from;
	int npt;
	struct bell_flood_point pt[BELL_MAX_SIZES * BELL_MAX_DEPTHS];
	struct bell_overlap os;           /* §4.3 */
	struct bell_overlap or_;          /* §4.3 as eel-bench: computation in isolation, then the rest received */
	struct bell_overlap or_irecv;     /* §4.3 for receive calls: computation between MPI_Irecv and MPI_Wait */
};

/* The whole set between the two ranks of pc; rank 0 gets it all. 0, or -1
 * (out of memory: said by the caller). Both ranks must pass the same o. */
int bell_measure(MPI_Comm pc, const struct bell_opts *o, struct bell *b);

/* The parts, on both ranks (rank 0 sends). */
int bell_pingpong(MPI_Comm pc, const struct bell_opts *o, char *buf, struct bell *b);
int bell_flood(MPI_Comm pc, const struct bell_opts *o, char *sbuf, char *rbuf, MPI_Request *r, struct bell *b);
/* iso, iso_r: ov_msgs x 8 bytes and ov_msgs requests (the receiver's, all posted at once) */
int bell_overlap(MPI_Comm pc, const struct bell_opts *o, char *buf, MPI_Request *r, char *iso, MPI_Request *iso_r,
		 struct bell *b);

/* One flood run (§4.2) of n messages of size bytes at depth q, with d ns of
 * computation between initiating each send and completing it (§4.3) on the
 * sender and between posting each receive and completing it on the
 * receiver (dr). The sender's time per message (to the receiver's reply)
 * or the receiver's (from the first message's arrival to the last's). */
double bell_flood_run(MPI_Comm pc, uint32_t size, uint32_t q, int n, double ds, double dr, char *buf,
		      MPI_Request *r);
/* g and G from the flood's points (no MPI: the unit test gives it points). */
void bell_flood_derive(const struct bell_opts *o, struct bell *b);

#endif
