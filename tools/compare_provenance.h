/* SPDX-License-Identifier: MIT */
/* tools/compare_provenance.h — before eel-compare compares a figure, what
 * differs in where the two runs' figures come from (compare_provenance.c). */
#ifndef EEL_TOOLS_COMPARE_PROVENANCE_H
#define EEL_TOOLS_COMPARE_PROVENANCE_H

#include <stdio.h>

#include "tools/report/doc.h"

/* One line to f per difference in A's and B's provenance (docs/json.md,
 * schema 8): "different firmware: 16.35.2000 vs 16.35.1012"; a line saying
 * it is unknown where a document records none (schema 7 and before).
 * Returns how many differences were named. */
int provenance_diff(const struct run *A, const struct run *B, FILE *f);

#endif
