/* SPDX-License-Identifier: MIT */
/* bench/signature.h — Culler et al. 1996's signature (o_s, g, o_r, L): its result, its curves, and its rows in the report. */
#ifndef EEL_BENCH_SIGNATURE_H
#define EEL_BENCH_SIGNATURE_H

#include <stdint.h>
#include <stdio.h>
#include "derived.h"

struct session;
struct results;
struct json;

/* Culler et al. 1996: the communication microbenchmark's signature */
#define SIG_MAX_M 24
#define SIG_CURVES 4
/* no point takes much longer than its budget (a batch runs to its end):
 * 250 ms, or the plan's (--quick, --duration) */
#define SIG_POINT_MS 250u
#define sig_point_ms(p) ((p)->sig_point_ms ? (p)->sig_point_ms : SIG_POINT_MS)
struct sig_point {
	uint32_t m;          /* requests issued between the timers */
	double cost_ns;      /* mean message cost */
	double ci_ns;        /* half-width of its 95% confidence interval */
	uint32_t samples;
	int converged;       /* reached 5% at 95% confidence */
};

struct sig_curve {
	double d_ns;                 /* computation between requests, as measured: the spin asked
				      * for and its own clock reads (eel_spin_cost_cycles) */
	double d_asked_ns;           /* the spin asked for */
	int n;
	struct sig_point pt[SIG_MAX_M];
	double g_ns;                 /* steady-state cost (g at D = 0, g' beyond Idle) */
	uint32_t send_only_min_m;    /* the send-only regime begins here (not in the JSON: */
	uint32_t send_only_max_m;    /* its points are) and ends here */
	uint32_t steady_min_m;       /* the steady state begins here */
};

struct signature_res {
	int done;
	uint32_t size;
	struct sig_curve curve[SIG_CURVES];
	int ncurves;
	double rtt_ns, rtt_ci_ns;    /* one request and its reply */
	double o_s_ns, g_ns;
	double o_r_ns;               /* o_r as stated: NAN where o_r_why says why not */
	double o_r_raw_ns;           /* g' - D - o_s as computed (0 with no curve): L's term, may be below 0 */
	const char *o_r_why;         /* NULL, or why o_r is not stated (not measured, not separable here) */
	double L_ns;                 /* RTT/2 - o_s - o_r as computed: may be below 0, never printed as is */
	double L_u_ns;               /* its uncertainty (sig_extract) */
	struct derived L;            /* L as this NIC lets it be stated (sig_L) */
	int o_r_curves;              /* curves with D > Idle that gave o_r */
	int points, unconverged;
};

int signature_run(struct session *s, struct results *r);
int sig_point(struct session *s, uint32_t size, uint32_t m, double d_ns, int rtt, int host_reply,
	      struct sig_point *p);
int sig_curve(struct session *s, uint32_t size, double d_ns, uint32_t max_m, int host_reply, struct sig_curve *c,
	      struct signature_res *r);
void sig_extract(struct signature_res *r);
void sig_regimes(struct sig_curve *c);
double sig_send_only_cost(const struct sig_curve *c);
int sig_server_phase(struct session *s, int host_reply);
int sig_client_phase_end(struct session *s);

/* signature_report.c: its section of the table (and its curves under -v) and of
 * the JSON (signature; parameters: L) */
void signature_table(FILE *f, const struct session *s, const struct results *r);
void signature_table_curves(FILE *f, const struct results *r);
void signature_json_parameters(struct json *j, const struct session *s, const struct results *r);
void signature_json(struct json *j, const struct session *s, const struct results *r);

#endif
