/* SPDX-License-Identifier: MIT */
/* tools/report/plots.c — the list of plots (plots.h); what they share is in
 * plot_common.c. */
#include "plots.h"

#define S000 "Bell et al. 2003"
#define S002 "Culler et al. 1996"
#define S003 "Taboada et al. 2003"
#define S004 "Dongarra & Dunigan 1997"

const struct plot report_plots[] = {
	{ "breakdown", "Where one message's time goes: stages, and o_s, o_r over EEL", "Bell et al. 2003 Fig. 3",
	  S000 " Fig. 3 (o_s and o_r superimposed on EEL); the stages are eel's own", plot_breakdown, 0 },
	{ "signature", "Signature: message cost vs burst length M, one line per delay D", "Culler et al. 1996 Fig. 4/5",
	  S002 " Fig. 4 (the expected signature) and Fig. 5 (measured ones)", plot_signature, 0 },
	{ "flood_q", "Gap g between smallest messages vs queue depth q", "Bell et al. 2003 Fig. 5",
	  S000 " Fig. 5 (effect of clustering 8-byte sends on the gap), section 4.2", plot_flood_q, 0 },
	{ "bulk_time", "Bulk transfer time T(n), echo time, and the fits",
	  "Culler et al. 1996 Fig. 7a; Taboada et al. 2003 sec. 3; Dongarra & Dunigan 1997 sec. 2.1",
	  S002 " Fig. 7a (T(n), T0 + n/R); " S003 " section 3 (t0 + ti n tb/(t0 + n tb) + n tb); "
	  S004 " section 2.1 (alpha + beta n)", plot_bulk_time, 0 },
	{ "bulk_bw", "Bulk transfer bandwidth BW(n) = n / T(n), and the fits",
	  "Culler et al. 1996 Fig. 7b; Dongarra & Dunigan 1997 Fig. 3",
	  S002 " Fig. 7b (BW(n) = n/T(n)); " S004 " Fig. 3 (bandwidth vs message size)", plot_bulk_bw, 0 },
	{ "overlap", "CPU overlap test: time per message vs computation D per message", "Bell et al. 2003 sec. 4.3",
	  S000 " section 4.3 (o = g - D_max) and Fig. 6 (g against o_s, o_r)", plot_overlap, 0 },
	{ "map", "Latency/bandwidth map: this NIC among the papers' machines", "Dongarra & Dunigan 1997 Fig. 5",
	  S004 " Fig. 5 and Table 1; " S003 " Tables 1-2 (t0, 1/tb); data/historical.csv", plot_map, 0 },
	{ "tail", "EEL's tail: every round trip's RTT/2 by percentile", "Bell et al. 2003 sec. 4.1, every round trip",
	  S000 " section 4.1 (ping-pong), every round trip of runs of their own kept; the percentile spectrum of "
	  "HdrHistogram (Tene)", plot_tail, 0 },
	{ "allpairs", "EEL of every ordered pair of ranks (mpirun, srun)", "Bell et al. 2003 sec. 4.1, pair by pair",
	  S000 " section 4.1 (ping-pong), over every pair; " S002 " \"Validation of communication scaling\"",
	  plot_allpairs, 1 },
	{ "buses", "The same NIC on each bus: where one put goes, EEL and G", "Bell et al. 2003 Fig. 3, one bar per bus",
	  S000 " Fig. 3 (stacked stages), " S002 " Table 2 and section 6 (NI on the memory bus vs the I/O bus)",
	  plot_buses, 2 },
	{ "buses_bw", "The same NIC on each bus: bandwidth at 64 KB", "Bell et al. 2003 sec. 4.2, one bar per bus",
	  S000 " section 4.2 (the flood), at 64 KB on each bus; the bus's usable rate after Neugebauer et al. 2018 "
	  "section 3", plot_buses_bw, 2 },
};
const size_t report_nplots = sizeof(report_plots) / sizeof(report_plots[0]);
