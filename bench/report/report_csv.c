/* SPDX-License-Identifier: MIT */
/* bench/report/report_csv.c — the run as CSV (--csv FILE): the parameter
 * table's figures one row each (the ping-pong's, the flood's, the CPU
 * overlap's, the signature's L), then the size sweep one row per size
 * (sweep_report.c). The rows' numbers are the JSON document's. The file is
 * written as --json's is (outfile.c): to a temporary file renamed over the
 * path at the end, or not at all. */
#include <math.h>
#include <stdio.h>

#include "bench/report/csv.h"
#include "bench/report/outfile.h"

/* A distribution (its figures), of a message size (0: none), with one figure beside it (NAN: none). */
static void stat_row(FILE *f, const char *test, const char *figure, const char *unit, uint32_t bytes, double value,
		     const struct stat *st)
{
	struct csv_row row = csv_row(test, figure, unit);

	csv_row_stat(&row, st);
	row.bytes = bytes ? bytes : NAN;
	row.value = value;
	if (st->n)
		csv_row_write(f, &row);
}

/* EEL's tail: every round trip of its runs (parameters.eel_tail): n its
 * rounds, median its p50 */
static void tail_row(FILE *f, const struct session *s, const struct pingpong_res *pp)
{
	struct csv_row row = csv_row("pingpong", "eel_tail", "ns");

	if (!pp->tail.count)
		return;
	row.bytes = 8;
	row.n = (double)pp->tail.count;
	row.min = pingpong_tail_ns(s, pp, 0);
	row.median = pingpong_tail_ns(s, pp, 0.5);
	row.mean = cyc_ns(s, hist_mean(&pp->tail)) / 2;
	row.p99 = pingpong_tail_ns(s, pp, 0.99);
	row.p99_9 = pingpong_tail_ns(s, pp, 0.999);
	row.max = pingpong_tail_ns(s, pp, 1);
	csv_row_write(f, &row);
}

static void pingpong_rows(FILE *f, const struct session *s, const struct results *r)
{
	if (!r->pp.done)
		return;
	stat_row(f, "pingpong", "eel", "ns", 8, NAN, &r->pp.eel);
	tail_row(f, s, &r->pp);
	stat_row(f, "pingpong", "eel_stamped", "ns", 8, NAN, &r->pp.eel_stamped);
	if (pingpong_stamp_cost_separable(&r->pp))
		stat_row(f, "pingpong", "stamp_cost", "ratio", 8, NAN, &r->pp.stamp_cost);
}

/* g: its point's runs (value: the minimum, parameters.g.ns); G, 1/G, g/G: the fit's figure, and run by run */
static void flood_rows(FILE *f, const struct session *s, const struct results *r)
{
	if (!r->fl.done)
		return;
	for (int i = 0; i < r->fl.npt; i++)
		if (r->fl.pt[i].size == s->plan.sizes[0] && r->fl.pt[i].q == r->fl.g_q)
			stat_row(f, "flood", "g", "ns", r->fl.pt[i].size, r->fl.g_ns, &r->fl.pt[i].t);
	stat_row(f, "flood", "G", "ns/B", 0, r->fl.G_ns_per_byte, &r->fl.G_runs);
	stat_row(f, "flood", "bandwidth", "B/ns", 0, r->fl.bw_bytes_per_ns, &r->fl.bw_runs);
	stat_row(f, "flood", "M", "B", 0, r->fl.M_bytes, &r->fl.M_runs);
}

/* o_s, o_r: over the sweeps (value: the figure, empty where not separable on this NIC) */
static void overlap_rows(FILE *f, const struct session *s, const struct results *r)
{
	int sep = overheads_separable(s->caps, NULL);

	if (!r->ov.done)
		return;
	stat_row(f, "overlap", "o_s", "ns", 8, sep ? r->ov.send.o_ns : NAN, &r->ov.os_sweeps);
	stat_row(f, "overlap", "o_r", "ns", 8, sep ? r->ov.recv.o_ns : NAN, &r->ov.or_sweeps);
}

static void signature_rows(FILE *f, const struct results *r)
{
	struct csv_row row = csv_row("signature", "L", "ns");

	if (!r->sig.done)
		return;
	row.bytes = 8;
	row.value = r->sig.L.resolved ? r->sig.L.ns : NAN;
	csv_row_write(f, &row);
}

/* Before anything is measured: can the file be written where it is to go? */
int report_csv_check(const char *path)
{
	struct out o;

	return out_open_as("--csv", path, &o, 1);
}

int report_csv(const char *path, const struct session *s, const struct results *r)
{
	struct out o;

	if (out_open_as("--csv", path, &o, 0))
		return -1;
	csv_header(o.f);
	pingpong_rows(o.f, s, r);
	flood_rows(o.f, s, r);
	overlap_rows(o.f, s, r);
	signature_rows(o.f, r);
	sweep_csv_rows(o.f, r);
	return out_close(path, &o);
}
