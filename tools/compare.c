/* SPDX-License-Identifier: MIT */
/* tools/compare.c — eel-compare's verdict and formats (compare.h). */
#include "compare.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void cmp_judge(double a, double b, double noise_a, double noise_b, enum cmp_dir dir, double thr, struct verdict *v)
{
	double d = b - a;

	v->noise = NAN;
	if (isfinite(noise_a) && isfinite(noise_b))
		v->noise = sqrt(noise_a * noise_a + noise_b * noise_b);
	v->pct = a != 0 ? d / fabs(a) * 100 : (d == 0 ? 0 : d > 0 ? INFINITY : -INFINITY);
	v->why = "";
	if (d == 0) {
		v->word = "same";
	} else if (isfinite(v->noise) && fabs(d) <= v->noise) {
		v->word = "same";
		v->why = " (within noise)";
	} else if (fabs(v->pct) < thr) {
		v->word = "same";
		v->why = " (below threshold)";
	} else if (dir == CMP_INFO) {
		v->word = "changed";
	} else {
		v->word = dir * d > 0 ? "better" : "worse";
	}
}

void cmp_fmt(char *buf, size_t len, double v, const char *unit)
{
	if (!strcmp(unit, "ns"))
		snprintf(buf, len, fabs(v) < 1e5 ? "%.1f ns" : "%.4g ns", v);
	else if (!strcmp(unit, "ns/B"))
		snprintf(buf, len, "%.4g ns/B", v);
	else if (!strcmp(unit, "B/ns"))
		snprintf(buf, len, "%.4g B/ns", v);
	else if (!strcmp(unit, "B"))
		snprintf(buf, len, "%.0f B", v);
	else
		snprintf(buf, len, "%.4g%s%s", v, *unit ? " " : "", unit);
}

const struct jr_val *cmp_by_num(const struct jr_val *arr, const char *k1, double v1, const char *k2, double v2)
{
	for (size_t i = 0; i < jr_len(arr, ""); i++) {
		double x, y;

		if (jr_num(jr_at(arr, i), k1, &x) && x == v1 && (!k2 || (jr_num(jr_at(arr, i), k2, &y) && y == v2)))
			return jr_at(arr, i);
	}
	return NULL;
}
