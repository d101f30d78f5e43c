/* SPDX-License-Identifier: MIT */
/* bench/pingpong.h — Bell et al. 2003 4.1's ping-pong (EEL): its result, its runs, and its rows in the report. */
#ifndef EEL_BENCH_PINGPONG_H
#define EEL_BENCH_PINGPONG_H

#include <stdint.h>
#include <stdio.h>
#include "plan.h"
#include "method/hist.h"
#include "method/stats.h"

struct session;
struct results;
struct json;
struct breakdown;

struct pingpong_res {
	int done;
	double eel_ns[MAX_RUNS];         /* per run, stamps off: RTT/2 */
	double eel_stamped_ns[MAX_RUNS]; /* per run, stamps on */
	int nruns;
	struct stat eel, eel_stamped;
	/* the cost of stamping: run i with stamps over run i without (they
	 * alternate), less 1: a drift in the machine's speed touches both */
	struct stat stamp_cost;
	/* the tail (pingpong_run only): runs x iters more round trips, in runs
	 * of their own interleaved with the runs above (run r of EEL, then run r
	 * of the tail), stamps off, each round timed alone: every RTT in cycles
	 * less the clock read (eel_clock's timer_cycles; 0 at least). 43 KB:
	 * every pingpong_res is static. */
	struct hist tail;
	double tail_ns[MAX_RUNS];        /* per tail run: its rounds' mean RTT/2 */
	int ntail;
	/* what timing each round trip costs: tail run r's mean less EEL's run r
	 * (the same rounds, one timed as a whole), ns, the median run by run (a
	 * run that met a 5 ms retransmission moves the means by us) */
	struct stat tail_cost;
};

int pingpong_run(struct session *s, struct results *r);
/* runs x iters round trips of 8-byte puts after the plan's warm-up, stamps
 * off, each timed alone: on the client, every one's RTT/2 in ns into out */
int pingpong_each(struct session *s, uint32_t runs, uint32_t iters, double *out);
enum pp_variant {
	PP_PUT,       /* 8-byte put, payload inline where the NIC can */
	PP_PUT_DMA,   /* 8-byte put, payload read from registered memory by the NIC */
	PP_EREG,      /* 8-byte E-register store (programmed I/O, no descriptor) */
};
int pingpong_series(struct session *s, int variant, uint32_t runs, uint32_t iters, int stamps,
		    struct pingpong_res *pp, struct breakdown *bd);
#define PP_MAX_VARIANTS 3
int pingpong_series_n(struct session *s, const int *variant, int nvar, uint32_t runs, uint32_t iters, int stamps,
		      struct pingpong_res *pp, struct breakdown *bd);
int pingpong_interleaved(struct session *s, const int *variant, int nvar, uint32_t runs, uint32_t iters,
			 struct pingpong_res *pp);

/* The tail's q-quantile (0..1) of RTT/2 in ns (method/hist.h's hist_at). */
/* what timing each round costs: resolved from 0 or within its noise (the
 * run-by-run differences' IQR and a step of the counter) */
/* the runs the timing's cost needs: fewer have no spread (an IQR) to tell it from */
#define TAIL_COST_MIN_RUNS 3
double pingpong_tail_cost_noise(const struct session *s, const struct pingpong_res *pp);
int pingpong_tail_cost_resolved(const struct session *s, const struct pingpong_res *pp);
int pingpong_stamp_cost_separable(const struct pingpong_res *pp);
double pingpong_tail_ns(const struct session *s, const struct pingpong_res *pp, double q);

/* pingpong_report.c: its rows in the table (EEL, its tail; the stamping cost) and in the
 * JSON (parameters: eel, eel_tail, eel_stamped, stamp_cost; curves: pingpong) */
void pingpong_table_rows(FILE *f, const struct session *s, const struct results *r);
void pingpong_table_tail(FILE *f, const struct session *s, const struct pingpong_res *pp);
void pingpong_table_stamping(FILE *f, const struct session *s, const struct results *r);
void pingpong_json_parameters(struct json *j, const struct session *s, const struct results *r);
void pingpong_json_tail(struct json *j, const struct session *s, const struct pingpong_res *pp);
void pingpong_json_curves(struct json *j, const struct results *r);

#endif
