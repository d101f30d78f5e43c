/* SPDX-License-Identifier: MIT */
/* tools/compare_noise.c — a figure a run warned of noise on is not compared
 * (compare_noise.h), nor one it warned of its placement (thread mode on
 * too few cores): its change would be the machine's, not the NIC's. */
#include "compare_noise.h"

#include <string.h>

const char *noise_item_figures(const char *item)
{
	static const struct { const char *prefix, *figs; } map[] = {
		{ "EEL - (o_s + o_r)", "eel,o_s,o_r" }, { "EEL", "eel" }, { "o_s", "o_s" }, { "o_r", "o_r" },
		{ "g", "g" }, { "G", "G" }, { "bandwidth", "G" }, { "M = g/G", "g,G" }, { "L", "L" },
		{ "limit", "limit" }, { "stage ", "breakdown" }, { "decompose", "decompose" },
		{ "signature ", "signature" }, { "fit ", "bulk" }, { "bulk ", "bulk" }, { "sweep ", "sweep" },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		size_t n = strlen(map[i].prefix);

		/* a one-word name whole ("g", not "gap"), a prefix ending in a space as such */
		if (!strncmp(item, map[i].prefix, n) && (map[i].prefix[n - 1] == ' ' || !item[n] || item[n] == ' '))
			return map[i].figs;
	}
	return "";
}

/* Is figure `name` one of figs (comma-separated)? */
static int among(const char *figs, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = figs; *p; p += strcspn(p, ","), p += *p == ',') {
		if (strcspn(p, ",") == n && !strncmp(p, name, n))
			return 1;
	}
	return 0;
}

const char *noise_warning(const struct run *r, const char *figs)
{
	const struct jr_val *w = jr_get(r->root, "warning_figures");

	for (size_t i = 0; figs && *figs && i < jr_len(w, ""); i++) {
		const struct jr_val *o = jr_at(w, i), *f = jr_get(o, "figures");
		const char *kind = jr_str(o, "kind");

		if (!kind || (strcmp(kind, "noise") && strcmp(kind, "placement")))
			continue;
		for (size_t k = 0; k < jr_len(f, ""); k++) {
			const char *name = jr_str(jr_at(f, k), "");

			if (name && among(figs, name))
				return jr_str(o, "text") ? jr_str(o, "text") : "(no text)";
		}
	}
	return NULL;
}

void noise_print(FILE *f, const struct noise_refusal *n, int count)
{
	for (int i = 0; i < count; i++) {
		char text[100];
		int k, first = 1;

		for (k = 0; k < i && !(n[k].text == n[i].text && !strcmp(n[k].run, n[i].run)); k++)
			;
		if (k < i)
			continue; /* said with the first item of its warning */
		fprintf(f, "  ");
		for (k = i; k < count; k++)
			if (n[k].text == n[i].text && !strcmp(n[k].run, n[i].run)) {
				fprintf(f, "%s%s", first ? "" : ", ", n[k].item);
				first = 0;
			}
		/* the document's text as the terminal may print it (jr_printable), cut short */
		snprintf(text, sizeof(text), "%s", n[i].text);
		if (strlen(n[i].text) >= sizeof(text))
			memcpy(text + sizeof(text) - 4, "...", 4);
		jr_printable(text);
		fprintf(f, ": not compared: run %s warned '%s' (noise)\n", n[i].run, text);
	}
}
