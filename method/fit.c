/* SPDX-License-Identifier: MIT */
/* method/fit.c — the fits of the methods' papers, on measured T(n) (method/fit.h).
 *
 *   Culler et al. 1996 "Bulk-transfer time and bandwidth": T(n) = T0 + n/R, a line fitted
 *     to the store times (and why T0 misleads: it is only an intercept);
 *   Dongarra & Dunigan 1997 §2.2 (Hockney): t = alpha + beta n by linear least squares,
 *     asymptotic bandwidth 1/beta, n_1/2 = alpha/beta;
 *   Taboada et al. 2003 §3: T(n) = t0 + ti (n tb)/(t0 + n tb) + n tb, with t0 the
 *     measured startup (n = 0; eel's smallest message, 8 bytes, stands for it),
 *     ti the intercept and tb the slope of the linear regression of T on n;
 *     asymptotic bandwidth 1/tb, specific performance 1/t0; judged by the
 *     average absolute relative error on 20 random message sizes.
 */
#include <math.h>

#include "fit.h"

/* The sums are centred on the means (numerically better than raw sums of
 * x^2 when x is large, as message sizes are). */
int fit_linear(const double *x, const double *y, int n, struct fit_line *f)
{
	double mx = 0, my = 0, sxx = 0, sxy = 0;

	if (n < 2)
		return -1;
	for (int i = 0; i < n; i++) {
		mx += x[i];
		my += y[i];
	}
	mx /= n;
	my /= n;
	for (int i = 0; i < n; i++) {
		sxx += (x[i] - mx) * (x[i] - mx);
		sxy += (x[i] - mx) * (y[i] - my);
	}
	if (sxx <= 0)
		return -1;
	f->b = sxy / sxx;
	f->a = my - f->b * mx;
	return 0;
}

double model003(double t0, double ti, double tb, double n)
{
	return t0 + ti * (n * tb) / (t0 + n * tb) + n * tb;
}

/* Average absolute relative error of predictions p against measurements m. */
double mean_abs_rel_err(const double *p, const double *m, int n)
{
	double e = 0;

	for (int i = 0; i < n; i++)
		e += fabs(p[i] - m[i]) / m[i];
	return n ? e / n : 0;
}
