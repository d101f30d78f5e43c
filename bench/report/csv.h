/* SPDX-License-Identifier: MIT */
/* bench/report/csv.h — the run as CSV (--csv FILE, bench/report/csv.c; its
 * columns: docs/json.md, "CSV"): one row per figure, and with a size sweep
 * one row per size. Written as --json is (outfile.h): whole or not at all. */
#ifndef EEL_BENCH_CSV_H
#define EEL_BENCH_CSV_H

#include <stdio.h>

#include "bench/bench.h"

/* One row; a number that is NAN is an empty cell. */
struct csv_row {
	const char *test, *figure, *unit;
	double bytes, n, value, min, median, mean, p99, p99_9, max, spread;
	double bw_avg_gbit_per_s, msg_rate_mpps;
};

/* A row of test, figure and unit, every number empty; a distribution's figures into it; the row. */
void csv_header(FILE *f);
struct csv_row csv_row(const char *test, const char *figure, const char *unit);
void csv_row_stat(struct csv_row *row, const struct stat *st);
void csv_row_write(FILE *f, const struct csv_row *row);

/* report_csv.c: the file, checked before the run and written after it */
int report_csv_check(const char *path);
int report_csv(const char *path, const struct session *s, const struct results *r);

#endif
