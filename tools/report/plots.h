/* SPDX-License-Identifier: MIT */
/* tools/report/plots.h — the report's plots: each writes the body of one
 * gnuplot script (data inline) from a run, or says the run did not measure
 * what it needs. Every plot's title names the paper's figure it follows. */
#ifndef EEL_TOOLS_REPORT_PLOTS_H
#define EEL_TOOLS_REPORT_PLOTS_H

#include <stddef.h>

#include "doc.h"
#include "hist.h"
#include "sbuf.h"

struct report {
	const struct run *run;
	const struct hist *hist;     /* the papers' historical machines (may be empty) */
	char nic[160];               /* the NIC's name, for titles */
};

struct plot {
	const char *name;            /* file stem: NAME.svg, NAME.png, gnuplot/NAME.gp */
	const char *title;           /* what it shows */
	const char *cite;            /* the paper's figure it follows, short: in the plot's title */
	const char *source;          /* the same with the seed files' names: beside the plot in the page */
	/* Writes the script body into gp and a caption (HTML-safe text) into caption:
	 * 1. Or 0 when the run lacks what it needs, with the reason in caption.
	 * self is this entry (its title and citation). */
	int (*make)(const struct plot *self, const struct report *r, struct sbuf *gp, struct sbuf *caption);
	int launched;                /* a plot of a run under mpirun or srun (its "launch"), not of a pair's;
				      * 2: of a --bus run's buses, beside the pair's plots */
};

extern const struct plot report_plots[];
extern const size_t report_nplots;

int plot_breakdown(const struct plot *self, const struct report *r, struct sbuf *gp, struct sbuf *caption);
int plot_signature(const struct plot *self, const struct report *r, struct sbuf *gp, struct sbuf *caption);
int plot_flood_q(const struct plot *self, const struct report *r, struct sbuf *gp, struct sbuf *caption);
int plot_bulk_time(const struct plot *self, const struct report *r, struct sbuf *gp, struct sbuf *caption);
int plot_bulk_bw(const struct plot *self, const struct report *r, struct sbuf *gp, struct sbuf *caption);
int plot_overlap(const struct plot *self, const struct report *r, struct sbuf *gp, struct sbuf *caption);
int plot_map(const struct plot *self, const struct report *r, struct sbuf *gp, struct sbuf *caption);
int plot_buses(const struct plot *self, const struct report *r, struct sbuf *gp, struct sbuf *caption);
int plot_buses_bw(const struct plot *self, const struct report *r, struct sbuf *gp, struct sbuf *caption);
int plot_tail(const struct plot *self, const struct report *r, struct sbuf *gp, struct sbuf *caption);
int plot_allpairs(const struct plot *self, const struct report *r, struct sbuf *gp, struct sbuf *caption);

/* shared by the plots (plot_common.c) */
void gp_title(struct sbuf *gp, const struct report *r, const struct plot *p);
unsigned stage_color(const char *name);   /* 0xRRGGBB, the same for a stage in every bar */
/* The stages a plot's legend has a key for already. */
struct stage_keys {
	char name[32][32];
	int n;
};
/* A legend key for stage name in its colour, once per plot (k starts zeroed). */
void stage_key(struct sbuf *keys, struct stage_keys *k, const char *name);
/* A bus plot's axes: bar i + 1 at x = i + 1 under its tic (tics: gnuplot's
 * "name" x list), y from 0 to above top, the bars filled solid. */
void bus_axes(struct sbuf *gp, const char *ylabel, int n, double top, const struct sbuf *tics);

#endif
