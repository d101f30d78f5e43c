/* SPDX-License-Identifier: MIT */
/* bench/limit.h — the limit beside EEL (a cache line between two cores, or the NIC's floor): its result, its runs, and its rows in the report. */
#ifndef EEL_BENCH_LIMIT_H
#define EEL_BENCH_LIMIT_H

#include <stdio.h>
#include "plan.h"
#include "method/stats.h"

struct session;
struct results;
struct json;

struct limit_res {
	int done;
	int floor;                       /* the NIC's floor (eel_floor), not the cache-line limit */
	double one_way_ns[MAX_RUNS];
	int nruns;
	struct stat one_way;
	double skew_lo_ns, skew_hi_ns;   /* where the peer core's TSC offset must lie */
	/* side by side: a ping-pong run of EEL right after each run of the limit,
	 * and their ratio run by run (the machine the same for both) */
	double eel_beside_ns[MAX_RUNS], ratio[MAX_RUNS];
	struct stat eel_beside, eel_over;
	char peer_nic[200];              /* floor: the server's end of the pair, its NIC's URI */
};

int limit_run(struct session *s, struct results *r);

/* limit_report.c: its section of the table and of the JSON (limit; curves: limit) */
void limit_table(FILE *f, const struct session *s, const struct results *r, const char *uri);
void limit_json(struct json *j, const struct results *r);
void limit_json_curves(struct json *j, const struct results *r);

#endif
