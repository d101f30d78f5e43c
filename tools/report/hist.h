/* SPDX-License-Identifier: MIT */
/* tools/report/hist.h — the papers' historical machines (data/historical.csv,
 * described in data/README.md): one row per machine and measurement. */
#ifndef EEL_TOOLS_REPORT_HIST_H
#define EEL_TOOLS_REPORT_HIST_H

#include <stddef.h>

struct hist_row {
	char machine[96], software[64], measurement[32];
	double size;               /* bytes; NaN when the figure has no message size */
	double value;              /* in unit (ns, bytes/ns, bytes, cycles, ...) */
	char unit[24];
	char orig[24], orig_unit[64];
	char source[96], note[200];
};

struct hist {
	struct hist_row *row;
	int n;
	char path[4096];           /* where it was read from, "" when not found */
};

/* Reads path, or when path is NULL the first of $(dirname exe)/../data/historical.csv
 * and EEL_SRC_DIR/data/historical.csv that exists. Returns 0 when read, 1 when
 * path was NULL and none exists (h is empty; err says where it looked), -1 on
 * a bad file (one line in err). */
int hist_load(struct hist *h, const char *path, char *err, size_t errlen);
void hist_free(struct hist *h);

/* The value of one measurement of one machine (machine and software as in the file), or NaN. */
double hist_value(const struct hist *h, const char *machine, const char *software, const char *measurement);

#endif
