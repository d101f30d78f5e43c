/* SPDX-License-Identifier: MIT */
/* tests/unit/test_stats.c — summary statistics (method/stats.c): quantiles by
 * linear interpolation, the relative spread, outliers above p75 + 3 IQR, the
 * median eel-compare and eel-mpi take (stat_median). */
#include <math.h>

#include "check.h"
#include "method/stats.h"

static void test_quantile(void)
{
	const double s[] = { 10, 20, 30, 40, 50 };
	const double one[] = { 7 };

	CHECK_EQ_D(quantile(s, 5, 0), 10, 0);
	CHECK_EQ_D(quantile(s, 5, 1), 50, 0);
	CHECK_EQ_D(quantile(s, 5, 0.5), 30, 0);
	CHECK_EQ_D(quantile(s, 5, 0.25), 20, 0);
	CHECK_EQ_D(quantile(s, 5, 0.1), 14, 1e-12);   /* pos 0.4: 10 + 0.4 * 10 */
	CHECK_EQ_D(quantile(s, 5, 0.95), 48, 1e-12);  /* pos 3.8 */
	CHECK_EQ_D(quantile(s, 4, 0.5), 25, 0);       /* an even count: the mean of the middle two */
	CHECK_EQ_D(quantile(one, 1, 0.5), 7, 0);
	CHECK_EQ_D(quantile(one, 1, 1), 7, 0);
	CHECK_EQ_D(quantile(s, 0, 0.5), 0, 0);
}

static void test_stat(void)
{
	double v[] = { 9, 1, 5, 3, 7, 2, 8, 4, 6, 10 }; /* 1..10, shuffled */
	struct stat st = stat_of(v, 10);

	CHECK_EQ_U(st.n, 10);
	CHECK(v[0] == 1 && v[9] == 10, "the array is sorted in place");
	CHECK_EQ_D(st.min, 1, 0);
	CHECK_EQ_D(st.max, 10, 0);
	CHECK_EQ_D(st.mean, 5.5, 0);
	CHECK_EQ_D(st.median, 5.5, 0);
	CHECK_EQ_D(st.p25, 3.25, 1e-12);  /* pos 2.25 */
	CHECK_EQ_D(st.p75, 7.75, 1e-12);  /* pos 6.75 */
	CHECK_EQ_D(st.spread, 4.5 / 5.5, 1e-12);
	CHECK_EQ_U(st.outliers, 0);
}

static void test_outliers(void)
{
	/* p25 = 100 (position 2.5), p75 = 110 (position 7.5, between 104 and
	 * 116): the fence is 110 + 3 * 10 = 140, so only 500 is above it */
	double v[] = { 100, 100, 100, 100, 102, 104, 104, 104, 116, 140, 500 };
	struct stat st;

	st = stat_of(v, 11);
	CHECK_EQ_D(st.p25, 100, 0);
	CHECK_EQ_D(st.p75, 110, 0);
	CHECK_EQ_U(st.outliers, 1);

	{
		double w[] = { 5, 5, 5, 5, 5, 5, 5, 5 };

		st = stat_of(w, 8);
		CHECK(st.spread == 0 && st.outliers == 0 && st.median == 5, "constant samples");
	}
	{
		double w[] = { 0, 0, 0, 0, 0, 0, 0, 2 };

		st = stat_of(w, 8);
		CHECK(st.spread == 0, "a zero median gives spread 0, not a division by zero: %g", st.spread);
		CHECK_EQ_D(st.p75, 0, 0);
		CHECK_EQ_U(st.outliers, 1); /* IQR 0: anything above p75 is out */
	}
	st = stat_of(NULL, 0);
	CHECK(st.n == 0 && st.median == 0 && st.mean == 0, "no samples");
}

/* the median of unsorted samples, sorted in place: the middle one, or the
 * mean of the middle two; NaN for none (eel-compare's "no figure") */
static void test_median(void)
{
	double odd[] = { 30, 10, 50, 20, 40 }, even[] = { 7, 1, 5, 3 }, one[] = { 4 };

	CHECK_EQ_D(stat_median(odd, 5), 30, 0);
	CHECK(odd[0] == 10 && odd[4] == 50, "sorted in place");
	CHECK_EQ_D(stat_median(even, 4), 4, 0);
	CHECK_EQ_D(stat_median(one, 1), 4, 0);
	CHECK(isnan(stat_median(NULL, 0)), "no samples: NaN");
}

/* median_unc95: t(n-1) * 1.2533 * 1.4826 MAD / sqrt(n); one run that moved
 * far changes it as it changes the MAD, not as it would a mean's; NaN for
 * fewer than two */
static void test_median_unc95(void)
{
	double four[] = { 100, 104, 96, 102 }, moved[] = { 100, 104, 96, 900 }, one[] = { 5 };

	/* four: median 101, deviations 1, 3, 5, 1: MAD 2; t(3) = 3.182 */
	CHECK_EQ_D(median_unc95(four, 4), 3.182 * 1.2533 * 1.4826 * 2 / 2, 1e-9);
	/* moved: median 102, deviations 2, 2, 6, 798: MAD 4 */
	CHECK_EQ_D(median_unc95(moved, 4), 3.182 * 1.2533 * 1.4826 * 4 / 2, 1e-9);
	CHECK(isnan(median_unc95(one, 1)), "one run: NaN, not 0");
	/* t975: the table for a whole nu up to 30, the expansion past it */
	CHECK_EQ_D(t975(3), 3.182, 0);
	CHECK_EQ_D(t975(30), 2.042, 0);
	CHECK_EQ_D(t975(31), 2.0395, 0.001);
}

int main(void)
{
	test_median_unc95();
	test_quantile();
	test_median();
	test_stat();
	test_outliers();
	CHECK_DONE();
}
