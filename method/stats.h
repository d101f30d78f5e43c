/* SPDX-License-Identifier: MIT */
/* method/stats.h — summary statistics of repeated measurements: the
 * quantiles and the median eel-bench and the tools both take (method/stats.c). */
#ifndef EEL_METHOD_STATS_H
#define EEL_METHOD_STATS_H

#include <stdint.h>

struct stat {
	int n;
	double min, p25, median, p75, max, mean;
	double spread;    /* (p75 - p25) / median: relative interquartile range */
	int outliers;     /* samples above p75 + 3 * IQR */
};

/* Summarise n samples (the array is sorted in place). n == 0 gives all zero. */
struct stat stat_of(double *v, int n);
/* The p-th quantile (0..1) of a sorted array, by linear interpolation. */
double quantile(const double *sorted, int n, double p);
/* The median of n samples (sorted in place; the mean of the middle two when
 * n is even), NaN for none. */
double stat_median(double *v, int n);
/* The median of n counter values (sorted in place; the lower middle when n is even). */
uint64_t u64_median(uint64_t *v, uint32_t n);
/* The median absolute deviation of n samples (sorted in place), the median in *median. */
double mad_of(double *v, int n, double *median);
/* Student's t at 97.5% for nu degrees of freedom (a two-sided 95% interval). */
double t975(double nu);
/* The 95% half-width of the median of n samples (sorted in place): Student's
 * t for n - 1 degrees of freedom times the median's standard error, 1.2533
 * sigma / sqrt(n), sigma from the median absolute deviation (1.4826 MAD, a
 * preempted run moving it less than a mean); NaN for fewer than 2. */
double median_unc95(double *v, int n);

#endif
