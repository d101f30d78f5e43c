/* SPDX-License-Identifier: MIT */
/* bench/report/json_fields.c — the JSON fields several methods' writers share: a
 * distribution, a parameter measured as one, a figure derived from others. */
#include <math.h>
#include <stdint.h>

#include "bench/report/json.h"
#include "bench/report/report.h"


void stat_obj(struct json *j, const char *key, const struct stat *s)
{
	json_obj(j, key);
	json_num(j, "min", s->min);
	json_num(j, "p25", s->p25);
	json_num(j, "median", s->median);
	json_num(j, "p75", s->p75);
	json_num(j, "max", s->max);
	json_num(j, "mean", s->mean);
	json_num(j, "spread", s->spread);
	json_u64(j, "n", (uint64_t)s->n);
	json_u64(j, "outliers", (uint64_t)s->outliers);
	json_obj_end(j);
}

/* A parameter measured as a distribution: ns and cycles. */
void param_stat(struct json *j, const struct session *s, const char *key, const struct stat *st,
		       const char *method)
{
	json_obj(j, key);
	stat_obj(j, "ns", st);
	json_obj(j, "cycles");
	json_u64(j, "min", (uint64_t)(st->min * s->clk->hz / 1e9 + 0.5));
	json_u64(j, "median", (uint64_t)(st->median * s->clk->hz / 1e9 + 0.5));
	json_obj_end(j);
	json_str(j, "method", method);
	json_obj_end(j);
}

/* A figure derived from others (derived.c), as the table states it: `ns`
 * (and `cycles`) only where resolved, else null with `bound_ns` (at most
 * that) or `why`; never a negative duration. */
void derived_obj(struct json *j, const struct session *s, const char *key, const struct derived *d,
			const char *method)
{
	json_obj(j, key);
	json_num(j, "ns", d->resolved ? d->ns : NAN);
	if (d->resolved)
		json_u64(j, "cycles", (uint64_t)(d->ns * s->clk->hz / 1e9 + 0.5));
	else
		json_num(j, "cycles", NAN);
	json_bool(j, "separable", d->separable);
	json_bool(j, "resolved", d->resolved);
	json_num(j, "bound_ns", d->separable && !d->resolved ? d->bound_ns : NAN);
	json_num(j, "uncertainty_ns", d->u_ns);
	if (d->why)
		json_str(j, "why", d->why);
	json_str(j, "method", method);
	json_obj_end(j);
}
