/* SPDX-License-Identifier: MIT */
/* bench/budget.h — how long a run takes: each test's cost estimated from the
 * plan and a measured round trip, --duration's plan cut to a time budget,
 * and each test's seconds as it ran (the table's, the JSON's `timing`). */
#ifndef EEL_BENCH_BUDGET_H
#define EEL_BENCH_BUDGET_H

#include <stdint.h>
#include <stdio.h>

#include "plan.h"

/* The parts of a run in the order run_end (main.c) runs them. */
enum budget_part { BP_MACHINE, BP_PINGPONG, BP_FLOOD, BP_OVERLAP, BP_SIGNATURE, BP_BULK, BP_DECOMPOSE, BP_LIMIT,
		   BP_SWEEP, BP_N };
extern const char *const budget_part_name[BP_N];

/* The repetitions a budget may cut to, at the least: the papers' 10 runs
 * (Bell et al. 2003 4.1: the minimum of >= 10 runs) are never cut, only what
 * each run repeats. */
#define BUDGET_MIN_ITERS 100u     /* ping-pong round trips a run */
#define BUDGET_MIN_OVERLAP 16u    /* the least --overlap-msgs takes */
#define BUDGET_MIN_SIG 50u        /* one batch of Culler et al. 1996's 50 samples */
#define BUDGET_MIN_BULK 3u        /* the least --bulk-reps takes */
#define BUDGET_MIN_SIG_MS 10u     /* a signature point's time budget */
#define BUDGET_MIN_SWEEP 16u      /* the sweep's round trips and messages a size (SWEEP_FLOOR) */

struct timing {
	double budget_s;          /* --duration (0: none) */
	int quick;                /* --quick's preset */
	double rtt_ns;            /* the round trip the estimates scale with (the run's first ping-pong) */
	double scale;             /* what the budget kept of the plan's repetitions (1: all) */
	int fits;                 /* the cut plan's estimate is within the budget */
	double estimate_s[BP_N];  /* each part's estimated cost at the plan it ran */
	double took_s[BP_N];      /* each part as it ran (0: did not run) */
	int ran[BP_N];
};

/* Each part's estimated seconds at plan p for a round trip of rtt_ns. */
void budget_estimate(const struct plan *p, double rtt_ns, double est[BP_N]);
/* Cut p's repetitions so that its estimate fits budget_s (never raised, never
 * below the minimums above); t gets the scale, the estimates and whether the
 * cut plan fits. */
void budget_cut(struct plan *p, double budget_s, double rtt_ns, struct timing *t);
/* Is `cut` a plan `asked` may become (only its repetitions lowered)? */
int budget_plan_within(const struct plan *asked, const struct plan *cut);

/* The estimates' sum (s). */
double budget_total(const struct timing *t);

/* budget_report.c: each test's seconds in the table, and the JSON's `timing` */
struct json;
void budget_table(FILE *f, const struct timing *t, double wall_s);
void budget_json(struct json *j, const struct timing *t);

#endif
