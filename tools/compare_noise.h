/* SPDX-License-Identifier: MIT */
/* tools/compare_noise.h — eel-compare's refusal to compare a figure a run
 * warned of noise on (the JSON's warning_figures[], schema 8: each warning's
 * kind and the figures it concerns, docs/json.md). */
#ifndef EEL_TOOLS_COMPARE_NOISE_H
#define EEL_TOOLS_COMPARE_NOISE_H

#include <stdio.h>

#include "tools/report/doc.h"

/* The figures (warning_figures' names, comma-separated) a compared item of
 * this name concerns: "EEL" -> "eel", "stage wire" -> "breakdown", ... */
const char *noise_item_figures(const char *item);
/* The text of run r's first warning of kind noise on any of figs, or NULL. */
const char *noise_warning(const struct run *r, const char *figs);

/* The items not compared, grouped by the warning that stopped them, under
 * the table: "  EEL, g: not compared: run B warned '...' (noise)". */
struct noise_refusal {
	const char *item, *run, *text;  /* "A" or "B", the warning */
};
void noise_print(FILE *f, const struct noise_refusal *n, int count);

#endif
