/* SPDX-License-Identifier: MIT */
/* tests/unit/test_method_fit.c — method/fit.c's least squares, the one line
 * eel-bench (Culler's T0 + n/R, Hockney's alpha + beta n, flood's G) and
 * eel-mpi (Al-Tawil & Moritz's G, Bell et al.'s G) fit: a known line back,
 * no line through fewer than two points or one x, and the centred sums
 * keeping a per-byte slope that raw sums of x^2 lose at large sizes. */
#include "check.h"
#include "method/fit.h"

int main(void)
{
	double x[8], y[8], one[2] = { 64, 64 }, big[3] = { 1e9, 1e9 + 1, 1e9 + 2 }, by[3] = { 5, 5.5, 6 };
	struct fit_line f = { 0, 0 };

	for (int i = 0; i < 8; i++) {
		x[i] = 4096.0 * (i + 1);
		y[i] = 250 + 0.08 * x[i];
	}
	CHECK(fit_linear(x, y, 8, &f) == 0, "a line through 8 points");
	CHECK_EQ_D(f.a, 250, 1e-6);
	CHECK_EQ_D(f.b, 0.08, 1e-12);
	CHECK(fit_linear(x, y, 1, &f) != 0, "one point is not a line");
	CHECK(fit_linear(one, y, 2, &f) != 0, "one x is not a line");
	/* sizes near 1e9: n sxx - sx^2 of raw sums cancels to nothing; centred sums keep 0.5 */
	CHECK(fit_linear(big, by, 3, &f) == 0, "large x");
	CHECK_EQ_D(f.b, 0.5, 1e-9);
	CHECK_DONE();
}
