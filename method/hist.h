/* SPDX-License-Identifier: MIT */
/* method/hist.h — every sample kept in a fixed-size log-linear histogram
 * (HdrHistogram's layout: Tene, "HdrHistogram: a high dynamic range
 * histogram"): 10^7 round trips cost the same 43 KB as ten.
 *
 * Values are whole numbers in the caller's unit (eel-bench: clock cycles).
 * Values below 2^HIST_SUB_BITS each have a bucket of their own; above, each
 * power of two [2^e, 2^(e+1)) is cut into 2^(HIST_SUB_BITS-1) equal buckets,
 * so a bucket is at most 1/128 (0.78%) of the values in it wide. The exact
 * count, minimum, maximum and sum are kept beside the buckets. Values at or
 * above 2^HIST_MAX_EXP (at 3 GHz, a day) fall in the last bucket; the
 * maximum stays exact.
 */
#ifndef EEL_METHOD_HIST_H
#define EEL_METHOD_HIST_H

#include <stdint.h>

#define HIST_SUB_BITS 8
#define HIST_MAX_EXP 48
#define HIST_HALF (1u << (HIST_SUB_BITS - 1))
#define HIST_BUCKETS ((1u << HIST_SUB_BITS) + (HIST_MAX_EXP - HIST_SUB_BITS) * HIST_HALF)

struct hist {
	uint64_t count;
	uint64_t min, max;   /* exact; min is UINT64_MAX while empty */
	double sum;          /* exact (to a double's precision): the mean */
	uint64_t n[HIST_BUCKETS];
};

void hist_init(struct hist *h);
void hist_add(struct hist *h, uint64_t v);
/* Adds every sample of from into into. */
void hist_merge(struct hist *into, const struct hist *from);
/* The bucket a value falls in, and the values a bucket holds: [low, high]. */
uint32_t hist_index(uint64_t v);
uint64_t hist_low(uint32_t i);
uint64_t hist_high(uint32_t i);
/* The q-quantile (0 <= q <= 1): the value of the sample of rank ceil(q x
 * count) (the first for q = 0), given as the highest value of its bucket
 * (HdrHistogram's "highest equivalent value"), within [min, max]: q = 0 is
 * the minimum and q = 1 the maximum, exactly. 0 for an empty histogram. */
uint64_t hist_at(const struct hist *h, double q);
double hist_mean(const struct hist *h);

#endif
