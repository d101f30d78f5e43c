/* SPDX-License-Identifier: MIT */
/* bench/breakdown_report.c — where one 8-byte put goes (breakdown.c) in the table and in
 * the JSON document (its "breakdown" section, docs/json.md). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/report/json.h"
#include "bench/report/report.h"


/* One part's figure: its mean with its 95% uncertainty, or the bound it is
 * below when its mean is within that of 0 (never a negative duration). */
static void part_row(FILE *f, const char *name, const char *what, int resolved, double mean, double unc,
		     double bound, double whole, const char *note)
{
	int wide = strlen(name) > 9;
	char fig[40];

	if (resolved)
		snprintf(fig, sizeof(fig), "%7.1f +- %.1f", mean, unc);
	else
		snprintf(fig, sizeof(fig), "    < %.1f", bound);
	fprintf(f, "    %-9s%s%-52s %16s ns", name, wide ? "\n              " : " ", what, fig);
	if (resolved && whole > 0)
		fprintf(f, "  %5.1f %%", 100 * mean / whole);
	else if (!resolved)
		fprintf(f, "  (not resolved)");
	fprintf(f, "%s\n", note);
}

/* The stamped breakdown (breakdown.c): each part's mean less the cost of
 * its stamps measured in place, with its uncertainty; the sum of the parts
 * beside the unstamped EEL (the residual, which can fail) and the stamped
 * rounds' RTT/2 (the perturbation). */
void breakdown_table(FILE *f, const struct session *s, const struct results *r)
{
	const struct breakdown *bd = &r->bd;
	double eel = bd->eel_ref_ns > 0 ? bd->eel_ref_ns : r->pp.eel.median;
	/* parts that do not add up to EEL are shares of the stamped path, not of EEL */
	int apart = bd->closes == 0;
	double whole = apart ? bd->parts_sum_ns : eel;

	if (!r->bd.done)
		return;
	fprintf(f, "\n  where one 8-byte put goes (%s; %d rounds stamped, %s; means +- 95%%%s)\n", s->caps->clock,
		bd->have_rounds ? bd->round.n : bd->samples,
		bd->chosen ? "each message stamps around one place" : "every stamp on each message",
		apart ? "; % of the parts' sum: they do not add up to EEL, below" : "");
	for (int k = 0; k < STAGE_PARTS; k++) {
		int derived = bd->across_derived && part_between_ends(bd, k);

		if (bd->absorbed[k])
			continue;
		if (!bd->have[k]) {
			fprintf(f, "    %-9s%s%-52s %16s\n", bd->name[k], strlen(bd->name[k]) > 9 ? "\n              " : " ",
				bd->what[k], "not stamped");
			continue;
		}
		part_row(f, bd->name[k], bd->what[k], bd->part_resolved[k], bd->part[k].mean, bd->part_unc[k],
			 bd->part_bound[k], whole, derived ? "  (EEL less every other part: no one clock)" : "");
	}
	if (bd->have_rounds && bd->turn_st.n)
		part_row(f, "turn", "ping-pong turnaround: data seen to next put", bd->turn_resolved, bd->turn_st.mean,
			 bd->turn_unc, bd->turn_bound, whole, "");
	else if (bd->have_rounds)
		fprintf(f, "    %-9s %-52s %16s\n", "turn", "ping-pong turnaround: data seen to next put", "not measured");
	if (isfinite(bd->parts_sum_ns))
		fprintf(f, "    %-9s %-52s %16.1f ns\n", "sum", "the parts added up", bd->parts_sum_ns);
	if (bd->eel_ref_unc_ns > 0)
		fprintf(f, "    %-9s %-52s %9.1f +- %.1f ns\n", "EEL", "the ping-pong's RTT/2, stamps off (median of runs)",
			eel, bd->eel_ref_unc_ns);
	else
		fprintf(f, "    %-9s %-52s %16.1f ns\n", "EEL", "the ping-pong's RTT/2, stamps off (median of runs)", eel);
	if (isfinite(bd->residual_ns))
		fprintf(f, "    %-9s %-52s %9.1f +- %.1f ns  (%+.1f %% of EEL)\n", "residual", "the sum less EEL",
			bd->residual_ns, bd->residual_unc_ns, 100 * bd->residual_ns / eel);
	else
		fprintf(f, "    %-9s %-52s %16s\n", "residual", "the sum less EEL",
			bd->across_derived ? "not separable here (no one clock at both ends)" : "not measured");
	if (apart)
		fprintf(f, "    (the parts do not add up to EEL within %.0f %% beyond their uncertainty: they time the "
			"stamped puts,\n     whose path is not an unstamped put's to that precision (a traced put's "
			"records and their\n     bookkeeping are in no stamp's cost in place); each part is its stage on "
			"that path, not a\n     share of EEL: on this machine the stages are not separable to that "
			"precision)\n", 100 * BD_CLOSE);
	if (isfinite(bd->perturbation_ns))
		fprintf(f, "    (perturbation: the stamped rounds' RTT/2 is %.1f ns, %+.1f ns from EEL: what stamping "
			"added to a round,\n     measured, not taken off anything)\n", bd->round.mean, bd->perturbation_ns);
	else if (bd->have_rounds && bd->eel_ref_ns > 0)
		fprintf(f, "    (perturbation: not separable here: the stamped rounds' RTT/2, %.1f ns, is below EEL's "
			"%.1f ns,\n     the runs' own variation (a cold or preempted run), not what stamping added)\n",
			bd->round.mean, bd->eel_ref_ns);
	if (isfinite(bd->oneway_gap_ns))
		fprintf(f, "    (one way, DETECT - POST on its own rounds: %.1f +- %.1f ns, %+.1f ns from the one-way parts' "
			"sum)\n", bd->total.mean, bd->total_unc, bd->oneway_gap_ns);
	if (bd->chosen) {
		int n = 0;

		fprintf(f, "    (a stamp's cost in place: how much longer the span around it is with it than without, "
			"each on\n     rounds of its own; half off each part it bounds, the other split in the part's "
			"+-; ns:");
		for (int st = 0; st < EEL_ST_COMPLETE; st++)
			if (bd->in_place[st])
				fprintf(f, "%s %s %.1f", n++ ? "," : "", stamp_key[st], bd->cost_ns[st]);
		fprintf(f, "%s;\n     the others, never inside a span or not measured, at the measured ones' mean; a "
			"stamp alone, back to back: %.1f)\n", n ? "" : " none measured", bd->stamp_alone_ns);
	} else {
		fprintf(f, "    (each part less a stamp's cost alone, %.1f ns, half for each stamp that bounds it: this "
			"NIC's\n     traced messages take every stamp, so their cost in place is not measured)\n",
			bd->stamp_alone_ns);
	}
	fprintf(f, "    (a stamp is good to one step of the counter, %.1f ns; a part's mean of n to about that / "
		"sqrt(n), in its +-)\n", bd->q_ns);
	if (bd->interrupted)
		fprintf(f, "    (%d stamped rounds left out as preempted: over 10x EEL and 5 us)\n", bd->interrupted);
}

/* A duration's statistics: each figure at least 0 (a stamp's cost taken off
 * one sample can leave it below, which no duration is). */
static void duration_obj(struct json *j, const char *key, const struct stat *st)
{
	struct stat c = *st;

	c.min = fmax(c.min, 0);
	c.p25 = fmax(c.p25, 0);
	c.median = fmax(c.median, 0);
	c.p75 = fmax(c.p75, 0);
	c.max = fmax(c.max, 0);
	c.mean = fmax(c.mean, 0);
	stat_obj(j, key, &c);
}

static void resolved(struct json *j, int ok, double unc, double bound)
{
	json_bool(j, "resolved", ok);
	json_num(j, "unc_ns", unc);
	if (!ok)
		json_num(j, "bound_ns", bound);
}

void breakdown_json(struct json *j, const struct session *s, const struct results *r)
{
	const struct breakdown *bd = &r->bd;

	if (!bd->done)
		return;
	json_obj(j, "breakdown");
	json_u64(j, "samples", (uint64_t)bd->samples);
	json_str(j, "clock", s->caps->clock);
	json_str(j, "stamping", bd->chosen ? "chosen" : "every");
	json_arr(j, "parts");
	for (int k = 0; k < STAGE_PARTS; k++) {
		if (bd->absorbed[k] || !bd->have[k])
			continue;
		json_obj(j, NULL);
		json_str(j, "name", bd->name[k]);
		json_str(j, "what", bd->what[k]);
		json_str(j, "method", bd->across_derived && part_between_ends(bd, k) ? "EEL less the other parts" :
			 "stamped");
		if (bd->span_extra[k]) {
			json_arr(j, "merged");
			for (int i = k; i <= k + bd->span_extra[k]; i++)
				json_str(j, NULL, stage_part_name[i]);
			json_arr_end(j);
		}
		duration_obj(j, "ns", &bd->part[k]);
		/* less its lowest and highest tenth: a figure a rare interruption
		 * does not move (the mean is the one that adds up) */
		json_num(j, "trimmed_ns", fmax(bd->part_trim[k], 0));
		resolved(j, bd->part_resolved[k], bd->part_unc[k], bd->part_bound[k]);
		json_obj_end(j);
	}
	json_arr_end(j);
	if (bd->have[STAGE_PARTS]) {
		duration_obj(j, "total_ns", &bd->total);
		json_num(j, "total_unc_ns", bd->total_unc);
	}
	if (bd->have_rounds) {
		json_u64(j, "rounds", (uint64_t)bd->nrtt);
		if (bd->turn_st.n) {
			duration_obj(j, "turn_ns", &bd->turn_st);
			json_obj(j, "turn");
			resolved(j, bd->turn_resolved, bd->turn_unc, bd->turn_bound);
			json_obj_end(j);
		}
		stat_obj(j, "round_ns", &bd->round);
	}
	/* what each stamp costs the path in place, and how that was found */
	json_obj(j, "stamp_cost_ns");
	for (int st = 0; st < EEL_ST_COMPLETE; st++)
		if (bd->mask & (1u << st))
			json_num(j, stamp_key[st], bd->cost_ns[st]);
	json_obj_end(j);
	json_arr(j, "stamp_cost_measured");
	for (int st = 0; st < EEL_ST_COMPLETE; st++)
		if (bd->in_place[st])
			json_str(j, NULL, stamp_key[st]);
	json_arr_end(j);
	json_num(j, "stamp_alone_ns", bd->stamp_alone_ns);
	json_num(j, "resolution_ns", bd->q_ns);
	json_u64(j, "preempted", (uint64_t)bd->interrupted);
	json_num(j, "eel_ns", bd->eel_ref_ns);
	json_num(j, "eel_unc_ns", bd->eel_ref_unc_ns);
	json_num(j, "parts_sum_ns", bd->parts_sum_ns);
	json_num(j, "residual_ns", bd->residual_ns);
	json_num(j, "residual_unc_ns", bd->residual_unc_ns);
	if (bd->closes >= 0)
		json_bool(j, "closes", bd->closes);
	else
		json_num(j, "closes", NAN); /* null: no residual, or no whole round */
	json_num(j, "perturbation_ns", bd->perturbation_ns);
	json_num(j, "oneway_gap_ns", bd->oneway_gap_ns);
	json_obj_end(j);
}
