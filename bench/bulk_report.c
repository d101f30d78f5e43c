/* SPDX-License-Identifier: MIT */
/* bench/bulk_report.c — the bulk transfers and their fits (bulk.c) in the table and
 * in the JSON document (its "bulk" section, docs/json.md). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/report/json.h"
#include "bench/report/report.h"


/* A fit whose error on the validation sizes is over FIT_MAX_ERR: no model line */
static void not_of_form(FILE *f, const char *name, double err, const char *what)
{
	fprintf(f, "  %-20s the curve is not of this form (error %.1f%%): %s\n", name, 100 * err, what);
}

/* Culler et al. 1996 T(n), BW(n), o(n); Taboada et al. 2003, Dongarra & Dunigan 1997 fits */
void bulk_table(FILE *f, const struct results *r)
{
	const struct bulk_res *b = &r->bulk;
	char nh[32];

	if (!r->bulk.done)
		return;
	fprintf(f, "\n  bulk transfers (Culler et al. 1996; echo and fits Taboada et al. 2003, Dongarra & Dunigan 1997)\n");
	int absent = 0;

	fprintf(f, "  %10s %12s %10s %12s %12s\n", "size (B)", "T(n) ns", "BW GB/s", "o(n) ns", "echo ns");
	for (int i = 0; i < b->npt; i++) {
		char o[16];

		snprintf(o, sizeof(o), isfinite(b->pt[i].o_s_ns) ? "%.1f" : "-", b->pt[i].o_s_ns);
		absent += !isfinite(b->pt[i].o_s_ns);
		fprintf(f, "  %10u %12.1f %10.3f %12s %12.1f\n", b->pt[i].size, b->pt[i].t.min,
			b->pt[i].size / b->pt[i].t.min, o, b->pt[i].echo.min);
	}
	if (absent)
		fprintf(f, "  (o(n) -: no send-only regime at that size, its first stores already cost the gap)\n");
	if (b->valid_t0r)
		fprintf(f, "  T0 + n/R             T0 %.1f ns, R %.3f GB/s (a line through T(n); T0 is only its intercept); "
			"error %.1f%% (Culler et al. 1996)\n", b->t0r.a, b->t0r.b > 0 ? 1 / b->t0r.b : 0, 100 * b->err_t0r);
	else
		not_of_form(f, "T0 + n/R", b->err_t0r, "T0 + n/R on T(n) (Culler et al. 1996)");
	fprintf(f, "  echo test            latency %.1f ns (echo at %u B); bandwidth at 10^6 B ", b->lat0_ns,
		b->npt ? b->pt[0].size : 0);
	if (b->bw_1e6 > 0)
		fprintf(f, "%.3f GB/s (n / (RTT/2); Dongarra & Dunigan 1997)\n", b->bw_1e6);
	else
		fprintf(f, "not measured (sizes below 10^6 B)\n");
	if (b->valid_h003)
		fprintf(f, "  Hockney              t0 + n tb: t0 %.1f ns (measured), tb %.5f ns/B; error %.1f%% (Taboada et al. 2003)\n",
			b->m003_t0, b->m003_tb, 100 * b->err_h003);
	else
		not_of_form(f, "Hockney", b->err_h003, "t0 + n tb (Taboada et al. 2003)");
	if (isfinite(b->n_half))
		snprintf(nh, sizeof(nh), "%.0f B", b->n_half);
	else
		snprintf(nh, sizeof(nh), b->hockney.b > 0 ? "none (alpha <= 0)" : "none (beta <= 0)");
	if (b->valid_hockney)
		fprintf(f, "  alpha + beta n       alpha %.1f ns, beta %.5f ns/B (%.3f GB/s), n_1/2 %s; error %.1f%% (Dongarra & Dunigan 1997)\n",
			b->hockney.a, b->hockney.b, b->hockney.b > 0 ? 1 / b->hockney.b : 0, nh, 100 * b->err_hockney);
	else
		not_of_form(f, "alpha + beta n", b->err_hockney, "least squares (Dongarra & Dunigan 1997)");
	if (b->valid_003)
		fprintf(f, "  Taboada model        t0 %.1f ns, ti %.1f ns, tb %.5f ns/B; error %.1f%% (Taboada et al. 2003)\n",
			b->m003_t0, b->m003_ti, b->m003_tb, 100 * b->err_003);
	else
		not_of_form(f, "Taboada model", b->err_003, "t0 + ti (n tb)/(t0 + n tb) + n tb (Taboada et al. 2003)");
	if (b->hockney.a < 0 && (b->valid_hockney || b->valid_003))
		fprintf(f, "  (alpha and ti below 0: the least-squares line through the echo times meets n = 0 under the\n"
			"   small sizes, which are flat; it is an intercept, not a start-up time: the start-up is t0)\n");
	if (!b->have_loggp && r->sig.done && r->fl.done)
		fprintf(f, "  LogGP                o_s + L + o_r + G n: no G (flood: %s)\n", FLOOD_G_UNMEASURED);
	else if (b->have_loggp && !b->loggp_separable)
		fprintf(f, "  LogGP                o_s + L + o_r + G n: not separable on this NIC: %s\n", r->sig.L.why);
	else if (b->have_loggp && r->sig.o_r_why)   /* no o_r to print in the line */
		fprintf(f, "  LogGP                o_s + L + o_r + G n: the signature's o_r: %s\n", r->sig.o_r_why);
	else if (b->have_loggp && !b->valid_loggp)
		not_of_form(f, "LogGP", b->err_loggp, "o_s + L + o_r + G n");
	else if (b->have_loggp && r->sig.L.resolved)
		fprintf(f, "  LogGP                o_s + L + o_r + G n = %.1f + %.1f + %.1f + %.5f n; error %.1f%%\n",
			b->loggp_os, b->loggp_L, b->loggp_or, b->loggp_G, 100 * b->err_loggp);
	else if (b->have_loggp)
		fprintf(f, "  LogGP                o_s + L + o_r + G n = %.1f + L + %.1f + %.5f n, L as the signature's "
			"(not resolved); error %.1f%%\n", b->loggp_os, b->loggp_or, b->loggp_G, 100 * b->err_loggp);
	fprintf(f, "  (errors: average absolute relative error on %d random sizes measured among the fitted ones,\n"
		"   half log-uniform around n* = t0/tb (%.0f B), where Hockney and Taboada et al. 2003 differ, half\n"
		"   uniform over the range (Taboada et al. 2003 section 3); a fit over %.0f%% is no model of the curve)\n",
		b->nv, b->nstar_pilot, 100 * FIT_MAX_ERR);
}

/* a fit's error, and whether it is a model of the curve (at most FIT_MAX_ERR) */
static void fit_err(struct json *j, double err, int valid)
{
	json_num(j, "err", err);
	json_bool(j, "valid", valid);
}

void bulk_json(struct json *j, const struct results *r)
{
	const struct bulk_res *b = &r->bulk;
	int lg = b->loggp_separable;

	if (!b->done)
		return;
	json_obj(j, "bulk");
	json_arr(j, "points");
	for (int i = 0; i < b->npt; i++) {
		json_obj(j, NULL);
		json_u64(j, "size", b->pt[i].size);
		stat_obj(j, "t_ns", &b->pt[i].t);
		json_num(j, "bw_bytes_per_ns", b->pt[i].size / b->pt[i].t.min);
		stat_obj(j, "echo_ns", &b->pt[i].echo);
		json_num(j, "o_s_ns", b->pt[i].o_s_ns);
		json_bool(j, "send_only", isfinite(b->pt[i].o_s_ns));
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj(j, "fits");
	json_obj(j, "t0r");
	json_num(j, "t0_ns", b->t0r.a);
	json_num(j, "r_bytes_per_ns", b->t0r.b > 0 ? 1 / b->t0r.b : 0);
	fit_err(j, b->err_t0r, b->valid_t0r);
	json_str(j, "on", "t_ns");
	json_str(j, "method", "Culler et al. 1996: least-squares line T(n) = T0 + n/R");
	json_obj_end(j);
	json_obj(j, "hockney");
	json_num(j, "alpha_ns", b->hockney.a);
	json_num(j, "beta_ns_per_byte", b->hockney.b);
	json_num(j, "n_half_bytes", b->n_half);
	json_num(j, "bw_bytes_per_ns", b->hockney.b > 0 ? 1 / b->hockney.b : 0);
	fit_err(j, b->err_hockney, b->valid_hockney);
	json_str(j, "on", "echo_ns");
	json_str(j, "method", "Dongarra & Dunigan 1997 2.2: t = alpha + beta n, least squares; n_1/2 = alpha/beta");
	json_obj_end(j);
	json_obj(j, "hockney003");
	json_num(j, "t0_ns", b->m003_t0);
	json_num(j, "tb_ns_per_byte", b->m003_tb);
	fit_err(j, b->err_h003, b->valid_h003);
	json_num(j, "n_star_bytes", b->nstar_fit);
	json_str(j, "on", "echo_ns");
	json_str(j, "method", "Taboada et al. 2003 2: Hockney's T = t0 + n tb, t0 measured at the smallest size, tb the slope");
	json_obj_end(j);
	json_obj(j, "echo_test");
	json_num(j, "latency_ns", b->lat0_ns);
	/* not measured where the sizes stop below 10^6 B (docs/json.md: null, not 0) */
	json_num(j, "bw_1e6_bytes_per_ns", b->bw_1e6 > 0 ? b->bw_1e6 : NAN);
	json_str(j, "method", "Dongarra & Dunigan 1997: echo at the smallest size; 10^6 B / (RTT/2)");
	json_obj_end(j);
	json_obj(j, "model003");
	json_num(j, "t0_ns", b->m003_t0);
	json_num(j, "ti_ns", b->m003_ti);
	json_num(j, "tb_ns_per_byte", b->m003_tb);
	json_num(j, "bw_bytes_per_ns", b->m003_tb > 0 ? 1 / b->m003_tb : 0);
	json_num(j, "specific_perf_per_ns", b->m003_t0 > 0 ? 1 / b->m003_t0 : 0);
	fit_err(j, b->err_003, b->valid_003);
	json_str(j, "on", "echo_ns");
	json_str(j, "method", "Taboada et al. 2003 3: T = t0 + ti (n tb)/(t0 + n tb) + n tb; t0 at the smallest size (8 B)");
	json_obj_end(j);
	if (b->have_loggp) {
		/* not separable on this NIC (derived.c): no o_s + L + o_r, no error */
		json_obj(j, "loggp");
		json_num(j, "o_s_ns", lg ? b->loggp_os : NAN);
		json_num(j, "L_ns", lg && r->sig.L.resolved ? b->loggp_L : NAN);
		json_num(j, "o_r_ns", lg && !r->sig.o_r_why ? b->loggp_or : NAN);
		json_num(j, "G_ns_per_byte", b->loggp_G);
		fit_err(j, b->err_loggp, b->valid_loggp);
		json_bool(j, "separable", lg);
		if (!lg)
			json_str(j, "why", r->sig.L.why);
		json_str(j, "method", "o_s + L + o_r + G n (signature and flood)");
		json_obj_end(j);
	}
	json_num(j, "validation_n_star_bytes", b->nstar_pilot);
	json_arr(j, "validation");
	for (int i = 0; i < b->nv; i++) {
		double n = b->v_size[i];

		json_obj(j, NULL);
		json_u64(j, "size", b->v_size[i]);
		json_num(j, "measured_ns", b->v_meas[i]);
		json_num(j, "measured_t_ns", b->v_tmeas[i]);
		json_num(j, "t0r_ns", b->t0r.a + b->t0r.b * n);
		json_num(j, "hockney_ns", b->hockney.a + b->hockney.b * n);
		json_num(j, "hockney003_ns", b->m003_t0 + b->m003_tb * n);
		json_num(j, "model003_ns", model003(b->m003_t0, b->m003_ti, b->m003_tb, n));
		if (lg)
			json_num(j, "loggp_ns", b->loggp_os + b->loggp_L + b->loggp_or + b->loggp_G * n);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
	json_obj_end(j);
}
