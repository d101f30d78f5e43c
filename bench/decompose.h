/* SPDX-License-Identifier: MIT */
/* bench/decompose.h — EEL decomposed on any NIC (stamped, difference, modelled, remainder): its result, its runs, and its rows in the report. */
#ifndef EEL_BENCH_DECOMPOSE_H
#define EEL_BENCH_DECOMPOSE_H

#include <stdio.h>

struct session;
struct results;
struct json;
struct breakdown;

/* the decomposition of EEL on any NIC (decompose.c) */
#define DEC_MAX 12
struct dec_part {
	char name[48];
	char what[200];
	char method[16];    /* stamped, difference, modelled, remainder */
	char how[96];
	char merged[96];    /* the stages it merges (a remainder, or a part stamped as one) */
	double ns;
	int unresolved;     /* within its uncertainty of 0: below bound_ns, never shown negative */
	double bound_ns;
	double stamped_ns;  /* a check: the exact stamp beside a difference estimate */
	double noise_ns;    /* a check: how far the difference itself is known (IQR + two steps of the counter) */
	int has_check, agrees;
	char within[48];    /* a check against a stamped part holding more than this stage
			     * (its name): agrees = the difference fits inside it */
	int isolated;       /* the two variants differ in this stage only (the stamps of both say so) */
	char why_not[200];  /* when not: what else differs, or why it cannot be told */
};

struct decompose_res {
	int done;
	double eel_ns, residual_ns;   /* residual: the parts' sum less EEL */
	int closed;                   /* a remainder part (EEL less the rest) closes the sum: no residual */
	struct dec_part part[DEC_MAX];
	int nparts;
	struct dec_part check[4];
	int nchecks;
	double eel_put, eel_dma, eel_ereg;            /* medians over the interleaved runs of each run's median RTT/2 */
	double payload_stamped_ns;                    /* the DMA'd put's tx less the inline put's, stamped, runs interleaved */
	double fetch_diff_ns, payload_diff_ns;        /* medians of the per-run differences */
	double fetch_noise_ns, payload_noise_ns;      /* their IQR plus one counter tick */
	double eel_noise_ns;                          /* EEL's IQR over its runs plus one counter tick */
	int have_dma, have_ereg, have_dma_tx;
	int hosted;         /* eel's firmware on the host (dpdk, raw): no variants, they would time it, not the NIC */
};

int decompose_run(struct session *s, struct results *r);
/* put, dma, ereg: the inline put, the DMA'd put and the E-register store,
 * stamped with their runs interleaved (each NULL where not measured) */
void decompose_build(struct decompose_res *d, const struct breakdown *bd, const struct breakdown *put,
		     const struct breakdown *dma, const struct breakdown *ereg, double poll_ns);


/* decompose_report.c: its section of the table and of the JSON (decompose) */
void decompose_table(FILE *f, const struct results *r);
void decompose_json(struct json *j, const struct results *r);

#endif
