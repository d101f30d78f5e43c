/* SPDX-License-Identifier: MIT */
/* bench/limit_report.c — the limit beside EEL (limit.c: a cache line between two
 * cores, or the NIC's floor) in the table and in the JSON document (its "limit"
 * section; curves limit: docs/json.md). */
#include <stdio.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/report/json.h"
#include "bench/report/report.h"
#include "bench/report/safe_text.h"

static void floor_table(FILE *f, const struct session *s, const struct results *r, const char *uri)
{
	const struct eel_caps *cap = s->caps;
	char here[256], peer[256];

	fprintf(f, "\n  floor    bare echo of one minimum-size frame on the NIC's own carrier (%s), no eel\n"
		"           protocol, on the pair %s (here) and %s (the server)\n"
		"           %.1f ns one way (median of %d runs, each its median round trip / 2), %.1f (min)\n",
		!strcmp(cap->backend, "dpdk") ? "rte_eth_tx_burst/rte_eth_rx_burst" :
		!strcmp(cap->backend, "softnic") ? "shared-memory slots" : cap->backend,
		safe_text(uri, here, sizeof(here)),
		safe_text(r->lim.peer_nic[0] ? r->lim.peer_nic : "?", peer, sizeof(peer)),
		r->lim.one_way.median, r->lim.one_way.n, r->lim.one_way.min);
	fprintf(f, "           EEL / floor = %.2f (median of the runs' ratios, each EEL run beside its floor run,\n"
		"           EEL its median round trip / 2: %.1f ns), quartiles %.2f..%.2f (spread %.0f %%), "
		"%.2f (min): what eel's firmware and driver add\n", r->lim.eel_over.median,
		r->lim.eel_beside.median, r->lim.eel_over.p25, r->lim.eel_over.p75, 100 * r->lim.eel_over.spread,
		r->lim.eel_over.min);
}

/* uri: this end's NIC as given, named in the floor's lines */
void limit_table(FILE *f, const struct session *s, const struct results *r, const char *uri)
{
	if (r->lim.done && r->lim.floor) {
		floor_table(f, s, r, uri);
	} else if (r->lim.done) {
		fprintf(f, "\n  limit    bare cache-line one-way between the two cores: %.1f ns (min), %.1f (median)\n",
			r->lim.one_way.min, r->lim.one_way.median);
		fprintf(f, "           EEL / limit = %.2f (min), %.2f (median), run by run beside it (EEL %.1f ns)\n",
			r->lim.eel_over.min, r->lim.eel_over.median, r->lim.eel_beside.min);
		fprintf(f, "           the cores' counters agree to within [%.0f, %.0f] ns\n", r->lim.skew_lo_ns,
			r->lim.skew_hi_ns);
	}
}

void limit_json(struct json *j, const struct results *r)
{
	if (r->lim.done && r->lim.floor) {
		json_obj(j, "limit");
		json_str(j, "kind", "floor");
		json_str(j, "method", "eel_floor: bare echo of one minimum-size frame on the NIC's own carrier; "
			 "each run its median round trip / 2, EEL beside it alike");
		stat_obj(j, "one_way_ns", &r->lim.one_way);
		json_num(j, "eel_over_floor", r->lim.eel_over.median);
		stat_obj(j, "eel_over", &r->lim.eel_over);
		stat_obj(j, "eel_beside_ns", &r->lim.eel_beside);
		json_obj_end(j);
	} else if (r->lim.done) {
		json_obj(j, "limit");
		json_str(j, "kind", "cacheline");
		stat_obj(j, "one_way_ns", &r->lim.one_way);
		json_num(j, "eel_over_limit", r->lim.eel_over.median);
		stat_obj(j, "eel_over", &r->lim.eel_over);
		stat_obj(j, "eel_beside_ns", &r->lim.eel_beside);
		json_num(j, "counter_offset_lo_ns", r->lim.skew_lo_ns);
		json_num(j, "counter_offset_hi_ns", r->lim.skew_hi_ns);
		json_obj_end(j);
	}
}

/* curves: every run's one-way time */
void limit_json_curves(struct json *j, const struct results *r)
{
	if (!r->lim.done)
		return;
	json_obj(j, "limit");
	json_arr(j, "one_way_ns");
	for (int i = 0; i < r->lim.nruns; i++)
		json_num(j, NULL, r->lim.one_way_ns[i]);
	json_arr_end(j);
	json_obj_end(j);
}
