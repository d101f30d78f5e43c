/* SPDX-License-Identifier: MIT */
/* bench/overlap.h — Bell et al. 2003 4.3's overlap (o_s, o_r; 5.2's overlap potential): its result, its sweep, and its rows in the report. */
#ifndef EEL_BENCH_OVERLAP_H
#define EEL_BENCH_OVERLAP_H

#include <stdint.h>
#include <stdio.h>
#include "method/stats.h"

#include "method/dmax.h"

struct session;
struct results;
struct json;

/* struct overlap_curve and the D_max search: method/dmax.h */
#define OV_MAX_STEPS OVERLAP_MAX_POINTS

#define MAX_SWEEPS 20
struct overlap_res {
	int done;
	struct overlap_curve send, recv;   /* the sweep whose o is the median of the sweeps */
	struct stat os_sweeps, or_sweeps;  /* o_s, o_r over the sweeps */
};

int overlap_run(struct session *s, struct results *r);
/* The overlap sweep on the measuring end; fn measures one run at computation
 * d_ns (exposed for tests, which give it a known curve). */
/* One overlap point: n messages with d_ns of computation asked for each; *t_ns
 * the time per message, *da_ns the computation per message as measured. */
typedef int (*point_fn)(struct session *s, double d_ns, uint32_t n, double *t_ns, double *da_ns);
int overlap_sweep(struct session *s, point_fn fn, struct overlap_curve *c);

/* overlap_report.c: its rows in the table (o_s, o_r; the overlap potential, with
 * the ping-pong's EEL; the curves under -v) and in the JSON (parameters: o_s,
 * o_r, overlap_potential; curves: overlap_send, overlap_recv) */
void overlap_table_rows(FILE *f, const struct session *s, const struct results *r);
void overlap_table_potential(FILE *f, const struct session *s, const struct results *r);
void overlap_table_curves(FILE *f, const struct results *r);
void overlap_json_parameters(struct json *j, const struct session *s, const struct results *r);
void overlap_json_potential(struct json *j, const struct session *s, const struct results *r);
void overlap_json_curves(struct json *j, const struct results *r);

#endif
