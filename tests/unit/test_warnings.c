/* SPDX-License-Identifier: MIT */
/* tests/unit/test_warnings.c — bench/report/warnings.c over crafted results:
 *
 * - the warnings of one run that advise on stamping (too few rounds, and
 *   the residual and the part below 0 they bring) give one recommendation:
 *   every "--stamp-every N" in them names the same N, one that stamps more
 *   rounds than now (N below the run's --stamp-every) and that a run's 1024
 *   trace records hold (N >= iters / 256); where no such N is left, more
 *   runs; never "raise --iters", which under the default --stamp-every
 *   (iters / 128) stamps as few rounds a run;
 * - each warning names its kind and figures: the machine's drift names the
 *   figures of the tests between, a noisy EEL names EEL;
 * - --duration's cut (bench/budget.c): the repetitions scaled by one factor,
 *   the 10 runs kept, a budget too short for the minimum said in a warning;
 *   the server takes a cut plan only if it lowers repetitions. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "bench/bench.h"
#include "bench/report/report.h"

static struct eel_clock clk = { .hz = 2e9, .ns_per_cycle = 0.5 };
static struct results r;

static void crafted(struct session *s, uint32_t iters, uint32_t every, int rounds)
{
	memset(s, 0, sizeof(*s));
	memset(&r, 0, sizeof(r));
	s->clk = &clk;
	s->uri = "softnic";
	s->plan.iters = iters;
	s->plan.runs = 10;
	s->plan.stamp_every = every;
	s->plan.sig_max_samples = 500;
	r.bd.done = 1;
	r.bd.have_rounds = 1;
	r.bd.round.n = rounds;
	r.bd.eel_ref_ns = 400;
	r.bd.parts_sum_ns = 470;
	r.bd.residual_ns = 70;         /* over 5% of EEL: the residual's warning */
	r.bd.residual_unc_ns = 30;
	r.bd.closes = 0;               /* 70 - 30 over 5% of 400: judged, and not closing */
	r.bd.have[0] = r.bd.have[1] = 1;
	snprintf(r.bd.name[0], sizeof(r.bd.name[0]), "post");
	snprintf(r.bd.name[1], sizeof(r.bd.name[1]), "wire");
	r.bd.part[0].mean = 100;
	r.bd.part_unc[0] = 5;
	r.bd.part[1].mean = -40;       /* below 0 beyond its uncertainty: that warning too */
	r.bd.part_unc[1] = 10;
}

/* Every --stamp-every N in the warnings: one N (*n, 0: none named), and how many name one. */
static int advised(const struct warning *w, int nw, unsigned *n, int *raise_iters)
{
	int naming = 0;

	*n = 0;
	*raise_iters = 0;
	for (int i = 0; i < nw; i++) {
		const char *p = w[i].text;

		*raise_iters |= strstr(p, "raise --iters") != NULL;
		while ((p = strstr(p, "--stamp-every"))) {
			char *end;
			unsigned long v;

			p += strlen("--stamp-every");
			v = strtoul(p, &end, 10);
			CHECK(end != p, "warning %d names --stamp-every without a value: %s", i, w[i].text);
			if (end == p)
				continue;
			CHECK(!*n || *n == v, "two warnings advise --stamp-every %u and %lu", *n, v);
			*n = (unsigned)v;
			naming++;
		}
	}
	return naming;
}

static void one_advice(uint32_t iters, uint32_t every, int rounds)
{
	struct session s;
	struct warning w[MAX_WARNINGS];
	unsigned n;
	int nw, raise_iters, naming, more_runs = 0;

	crafted(&s, iters, every, rounds);
	nw = report_warnings(&s, &r, w, MAX_WARNINGS);
	naming = advised(w, nw, &n, &raise_iters);
	CHECK(nw >= 3, "the crafted run gives %d warnings, want rounds, residual and a part below 0", nw);
	CHECK(!raise_iters, "a warning says 'raise --iters' (iters %u, --stamp-every %u)", iters, every);
	for (int i = 0; i < nw; i++)
		more_runs |= strstr(w[i].text, "--runs") != NULL;
	CHECK(naming >= 1 || more_runs, "no warning names a --stamp-every or --runs (iters %u, every %u, %d rounds)",
	      iters, every, rounds);
	if (n) {
		CHECK(n < every, "--stamp-every %u advised, the run's is %u: that stamps no more rounds", n, every);
		CHECK(n >= (4 * iters + 1023) / 1024, "--stamp-every %u: more than a run's 1024 trace records at iters %u",
		      n, iters);
	}
	for (int i = 0; i < nw; i++)
		if (strstr(w[i].text, "--stamp-every") || strstr(w[i].text, "rounds were stamped"))
			CHECK(w[i].kind == WK_STAMPS && w[i].figures == FIG_BREAKDOWN, "warning %d: kind %d figures %#x", i,
			      w[i].kind, w[i].figures);
}

static void kinds_and_figures(void)
{
	struct session s;
	struct warning w[MAX_WARNINGS];
	int nw, drift = -1, eel = -1;

	crafted(&s, 10000, 78, 500);
	r.bd.done = 0;
	r.pp.done = 1;
	r.pp.eel.spread = 0.4;
	r.drift.done = 1;
	r.drift.changed = 1;
	r.drift.tests = T_FLOOD | T_OVERLAP;
	nw = report_warnings(&s, &r, w, MAX_WARNINGS);
	for (int i = 0; i < nw; i++) {
		if (strstr(w[i].text, "machine changed"))
			drift = i;
		if (strstr(w[i].text, "EEL varies"))
			eel = i;
	}
	REQUIRE(drift >= 0 && eel >= 0, "no drift or EEL spread warning among %d", nw);
	CHECK(w[drift].kind == WK_NOISE && w[drift].figures == (FIG_G | FIG_GG | FIG_O_S | FIG_O_R),
	      "drift: kind %d figures %#x", w[drift].kind, w[drift].figures);
	CHECK(w[eel].kind == WK_NOISE && w[eel].figures == FIG_EEL, "EEL: kind %d figures %#x", w[eel].kind,
	      w[eel].figures);
	CHECK(!strcmp(figure_name[4], "G") && !strcmp(warn_kind_name[WK_NOISE], "noise"), "names");
}

/* --warmup 0: a cold start in the timed runs is said (it was not: EEL 814 ns
 * against a tail p50 of 184 and a stamping cost of -48%); a perturbation not
 * separable (NAN: the stamped rounds faster than EEL) is not printed as a
 * figure in the residual's warning (it was "stamping added -392.4 ns") */
static void cold_start(void)
{
	struct session s;
	struct warning w[MAX_WARNINGS];
	int nw, cold = -1, residual = -1;

	crafted(&s, 200, 8, 24);
	s.plan.warmup = 0;
	r.pp.done = 1;
	r.bd.perturbation_ns = NAN;
	nw = report_warnings(&s, &r, w, MAX_WARNINGS);
	for (int i = 0; i < nw; i++) {
		if (strstr(w[i].text, "--warmup 0") && strstr(w[i].text, "cold start"))
			cold = i;
		if (strstr(w[i].text, "the parts time the stamped puts' path"))
			residual = i;
	}
	REQUIRE(cold >= 0, "--warmup 0: no warning of a cold start among %d", nw);
	CHECK(w[cold].kind == WK_NOISE && (w[cold].figures & FIG_EEL), "cold start: kind %d figures %#x", w[cold].kind,
	      w[cold].figures);
	REQUIRE(residual >= 0, "no residual warning among %d", nw);
	CHECK(!strstr(w[residual].text, "nan") && strstr(w[residual].text, "not separable here"),
	      "the residual's warning with no perturbation: %s", w[residual].text);
	s.plan.warmup = 1000;
	nw = report_warnings(&s, &r, w, MAX_WARNINGS);
	for (int i = 0; i < nw; i++)
		CHECK(!strstr(w[i].text, "cold start"), "--warmup 1000: %s", w[i].text);
}

/* G's runs far apart (each a slope over two sizes: one at 0.0023 ns/B, a
 * spread of 1208% in the table) are said; within 25%, nothing. */
static void g_spread(void)
{
	struct session s;
	struct warning w[MAX_WARNINGS];
	int nw, found = -1;

	crafted(&s, 10000, 78, 500);
	r.fl.done = 1;
	r.fl.G_ns_per_byte = 0.08;
	r.fl.G_min_size = 2048;
	r.fl.G_runs = (struct stat){ .n = 3, .median = 0.09, .spread = 12.08 };
	nw = report_warnings(&s, &r, w, MAX_WARNINGS);
	for (int i = 0; i < nw; i++)
		if (strstr(w[i].text, "G varies by 1208% between runs (3 runs, each a slope over the sizes from 2048 B)"))
			found = i;
	REQUIRE(found >= 0, "no warning of G's spread among %d", nw);
	CHECK(w[found].kind == WK_NOISE && w[found].figures == FIG_GG, "G spread: kind %d figures %#x",
	      w[found].kind, w[found].figures);
	r.fl.G_runs.spread = 0.1;
	nw = report_warnings(&s, &r, w, MAX_WARNINGS);
	for (int i = 0; i < nw; i++)
		CHECK(!strstr(w[i].text, "G varies") && !strstr(w[i].text, "gave no slope"), "G within 10%%: %s",
		      w[i].text);
	/* a run with no slope is left out of G's runs, and said */
	r.fl.G_runs = (struct stat){ .n = 1, .median = 0.09 };
	r.fl.G_runs_none = 2;
	nw = report_warnings(&s, &r, w, MAX_WARNINGS);
	found = -1;
	for (int i = 0; i < nw; i++)
		if (strstr(w[i].text, "G: 2 of 3 runs gave no slope"))
			found = i;
	CHECK(found >= 0, "no warning of runs without a slope among %d", nw);
	r.fl.G_runs_none = 0;
	r.fl.done = 0;
}

/* The stamping advice: a value that stamps enough rounds for the run's -n x -r
 * (--stamp-every 1048576 -n 200 was advised 8192, which stamps 1 round still),
 * the "rough" sentence whole (it read "rough for ~128, --stamp-every 1"), and
 * no round at all said why (-n 1 gave "(0 not)") */
static void stamp_advice_text(void)
{
	struct session s;
	struct warning w[MAX_WARNINGS];
	unsigned n;
	int nw, raise_iters, rough = 0, none = 0;

	crafted(&s, 200, 1048576, 1);
	nw = report_warnings(&s, &r, w, MAX_WARNINGS);
	advised(w, nw, &n, &raise_iters);
	CHECK(n > 0 && (double)s.plan.iters * s.plan.runs / n >= 128, "-n 200 -r 10 --stamp-every 1048576: advised "
	      "--stamp-every %u, which stamps %.0f rounds, not ~128", n, n ? (double)s.plan.iters * s.plan.runs / n : 0);
	for (int i = 0; i < nw; i++)
		rough |= strstr(w[i].text, "the breakdown's means are rough; for ~128") != NULL;
	CHECK(rough, "the 'rough' warning is not a whole sentence");
	crafted(&s, 1, 8, 0);
	r.bd.have_rounds = 0;
	r.bd.samples = 20;
	r.bd.unjoined = 0;
	nw = report_warnings(&s, &r, w, MAX_WARNINGS);
	for (int i = 0; i < nw; i++) {
		CHECK(!strstr(w[i].text, "(0 not)"), "-n 1: %s", w[i].text);
		none |= strstr(w[i].text, "round trips a run and 1 put in --stamp-every 8 stamped, too few were") != NULL;
	}
	CHECK(none, "-n 1: no warning says the run had too few round trips for a whole stamped round");
}

static void budget(void)
{
	struct plan p = { .tests = T_PINGPONG | T_FLOOD, .iters = 10000, .runs = 10, .warmup = 1000,
			  .flood_msgs = 10000, .flood_bytes = 16u << 20, .flood_runs = 10, .nsizes = 2, .ndepths = 2,
			  .sizes = { 8, 1024 }, .depths = { 1, 64 }, .overlap_msgs = 2000, .sig_max_samples = 500,
			  .bulk_reps = 150, .stamp_every = 78 };
	struct plan asked = p, tight = p;
	struct timing t = { 0 };
	struct session s;
	struct warning w[MAX_WARNINGS];
	double est[BP_N], all = 0;
	int nw, said = 0;

	budget_estimate(&p, 1000, est);
	for (int i = 0; i < BP_N; i++)
		all += est[i];
	budget_cut(&p, all / 4, 1000, &t);
	CHECK(t.scale > 0 && t.scale < 0.3, "a quarter of the estimate: scale %g", t.scale);
	CHECK_EQ_U(p.iters, (uint32_t)floor(asked.iters * t.scale));
	CHECK_EQ_U(p.runs, 10);
	CHECK_EQ_U(p.flood_runs, 10);
	CHECK(t.fits, "the cut plan (estimate %g s) does not fit %g s", budget_total(&t), all / 4);
	CHECK(budget_plan_within(&asked, &p), "the server would refuse the cut plan");
	CHECK(!budget_plan_within(&p, &asked), "the server would take a plan that raises repetitions");
	tight.runs = 400;
	budget_cut(&tight, 0.01, 1e6, &t);
	CHECK(!t.fits && tight.runs == 400 && tight.iters == BUDGET_MIN_ITERS, "too short a budget: fits %d runs %u "
	      "iters %u", t.fits, tight.runs, tight.iters);
	crafted(&s, 100, 8, 500);
	r.bd.done = 0;
	r.timing = t;
	r.timing.budget_s = 0.01;
	nw = report_warnings(&s, &r, w, MAX_WARNINGS);
	for (int i = 0; i < nw; i++)
		said |= w[i].kind == WK_BUDGET && strstr(w[i].text, "--duration") != NULL;
	CHECK(said, "no warning says --duration cannot hold the minimum");
}

int main(void)
{
	g_spread();
	one_advice(10000, 78, 40);     /* the default --stamp-every, rounds lost */
	one_advice(10000, 40, 60);     /* near the trace records' floor (40): more runs */
	one_advice(1000, 8, 30);       /* -n 1000: --stamp-every at its floor of 8 */
	one_advice(100000, 512, 20);   /* a long run at the default's ceiling */
	kinds_and_figures();
	cold_start();
	stamp_advice_text();
	budget();
	CHECK_DONE();
}
