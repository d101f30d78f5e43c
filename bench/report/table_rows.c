/* SPDX-License-Identifier: MIT */
/* bench/report/table_rows.c — one row of the parameter table (the rows every method's
 * writer, bench/<method>_report.c, builds its part of the table with). */
#include <math.h>
#include <stdio.h>

#include "bench/report/report.h"


static double cycles(const struct session *s, double ns)
{
	return ns * s->clk->hz / 1e9;
}

void row_stat(FILE *f, const struct session *s, const char *name, const struct stat *st,
		     const char *how)
{
	fprintf(f, "  %-20s %10.1f ns %10.1f ns %6.1f %%  %8.0f   %s\n", name, st->min, st->median,
		100 * st->spread, cycles(s, st->min), how);
}

void row_one(FILE *f, const struct session *s, const char *name, double ns, const char *how)
{
	fprintf(f, "  %-20s %10.1f ns %13s %8s  %8.0f   %s\n", name, ns, "", "", cycles(s, ns), how);
}

/* A figure derived from others (derived.c): the figure where it is resolved
 * (with its cycles), else a bound ("< X ns") or "not resolved", or "not
 * separable on this NIC" with the reason: never a negative duration. */
void row_derived(FILE *f, const struct session *s, const char *name, const struct derived *d,
			const char *how)
{
	char b[32];

	if (!d->separable) {
		fprintf(f, "  %-20s not separable on this NIC: %s\n", name, d->why);
	} else if (d->resolved) {
		row_one(f, s, name, d->ns, how);
	} else if (isfinite(d->bound_ns)) {
		snprintf(b, sizeof(b), "< %.1f ns", d->bound_ns);
		fprintf(f, "  %-20s %13s %13s %8s  %8s   %s: %s (+-%.1f ns)\n", name, b, "", "", "", how, d->why,
			d->u_ns);
	} else {
		fprintf(f, "  %-20s %13s %13s %8s  %8s   %s: %s\n", name, "not resolved", "", "", "", how, d->why);
	}
}
