/* tools/report/plots.c — the list of plots and what they share (plots.h). */
#include "plots.h"

#include <string.h>

#define S000 "Bell et al. 2003"
#define S002 "Culler et al. 1996"
#define S003 "Taboada et al. 2003"
#define S004 "Dongarra & Dunigan 1997"

const struct plot report_plots[] = {
	{ "breakdown", "Where one message's time goes: stages, and o_s, o_r over EEL", "Bell et al. 2003 Fig. 3",
	  S000 " Fig. 3 (o_s and o_r superimposed on EEL); the stages are eel's own", plot_breakdown },
	{ "signature", "Signature: message cost vs burst length M, one line per delay D", "Culler et al. 1996 Fig. 4/5",
	  S002 " Fig. 4 (the expected signature) and Fig. 5 (measured ones)", plot_signature },
	{ "flood_q", "Gap g between smallest messages vs queue depth q", "Bell et al. 2003 Fig. 5",
	  S000 " Fig. 5 (effect of clustering 8-byte sends on the gap), section 4.2", plot_flood_q },
	{ "bulk_time", "Bulk transfer time T(n), echo time, and the fits",
	  "Culler et al. 1996 Fig. 7a; Taboada et al. 2003 sec. 3; Dongarra & Dunigan 1997 sec. 2.1",
	  S002 " Fig. 7a (T(n), T0 + n/R); " S003 " section 3 (t0 + ti n tb/(t0 + n tb) + n tb); "
	  S004 " section 2.1 (alpha + beta n)", plot_bulk_time },
	{ "bulk_bw", "Bulk transfer bandwidth BW(n) = n / T(n), and the fits",
	  "Culler et al. 1996 Fig. 7b; Dongarra & Dunigan 1997 Fig. 3",
	  S002 " Fig. 7b (BW(n) = n/T(n)); " S004 " Fig. 3 (bandwidth vs message size)", plot_bulk_bw },
	{ "overlap", "CPU overlap test: time per message vs computation D per message", "Bell et al. 2003 sec. 4.3",
	  S000 " section 4.3 (o = g - D_max) and Fig. 6 (g against o_s, o_r)", plot_overlap },
	{ "map", "Latency/bandwidth map: this NIC among the papers' machines", "Dongarra & Dunigan 1997 Fig. 5",
	  S004 " Fig. 5 and Table 1; " S003 " Tables 1-2 (t0, 1/tb); data/historical.csv", plot_map },
};
const size_t report_nplots = sizeof(report_plots) / sizeof(report_plots[0]);

const struct plot *plot_by_name(const char *name)
{
	for (size_t k = 0; k < report_nplots; k++)
		if (!strcmp(report_plots[k].name, name))
			return &report_plots[k];
	return NULL;
}

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
