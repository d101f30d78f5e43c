/* SPDX-License-Identifier: MIT */
/* bench/pingpong_report.c — the ping-pong (pingpong.c, Bell et al. 2003 4.1) in the
 * table (EEL, its tail; the cost of stamping) and in the JSON document (parameters eel,
 * eel_tail, eel_stamped, stamp_cost; curves pingpong: docs/json.md). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/report/json.h"
#include "bench/report/report.h"

/* the parameter table's first row: EEL */
void pingpong_table_rows(FILE *f, const struct session *s, const struct results *r)
{
	char how[128];

	if (!r->pp.done)
		return;
	snprintf(how, sizeof(how), "ping-pong RTT/2, %u runs x %u, 8 B (4.1)", r->pp.eel.n, s->plan.iters);
	row_stat(f, s, "EEL", &r->pp.eel, how);
	pingpong_table_tail(f, s, &r->pp);
}

/* The tail's quantiles, as the table and the JSON give them. */
static const struct { const char *name, *key; double q; } tail_q[] = {
	{ "p50", "p50_ns", 0.5 }, { "p90", "p90_ns", 0.9 }, { "p99", "p99_ns", 0.99 },
	{ "p99.9", "p99_9_ns", 0.999 }, { "p99.99", "p99_99_ns", 0.9999 },
};
#define TAIL_Q (sizeof(tail_q) / sizeof(tail_q[0]))

/* under EEL: every round trip of the tail runs, its quantiles and what timing them costs */
void pingpong_table_tail(FILE *f, const struct session *s, const struct pingpong_res *pp)
{
	double cost = pp->tail_cost.median;

	if (!pp->tail.count)
		return;
	fprintf(f, "  %-20s", "EEL tail (ns)");
	for (size_t k = 0; k < TAIL_Q; k++)
		fprintf(f, " %s %.1f ", tail_q[k].name, pingpong_tail_ns(s, pp, tail_q[k].q));
	fprintf(f, " max %.1f\n  %-20s every RTT/2 of %d more runs (%llu rounds), each round timed alone: ",
		pingpong_tail_ns(s, pp, 1), "", pp->ntail, (unsigned long long)pp->tail.count);
	/* unresolved, the median difference is the machine's: not printed (it came
	 * out -1402.2 ns with -n 1 -r 1, one run against one) */
	if (pingpong_tail_cost_resolved(s, pp))
		fprintf(f, "%+.1f ns (%+.1f %%) on a run's mean\n", cost,
			pp->eel.median > 0 ? 100 * cost / pp->eel.median : 0.0);
	else if (pp->tail_cost.n < TAIL_COST_MIN_RUNS)
		fprintf(f, "its cost not separable here\n  %-20s (%d run%s against EEL's: telling it from the runs' own "
			"spread takes %d or more, -r)\n", "", pp->tail_cost.n, pp->tail_cost.n == 1 ? "" : "s",
			TAIL_COST_MIN_RUNS);
	else
		fprintf(f, "its cost not separable here\n  %-20s (within the runs' own spread, +-%.1f ns on a run's "
			"mean)\n", "", pingpong_tail_cost_noise(s, pp));
}

/* EEL with stamps on against EEL without, run by run */
void pingpong_table_stamping(FILE *f, const struct session *s, const struct results *r)
{
	if (!r->pp.done || !r->pp.eel_stamped.n)
		return;
	fprintf(f, "\n  stamping cost: EEL median %.1f ns with stamps (1 put in %u), %.1f ns without: ",
		r->pp.eel_stamped.median, s->plan.stamp_every, r->pp.eel.median);
	if (pingpong_stamp_cost_separable(&r->pp))
		fprintf(f, "%+.1f %% run by run (spread %.1f points)\n", 100 * r->pp.stamp_cost.median,
			100 * (r->pp.stamp_cost.p75 - r->pp.stamp_cost.p25));
	else
		fprintf(f, "not separable here\n  (the stamped runs came out no slower: the runs' own variation, "
			"a cold or preempted run)\n");
}

void pingpong_json_parameters(struct json *j, const struct session *s, const struct results *r)
{
	if (!r->pp.done)
		return;
	param_stat(j, s, "eel", &r->pp.eel, "Bell et al. 2003 4.1: ping-pong of 8-byte puts, RTT/2, min over runs");
	pingpong_json_tail(j, s, &r->pp);
	if (r->pp.eel_stamped.n) {
		param_stat(j, s, "eel_stamped", &r->pp.eel_stamped, "as eel, with stage stamps on");
		if (pingpong_stamp_cost_separable(&r->pp))
			stat_obj(j, "stamp_cost", &r->pp.stamp_cost);
		else
			json_num(j, "stamp_cost", NAN);   /* not separable here: null */
	}
}

/* parameters.eel_tail: the quantiles of every round trip of the tail runs,
 * RTT/2 in ns, and the histogram's buckets that hold any */
void pingpong_json_tail(struct json *j, const struct session *s, const struct pingpong_res *pp)
{
	const struct hist *h = &pp->tail;

	if (!h->count)
		return;
	json_obj(j, "eel_tail");
	json_u64(j, "count", h->count);
	json_num(j, "min_ns", pingpong_tail_ns(s, pp, 0));
	for (size_t k = 0; k < TAIL_Q; k++)
		json_num(j, tail_q[k].key, pingpong_tail_ns(s, pp, tail_q[k].q));
	json_num(j, "max_ns", pingpong_tail_ns(s, pp, 1));
	json_num(j, "mean_ns", cyc_ns(s, hist_mean(h)) / 2);
	/* null where not separable: the runs' spread or too few runs, not the timing */
	json_num(j, "timing_cost_ns", pingpong_tail_cost_resolved(s, pp) ? pp->tail_cost.median : NAN);
	json_bool(j, "timing_cost_resolved", pingpong_tail_cost_resolved(s, pp));
	json_num(j, "timing_cost_noise_ns", pingpong_tail_cost_noise(s, pp));
	json_str(j, "method", "every round trip of runs of their own beside EEL's, stamps off, each timed alone: RTT/2");
	/* [low_ns, high_ns, count]: the bucket's values, within the exact min and max */
	json_arr(j, "histogram");
	for (uint32_t i = 0; i < HIST_BUCKETS; i++) {
		if (!h->n[i])
			continue;
		json_arr(j, NULL);
		json_num(j, NULL, cyc_ns(s, (double)(hist_low(i) > h->min ? hist_low(i) : h->min)) / 2);
		json_num(j, NULL, cyc_ns(s, (double)(hist_high(i) < h->max ? hist_high(i) : h->max)) / 2);
		json_u64(j, NULL, h->n[i]);
		json_arr_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

/* curves: every run's RTT/2, stamps off and on */
void pingpong_json_curves(struct json *j, const struct results *r)
{
	if (!r->pp.done)
		return;
	json_obj(j, "pingpong");
	json_arr(j, "eel_ns");
	for (int i = 0; i < r->pp.nruns; i++)
		json_num(j, NULL, r->pp.eel_ns[i]);
	json_arr_end(j);
	json_arr(j, "eel_stamped_ns");
	for (int i = 0; i < r->pp.eel_stamped.n; i++)
		json_num(j, NULL, r->pp.eel_stamped_ns[i]);
	json_arr_end(j);
	json_obj_end(j);
}
