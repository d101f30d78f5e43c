/* SPDX-License-Identifier: MIT */
/* bench/sweep_report.c — the size sweep (sweep.c, perftest's -s and -a) in the
 * table (perftest's columns: ib_write_lat's times in usec, ib_write_bw's BW
 * average in Gb/s and MsgRate in Mpps), in the JSON document (`sweep`:
 * docs/json.md) and in the CSV (one row per size). */
#include <stdio.h>

#include "bench/bench.h"
#include "bench/report/csv.h"
#include "bench/report/json.h"

void sweep_table(FILE *f, const struct results *r)
{
	if (!r->sweep.done)
		return;
	fprintf(f, "\n  size sweep (perftest's columns): times one way (each round trip, timed alone, / 2; typical: "
		"the median), BW average and MsgRate from a flood at q=%u\n", r->sweep.n ? r->sweep.pt[0].q : 0);
	fprintf(f, "  %8s %11s %11s %15s %11s %10s %12s %11s %18s %13s\n", "#bytes", "#iterations", "t_min[usec]",
		"t_typical[usec]", "t_avg[usec]", "t_99[usec]", "t_99.9[usec]", "t_max[usec]", "BW average[Gb/sec]",
		"MsgRate[Mpps]");
	for (int i = 0; i < r->sweep.n; i++) {
		const struct sweep_point *p = &r->sweep.pt[i];

		fprintf(f, "  %8u %11u %11.3f %15.3f %11.3f %10.3f %12.3f %11.3f %18.2f %13.6f\n", p->bytes, p->iters,
			p->t_min_ns / 1e3, p->t_typical_ns / 1e3, p->t_avg_ns / 1e3, p->t_99_ns / 1e3,
			p->t_99_9_ns / 1e3, p->t_max_ns / 1e3, p->bw_gbit_per_s, p->msg_rate_mpps);
	}
}

void sweep_json(struct json *j, const struct results *r)
{
	if (!r->sweep.done)
		return;
	json_obj(j, "sweep");
	json_str(j, "method", "perftest's ib_write_lat and ib_write_bw (-s, -a): at each size a ping-pong of puts "
		 "that size, every round trip timed alone into a histogram, one way = round trip / 2 (typical: the "
		 "median); then a flood of puts that size (Bell et al. 2003 4.2): Gb/s = bytes x 8 / ns per message, "
		 "Mpps = 1000 / ns per message");
	json_arr(j, "sizes");
	for (int i = 0; i < r->sweep.n; i++) {
		const struct sweep_point *p = &r->sweep.pt[i];

		json_obj(j, NULL);
		json_u64(j, "bytes", p->bytes);
		json_u64(j, "iterations", p->iters);
		json_num(j, "t_min_ns", p->t_min_ns);
		json_num(j, "t_typical_ns", p->t_typical_ns);
		json_num(j, "t_avg_ns", p->t_avg_ns);
		json_num(j, "t_99_ns", p->t_99_ns);
		json_num(j, "t_99_9_ns", p->t_99_9_ns);
		json_num(j, "t_max_ns", p->t_max_ns);
		json_u64(j, "bw_messages", p->msgs);
		json_u64(j, "bw_depth", p->q);
		json_num(j, "bw_ns_per_msg", p->ns_per_msg);
		json_num(j, "bw_avg_gbit_per_s", p->bw_gbit_per_s);
		json_num(j, "msg_rate_mpps", p->msg_rate_mpps);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

/* one row per size: the times in ns (median: t_typical, mean: t_avg), n: the round trips */
void sweep_csv_rows(FILE *f, const struct results *r)
{
	for (int i = 0; r->sweep.done && i < r->sweep.n; i++) {
		const struct sweep_point *p = &r->sweep.pt[i];
		struct csv_row row = csv_row("sweep", "t", "ns");

		row.bytes = p->bytes;
		row.n = p->iters;
		row.min = p->t_min_ns;
		row.median = p->t_typical_ns;
		row.mean = p->t_avg_ns;
		row.p99 = p->t_99_ns;
		row.p99_9 = p->t_99_9_ns;
		row.max = p->t_max_ns;
		row.bw_avg_gbit_per_s = p->bw_gbit_per_s;
		row.msg_rate_mpps = p->msg_rate_mpps;
		csv_row_write(f, &row);
	}
}
