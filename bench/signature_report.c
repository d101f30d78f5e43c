/* SPDX-License-Identifier: MIT */
/* bench/signature_report.c — the signature (signature.c, Culler et al. 1996) in the
 * table (its rows, its curves under -v) and in the JSON document (its "signature"
 * section, L among the parameters: docs/json.md). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/report/json.h"
#include "bench/report/report.h"


/* Culler et al. 1996: the signature's parameters (Table 4) */
void signature_table(FILE *f, const struct session *s, const struct results *r)
{
	const struct signature_res *g = &r->sig;
	char how[160];

	if (!r->sig.done)
		return;
	fprintf(f, "\n  %-20s %13s %13s %8s  %8s   %s\n", "signature", "", "", "", "cycles",
		"how (Culler et al. 1996, 8-byte requests)");
	if (g->curve[0].send_only_min_m > g->curve[0].pt[0].m)
		snprintf(how, sizeof(how), "send-only regime of D = 0 (M = %u..%u)", g->curve[0].send_only_min_m,
			 g->curve[0].send_only_max_m);
	else
		snprintf(how, sizeof(how), "send-only regime of D = 0 (M <= %u)", g->curve[0].send_only_max_m);
	row_one(f, s, "o_s", g->o_s_ns, how);
	snprintf(how, sizeof(how), "steady state of D = 0 (M >= %u)", g->curve[0].steady_min_m);
	row_one(f, s, "g", g->g_ns, how);
	if (g->o_r_why) {
		/* never a 0 or a negative as if measured: the reason instead */
		fprintf(f, "  %-20s %13s %13s %8s  %8s   %s (over %d D beyond Idle)\n", "o_r",
			g->o_r_curves ? "not separable" : "not measured", "", "", "", g->o_r_why, g->o_r_curves);
	} else {
		snprintf(how, sizeof(how), "g' - D - o_s, over %d D beyond Idle", g->o_r_curves);
		row_one(f, s, "o_r", g->o_r_ns, how);
	}
	row_one(f, s, "RTT", g->rtt_ns, "one request and its reply");
	row_derived(f, s, "L", &g->L, "RTT/2 - o_s - o_r");
	fprintf(f, "  %-20s %d points, %d short of 5%% at 95%% confidence (batches of 50, at most %u samples)\n",
		"accuracy", g->points, g->unconverged, s->plan.sig_max_samples);
}

/* -v: each D's curve, M -> message cost */
void signature_table_curves(FILE *f, const struct results *r)
{
	for (int k = 0; r->sig.done && k < r->sig.ncurves; k++) {
		const struct sig_curve *c = &r->sig.curve[k];

		fprintf(f, "\n  signature, D = %.1f ns: M -> message cost ns (+- 95%% interval)\n", c->d_ns);
		for (int i = 0; i < c->n; i++)
			fprintf(f, "    %6u -> %9.1f +- %6.1f%s\n", c->pt[i].m, c->pt[i].cost_ns, c->pt[i].ci_ns,
				c->pt[i].converged ? "" : "  (short of 5%)");
	}
}

/* parameters: L as this NIC lets it be stated */
void signature_json_parameters(struct json *j, const struct session *s, const struct results *r)
{
	if (r->sig.done)
		derived_obj(j, s, "L", &r->sig.L, "Culler et al. 1996: RTT/2 - o_s - o_r from the signature; uncertainty: "
			    "half the RTT's 95% interval, half L's range over the D curves, their steady points' widest interval");
}

static void arr(struct json *j, const char *key, const double *v, int n)
{
	json_arr(j, key);
	for (int i = 0; i < n; i++)
		json_num(j, NULL, v[i]);
	json_arr_end(j);
}

void signature_json(struct json *j, const struct session *s, const struct results *r)
{
	const struct signature_res *g = &r->sig;

	if (!g->done)
		return;
	json_obj(j, "signature");
	json_u64(j, "size", g->size);
	json_str(j, "method", "Culler et al. 1996: message cost vs burst length M for several delays D");
	json_num(j, "rtt_ns", g->rtt_ns);
	json_num(j, "o_s_ns", g->o_s_ns);
	json_num(j, "g_ns", g->g_ns);
	json_num(j, "o_r_ns", g->o_r_ns);
	json_num(j, "L_ns", g->L.resolved ? g->L.ns : NAN);   /* parameters.L says why not */
	json_obj(j, "accuracy");
	json_num(j, "target", 0.05);
	json_num(j, "confidence", 0.95);
	json_u64(j, "batch", 50);
	json_u64(j, "points", (uint64_t)g->points);
	json_u64(j, "unconverged", (uint64_t)g->unconverged);
	json_obj_end(j);
	json_arr(j, "curves");
	for (int k = 0; k < g->ncurves; k++) {
		const struct sig_curve *c = &g->curve[k];
		double m[SIG_MAX_M], cost[SIG_MAX_M], ci[SIG_MAX_M], n[SIG_MAX_M];

		for (int i = 0; i < c->n; i++) {
			m[i] = c->pt[i].m;
			cost[i] = c->pt[i].cost_ns;
			ci[i] = c->pt[i].ci_ns;
			n[i] = c->pt[i].samples;
		}
		json_obj(j, NULL);
		json_num(j, "d_ns", c->d_ns);
		json_num(j, "d_asked_ns", c->d_asked_ns);
		json_num(j, "g_ns", c->g_ns);
		json_u64(j, "send_only_max_m", c->send_only_max_m);
		json_u64(j, "steady_min_m", c->steady_min_m);
		arr(j, "m", m, c->n);
		arr(j, "cost_ns", cost, c->n);
		arr(j, "ci_ns", ci, c->n);
		arr(j, "samples", n, c->n);
		json_arr(j, "converged");
		for (int i = 0; i < c->n; i++)
			json_bool(j, NULL, c->pt[i].converged);
		json_arr_end(j);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
	(void)s;
}
