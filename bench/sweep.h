/* SPDX-License-Identifier: MIT */
/* bench/sweep.h — perftest's size sweep (ib_write_lat and ib_write_bw, -s SIZE
 * or -a: 2 .. 2^23 bytes by powers of two): at each size the latency of a
 * ping-pong of puts that size, every round trip timed alone, and the flood's
 * bandwidth and message rate. Its result, its runs, its rows in the report. */
#ifndef EEL_BENCH_SWEEP_H
#define EEL_BENCH_SWEEP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "plan.h"
#include "flood.h"

struct session;
struct results;
struct json;

#define SWEEP_MIN_SIZE 2u          /* perftest -a: "sizes from 2 till 2^23" */
#define SWEEP_MAX_SIZE (1u << 23)
#define SWEEP_ITERS 1000u          /* perftest's ib_write_lat -n (round trips) */
#define SWEEP_MSGS 5000u           /* perftest's ib_write_bw -n (messages) */
/* So that -a stays within seconds on the software NIC, a size's ping-pong
 * and its flood each move at most SWEEP_BYTES one way (at 8 MiB: 16 round
 * trips, 16 messages), but at least SWEEP_FLOOR round trips or messages
 * (fewer only when -n says so; a flood at least 2). */
#define SWEEP_BYTES (128u << 20)
#define SWEEP_FLOOR 16u

static inline uint32_t sweep_count(uint32_t most, size_t bytes_each)
{
	size_t n = SWEEP_BYTES / bytes_each;

	n = n < SWEEP_FLOOR ? SWEEP_FLOOR : n;
	return n < most ? (uint32_t)n : most;
}
/* round trips timed at a size (sweep_warm's before them, not timed) */
static inline uint32_t sweep_iters(const struct plan *p, uint32_t size)
{
	return sweep_count(p->sweep_iters, size);
}
/* Warm-up round trips before a size's `iters` timed ones: a tenth of them;
 * before the sweep's first size (first), --warmup's (at most ten times the
 * size's own), as the ping-pong's before its runs: the first milliseconds
 * of a pair are slow on this VM (-s 4096 -n 100 timed 8.9-9.4 us a round
 * trip at the least, 0.90 once warm). The first size's flood also runs once
 * untimed first (sweep.c). */
static inline uint32_t sweep_warm(const struct plan *p, uint32_t iters, int first)
{
	uint32_t warm = iters / 10, plan = p->warmup < 10 * iters ? p->warmup : 10 * iters;

	return first && plan > warm ? plan : warm;
}
/* messages of the flood at a size */
static inline uint32_t sweep_msgs(const struct plan *p, uint32_t size)
{
	uint32_t n = sweep_count(p->sweep_msgs, flood_stride(size));

	return n < 2 ? 2 : n;
}
/* Where the ping-pong's message lands at each end (0), and where it is sent
 * from (the next cache line after it); the bytes it needs. */
static inline size_t sweep_src_off(uint32_t size)
{
	return (flood_stride(size) + 63) & ~(size_t)63;
}
static inline size_t sweep_data_bytes(const struct plan *p, uint32_t size)
{
	size_t pp = 2 * sweep_src_off(size), fl = flood_window_bytes(p, size, sweep_msgs(p, size));

	return pp > fl ? pp : fl;
}

struct sweep_point {
	uint32_t bytes, iters;
	/* one way: each round trip / 2 (perftest's ib_write_lat), in ns */
	double t_min_ns, t_typical_ns, t_avg_ns, t_99_ns, t_99_9_ns, t_max_ns;
	uint32_t msgs, q;            /* the flood: its messages, its queue depth */
	double ns_per_msg;
	double bw_gbit_per_s;        /* bytes x 8 / ns per message */
	double msg_rate_mpps;        /* 1000 / ns per message */
};

struct sweep_res {
	int done;
	int n;
	struct sweep_point pt[MAX_SIZES];
};

int sweep_run(struct session *s, struct results *r);

/* sweep_report.c: its table (perftest's columns), its JSON object `sweep`
 * and its CSV rows (report/csv.c) */
void sweep_table(FILE *f, const struct results *r);
void sweep_json(struct json *j, const struct results *r);
void sweep_csv_rows(FILE *f, const struct results *r);

#endif
