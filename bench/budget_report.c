/* SPDX-License-Identifier: MIT */
/* bench/budget_report.c — how long each test took (budget.c) in the table and in the
 * JSON document (its "timing" section, docs/json.md). */
#include <math.h>
#include <stdio.h>

#include "bench/bench.h"
#include "bench/report/json.h"

/* "  time: pingpong 0.4 s, flood 5.1 s, ... of 12.3 s; --duration 10: ..." */
void budget_table(FILE *f, const struct timing *t, double wall_s)
{
	int n = 0;

	for (int i = 0; i < BP_N; i++)
		if (t->ran[i])
			fprintf(f, "%s %s %.1f s", n++ ? "," : "\n  time per test:", budget_part_name[i], t->took_s[i]);
	if (!n)
		return;
	fprintf(f, " (of %.1f s)\n", wall_s);
	if (t->quick)
		fprintf(f, "  (--quick: fewer repetitions of each test, the papers' methods and 10 ping-pong runs kept: "
			"man eel-bench)\n");
	if (t->budget_s > 0)
		fprintf(f, "  (--duration %.0f: the tests' repetitions %s (x %.2f), estimated at %.1f s from a round trip "
			"of %.1f ns%s)\n", t->budget_s, t->scale < 1 ? "cut to fit" : "kept: they fit", t->scale,
			budget_total(t), t->rtt_ns, t->fits ? "" : "; more than the budget: see the warning");
}

void budget_json(struct json *j, const struct timing *t)
{
	json_obj(j, "timing");
	json_arr(j, "tests");
	for (int i = 0; i < BP_N; i++) {
		if (!t->ran[i])
			continue;
		json_obj(j, NULL);
		json_str(j, "test", budget_part_name[i]);
		json_num(j, "s", t->took_s[i]);
		json_num(j, "estimate_s", t->rtt_ns > 0 ? t->estimate_s[i] : NAN);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_bool(j, "quick", t->quick);
	json_num(j, "budget_s", t->budget_s > 0 ? t->budget_s : NAN);
	json_num(j, "scale", t->scale);
	json_bool(j, "fits", t->budget_s > 0 ? t->fits : 1);
	json_num(j, "rtt_ns", t->rtt_ns > 0 ? t->rtt_ns : NAN);
	json_num(j, "estimate_s", t->rtt_ns > 0 ? budget_total(t) : NAN);
	json_obj_end(j);
}
