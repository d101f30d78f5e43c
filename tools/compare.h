/* SPDX-License-Identifier: MIT */
/* tools/compare.h — what eel-compare's two comparisons share (the figures of
 * a run between two hosts, tools/eel-compare.c; the pairs and curves of a
 * launched run, tools/compare_mesh.c): the verdict on one figure, a value's
 * format, an array's member found by its numbers. */
#ifndef EEL_TOOLS_COMPARE_H
#define EEL_TOOLS_COMPARE_H

#include <stddef.h>

#include "tools/json_read.h"

/* Which way is better: lower for times and per-byte costs, higher for
 * bandwidths; none for derived figures ("changed" at most). */
enum cmp_dir { CMP_INFO = 0, CMP_LOWER = -1, CMP_HIGHER = 1 };

struct verdict {
	double pct;          /* the change in % of A */
	double noise;        /* the two runs' noises combined, sqrt(a^2 + b^2); NaN: none */
	const char *word;    /* "same", "better", "worse", "changed" */
	const char *why;     /* "", " (within noise)", " (below threshold)" */
};

/* The verdict on A = a and B = b, each known to noise_a, noise_b (NaN: a
 * single value, the threshold thr (%) alone decides): a change within the
 * combined noise, or under thr, is "same"; larger ones "better" or "worse"
 * by dir. */
void cmp_judge(double a, double b, double noise_a, double noise_b, enum cmp_dir dir, double thr, struct verdict *v);

/* v in its unit ("ns", "ns/B", "B/ns", "B", or any other shown after it). */
void cmp_fmt(char *buf, size_t len, double v, const char *unit);

/* The member of array arr whose number fields k1 (and k2, if given) equal v1 (v2). */
const struct jr_val *cmp_by_num(const struct jr_val *arr, const char *k1, double v1, const char *k2, double v2);

#endif
