/* SPDX-License-Identifier: MIT */
/* tools/report/doc.h — an eel-bench run (schema "eel.run", docs/json.md)
 * opened for eel-report and eel-compare: the document checked to be one they
 * can read, and the few shapes they take from it. */
#ifndef EEL_TOOLS_REPORT_DOC_H
#define EEL_TOOLS_REPORT_DOC_H

#include <stddef.h>

#include "tools/json_read.h"

#define RUN_SCHEMA_MAX 12  /* the newest "eel.run" schema_version these tools read */

struct run {
	const char *path;
	struct jr_doc *doc;
	const struct jr_val *root;
	int version;
};

/* A measured distribution (docs/json.md: "a stat"). */
struct stat5 {
	double min, p25, median, p75, max;
	double mean; /* NaN where the run gives none */
	double n;
};

/* Opens path: a JSON object with "schema": "eel.run" and a schema_version of
 * 1..RUN_SCHEMA_MAX. On failure writes one line naming the problem and the
 * fix to err and returns -1. */
int run_open(struct run *r, const char *path, const char *tool, char *err, size_t errlen);
void run_close(struct run *r);

/* The stat at path (an object with at least min; missing quantiles are NaN).
 * 1 when there is one. */
int stat_at(const struct jr_val *v, const char *path, struct stat5 *s);

/* A number at path, or NaN. */
double num_at(const struct jr_val *v, const char *path);

/* The NIC's one-line name: "softnic:inline (softnic)". */
void run_nic_name(const struct run *r, char *buf, size_t len);

#endif
