/* SPDX-License-Identifier: MIT */
/* method/hist.c — the log-linear histogram of method/hist.h. */
#include <math.h>
#include <string.h>

#include "hist.h"

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

uint32_t hist_index(uint64_t v)
{
	uint32_t e, shift;

	if (v < (1u << HIST_SUB_BITS))
		return (uint32_t)v;
	e = 63u - (uint32_t)__builtin_clzll(v);
	if (e >= HIST_MAX_EXP)
		return HIST_BUCKETS - 1;
	/* [2^e, 2^(e+1)) in HIST_HALF buckets of 2^shift values each */
	shift = e - (HIST_SUB_BITS - 1);
	return (1u << HIST_SUB_BITS) + (e - HIST_SUB_BITS) * HIST_HALF + (uint32_t)((v >> shift) - HIST_HALF);
}

uint64_t hist_low(uint32_t i)
{
	uint32_t e, k;

	if (i < (1u << HIST_SUB_BITS))
		return i;
	e = HIST_SUB_BITS + (i - (1u << HIST_SUB_BITS)) / HIST_HALF;
	k = (i - (1u << HIST_SUB_BITS)) % HIST_HALF;
	return (uint64_t)(HIST_HALF + k) << (e - (HIST_SUB_BITS - 1));
}

uint64_t hist_high(uint32_t i)
{
	if (i >= HIST_BUCKETS - 1)
		return UINT64_MAX;
	return hist_low(i + 1) - 1;
}

void hist_add(struct hist *h, uint64_t v)
{
	h->n[hist_index(v)]++;
	h->count++;
	h->sum += (double)v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

void hist_merge(struct hist *into, const struct hist *from)
{
	if (!from->count)
		return;
	for (uint32_t i = 0; i < HIST_BUCKETS; i++)
		into->n[i] += from->n[i];
	into->count += from->count;
	into->sum += from->sum;
	if (from->min < into->min)
		into->min = from->min;
	if (from->max > into->max)
		into->max = from->max;
}

uint64_t hist_at(const struct hist *h, double q)
{
	uint64_t rank, seen = 0, v;

	if (!h->count)
		return 0;
	if (q <= 0)
		return h->min;
	if (q >= 1)
		return h->max;
	rank = (uint64_t)ceil(q * (double)h->count);
	if (rank < 1)
		rank = 1;
	for (uint32_t i = 0; i < HIST_BUCKETS; i++) {
		seen += h->n[i];
		if (seen >= rank) {
			v = hist_high(i);
			return v > h->max ? h->max : v < h->min ? h->min : v;
		}
	}
	return h->max;
}

double hist_mean(const struct hist *h)
{
	return h->count ? h->sum / (double)h->count : 0;
}
