/* SPDX-License-Identifier: MIT */
/* method/fit.h — least squares and the models' fits of the methods' papers
 * (method/fit.c): Culler et al. 1996's T0 + n/R, Hockney's alpha + beta n
 * (Dongarra & Dunigan 1997), Taboada et al. 2003's model, Al-Tawil & Moritz
 * 2001's G; one least-squares line for eel-bench and eel-mpi. */
#ifndef EEL_METHOD_FIT_H
#define EEL_METHOD_FIT_H

struct fit_line {
	double a, b;         /* y = a + b x */
};

/* The least-squares line of y on x (n points) in *f; -1 when there is none
 * (fewer than two points, or one x). */
int fit_linear(const double *x, const double *y, int n, struct fit_line *f);
/* Taboada et al. 2003 §3: T(n) = t0 + ti (n tb)/(t0 + n tb) + n tb. */
double model003(double t0, double ti, double tb, double n);
/* The average absolute relative error of predictions p against measurements m. */
double mean_abs_rel_err(const double *p, const double *m, int n);

#endif
