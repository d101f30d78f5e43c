/* SPDX-License-Identifier: MIT */
/* tools/compare_tail.c — a tail quantile's own uncertainty (compare_tail.h). The
 * interval is the order statistics' (Conover, "Practical Nonparametric
 * Statistics", 3.2: the ranks between which the q-quantile lies at 95%, by
 * the normal approximation to the binomial): it assumes the rounds are
 * independent draws, which a machine's bursts of preemption are not. */
#include "compare_tail.h"

#include <math.h>

/* The value of the round of rank k (1..n) in the histogram: its bucket's high_ns. */
static double at_rank(const struct jr_val *h, double k)
{
	double seen = 0, hi = NAN, c;

	for (size_t i = 0; i < jr_len(h, ""); i++) {
		if (!jr_num(jr_at(h, i), "[1]", &hi) || !jr_num(jr_at(h, i), "[2]", &c))
			return NAN;
		seen += c;
		if (seen >= k)
			return hi;
	}
	return hi;
}

int tail_quantile_noise(const struct jr_val *tail, double q, double *noise)
{
	const struct jr_val *h = jr_get(tail, "histogram");
	double n, half, lo, hi, mid;

	if (!jr_num(tail, "count", &n) || !(n >= 1) || !jr_len(h, ""))
		return 0;
	half = 1.96 * sqrt(n * q * (1 - q));
	mid = at_rank(h, fmax(1, ceil(n * q)));
	lo = at_rank(h, fmax(1, floor(n * q - half)));
	hi = at_rank(h, fmin(n, ceil(n * q + half) + 1));
	if (!isfinite(mid) || !isfinite(lo) || !isfinite(hi))
		return 0;
	*noise = fmax(mid - lo, hi - mid);
	return 1;
}
