/* SPDX-License-Identifier: MIT */
/* tools/report/plot_common.c — what the plots share: the title line, a
 * stage's colour and its legend key, the bus plots' axes. */
#include "plots.h"

#include <stdio.h>
#include <string.h>

void gp_title(struct sbuf *gp, const struct report *r, const struct plot *p)
{
	sb_printf(gp, "set title \"");
	sb_gpstr(gp, p->title);
	sb_printf(gp, " - ");
	sb_gpstr(gp, r->nic);
	sb_printf(gp, "\\n(after ");
	sb_gpstr(gp, p->cite);
	sb_printf(gp, ")");
	sb_printf(gp, "\" font \",11\"\n");
}

unsigned stage_color(const char *name)
{
	static const struct { const char *name; unsigned rgb; } known[] = {
		{ "post", 0x1f77b4 }, { "doorbell", 0xff7f0e }, { "fetch", 0x2ca02c }, { "descriptor", 0x2ca02c },
		{ "tx", 0xd62728 }, { "payload", 0xff9896 }, { "wire", 0x9467bd }, { "rx", 0x8c564b },
		{ "dma", 0xe377c2 }, { "detect", 0x7f7f7f }, { "remainder", 0xbcbd22 }, { "turn", 0x17becf },
	};
	static const unsigned other[] = { 0x17becf, 0xaec7e8, 0xffbb78, 0x98df8a, 0xc5b0d5, 0xc49c94, 0xf7b6d2 };
	unsigned h = 5381;

	for (size_t k = 0; k < sizeof(known) / sizeof(known[0]); k++)
		if (!strcmp(known[k].name, name))
			return known[k].rgb;
	for (const char *s = name; *s; s++)
		h = h * 33 + (unsigned char)*s;
	return other[h % (sizeof(other) / sizeof(other[0]))];
}

void stage_key(struct sbuf *keys, struct stage_keys *k, const char *name)
{
	int n = (int)(sizeof(k->name) / sizeof(k->name[0]));

	for (int i = 0; i < k->n; i++)
		if (!strcmp(k->name[i], name))
			return;
	if (k->n == n)
		return;
	snprintf(k->name[k->n++], sizeof(k->name[0]), "%s", name);
	sb_printf(keys, ", NaN with boxes fs solid 0.85 lc rgb \"#%06x\" title \"", stage_color(name));
	sb_gpstr(keys, name);
	sb_printf(keys, "\"");
}

void bus_axes(struct sbuf *gp, const char *ylabel, int n, double top, const struct sbuf *tics)
{
	sb_printf(gp, "set ylabel \"%s\"\nset xrange [0.3:%g]\nset yrange [0:%g]\n", ylabel, n + 0.7, top * 1.12);
	sb_printf(gp, "set xtics (%s) nomirror\nset ytics nomirror\nset grid ytics lc rgb \"#dddddd\"\nset bmargin 5\n",
		  sb_str(tics));
	sb_printf(gp, "set style fill solid 0.85 border lc rgb \"white\"\n");
}
