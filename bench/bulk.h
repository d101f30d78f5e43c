/* SPDX-License-Identifier: MIT */
/* bench/bulk.h — Culler et al. 1996's bulk transfers and the echo of Dongarra & Dunigan 1997 and Taboada et al. 2003, with the fits: its result, its runs, and its rows in the report. */
#ifndef EEL_BENCH_BULK_H
#define EEL_BENCH_BULK_H

#include <stdint.h>
#include <stdio.h>
#include "plan.h"
#include "method/fit.h"
#include "method/stats.h"

struct session;
struct results;
struct json;
struct sig_curve;

/* Culler et al. 1996 bulk transfers and seeds 003/004 echo, with the fits */
struct bulk_point {
	uint32_t size;
	struct stat t;       /* n-byte store and its completion (Culler et al. 1996 T(n)) */
	struct stat echo;    /* ping-pong RTT/2 of n bytes (Taboada et al. 2003, Dongarra & Dunigan 1997) */
	double o_s_ns;       /* o(n): send-only cost from a short D = 0 signature (NAN: no send-only regime) */
};

/* struct fit_line, fit_linear: method/fit.h */
#define VALIDATE_SIZES 20
#define BULK_MIN_SIZES 3     /* a fit of 2 parameters needs more than 2 sizes */
#define FIT_MAX_ERR 1.0      /* a fit whose error on the validation sizes is above this (100%) is not a model */
struct bulk_res {
	int done;
	struct bulk_point pt[MAX_SIZES];
	int npt;
	struct fit_line t0r;         /* T(n) = T0 + n / R */
	struct fit_line hockney;     /* echo = alpha + beta n (Dongarra & Dunigan 1997's least-squares line) */
	double n_half;               /* Dongarra & Dunigan 1997: alpha / beta, the size at half the asymptotic bandwidth */
	double err_h003;             /* Taboada et al. 2003's Hockney, t0 + n tb (t0 measured, tb the slope) */
	double lat0_ns;              /* Dongarra & Dunigan 1997: the latency, echo at the smallest size */
	double bw_1e6;               /* Dongarra & Dunigan 1997: bytes / (RTT/2) at 10^6 B (0: not measured) */
	double m003_t0, m003_ti, m003_tb;
	double err_hockney, err_003, err_loggp;
	double err_t0r;              /* T0 + n/R against T(n) at the validation sizes */
	/* each fit's error at most FIT_MAX_ERR: the curve is of the fit's form */
	int valid_t0r, valid_hockney, valid_h003, valid_003, valid_loggp;
	int have_loggp;
	int loggp_separable;         /* o_s + L + o_r separable on this NIC (the signature's L) */
	double loggp_os, loggp_L, loggp_or, loggp_G;
	uint32_t v_size[VALIDATE_SIZES];
	double v_meas[VALIDATE_SIZES];   /* echo at the validation sizes */
	double v_tmeas[VALIDATE_SIZES];  /* T(n) at the validation sizes */
	int nv;                      /* random sizes measured (VALIDATE_SIZES unless the range is too small) */
	/* n* = t0/tb (Taboada et al. 2003 3), where Hockney's line and Taboada et
	 * al.'s model differ most: from a short echo at the smallest and largest
	 * size before the sizes are drawn (the validation sizes are drawn around
	 * it), and from the fit */
	double nstar_pilot, nstar_fit;
};

int bulk_run(struct session *s, struct results *r);
void bulk_fit(struct bulk_res *b, const struct results *r);
int random_sizes(const struct plan *p, double nstar, uint32_t *out);
int send_only_regime(const struct sig_curve *c, double o_ns, double t_ns);

/* bulk_report.c: its section of the table and of the JSON (bulk) */
void bulk_table(FILE *f, const struct results *r);
void bulk_json(struct json *j, const struct results *r);

#endif
