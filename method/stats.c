/* SPDX-License-Identifier: MIT */
/* method/stats.c — summary statistics (method/stats.h). */
#include <math.h>
#include <stdlib.h>

#include "stats.h"

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double quantile(const double *s, int n, double p)
{
	double pos, frac;
	int i;

	if (n <= 0)
		return 0;
	pos = p * (n - 1);
	i = (int)pos;
	frac = pos - i;
	return i + 1 < n ? s[i] + frac * (s[i + 1] - s[i]) : s[i];
}

struct stat stat_of(double *v, int n)
{
	struct stat s = { 0 };
	double sum = 0, iqr;

	if (n <= 0)
		return s;
	qsort(v, (size_t)n, sizeof(*v), cmp);
	for (int i = 0; i < n; i++)
		sum += v[i];
	s.n = n;
	s.min = v[0];
	s.max = v[n - 1];
	s.mean = sum / n;
	s.p25 = quantile(v, n, 0.25);
	s.median = quantile(v, n, 0.5);
	s.p75 = quantile(v, n, 0.75);
	iqr = s.p75 - s.p25;
	s.spread = s.median > 0 ? iqr / s.median : 0;
	for (int i = 0; i < n; i++)
		s.outliers += v[i] > s.p75 + 3 * iqr;
	return s;
}

double stat_median(double *v, int n)
{
	if (n <= 0)
		return NAN;
	qsort(v, (size_t)n, sizeof(*v), cmp);
	return quantile(v, n, 0.5);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

uint64_t u64_median(uint64_t *v, uint32_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_u64);
	return v[(n - 1) / 2];
}

/* The median absolute deviation: the median of |v[i] - median(v)| (v is
 * sorted in place; *median gets the median). 0 for n == 0. */
double mad_of(double *v, int n, double *median)
{
	double *d, m, r;

	*median = 0;
	if (n <= 0)
		return 0;
	qsort(v, (size_t)n, sizeof(*v), cmp);
	m = *median = quantile(v, n, 0.5);
	d = malloc(sizeof(double) * (size_t)n);
	if (!d)
		return 0;
	for (int i = 0; i < n; i++)
		d[i] = v[i] > m ? v[i] - m : m - v[i];
	qsort(d, (size_t)n, sizeof(*d), cmp);
	r = quantile(d, n, 0.5);
	free(d);
	return r;
}

/* Student's t at 97.5% (a two-sided 95% interval) for nu degrees of
 * freedom: the table's value for a whole nu from 1 to 30, else the
 * Cornish-Fisher expansion around z = 1.959964 (exact to 0.1% from nu = 10
 * on; 4% low at nu = 3, where the table is used). */
double t975(double nu)
{
	static const double t[30] = {
		12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
		2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
		2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
	};
	const double z = 1.959964;

	if (nu >= 1 && nu <= 30 && nu == floor(nu))
		return t[(int)nu - 1];
	return z + (z * z * z + z) / (4 * nu) + (5 * pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * nu * nu);
}

double median_unc95(double *v, int n)
{
	double med;

	if (n < 2)
		return NAN;
	return t975(n - 1) * 1.2533 * 1.4826 * mad_of(v, n, &med) / sqrt(n);
}
