/* SPDX-License-Identifier: MIT */
/* bench/flood.h — Bell et al. 2003 4.2's flood (g, G, 1/G, M): its result, its runs, and its rows in the report. */
#ifndef EEL_BENCH_FLOOD_H
#define EEL_BENCH_FLOOD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "plan.h"
#include "method/stats.h"

struct session;
struct results;
struct json;

struct flood_point {
	uint32_t size, q, msgs;
	struct stat t;         /* ns per message over the runs */
	double *run;           /* ns per message of each run, in the order run */
	int nrun;
};

struct flood_res {
	int done;
	struct flood_point *pt;
	int npt;
	double g_ns;           /* best 8-byte gap over queue depths (Bell et al. 2003 Fig. 6) */
	uint32_t g_q;
	double G_ns_per_byte;  /* per-byte gap (Bell et al. 2003 §4.2): least squares over the bandwidth-bound sizes */
	uint32_t G_q;          /* ... at the depth that gave g */
	uint32_t G_min_size;   /* the smallest size in the fit (the largest is the flood's) */
	double bw_bytes_per_ns;/* 1/G */
	double M_bytes;        /* g/G (Bell et al. 2003 §5.5) */
	/* the same run by run (run r of the largest size less run r of the
	 * smallest, at G's depth): how far G, 1/G and g/G are known */
	struct stat G_runs, bw_runs, M_runs;
	int G_runs_none;       /* runs that gave no G (their large puts no slower): not in G_runs */
};

int flood_run(struct session *s, struct results *r);
/* The most buffer memory a flood point may need at each end (every message has
 * its own destination, for --verify): 8 GiB, messages up to 64 MiB. */
#define FLOOD_MAX_BYTES (1ull << 33)
/* The plan's rule for a flood or overlap run: size -> messages per run
 * (flood_bytes' worth, at least FLOOD_MIN_MSGS, at most flood_msgs). An
 * inline of the plan's, so that the session can size its buffers without
 * calling into flood.c, which calls the session. */
#define FLOOD_MIN_MSGS 128u
static inline uint32_t flood_msgs_for(const struct plan *p, uint32_t size)
{
	uint32_t n = p->flood_bytes / size;

	if (n < FLOOD_MIN_MSGS)
		n = FLOOD_MIN_MSGS;
	return n < p->flood_msgs ? n : p->flood_msgs;
}
/* The places a run's messages go to at each end (flood.c): the first n - 1
 * cycle through a window of FLOOD_WARM_BYTES (at least two places; every
 * message its own with --flood-memory cold), the last has the next place; a
 * place is the size wide, at least an 8-byte word (a message under 8 bytes
 * is its mark's word: verify.h). Inlines, for the session's buffers. */
#define FLOOD_WARM_BYTES (256u << 10)
static inline uint32_t flood_slots(const struct plan *p, uint32_t size, uint32_t n)
{
	uint32_t slots = FLOOD_WARM_BYTES / size < 2 ? 2 : FLOOD_WARM_BYTES / size;

	return p->flood_cold || slots > n - 1 ? n - 1 : slots;
}
static inline size_t flood_stride(uint32_t size)
{
	return size < 8 ? 8 : size;
}
static inline size_t flood_window_bytes(const struct plan *p, uint32_t size, uint32_t n)
{
	return (size_t)(flood_slots(p, size, n) + 1) * flood_stride(size);
}
/* one run of a flood point on this end (client: ns per message); a flood
 * from several senders to this end, and from this end to several receivers
 * (Culler et al. 1996, "Validation of communication scaling") */
#define FLOOD_MAX_PEERS 64
int flood_one(struct session *s, uint32_t size, uint32_t q, double *ns);
/* ... of n messages (the size sweep's own count: sweep.h) */
int flood_once(struct session *s, uint32_t size, uint32_t q, uint32_t n, double *ns);
int flood_serve_many(struct session **s, int k, uint32_t size);
int flood_send_many(struct session **s, int k, uint32_t size, uint32_t q, double *ns);
/* g, G, bandwidth and M from the flood points (exposed for tests) */
void flood_derive(const struct session *s, struct flood_res *f);
/* Did the flood measure G? flood_derive leaves G_ns_per_byte 0 where no
 * size's time grew with it (FLOOD_G_UNMEASURED): then G, its bandwidth and
 * M are no figures, and nothing derived from them is either. */
static inline int flood_G_measured(const struct flood_res *f)
{
	return f->G_ns_per_byte > 0;
}

/* flood_report.c: its rows in the table (g, G, bandwidth, M; the curves under -v)
 * and in the JSON (parameters: g, G, bandwidth, M; curves: flood) */
void flood_table_rows(FILE *f, const struct session *s, const struct results *r);
void flood_table_curves(FILE *f, const struct results *r);
/* Why G has no figure (G_ns_per_byte 0: flood_derive found no size whose
 * time grew with it), in the JSON's G.why and the table's warning. */
#define FLOOD_G_UNMEASURED "the largest messages were not slower than the smallest: G could not be measured " \
			   "(widen --sizes)"
void flood_json_parameters(struct json *j, const struct session *s, const struct results *r);
void flood_json_curves(struct json *j, const struct results *r);

#endif
