/* SPDX-License-Identifier: MIT */
/* bench/decompose_report.c — the decomposition of EEL (decompose.c) in the table and in
 * the JSON document (its "decompose" section, docs/json.md). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/report/json.h"
#include "bench/report/report.h"


/* EEL split on this NIC, each part with how it was obtained */
/* A duration for the table: "< bound" when it is within its uncertainty of 0. */
static const char *dur(char *buf, size_t len, double ns, int unresolved, double bound)
{
	if (unresolved)
		snprintf(buf, len, "< %.1f", bound);
	else
		snprintf(buf, len, "%.1f", ns);
	return buf;
}

void decompose_table(FILE *f, const struct results *r)
{
	const struct decompose_res *d = &r->dec;
	char a[32], b[32];

	if (!r->dec.done)
		return;
	fprintf(f, "\n  EEL %.1f ns, decomposed (each part: how eel got it)\n", d->eel_ns);
	for (int i = 0; i < d->nparts; i++) {
		const struct dec_part *p = &d->part[i];

		fprintf(f, "    %-10s %9s ns  %-10s %s%s%s%s\n", p->name, dur(a, sizeof(a), p->ns, p->unresolved,
			p->bound_ns), p->method, p->how, p->merged[0] ? " (merges " : "", p->merged,
			p->merged[0] ? ")" : "");
	}
	if (d->closed)
		fprintf(f, "    %-10s %9s     (not separable here: the remainder is EEL less the other parts)\n",
			"residual", "-");
	else
		fprintf(f, "    %-10s %9.1f ns  (the parts' sum less EEL)\n", "residual", d->residual_ns);
	if (d->hosted)
		fprintf(f, "    (no E-register or DMA'd-payload variants: here eel's firmware reads the descriptor "
			"and the payload on the host's core, inside post, not the NIC)\n");
	for (int i = 0; i < d->nchecks; i++) {
		const struct dec_part *p = &d->check[i];

		/* each figure within the noise of 0 is a bound, never negative */
		dur(a, sizeof(a), p->ns, p->ns <= p->noise_ns, fmax(p->ns, 0) + p->noise_ns);
		dur(b, sizeof(b), p->stamped_ns, p->stamped_ns <= p->noise_ns, fmax(p->stamped_ns, 0) + p->noise_ns);
		if (!p->isolated && !p->agrees)
			fprintf(f, "    check: %s by difference %s ns (%s), stamped %s ns: cannot isolate the %s "
				"on this NIC: %s\n", p->name, a, p->how, b, p->name, p->why_not);
		else if (p->within[0])
			fprintf(f, "    check: %s by difference %s ns (%s) %s inside the stamped %s, %s ns\n",
				p->name, a, p->how, p->agrees ? "fits" : "does NOT fit", p->within, b);
		else if (p->agrees)
			fprintf(f, "    check: %s by difference %s ns (%s), stamped %s ns: agree within 10%% "
				   "(or the noise, %.1f ns)%s%s\n", p->name, a, p->how, b, p->noise_ns,
				p->isolated ? "" : "; though ", p->isolated ? "" : p->why_not);
		else
			fprintf(f, "    check: %s by difference %s ns (%s), stamped %s ns: they DISAGREE by %.1f ns "
				   "(noise %.1f ns): the two variants differ here in more than this stage\n",
				p->name, a, p->how, b, fabs(p->ns - p->stamped_ns), p->noise_ns);
	}
}

static void part(struct json *j, const struct dec_part *p)
{
	json_obj(j, NULL);
	json_str(j, "name", p->name);
	json_str(j, "what", p->what);
	json_num(j, "ns", fmax(p->ns, 0)); /* a duration: never below 0 (unresolved: a bound) */
	json_bool(j, "resolved", !p->unresolved);
	if (p->unresolved)
		json_num(j, "bound_ns", p->bound_ns);
	json_str(j, "method", p->method);
	json_str(j, "how", p->how);
	if (p->merged[0]) {
		char m[96], *save = NULL;

		snprintf(m, sizeof(m), "%s", p->merged);
		json_arr(j, "merged");
		for (char *t = strtok_r(m, ",", &save); t; t = strtok_r(NULL, ",", &save))
			json_str(j, NULL, t);
		json_arr_end(j);
	}
	if (p->has_check) {
		json_num(j, "stamped_ns", fmax(p->stamped_ns, 0));
		json_num(j, "noise_ns", p->noise_ns);
		json_bool(j, "agrees", p->agrees);
		json_bool(j, "isolated", p->isolated);
		if (!p->isolated)
			json_str(j, "not_isolated", p->why_not);
		if (p->within[0])
			json_str(j, "within", p->within);
	}
	json_obj_end(j);
}

void decompose_json(struct json *j, const struct results *r)
{
	const struct decompose_res *d = &r->dec;

	if (!d->done)
		return;
	json_obj(j, "decompose");
	json_num(j, "eel_ns", d->eel_ns);
	if (d->closed) {
		json_num(j, "residual_ns", NAN); /* null */
		json_str(j, "residual_why", "a remainder part is EEL less the other parts: their sum is EEL by construction");
	} else {
		json_num(j, "residual_ns", d->residual_ns);
	}
	json_arr(j, "parts");
	for (int i = 0; i < d->nparts; i++)
		part(j, &d->part[i]);
	json_arr_end(j);
	json_arr(j, "checks");
	for (int i = 0; i < d->nchecks; i++)
		part(j, &d->check[i]);
	json_arr_end(j);
	json_obj(j, "variants");
	json_num(j, "eel_put_ns", d->eel_put);
	if (d->have_dma)
		json_num(j, "eel_put_dma_ns", d->eel_dma);
	if (d->have_ereg)
		json_num(j, "eel_eput_ns", d->eel_ereg);
	json_obj_end(j);
	json_obj_end(j);
}
