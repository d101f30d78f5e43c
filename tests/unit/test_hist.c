/* SPDX-License-Identifier: MIT */
/* tests/unit/test_hist.c — the log-linear histogram (method/hist.c): buckets
 * tile the values with no gap or overlap and at most 1/128 of their values
 * wide; quantiles agree with the exact ones of the sorted samples within a
 * bucket; min, max, mean exact; merging is adding. */
#include <stdlib.h>

#include "check.h"
#include "method/hist.h"

static void test_buckets(void)
{
	int gaps = 0, wide = 0;

	CHECK_EQ_U(hist_low(0), 0);
	for (uint32_t i = 0; i + 1 < HIST_BUCKETS; i++) {
		if (hist_high(i) + 1 != hist_low(i + 1))
			gaps++;
		if (hist_low(i) >= 256 && (double)(hist_high(i) - hist_low(i) + 1) > (double)hist_low(i) / 128)
			wide++;
	}
	CHECK(gaps == 0, "%d buckets do not meet the next", gaps);
	CHECK(wide == 0, "%d buckets wider than 1/128 of their values", wide);
	/* every value lands in the bucket whose range holds it */
	for (uint64_t v = 1; v < (1ull << 47); v = v * 3 + 1) {
		uint32_t i = hist_index(v);

		CHECK(hist_low(i) <= v && v <= hist_high(i), "%llu in bucket %u [%llu, %llu]", (unsigned long long)v, i,
		      (unsigned long long)hist_low(i), (unsigned long long)hist_high(i));
	}
	CHECK_EQ_U(hist_index(UINT64_MAX), HIST_BUCKETS - 1);
	CHECK_EQ_U(hist_index(255), 255);
	CHECK_EQ_U(hist_index(256), 256);
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void test_quantiles(void)
{
	enum { N = 100000 };
	static double s[N];
	static struct hist h, a, b;
	const double q[] = { 0.5, 0.9, 0.99, 0.999, 0.9999 };
	double sum = 0;

	hist_init(&h);
	hist_init(&a);
	hist_init(&b);
	srand(7);
	for (int i = 0; i < N; i++) {
		/* a round trip's shape: most near 400, a tail to 10^6 */
		uint64_t v = 400 + (uint64_t)(rand() % 50);

		if (i % 100 == 0)
			v += (uint64_t)(rand() % 20000);
		if (i % 10000 == 0)
			v = 1000000 + (uint64_t)i;
		s[i] = (double)v;
		sum += (double)v;
		hist_add(&h, v);
		hist_add(i & 1 ? &a : &b, v);
	}
	CHECK_EQ_U(h.count, N);
	CHECK_EQ_D(hist_mean(&h), sum / N, 1e-6);
	qsort(s, N, sizeof(double), by_value);
	CHECK_EQ_U(hist_at(&h, 0), (uint64_t)s[0]);
	CHECK_EQ_U(hist_at(&h, 1), (uint64_t)s[N - 1]);
	for (unsigned k = 0; k < sizeof(q) / sizeof(q[0]); k++) {
		double exact = s[(size_t)((q[k] * N) + 0.999999) - 1], got = (double)hist_at(&h, q[k]);

		/* the highest value of the exact sample's bucket */
		CHECK(got >= exact && got <= exact * (1 + 1.0 / 128), "q %g: %g, exact %g", q[k], got, exact);
	}
	hist_merge(&a, &b);
	CHECK_EQ_U(a.count, N);
	CHECK_EQ_U(a.min, h.min);
	CHECK_EQ_U(a.max, h.max);
	for (unsigned k = 0; k < sizeof(q) / sizeof(q[0]); k++)
		CHECK_EQ_U(hist_at(&a, q[k]), hist_at(&h, q[k]));
	hist_init(&b);
	CHECK_EQ_U(hist_at(&b, 0.99), 0);
	CHECK_EQ_D(hist_mean(&b), 0, 0);
}

int main(void)
{
	test_buckets();
	test_quantiles();
	CHECK_DONE();
}
