/* SPDX-License-Identifier: MIT */
/* bench/bus_runs.h — the bus what-if (--bus LIST, docs/bus.md): one whole run per
 * modelled bus, the model's transactions on the 8-byte put's path, and their
 * table and JSON. */
#ifndef EEL_BENCH_BUS_RUNS_H
#define EEL_BENCH_BUS_RUNS_H

#include <stdio.h>

#include <eel/bus.h>

#include "bench.h"

#define MAX_BUSES 8
/* The size of the table's bandwidth row: the flood's point at 64 KiB (a
 * --bus run floods it whatever --sizes says, bench/cli.c). */
#define BUS_BW_SIZE 65536u
/* The model's transactions on the ping-pong's 8-byte put's path, ns; and k,
 * how many of each kind the path has: raising one kind's cost by D raises
 * EEL by k D (docs/bus.md, "Who waits for what"). */
struct bus_path {
	double doorbell_ns, descriptor_ns, ack_status_ns, payload_issue_ns, payload_seen_ns, sum_ns;
	unsigned k_reads, k_posted, k_doorbells, k_completions, k_host_waits;
	unsigned k_read_rtt, k_posted_flight; /* read_rtt_ns's and posted_ns's k */
};
/* One bus's whole run, for --bus LIST. */
struct bus_run {
	struct eel_bus bus;
	char uri[512];
	struct session s;
	struct results r;
};
struct json;
void bus_path(const struct eel_bus *p, struct bus_path *t);
void bus_json(struct json *j, const struct eel_bus *p);
/* The flood's point at BUS_BW_SIZE at its deepest queue, NULL where the
 * flood did not measure it; its bandwidth in Gb/s (the fastest run's). */
const struct flood_point *bus_bw_point(const struct flood_res *f);
double bus_bw_gbps(const struct flood_point *pt);
/* What the link lets a flood of puts through, Gb/s: the lesser of the
 * model's streams of len-byte reads (the sender's payload) and writes (the
 * receiver's), each NIC on a bus of its own (0 without a bus). */
double bus_link_gbps(const struct eel_bus *p, uint32_t len);
/* parameters.bandwidth_64k, where the flood measured 64 KiB */
void bus_bw_json(struct json *j, const struct results *r);
/* The membus presets' calibration (docs/bus.md, the preset table): a posted write
 * is one cache line moving between two cores, the limit's one-way median, a
 * read two. Writes the URI's "&posted_ns=..&read_rtt_ns=.." into extra and
 * returns 1 when lim is such a line; else returns 0 with why the preset's
 * own figures stand (why: one line, for stderr): no limit measured, the
 * NIC's floor, runs that disagree by more than BUS_CAL_SPREAD (their
 * interquartile range over the median), or a median above BUS_CAL_LINE_MAX_NS,
 * which no cache line takes between two running cores (a same-socket line
 * 40-42 ns, one from the other socket ~100 ns more: docs/bus.md, the preset table;
 * two vCPUs of this project's VM 250-320 ns; a peer that was not running,
 * on a busy machine, microseconds). */
#define BUS_CAL_SPREAD 0.25
#define BUS_CAL_LINE_MAX_NS 1000.0
int bus_membus_calibration(const struct limit_res *lim, char *extra, size_t n, char *why, size_t wn);
/* total_s: the whole --bus run, the calibration included */
void bus_table(FILE *f, const struct bus_run *b, int n, double total_s);

#endif
