/* SPDX-License-Identifier: MIT */
/* tools/compare_provenance.c — what differs in two runs' provenance, named
 * first: a changed figure with a changed firmware, driver, stack or eel
 * commit beside it is first of all that change (docs/report.md). */
#include <string.h>

#include "tools/compare_provenance.h"

/* What is compared, in the order a firmware engineer asks: the document's
 * path, and its name in the line. */
static const struct { const char *path, *what; } keys[] = {
	{ "provenance.nic.fw_version", "firmware" },
	{ "provenance.nic.fw_abi", "firmware ABI" },
	{ "provenance.nic.driver", "driver" },
	{ "provenance.nic.module_version", "kernel module" },
	{ "provenance.nic.hw_version", "hardware revision" },
	{ "provenance.nic.part_id", "device" },
	{ "provenance.nic.stack_version", NULL },   /* named by the stack: "different DPDK" */
	{ "provenance.eel.commit", "eel commit" },
	{ "provenance.eel.cc_version", "compiler" },
	{ "provenance.eel.cflags", "build flags" },
	{ "provenance.eel.features", "eel features" },
	{ "provenance.kernel.release", "kernel" },
};

/* The value at path as text ("unknown" for null or absent), printable. */
static void value(const struct run *r, const char *path, char *out, size_t n)
{
	const struct jr_val *v = jr_get(r->root, path);
	double x;

	if (jr_str(r->root, path))
		snprintf(out, n, "%s", jr_str(r->root, path));
	else if (v && !jr_num(r->root, path, &x))
		snprintf(out, n, "%.0f", x);
	else
		snprintf(out, n, "unknown");
	jr_printable(out);
}

int provenance_diff(const struct run *A, const struct run *B, FILE *f)
{
	int ha = jr_get(A->root, "provenance") != NULL, hb = jr_get(B->root, "provenance") != NULL, n = 0;

	if (!ha || !hb) {
		fprintf(f, "provenance unknown: %s firmware, driver or eel commit (schema %d; eel-bench "
			"writes them from schema 8, a launched run's from 12): a difference there cannot be named\n",
			!ha && !hb ? "neither A nor B records a" : !ha ? "A records no" : "B records no",
			!ha ? A->version : B->version);
		return 0;
	}
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		char a[200], b[200], what[64];

		value(A, keys[i].path, a, sizeof(a));
		value(B, keys[i].path, b, sizeof(b));
		if (!strcmp(a, b))
			continue;
		if (keys[i].what)
			snprintf(what, sizeof(what), "%s", keys[i].what);
		else
			value(A, "provenance.nic.stack", what, sizeof(what));
		fprintf(f, "different %s: %s vs %s\n", what, a, b);
		n++;
	}
	return n;
}
