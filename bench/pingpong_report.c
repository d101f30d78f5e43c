/* SPDX-License-Identifier: MIT */
/* bench/pingpong_report.c — the ping-pong (pingpong.c, Bell et al. 2003 4.1) in the
 * table (EEL; the cost of stamping) and in the JSON document (parameters eel,
 * eel_stamped, stamp_cost; curves pingpong: docs/json.md). */
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
}

/* EEL with stamps on against EEL without, run by run */
void pingpong_table_stamping(FILE *f, const struct session *s, const struct results *r)
{
	if (r->pp.done && r->pp.eel_stamped.n)
		fprintf(f, "\n  stamping cost: EEL median %.1f ns with stamps (1 put in %u), %.1f ns without: %+.1f %% "
			"run by run (spread %.1f points)\n", r->pp.eel_stamped.median, s->plan.stamp_every,
			r->pp.eel.median, 100 * r->pp.stamp_cost.median,
			100 * (r->pp.stamp_cost.p75 - r->pp.stamp_cost.p25));
}

void pingpong_json_parameters(struct json *j, const struct session *s, const struct results *r)
{
	if (!r->pp.done)
		return;
	param_stat(j, s, "eel", &r->pp.eel, "Bell et al. 2003 4.1: ping-pong of 8-byte puts, RTT/2, min over runs");
	if (r->pp.eel_stamped.n) {
		param_stat(j, s, "eel_stamped", &r->pp.eel_stamped, "as eel, with stage stamps on");
		stat_obj(j, "stamp_cost", &r->pp.stamp_cost);
	}
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
