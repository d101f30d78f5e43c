/* SPDX-License-Identifier: MIT */
/* bench/report/report_table.c — the terminal report: what a person reads first. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench/bench.h"
#include "safe_text.h"

static double cycles(const struct session *s, double ns)
{
	return ns * s->clk->hz / 1e9;
}

static void row_stat(FILE *f, const struct session *s, const char *name, const struct stat *st,
		     const char *how)
{
	fprintf(f, "  %-20s %10.1f ns %10.1f ns %6.1f %%  %8.0f   %s\n", name, st->min, st->median,
		100 * st->spread, cycles(s, st->min), how);
}

static void row_one(FILE *f, const struct session *s, const char *name, double ns, const char *how)
{
	fprintf(f, "  %-20s %10.1f ns %13s %8s  %8.0f   %s\n", name, ns, "", "", cycles(s, ns), how);
}

/* A figure derived from others (derived.c): the figure where it is resolved
 * (with its cycles), else a bound ("< X ns") or "not resolved", or "not
 * separable on this NIC" with the reason: never a negative duration. */
static void row_derived(FILE *f, const struct session *s, const char *name, const struct derived *d,
			const char *how)
{
	char b[32];

	if (!d->separable) {
		fprintf(f, "  %-20s not separable on this NIC: %s\n", name, d->why);
	} else if (d->resolved) {
		row_one(f, s, name, d->ns, how);
	} else if (isfinite(d->bound_ns)) {
		snprintf(b, sizeof(b), "< %.1f ns", d->bound_ns);
		fprintf(f, "  %-20s %13s %13s %8s  %8s   %s: %s (+-%.1f ns)\n", name, b, "", "", "", how, d->why,
			d->u_ns);
	} else {
		fprintf(f, "  %-20s %13s %13s %8s  %8s   %s: %s\n", name, "not resolved", "", "", "", how, d->why);
	}
}

/* EEL split on this NIC, each part with how it was obtained */
/* A duration for the table: "< bound" when it is within its uncertainty of 0. */
static const char *dur(char *buf, size_t len, double ns, int unresolved, double bound)
{
	if (unresolved)
		snprintf(buf, len, "< %.1f", bound);
	else
		snprintf(buf, len, "%.1f", ns);
	return buf;
}

static void decompose_rows(FILE *f, const struct results *r)
{
	const struct decompose_res *d = &r->dec;
	char a[32], b[32];

	fprintf(f, "\n  EEL %.1f ns, decomposed (each part: how eel got it)\n", d->eel_ns);
	for (int i = 0; i < d->nparts; i++) {
		const struct dec_part *p = &d->part[i];

		fprintf(f, "    %-10s %9s ns  %-10s %s%s%s%s\n", p->name, dur(a, sizeof(a), p->ns, p->unresolved,
			p->bound_ns), p->method, p->how, p->merged[0] ? " (merges " : "", p->merged,
			p->merged[0] ? ")" : "");
	}
	fprintf(f, "    %-10s %9.1f ns  (EEL less the parts)\n", "residual", d->residual_ns);
	if (d->hosted)
		fprintf(f, "    (no E-register or DMA'd-payload variants: here eel's firmware reads the descriptor "
			"and the payload on the host's core, inside post, not the NIC)\n");
	for (int i = 0; i < d->nchecks; i++) {
		const struct dec_part *p = &d->check[i];

		/* each figure within the noise of 0 is a bound, never negative */
		dur(a, sizeof(a), p->ns, p->ns <= p->noise_ns, fmax(p->ns, 0) + p->noise_ns);
		dur(b, sizeof(b), p->stamped_ns, p->stamped_ns <= p->noise_ns, fmax(p->stamped_ns, 0) + p->noise_ns);
		if (!p->isolated && !p->agrees)
			fprintf(f, "    check: %s by difference %s ns (%s), stamped %s ns: cannot isolate the %s "
				"on this NIC: %s\n", p->name, a, p->how, b, p->name, p->why_not);
		else if (p->within[0])
			fprintf(f, "    check: %s by difference %s ns (%s) %s inside the stamped %s, %s ns\n",
				p->name, a, p->how, p->agrees ? "fits" : "does NOT fit", p->within, b);
		else if (p->agrees)
			fprintf(f, "    check: %s by difference %s ns (%s), stamped %s ns: agree within 10%% "
				   "(or the noise, %.1f ns)%s%s\n", p->name, a, p->how, b, p->noise_ns,
				p->isolated ? "" : "; though ", p->isolated ? "" : p->why_not);
		else
			fprintf(f, "    check: %s by difference %s ns (%s), stamped %s ns: they DISAGREE by %.1f ns "
				   "(noise %.1f ns): the two variants differ here in more than this stage\n",
				p->name, a, p->how, b, fabs(p->ns - p->stamped_ns), p->noise_ns);
	}
}

/* Culler et al. 1996: the signature's parameters (Table 4) */
static void signature_rows(FILE *f, const struct session *s, const struct results *r)
{
	const struct signature_res *g = &r->sig;
	char how[160];

	fprintf(f, "\n  %-20s %13s %13s %8s  %8s   %s\n", "signature", "", "", "", "cycles",
		"how (Culler et al. 1996, 8-byte requests)");
	if (g->curve[0].send_only_min_m > g->curve[0].pt[0].m)
		snprintf(how, sizeof(how), "send-only regime of D = 0 (M = %u..%u)", g->curve[0].send_only_min_m,
			 g->curve[0].send_only_max_m);
	else
		snprintf(how, sizeof(how), "send-only regime of D = 0 (M <= %u)", g->curve[0].send_only_max_m);
	row_one(f, s, "o_s", g->o_s_ns, how);
	snprintf(how, sizeof(how), "steady state of D = 0 (M >= %u)", g->curve[0].steady_min_m);
	row_one(f, s, "g", g->g_ns, how);
	snprintf(how, sizeof(how), g->o_r_curves ? "g' - D - o_s, over %d D beyond Idle" :
		 "no D raised the gap: o_r not measured (%d)", g->o_r_curves);
	row_one(f, s, "o_r", g->o_r_ns, how);
	row_one(f, s, "RTT", g->rtt_ns, "one request and its reply");
	row_derived(f, s, "L", &g->L, "RTT/2 - o_s - o_r");
	fprintf(f, "  %-20s %d points, %d short of 5%% at 95%% confidence (batches of 50, at most %u samples)\n",
		"accuracy", g->points, g->unconverged, s->plan.sig_max_samples);
}

/* Bell et al. 2003 4.3's CPU-overlap o_s and o_r, or, where the NIC runs on
 * the host's CPU, why they are not separable (derived.c): there the overlap
 * test's g(q=1) - D_max holds the NIC's work too (o_s came out above EEL,
 * o_r = g(q=1)), and the host's own work is in the breakdown's host stages. */
static void overlap_rows(FILE *f, const struct session *s, const struct results *r)
{
	const char *why;
	char how[160];

	if (!overheads_separable(s->caps, &why)) {
		fprintf(f, "  %-20s not separable on this NIC: %s (4.3)\n", "o_s", why);
		fprintf(f, "  %-20s not separable on this NIC: %s (4.3)\n", "o_r", why);
		fprintf(f, "  (the CPU-overlap test's g(q=1) - D_max: %.0f ns sending, %.0f receiving, the host's and the NIC's work;\n"
			"   the host's own: the breakdown's host stages%s)\n", r->ov.os_sweeps.median, r->ov.or_sweeps.median,
			verbose ? "" : "; -v: the overlap curves");
		return;
	}
	snprintf(how, sizeof(how), "CPU overlap, q=1, %d sweep%s; median's: g(q=1) %.0f - D_max %.0f%s (4.3)",
		 r->ov.os_sweeps.n, r->ov.os_sweeps.n == 1 ? "" : "s", r->ov.send.g_ns, r->ov.send.dmax_ns,
		 r->ov.send.rose_at_first ? ", any D raised it: o_s = g(q=1)" :
		 r->ov.send.dmax_extrapolated ? " (extrapolated)" : " (measured)");
	row_stat(f, s, "o_s", &r->ov.os_sweeps, how);
	snprintf(how, sizeof(how), "receiver computes n x D, then a quiet, %d sweep%s; median's: g(q=1) %.0f - "
		 "D_max %.0f%s (4.3)", r->ov.or_sweeps.n, r->ov.or_sweeps.n == 1 ? "" : "s", r->ov.recv.g_ns,
		 r->ov.recv.dmax_ns, r->ov.recv.rose_at_first ? ", any D raised it: o_r = g(q=1)" :
		 r->ov.recv.dmax_extrapolated ? " (extrapolated)" : " (measured)");
	row_stat(f, s, "o_r", &r->ov.or_sweeps, how);
}

/* Bell et al. 2003 5.2: EEL - (o_s + o_r), the three medians (derived.c) */
static void potential_row(FILE *f, const struct session *s, const struct results *r)
{
	struct derived d = overlap_potential(s, r);
	const char *how = "potential overlap of computation per message, EEL, o_s, o_r each their median (5.2)";

	if (d.separable && !d.resolved && d.bound_ns == 0)
		fprintf(f, "  %-20s %13s %13s %8s  %8s   %s: o_s + o_r exceed EEL, the CPUs are busy longer than a "
			"message takes (+-%.1f ns)\n", "EEL - (o_s + o_r)", "none", "", "", "", how, d.u_ns);
	else
		row_derived(f, s, "EEL - (o_s + o_r)", &d, how);
}

/* A fit whose error on the validation sizes is over FIT_MAX_ERR: no model line */
static void not_of_form(FILE *f, const char *name, double err, const char *what)
{
	fprintf(f, "  %-20s the curve is not of this form (error %.1f%%): %s\n", name, 100 * err, what);
}

/* Culler et al. 1996 T(n), BW(n), o(n); Taboada et al. 2003, Dongarra & Dunigan 1997 fits */
static void bulk_rows(FILE *f, const struct results *r)
{
	const struct bulk_res *b = &r->bulk;
	char nh[32];

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
	if (b->have_loggp && !b->loggp_separable)
		fprintf(f, "  LogGP                o_s + L + o_r + G n: not separable on this NIC: %s\n", r->sig.L.why);
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

/* Does counter `name` count a loss: a fault the emulated wire made
 * (wire_*), a NAK for a gap, a frame a port or the NIC dropped? */
static int counts_loss(const char *name)
{
	return !strncmp(name, "wire_", 5) || !strncmp(name, "naks_", 5) || strstr(name, "missed") ||
	       strstr(name, "error") || strstr(name, "discard") || strstr(name, "no_mbuf") ||
	       strstr(name, "out_of_order") || strstr(name, "malformed");
}

/* Did the NIC's timer fire (counter "timeouts", either end) where no loss
 * was counted? Measured: 3 in 24 floods here had a timeout under the
 * default scheduler, 0 in 24 under SCHED_FIFO (chrt -f 1): a process off
 * its core longer than the timer (rto_us, 4 ms) holds its NIC's ACKs too;
 * a timer shorter than the receiver takes to acknowledge (ACKs coalesced:
 * every FW_ACK_EVERY packets, or after a quiet wire) fires as well. */
static int timeouts_without_loss(const struct results *r)
{
	int fired = 0;

	for (int i = 0; i < r->ncounters; i++) {
		if (counts_loss(r->counters[i].name) && (r->counters[i].value || r->peer_counter_values[i]))
			return 0;
		if (!strcmp(r->counters[i].name, "timeouts"))
			fired = r->counters[i].value || r->peer_counter_values[i];
	}
	return fired;
}

static void curves(FILE *f, const struct results *r)
{
	if (r->fl.done) {
		fprintf(f, "\n  flood: ns per message (min of runs) by size and queue depth\n  %10s", "size \\ q");
		for (int i = 0; i < r->fl.npt && r->fl.pt[i].size == r->fl.pt[0].size; i++)
			fprintf(f, " %9u", r->fl.pt[i].q);
		for (int i = 0; i < r->fl.npt; i++) {
			if (i == 0 || r->fl.pt[i].size != r->fl.pt[i - 1].size)
				fprintf(f, "\n  %10u", r->fl.pt[i].size);
			fprintf(f, " %9.1f", r->fl.pt[i].t.min);
		}
		fputc('\n', f);
	}
	for (int k = 0; r->sig.done && k < r->sig.ncurves; k++) {
		const struct sig_curve *c = &r->sig.curve[k];

		fprintf(f, "\n  signature, D = %.1f ns: M -> message cost ns (+- 95%% interval)\n", c->d_ns);
		for (int i = 0; i < c->n; i++)
			fprintf(f, "    %6u -> %9.1f +- %6.1f%s\n", c->pt[i].m, c->pt[i].cost_ns, c->pt[i].ci_ns,
				c->pt[i].converged ? "" : "  (short of 5%)");
	}
	if (r->ov.done) {
		const struct overlap_curve *c[2] = { &r->ov.send, &r->ov.recv };

		for (int k = 0; k < 2; k++) {
			fprintf(f, "\n  overlap, %s side: D (ns) -> ns per message\n", k ? "receive" : "send");
			for (int i = 0; i < c[k]->n; i++)
				fprintf(f, "    %9.1f -> %9.1f\n", c[k]->d_ns[i], c[k]->t_ns[i]);
		}
	}
}

/* One part's figure: its mean with its 95% uncertainty, or the bound it is
 * below when its mean is within that of 0 (never a negative duration). */
static void part_row(FILE *f, const char *name, const char *what, int resolved, double mean, double unc,
		     double bound, double whole, const char *note)
{
	int wide = strlen(name) > 9;
	char fig[40];

	if (resolved)
		snprintf(fig, sizeof(fig), "%7.1f +- %.1f", mean, unc);
	else
		snprintf(fig, sizeof(fig), "    < %.1f", bound);
	fprintf(f, "    %-9s%s%-52s %16s ns", name, wide ? "\n              " : " ", what, fig);
	if (resolved && whole > 0)
		fprintf(f, "  %5.1f %%", 100 * mean / whole);
	else if (!resolved)
		fprintf(f, "  (not resolved)");
	fprintf(f, "%s\n", note);
}

/* The stamped breakdown (breakdown.c): each part's mean less the cost of
 * its stamps measured in place, with its uncertainty; the sum of the parts
 * beside the unstamped EEL (the residual, which can fail) and the stamped
 * rounds' RTT/2 (the perturbation). */
static void breakdown_rows(FILE *f, const struct session *s, const struct results *r)
{
	const struct breakdown *bd = &r->bd;
	double eel = bd->eel_ref_ns > 0 ? bd->eel_ref_ns : r->pp.eel.median;

	fprintf(f, "\n  where one 8-byte put goes (%s; %d rounds stamped, %s; means +- 95%%)\n", s->caps->clock,
		bd->have_rounds ? bd->round.n : bd->samples,
		bd->chosen ? "each message stamps around one place" : "every stamp on each message");
	for (int k = 0; k < STAGE_PARTS; k++) {
		int derived = bd->across_derived && part_between_ends(bd, k);

		if (bd->absorbed[k])
			continue;
		if (!bd->have[k]) {
			fprintf(f, "    %-9s%s%-52s %16s\n", bd->name[k], strlen(bd->name[k]) > 9 ? "\n              " : " ",
				bd->what[k], "not stamped");
			continue;
		}
		part_row(f, bd->name[k], bd->what[k], bd->part_resolved[k], bd->part[k].mean, bd->part_unc[k],
			 bd->part_bound[k], eel, derived ? "  (EEL less every other part: no one clock)" : "");
	}
	if (bd->have_rounds && bd->turn_st.n)
		part_row(f, "turn", "ping-pong turnaround: data seen to next put", bd->turn_resolved, bd->turn_st.mean,
			 bd->turn_unc, bd->turn_bound, eel, "");
	else if (bd->have_rounds)
		fprintf(f, "    %-9s %-52s %16s\n", "turn", "ping-pong turnaround: data seen to next put", "not measured");
	if (isfinite(bd->parts_sum_ns))
		fprintf(f, "    %-9s %-52s %16.1f ns\n", "sum", "the parts added up", bd->parts_sum_ns);
	fprintf(f, "    %-9s %-52s %16.1f ns\n", "EEL", "the ping-pong's RTT/2, stamps off (median of runs)", eel);
	if (isfinite(bd->residual_ns))
		fprintf(f, "    %-9s %-52s %9.1f +- %.1f ns  (%+.1f %% of EEL)\n", "residual", "the sum less EEL",
			bd->residual_ns, bd->residual_unc_ns, 100 * bd->residual_ns / eel);
	else
		fprintf(f, "    %-9s %-52s %16s\n", "residual", "the sum less EEL",
			bd->across_derived ? "not separable here (no one clock at both ends)" : "not measured");
	if (isfinite(bd->perturbation_ns))
		fprintf(f, "    (perturbation: the stamped rounds' RTT/2 is %.1f ns, %+.1f ns from EEL: what stamping "
			"added to a round,\n     measured, not taken off anything)\n", bd->round.mean, bd->perturbation_ns);
	if (isfinite(bd->oneway_gap_ns))
		fprintf(f, "    (one way, DETECT - POST on its own rounds: %.1f +- %.1f ns, %+.1f ns from the one-way parts' "
			"sum)\n", bd->total.mean, bd->total_unc, bd->oneway_gap_ns);
	if (bd->chosen) {
		int n = 0;

		fprintf(f, "    (a stamp's cost in place: how much longer the span around it is with it than without, "
			"each on\n     rounds of its own; half off each part it bounds, the other split in the part's "
			"+-; ns:");
		for (int st = 0; st < EEL_ST_COMPLETE; st++)
			if (bd->in_place[st])
				fprintf(f, "%s %s %.1f", n++ ? "," : "", stamp_key[st], bd->cost_ns[st]);
		fprintf(f, "%s;\n     the others, never inside a span or not measured, at the measured ones' mean; a "
			"stamp alone, back to back: %.1f)\n", n ? "" : " none measured", bd->stamp_alone_ns);
	} else {
		fprintf(f, "    (each part less a stamp's cost alone, %.1f ns, half for each stamp that bounds it: this "
			"NIC's\n     traced messages take every stamp, so their cost in place is not measured)\n",
			bd->stamp_alone_ns);
	}
	fprintf(f, "    (a stamp is good to one step of the counter, %.1f ns; a part's mean of n to about that / "
		"sqrt(n), in its +-)\n", bd->q_ns);
	if (bd->interrupted)
		fprintf(f, "    (%d stamped rounds left out as preempted: over 10x EEL and 5 us)\n", bd->interrupted);
}

void report_table(FILE *f, const struct session *s, const struct results *r, const char *uri)
{
	const struct eel_clock *c = s->clk;
	const struct eel_caps *cap = s->caps;
	char cpu[128], how[128], w[MAX_WARNINGS][240];
	int nw = report_warnings(s, r, w, MAX_WARNINGS);

	machine_cpu_model(cpu, sizeof(cpu));
	fprintf(f, "eel-bench %s on %s (%s)\n", EEL_VERSION, uri, s->pair ? "both ends on this machine" :
		"client; the server runs the other end");
	fprintf(f, "  NIC      %s: doorbell = %s; attached as %s\n", cap->name, cap->doorbell, cap->attach);
	if (r->pci.have) {
		char link[160];

		nic_pci_link_text(&r->pci, link, sizeof(link));
		fprintf(f, "  PCI      %s %.40s %.60s (%s): %s\n", r->pci.addr, r->pci.f.vendor, r->pci.f.device,
			r->pci.f.driver[0] ? r->pci.f.driver : "no driver", link);
	} else if (r->pci.addr[0]) {
		fprintf(f, "  PCI      %s: %s\n", r->pci.addr, r->pci.error);
	}
	/* the step with two decimals: a VM's TSC may advance by 24.45 cycles (eel_clock_step) */
	fprintf(f, "  machine  %s; counter %s at %.1f MHz%s, advancing in steps of %.2f cycles (%.1f ns); "
		"eel_cycles() costs %llu cycles, a stamp %llu; kernel clock %s\n", cpu, c->source, c->hz / 1e6,
		c->invariant ? " (invariant)" : "", c->resolution_cycles, c->resolution_cycles * c->ns_per_cycle,
		(unsigned long long)c->timer_cycles, (unsigned long long)c->stamp_cycles,
		c->kernel_clocksource[0] ? c->kernel_clocksource : "?");

	fprintf(f, "\n  %-20s %13s %13s %8s  %8s   %s\n", "parameter", "min", "median", "spread",
		"cycles", "how (Bell et al. 2003)");
	if (r->pp.done) {
		snprintf(how, sizeof(how), "ping-pong RTT/2, %u runs x %u, 8 B (4.1)", r->pp.eel.n, s->plan.iters);
		row_stat(f, s, "EEL", &r->pp.eel, how);
	}
	if (r->ov.done)
		overlap_rows(f, s, r);
	if (r->fl.done) {
		const struct flood_point *g8 = NULL;

		for (int i = 0; i < r->fl.npt; i++)
			if (r->fl.pt[i].size == s->plan.sizes[0] && r->fl.pt[i].q == r->fl.g_q)
				g8 = &r->fl.pt[i];
		snprintf(how, sizeof(how), "flood %u B, best of q=%u..%u: q=%u (4.2)", s->plan.sizes[0],
			 s->plan.depths[0], s->plan.depths[s->plan.ndepths - 1], r->fl.g_q);
		if (g8)
			row_stat(f, s, "g", &g8->t, how);
		if (r->fl.G_ns_per_byte > 0) {
			/* the first column: from the minimum timings (Bell et al. 2003), as g's; then the
			 * median and spread of the same taken run by run */
			fprintf(f, "  %-20s %8.4f ns/B %8.4f ns/B %6.1f %%  %8s   least squares, flood %u..%u B at %sq=%u, "
				"%s memory (4.2)\n", "G", r->fl.G_ns_per_byte, r->fl.G_runs.median, 100 * r->fl.G_runs.spread,
				"", r->fl.G_min_size, s->plan.sizes[s->plan.nsizes - 1],
				r->fl.G_q == r->fl.g_q ? "g's " : "the next best ", r->fl.G_q,
				s->plan.flood_cold ? "cold" : "warm");
			fprintf(f, "  %-20s %8.2f GB/s %8.2f GB/s %6.1f %%  %8s   1/G\n", "bandwidth",
				r->fl.bw_bytes_per_ns, r->fl.bw_runs.median, 100 * r->fl.bw_runs.spread, "");
			fprintf(f, "  %-20s %10.0f B  %10.0f B  %6.1f %%  %8s   g/G: larger messages are bandwidth-bound (5.5)\n",
				"M = g/G", r->fl.M_bytes, r->fl.M_runs.median, 100 * r->fl.M_runs.spread, "");
			if (r->pci.payload_bytes_per_ns > 0)
				fprintf(f, "  %-20s %8.2f GB/s %13s %8s  %8s   modelled from the PCI facts: at most, over "
					"the link (MPS %u B, 24 B a TLP); 1/G is %.0f%% of it\n", "PCIe payload",
					r->pci.payload_bytes_per_ns, "", "", "", r->pci.f.max_payload,
					100 * r->fl.bw_bytes_per_ns / r->pci.payload_bytes_per_ns);
		}
	}
	if (r->pp.done && r->ov.done)
		potential_row(f, s, r);
	/* the column counts the counter's ticks, not the core's clock cycles (issue 22) */
	fprintf(f, "  (cycles: ticks of the host's counter (%s), %.1f MHz)\n", c->source, c->hz / 1e6);
	if (r->dec.done)
		decompose_rows(f, r);
	if (r->sig.done)
		signature_rows(f, s, r);
	if (r->bulk.done)
		bulk_rows(f, r);

	if (r->pp.done && r->pp.eel_stamped.n)
		fprintf(f, "\n  stamping cost: EEL median %.1f ns with stamps (1 put in %u), %.1f ns without: %+.1f %% "
			"run by run (spread %.1f points)\n", r->pp.eel_stamped.median, s->plan.stamp_every,
			r->pp.eel.median, 100 * r->pp.stamp_cost.median,
			100 * (r->pp.stamp_cost.p75 - r->pp.stamp_cost.p25));

	if (r->bd.done)
		breakdown_rows(f, s, r);
	if (r->lim.done && r->lim.floor) {
		char here[256], peer[256];

		fprintf(f, "\n  floor    bare echo of one minimum-size frame on the NIC's own carrier (%s), no eel\n"
			"           protocol, on the pair %s (here) and %s (the server)\n"
			"           %.1f ns one way (median of %d runs, each its median round trip / 2), %.1f (min)\n",
			!strcmp(cap->backend, "dpdk") ? "rte_eth_tx_burst/rte_eth_rx_burst" :
			!strcmp(cap->backend, "softnic") ? "shared-memory slots" : cap->backend,
			safe_text(uri, here, sizeof(here)),
			safe_text(r->lim.peer_nic[0] ? r->lim.peer_nic : "?", peer, sizeof(peer)),
			r->lim.one_way.median, r->lim.one_way.n, r->lim.one_way.min);
		fprintf(f, "           EEL / floor = %.2f (median of the runs' ratios, each EEL run beside its floor run,\n"
			"           EEL its median round trip / 2: %.1f ns), quartiles %.2f..%.2f (spread %.0f %%), "
			"%.2f (min): what eel's firmware and driver add\n", r->lim.eel_over.median,
			r->lim.eel_beside.median, r->lim.eel_over.p25, r->lim.eel_over.p75, 100 * r->lim.eel_over.spread,
			r->lim.eel_over.min);
	} else if (r->lim.done) {
		fprintf(f, "\n  limit    bare cache-line one-way between the two cores: %.1f ns (min), %.1f (median)\n",
			r->lim.one_way.min, r->lim.one_way.median);
		fprintf(f, "           EEL / limit = %.2f (min), %.2f (median), run by run beside it (EEL %.1f ns)\n",
			r->lim.eel_over.min, r->lim.eel_over.median, r->lim.eel_beside.min);
		fprintf(f, "           the cores' counters agree to within [%.0f, %.0f] ns\n", r->lim.skew_lo_ns,
			r->lim.skew_hi_ns);
	}
	if (r->drift.done) {
		char t[120];

		test_names(r->drift.tests, t, sizeof(t));
		fprintf(f, "\n  machine  a short ping-pong at the run's start and end: EEL %.1f and %.1f ns (medians of %d x %d "
			"round trips):\n           %s over the tests between (%s)\n", r->drift.start.median,
			r->drift.end.median, DRIFT_RUNS, r->drift.iters,
			r->drift.changed ? "the machine CHANGED (warning below)" : "one machine", t);
	}
	if (r->ncounters) {
		int any = 0;

		for (int i = 0; i < r->ncounters; i++)
			if ((r->counters[i].value || r->peer_counter_values[i]) &&
			    strcmp(r->counters[i].name, "tx_packets") && strcmp(r->counters[i].name, "rx_packets") &&
			    strcmp(r->counters[i].name, "tx_messages") && strcmp(r->counters[i].name, "rx_messages")) {
				fprintf(f, "%s %s %llu/%llu", any ? "," : "\n  NIC events (here/peer):",
					r->counters[i].name, (unsigned long long)r->counters[i].value,
					(unsigned long long)r->peer_counter_values[i]);
				any = 1;
			}
		if (any)
			fputc('\n', f);
		if (timeouts_without_loss(r)) {
			char peer[64] = "";

			if (r->preempted_peer >= 0)
				snprintf(peer, sizeof(peer), ", %ld at the server over its life", r->preempted_peer);
			fprintf(f, "  (timeouts with no loss counted (no NAK, no fault, no drop): an ACK came after the timer, "
				"rto_us,\n   as when a process is off its core; involuntary context switches: %ld here over "
				"the tests%s)\n", r->preempted_here, peer);
		}
	}
	if (verbose)
		curves(f, r);
	for (int i = 0; i < nw; i++)
		fprintf(f, "%s  warning: %s\n", i ? "" : "\n", w[i]);
	fprintf(f, "\n  %.1f s of measurement; the methods' papers: data/papers.md (Bell et al. 2003 = An Evaluation of "
		"Current High-Performance Networks, IPDPS 2003)\n",
		r->wall_s);
}
