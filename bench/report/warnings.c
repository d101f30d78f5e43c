/* SPDX-License-Identifier: MIT */
/* bench/report/warnings.c — what a reader must know before trusting the figures:
 * an untrustworthy clock, a noisy machine, stamps that cost too much, a
 * breakdown that does not add up, two cores whose counters disagree. Each
 * warning names its kind and the figures it concerns (report.h). */
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench.h"
#include "bench/report/report.h"

const char *const warn_kind_name[WK_KINDS] = { "note", "noise", "clock", "stamps", "unmeasured", "budget",
						       "placement" };
const char *const figure_name[FIGURES] = { "eel", "o_s", "o_r", "g", "G", "L", "breakdown", "signature", "bulk",
					   "decompose", "limit", "sweep" };

struct warnings {
	struct warning *w;
	int n, max;
};

static void __attribute__((format(printf, 4, 5))) warn(struct warnings *ws, enum warn_kind kind, uint32_t figures,
							 const char *fmt, ...)
{
	va_list ap;

	if (ws->n >= ws->max)
		return;
	va_start(ap, fmt);
	vsnprintf(ws->w[ws->n].text, WARNING_LEN, fmt, ap);
	va_end(ap);
	ws->w[ws->n].kind = kind;
	ws->w[ws->n].figures = figures;
	ws->n++;
}

/* the figures the tests in t give (enum test_bit) */
static uint32_t figures_of(uint32_t t)
{
	return (t & T_PINGPONG ? FIG_EEL | FIG_BREAKDOWN : 0) | (t & T_FLOOD ? FIG_G | FIG_GG : 0) |
	       (t & T_OVERLAP ? FIG_O_S | FIG_O_R : 0) | (t & T_SIGNATURE ? FIG_SIGNATURE | FIG_L : 0) |
	       (t & T_BULK ? FIG_BULK : 0) | (t & T_DECOMPOSE ? FIG_DECOMPOSE : 0) | (t & T_LIMIT ? FIG_LIMIT : 0) |
	       (t & T_SWEEP ? FIG_SWEEP : 0);
}

/* The rounds a breakdown wants (~128 a run with the default --stamp-every,
 * cli.c), at fewer than 100 of which its means are rough. A run's traced
 * puts stay within the library's 1024 trace records, a burst of 4 stamped
 * puts in every --stamp-every: so --stamp-every no lower than iters / 256;
 * below that, more runs. Derived once here, for every warning that needs it. */
#define ROUNDS_WANTED 128
#define TRACE_RECORDS 1024
int stamp_advice(const struct session *s, const struct results *r, char *out, size_t n)
{
	const struct plan *p = &s->plan;
	uint32_t every = p->stamp_every, least = (4 * p->iters + TRACE_RECORDS - 1) / TRACE_RECORDS, want;
	int rounds = r->bd.round.n;

	if (!(r->bd.done && r->bd.have_rounds && rounds < 100) || !every)
		return 0;
	least = least ? least : 1;
	/* rounds scale with 1 / --stamp-every, but no more than the run's round
	 * trips give: -n x -r / --stamp-every (--stamp-every 1048576 -n 200
	 * stamped 1 round and was advised 8192, which stamps 1 still) */
	want = rounds > 0 ? (uint32_t)((double)every * rounds / ROUNDS_WANTED) : least;
	want = (uint32_t)fmin(want, (double)p->iters * p->runs / ROUNDS_WANTED);
	if (want >= least && want < every) {
		snprintf(out, n, "--stamp-every %u", want);
	} else {
		double at_least = rounds > 0 ? (double)rounds * every / least : 0;
		uint32_t runs = at_least > 0 ? (uint32_t)ceil(p->runs * ROUNDS_WANTED / at_least) : 2 * p->runs;

		runs = runs > MAX_RUNS / 2 ? MAX_RUNS / 2 : runs > p->runs ? runs : p->runs + 1;
		if (least < every)
			snprintf(out, n, "--stamp-every %u --runs %u", least, runs);
		else
			snprintf(out, n, "--runs %u (a run's 1024 trace records hold no more stamps)", runs);
	}
	return 1;
}

/* The breakdown's own: too few rounds, none joined, a residual, a part below 0. */
static void breakdown_warnings(struct warnings *ws, const struct session *s, const struct results *r)
{
	char advice[96] = "", more[128] = "", added[64] = "what stamping added to a round not separable here";

	if (stamp_advice(s, r, advice, sizeof(advice)))
		snprintf(more, sizeof(more), "; only %d rounds were stamped: for ~%d, %s", r->bd.round.n, ROUNDS_WANTED,
			 advice);
	/* (stamping does not touch EEL, which is of the runs without stamps: what
	 * it adds to a stamped round is the breakdown's perturbation, a figure) */
	if (r->bd.done && r->bd.have_rounds && r->bd.round.n < 100)
		warn(ws, WK_STAMPS, FIG_BREAKDOWN, "only %d rounds were stamped: the breakdown's means are rough%s%s",
		     r->bd.round.n, more[0] ? ";" : "", more[0] ? strchr(more + 2, ':') + 1 : "");
	/* none joined and none left unjoined: no round was stamped whole at all,
	 * -n too short for --stamp-every (-n 1 said "(0 not)") */
	if (r->bd.done && !r->bd.have_rounds && r->bd.samples && r->bd.unjoined)
		warn(ws, WK_STAMPS, FIG_BREAKDOWN, "no stamped round could be joined whole (%d not): the breakdown is of "
		     "one-way records and does not add up to EEL", r->bd.unjoined);
	else if (r->bd.done && !r->bd.have_rounds && r->bd.samples)
		warn(ws, WK_STAMPS, FIG_BREAKDOWN, "no round was stamped whole: with -n %u round trips a run and 1 "
		     "put in --stamp-every %u stamped, too few were, so the breakdown is of one-way records and does "
		     "not add up to EEL; give -n %u or more (16 stamped rounds a run)", s->plan.iters,
		     s->plan.stamp_every, 16 * (s->plan.stamp_every ? s->plan.stamp_every : 8));
	if (isfinite(r->bd.perturbation_ns))
		snprintf(added, sizeof(added), "stamping added %+.1f ns a round", r->bd.perturbation_ns);
	if (r->bd.done && r->bd.closes == 0)
		warn(ws, WK_STAMPS, FIG_BREAKDOWN, "the breakdown's parts add up to %.1f ns, EEL is %.1f ns: %+.1f ns "
		     "(+-%.1f), over %.0f%% of EEL: the parts time the stamped puts' path (%s), not shares of EEL%s",
		     r->bd.parts_sum_ns, r->bd.eel_ref_ns, r->bd.residual_ns, r->bd.residual_unc_ns, 100 * BD_CLOSE,
		     added, more);
	/* (docs/methods.md, the breakdown: "When the parts do not add up") */
	for (int k = 0; r->bd.done && k < STAGE_PARTS; k++)
		if (!r->bd.absorbed[k] && r->bd.have[k] && r->bd.part[k].mean < -r->bd.part_unc[k] &&
		    !(r->bd.across_derived && part_between_ends(&r->bd, k)))
			warn(ws, WK_STAMPS, FIG_BREAKDOWN, "breakdown: %s came out below 0 beyond its uncertainty (%.1f +- "
			     "%.1f ns before it is shown as a bound): its stamps' cost in place was not that of the stamps "
			     "around it%s", r->bd.name[k], r->bd.part[k].mean, r->bd.part_unc[k], more);
}

/* Tests of one run that saw different machines (a VM moving its vCPUs). */
static void machine_warnings(struct warnings *ws, const struct session *s, const struct results *r)
{
	if (r->pp.done && r->bulk.done && r->bulk.npt && r->bulk.pt[0].size <= 8 &&
	    r->bulk.pt[0].echo.min > 1.5 * r->pp.eel.median)
		warn(ws, WK_NOISE, FIG_EEL | FIG_BULK, "the bulk echo of %u B took %.1f ns one way (its minimum), EEL "
		     "%.1f ns: the two tests saw different machines (a VM moving its vCPUs, or a busy machine); pin with "
		     "--cpu and run again", r->bulk.pt[0].size, r->bulk.pt[0].echo.min, r->pp.eel.median);
	if (r->pp.done && r->sig.done && r->sig.rtt_ns > 0 &&
	    (r->sig.rtt_ns / 2 > 1.5 * r->pp.eel.median || r->sig.rtt_ns / 2 < r->pp.eel.median / 1.5))
		warn(ws, WK_NOISE, FIG_EEL | FIG_SIGNATURE | FIG_L, "the signature's round trip gives %.1f ns one way, "
		     "EEL %.1f ns: the two tests saw different machines; pin with --cpu and run again", r->sig.rtt_ns / 2,
		     r->pp.eel.median);
	if (r->lim.done && r->lim.eel_over.n && r->lim.eel_over.min < 1)
		warn(ws, WK_NOISE, FIG_EEL | FIG_LIMIT, "in a run, EEL came out below the %s beside it (EEL / %s %.2f), "
		     "which nothing on this path can beat: the machine changed between the two (a VM moving its vCPUs, "
		     "or a busy machine); pin with --cpu and run again", r->lim.floor ? "NIC's floor" : "cache-line limit",
		     r->lim.floor ? "floor" : "limit", r->lim.eel_over.min);
	if (r->lim.done && (r->lim.skew_lo_ns > 0 || r->lim.skew_hi_ns < 0))
		warn(ws, WK_CLOCK, FIG_BREAKDOWN, "the two cores' counters disagree by at least %.0f ns: stamps taken "
		     "on different cores are off by that much",
		     r->lim.skew_lo_ns > 0 ? r->lim.skew_lo_ns : -r->lim.skew_hi_ns);
	/* one machine per run (docs/methods.md, "machine"): the short ping-pong at the run's start and end (main.c) */
	if (r->drift.done && r->drift.changed) {
		char t[64];  /* all seven: 57 characters */

		test_names(r->drift.tests, t, sizeof(t));
		warn(ws, WK_NOISE, figures_of(r->drift.tests), "the machine changed during the run: EEL %.1f ns at its "
		     "start, %.1f at its end (%d x %d round trips): the tests between (%s) saw different machines; pin "
		     "with --cpu", r->drift.start.median, r->drift.end.median, DRIFT_RUNS, r->drift.iters, t);
	}
	/* the cache-line limit's own EEL, a ping-pong run beside each limit run,
	 * is the headline EEL's kind of run (each run's mean RTT/2); the issue saw
	 * it 2x the headline's, unremarked. (Beside a NIC's floor it is each
	 * run's median round trip: another statistic, not compared.) */
	if (r->lim.done && !r->lim.floor && r->pp.done && stats_differ(&r->lim.eel_beside, &r->pp.eel))
		warn(ws, WK_NOISE, FIG_EEL | FIG_LIMIT, "the limit test's EEL (%.1f ns, median of its runs) is not the "
		     "headline EEL (%.1f ns) within their spreads: the two tests saw different machines; EEL / limit, "
		     "taken run by run, holds", r->lim.eel_beside.median, r->pp.eel.median);
}

/* The flood's, the signature's and the budget's. */
static void method_warnings(struct warnings *ws, const struct session *s, const struct results *r)
{
	if (r->fl.done && !flood_G_measured(&r->fl))
		warn(ws, WK_UNMEASURED, FIG_GG, "flood: " FLOOD_G_UNMEASURED);
	for (int i = 0; r->fl.done && i < r->fl.npt; i++)
		if (r->fl.pt[i].t.spread > 0.25) {
			warn(ws, WK_NOISE, FIG_G | FIG_GG, "flood points vary by up to %.0f%% between runs (e.g. %u B at "
			     "q=%u): noisy machine", 100 * r->fl.pt[i].t.spread, r->fl.pt[i].size, r->fl.pt[i].q);
			break;
		}
	/* G run by run is each run's slope over the bandwidth-bound sizes (two
	 * of them at the least): one run's two timings a few percent apart give a
	 * slope near 0, a bandwidth of hundreds of GB/s (--sizes 8..4096: G's
	 * spread 1208%, its runs' least 0.0023 ns/B, said nowhere). The first
	 * column, from each size's fastest run, stands. */
	if (r->fl.done && flood_G_measured(&r->fl) && r->fl.G_runs.n >= 2 && r->fl.G_runs.spread > 0.25)
		warn(ws, WK_NOISE, FIG_GG, "G varies by %.0f%% between runs (%d runs, each a slope over the sizes from "
		     "%u B): its median, bandwidth's and M's are rough (the first column, from each size's fastest run, "
		     "stands); more bandwidth-bound sizes (--sizes up to 131072) or --flood-runs narrow it",
		     100 * r->fl.G_runs.spread, r->fl.G_runs.n, r->fl.G_min_size);
	else if (r->fl.done && flood_G_measured(&r->fl) && r->fl.G_runs_none)
		warn(ws, WK_NOISE, FIG_GG, "G: %d of %d runs gave no slope (their puts from %u B no slower as they "
		     "grew): G's median, bandwidth's and M's are of the others (the first column, from each size's "
		     "fastest run, stands); more bandwidth-bound sizes (--sizes up to 131072) or --flood-runs",
		     r->fl.G_runs_none, r->fl.G_runs_none + r->fl.G_runs.n, r->fl.G_min_size);
	/* L = RTT/2 - o_s - o_r (Culler et al. 1996): where it is separable (a
	 * NIC that runs on the host's CPU has its work in o_s and o_r: the table
	 * says L is not separable, derived.c) and below 0 beyond its uncertainty,
	 * o_s + o_r are larger than the one-way time they are part of: the D
	 * curves' gaps were stretched. The figure is not printed (no bound). */
	if (r->sig.done && r->sig.o_r_curves && r->sig.L.separable && !r->sig.L.resolved && !isfinite(r->sig.L.bound_ns))
		warn(ws, WK_NOISE, FIG_SIGNATURE | FIG_L, "signature: o_s + o_r exceed RTT/2 (%.0f ns) by more than "
		     "their uncertainty (%.0f ns), so L is not given: the D curves' gaps were stretched (busy machine?): "
		     "o_r of this run is not to be trusted", r->sig.rtt_ns / 2, r->sig.L.u_ns);
	if (r->sig.done && r->sig.unconverged)
		warn(ws, WK_NOISE, FIG_SIGNATURE | FIG_L, "signature: %d of %d points fell short of 5%% at 95%% "
		     "confidence within their budget (%u samples, %u ms): noisy machine; -v marks them, --sig-samples "
		     "raises the budget", r->sig.unconverged, r->sig.points, s->plan.sig_max_samples,
		     sig_point_ms(&s->plan));
	if (r->timing.budget_s > 0 && !r->timing.fits)
		warn(ws, WK_BUDGET, 0, "--duration %.0f cannot hold the papers' minimum (10 ping-pong runs, each test's "
		     "least repetitions): this plan is estimated at %.1f s; give a longer --duration", r->timing.budget_s,
		     budget_total(&r->timing));
}

/* The cores this process may run on (its allowed CPU set), else those online. */
static int allowed_cpus(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		return (int)sysconf(_SC_NPROCESSORS_ONLN);
	return CPU_COUNT(&set);
}

int report_warnings(const struct session *s, const struct results *r, struct warning *w, int max)
{
	const struct eel_clock *c = s->clk;
	struct warnings ws = { w, 0, max };

	if (c->warning[0])
		warn(&ws, WK_CLOCK, FIG_ALL, "clock: %s", c->warning);
	/* softnic:thread runs a firmware thread beside each end's host thread:
	 * four busy threads for a pair, on the cores this process may use (its
	 * allowed set, sched_getaffinity: a taskset or a cgroup's cpuset). Run
	 * on fewer (oversubscribe=1, or a launcher's oversubscribed machine)
	 * they take turns: a NIC's figures on its own processor they are not */
	if (s->uri && !strncmp(s->uri, "softnic:thread", 14) && allowed_cpus() < 4)
		warn(&ws, WK_PLACEMENT, FIG_ALL, "thread mode on %d core%s: 4 busy threads (two hosts, two NICs) "
		     "take turns on them, so these figures measure this machine's scheduler, not a NIC's; "
		     "use softnic:inline, or a machine with 4 cores", allowed_cpus(), allowed_cpus() == 1 ? "" : "s");
	if (r->pp.done && r->pp.eel.spread > 0.10)
		warn(&ws, WK_NOISE, FIG_EEL, "EEL varies by %.0f%% between runs (interquartile range / median): the "
		     "machine is noisy; pin with --cpu to quiet cores, or raise --runs", 100 * r->pp.eel.spread);
	if (r->pp.done && r->pp.eel.outliers)
		warn(&ws, WK_NOISE, FIG_EEL, "%d of %d ping-pong runs were outliers (far above the rest): something "
		     "else ran", r->pp.eel.outliers, r->pp.eel.n);
	/* with no warm-up the first timed run starts cold (caches, the NIC's
	 * first descriptors): -n 200 -r 1 --warmup 0 gave EEL 814 ns against a
	 * tail p50 of 184 and a stamping cost of -48%, said nowhere */
	if ((r->pp.done || r->lim.done) && !s->plan.warmup)
		warn(&ws, WK_NOISE, FIG_EEL | FIG_BREAKDOWN | (r->lim.done ? FIG_LIMIT : 0), "--warmup 0: the timed "
		     "runs were not warmed up, so their figures include a cold start (EEL, the stamping cost and the "
		     "breakdown against it); give round trips to warm up, e.g. --warmup 1000 (the default)");
	breakdown_warnings(&ws, s, r);
	machine_warnings(&ws, s, r);
	method_warnings(&ws, s, r);
	return ws.n;
}
