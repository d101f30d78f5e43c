/* SPDX-License-Identifier: MIT */
/* bench/breakdown.h — where one 8-byte put goes, stamp by stamp: the stamped records joined into parts, and their rows in the report. */
#ifndef EEL_BENCH_BREAKDOWN_H
#define EEL_BENCH_BREAKDOWN_H

#include <stdint.h>
#include <stdio.h>
#include <eel/eel.h>
#include "method/stats.h"

struct session;
struct results;
struct json;

#define STAGE_PARTS 8
#define STAGE_WIRE 4                 /* NIC_TX -> NIC_RX: the one stage between the two ends */
struct breakdown {
	int done;
	int samples;                     /* stamped puts seen (sender side) */
	/* The parts this NIC tells apart (breakdown_spans): part k also covers
	 * the next span_extra[k] stages when the stamps between them are not
	 * taken (merged, never invented); absorbed[k]: inside an earlier part. */
	int spans_set;
	int span_extra[STAGE_PARTS], absorbed[STAGE_PARTS];
	char name[STAGE_PARTS][48];      /* "fetch", or "fetch+tx" for a merged part */
	char what[STAGE_PARTS][200];
	const char *const *stage_what;   /* what each of the eight stages is on this NIC */
	/* The part between the ends, measured from the start of the part before
	 * it too: where the sender's stamp comes after the receiver's (a doorbell
	 * call that returns once the frame is in: af_packet, QEMU's e1000), the
	 * two are one part. */
	double *alt;
	int nalt, inverted;
	/* What a stamp costs the path in place (breakdown.c): where traced
	 * messages choose their stamps (eel_stamp_pick), how much longer the
	 * span around it is with it than without, measured (in_place); else a
	 * stamp's cost alone. Half of it is taken off each part it bounds. */
	int chosen;                      /* the records chose their stamps */
	double *span_v[2][EEL_STAGES];   /* the span around s, raw ns: [0] without s, [1] with */
	int span_n[2][EEL_STAGES];
	double cost_ns[EEL_STAGES];      /* each stamp's cost in place, ns */
	double cost_var[EEL_STAGES];     /* the variance of that figure */
	int in_place[EEL_STAGES];        /* cost_ns measured there (else the measured ones' mean, or alone) */
	double part_unc[STAGE_PARTS];    /* 95% half-width of the part's mean, ns */
	double part_trim[STAGE_PARTS];   /* its mean less the lowest and highest tenth of samples, ns */
	int part_resolved[STAGE_PARTS];  /* its mean is beyond its uncertainty of 0 */
	double part_bound[STAGE_PARTS];  /* unresolved: it is below this, ns */
	double turn_unc, total_unc;
	int turn_resolved;
	double turn_bound;
	double q_ns;                     /* the counter's step, ns */
	double perturbation_ns;          /* the stamped rounds' RTT/2 less the unstamped EEL */
	double residual_unc_ns;          /* 95% half-width of the residual */
	double oneway_gap_ns;            /* DETECT - POST measured whole, less the one-way parts' sum */
	uint32_t nic_stamps;             /* stamps read off a NIC clock: no host cost */
	uint32_t mask;                   /* the stamps this NIC takes */
	double *v[STAGE_PARTS + 1];      /* samples per part, then of the total */
	int nv[STAGE_PARTS + 1];
	int cap;
	int have[STAGE_PARTS + 1];       /* this part (or the total) was stamped */
	struct stat part[STAGE_PARTS];   /* ns; the mean is the part's figure (means add up) */
	struct stat total;               /* ns, DETECT - POST (needs one clock at both ends) */
	/* The ping-pong's stamped rounds (breakdown_rounds): EEL is RTT/2, so the
	 * parts of one message add up to it only with each end's turnaround, the
	 * host's loop from seeing one message to posting the next. */
	struct bd_round *rounds;         /* the joined rounds (breakdown_rounds) */
	int nround, unjoined;            /* rounds joined; stamped rounds that could not be */
	int shared;                      /* the two ends stamp with one clock */
	double *rtt, *turn;              /* per round used: RTT/2, raw, and the two ends' mean turnaround (NAN: not taken) */
	int nrtt;
	struct stat round;               /* RTT/2 of the stamped rounds, raw (less EEL: the perturbation) */
	struct stat turn_st;             /* the two ends' mean turnaround */
	int have_rounds;
	int across_derived;              /* no one clock: the part between the ends is EEL less every other part */
	double cut_ns;                   /* a record or round longer than this was interrupted (0: none) */
	double eel_ref_ns;               /* EEL of the unstamped runs beside the stamped ones (0: none) */
	double eel_ref_unc_ns;           /* its 95% half-width (median_unc95; NAN: one run) */
	double stamp_alone_ns;           /* a stamp's cost alone (eel_clock) */
	int interrupted;                 /* records and rounds left out as interrupted */
	double parts_sum_ns;             /* the parts' means and the turnaround, added up */
	double residual_ns;              /* parts_sum_ns less the unstamped EEL (NAN: not separable) */
	int closes;                      /* 1: |residual_ns| - residual_unc_ns within BD_CLOSE of EEL, the
					  * parts shares of EEL; 0: not, the stamped put's; -1: not judged
					  * (no residual, or no whole round) */
};

#define MAX_ROUNDS 65536
/* One stamped ping-pong round, both messages' records joined (each the
 * sender's stamps with the receiver's) and the client's loop tops around it. */
struct bd_msg {
	uint64_t t[EEL_STAGES];          /* 0: not stamped */
	int chosen;                      /* it took only the stamps it chose (want) */
	int around, without;             /* the choice: the stamp it is about (-1: none), taken or not */
};

struct bd_round {
	struct bd_msg ab, ba;
	uint64_t a, b;
};

/* The tops of the client's ping-pong loop around each stamped round: round k
 * runs from start[k] (the loop's top before the stamped ping is posted) to
 * end[k] (the top after its pong was seen). */
struct bd_rounds {
	uint64_t *start, *end;
	int n, cap;
};

int breakdown_add(const struct session *s, struct breakdown *bd, const struct eel_trace *tx, int ntx,
		  const struct eel_trace *rx, int nrx);
int breakdown_rounds(const struct session *s, struct breakdown *bd, const struct bd_rounds *rd,
		     const struct eel_trace *tx, int ntx, const struct eel_trace *rx, int nrx,
		     const struct eel_trace *peer_tx, int npeer_tx, const struct eel_trace *peer_rx, int npeer_rx);
void breakdown_finish(struct breakdown *bd);

/* The share of EEL within which the parts, beyond their uncertainty, add up
 * to it: the breakdown closes (docs/methods.md, the breakdown). */
#define BD_CLOSE 0.05
void breakdown_free(struct breakdown *bd);
void breakdown_spans(struct breakdown *bd, const struct eel_caps *caps);
const char *breakdown_stage_what(const struct breakdown *bd, int k);
/* Does part k run from one end to the other (its stamps on both)? */
int part_between_ends(const struct breakdown *bd, int k);
extern const char *const stage_part_name[STAGE_PARTS];
extern const char *const stamp_key[EEL_ST_COMPLETE];

/* breakdown_report.c: its section of the table and of the JSON (breakdown) */
void breakdown_table(FILE *f, const struct session *s, const struct results *r);
void breakdown_json(struct json *j, const struct session *s, const struct results *r);

#endif
