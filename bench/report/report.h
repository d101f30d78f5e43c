/* SPDX-License-Identifier: MIT */
/* bench/report/report.h — the report's frame (the table, the JSON document, the
 * warnings) and the rows and fields every method's writer (bench/<method>_report.c)
 * builds its part with. */
#ifndef EEL_BENCH_REPORT_H
#define EEL_BENCH_REPORT_H

#include <stdio.h>

#include "bench/bench.h"

/* report_table.c, report_json.c */
void report_table(FILE *f, const struct session *s, const struct results *r, const char *uri);
int report_json_check(const char *path);
/* schema "eel.run": 5 added the patterns of many ranks, 6 the bus what-if, 7 figures not separable
 * or not resolved are null with why, 8 tails/sweep/provenance, 9 the bus for bandwidth, 10 the
 * breakdown's closes and its EEL's uncertainty (docs/json.md) */
#define SCHEMA_VERSION 12
struct json;
void report_json_head(struct json *j, int argc, char **argv);
struct out;
int report_json_finish(const char *path, struct json *j, struct out *o);
struct bus_run;
/* buses, nbus: --bus LIST's runs, each written whole into `buses` (NULL, 0: none) */
int report_json(const char *path, const struct session *s, const struct results *r, const char *uri,
		int argc, char **argv, const struct bus_run *buses, int nbus);


/* warnings.c: what a reader must know before trusting the figures; each
 * says what kind of caveat it is and which figures it concerns (the JSON's
 * warning_figures[]: eel-compare refuses to compare a figure a run warned
 * of noise or placement on, eel-report flags it) */
#define MAX_WARNINGS 16
#define WARNING_LEN 320
enum warn_kind { WK_NOTE, WK_NOISE, WK_CLOCK, WK_STAMPS, WK_UNMEASURED, WK_BUDGET, WK_PLACEMENT, WK_KINDS };
extern const char *const warn_kind_name[WK_KINDS];
/* the figures, by their keys in `parameters` or their sections */
enum figure_bit {
	FIG_EEL = 1u << 0, FIG_O_S = 1u << 1, FIG_O_R = 1u << 2, FIG_G = 1u << 3, FIG_GG = 1u << 4, FIG_L = 1u << 5,
	FIG_BREAKDOWN = 1u << 6, FIG_SIGNATURE = 1u << 7, FIG_BULK = 1u << 8, FIG_DECOMPOSE = 1u << 9,
	FIG_LIMIT = 1u << 10, FIG_SWEEP = 1u << 11, FIGURES = 12, FIG_ALL = (1u << 12) - 1,
};
extern const char *const figure_name[FIGURES];
struct warning {
	char text[WARNING_LEN];
	enum warn_kind kind;
	uint32_t figures;       /* enum figure_bit */
};
int report_warnings(const struct session *s, const struct results *r, struct warning *w, int max);
/* The one recommendation on stamping when the breakdown stamped too few
 * rounds ("--stamp-every 39", "--stamp-every 8 --runs 20"), into out; 0: none. */
int stamp_advice(const struct session *s, const struct results *r, char *out, size_t n);

/* table_rows.c: one row of the parameter table: a distribution (min, median,
 * spread, cycles), one figure, or a figure derived from others (derived.c) */
void row_stat(FILE *f, const struct session *s, const char *name, const struct stat *st, const char *how);
void row_one(FILE *f, const struct session *s, const char *name, double ns, const char *how);
void row_derived(FILE *f, const struct session *s, const char *name, const struct derived *d, const char *how);

/* json_fields.c: a distribution's figures; a parameter measured as one (ns and
 * cycles); a figure derived from others, null where not resolved or separable */
void stat_obj(struct json *j, const char *key, const struct stat *s);
void param_stat(struct json *j, const struct session *s, const char *key, const struct stat *st,
		const char *method);
void derived_obj(struct json *j, const struct session *s, const char *key, const struct derived *d,
		 const char *method);

#endif
