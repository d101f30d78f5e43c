/* SPDX-License-Identifier: MIT */
/* bench/budget.c — each test's cost from the plan and a measured round trip,
 * and --duration's cut (budget.h).
 *
 * A test's cost is its repetitions (round trips, messages, samples) times a
 * round trip of this NIC times what one repetition costs in round trips,
 * K_* below: each measured as a default `eel-bench` run's seconds for that
 * test over its repetitions and the round trip of the run's first ping-pong
 * (softnic pair, this project's shared 2-core VM). A NIC whose flood or bulk
 * is bound by bytes rather than round trips is estimated short; the table
 * and the JSON give every test's seconds beside its estimate. */
#include <math.h>
#include <string.h>

#include "budget.h"
#include "flood.h"
#include "signature.h"
#include "sweep.h"

const char *const budget_part_name[BP_N] = {
	"machine", "pingpong", "flood", "overlap", "signature", "bulk", "decompose", "limit", "sweep",
};

/* round trips a repetition costs, per test (see above): `build/eel-bench
 * --json F` at 20:56 UTC on 2026-11-27, a round trip of 751 ns, the tests'
 * seconds (timing.tests[].s) over their repetitions here */
#define K_MACHINE 2.4
#define K_PINGPONG 1.3
#define K_FLOOD 2.2
#define K_OVERLAP 20.0
#define K_SIGNATURE 39.0
#define K_BULK 60.0
#define K_DECOMPOSE 8.8
#define K_LIMIT 6.2

/* A signature point: its samples, or its time budget if that is less
 * (signature.c: 85 points at 8 B here, 1 + 4 curves of 21 burst lengths;
 * bulk's o(n), ~8 a size). */
#define SIG_POINTS 85.0
#define BULK_SIG_POINTS 8.0
static double sig_point_s(const struct plan *p, double rt)
{
	double s = K_SIGNATURE * p->sig_max_samples * rt, most = sig_point_ms(p) / 1000.0;

	return s < most ? s : most;
}

/* the sweep: at each size its round trips (and sweep_warm's untimed) at the
 * ping-pong's cost, its flood's messages at the flood's (the first size's
 * twice: once untimed; a NIC bound by bytes at large sizes is estimated
 * short, as the flood) */
static double sweep_reps(const struct plan *p)
{
	double n = 0;

	for (uint32_t i = 0; i < p->nsweep; i++) {
		uint32_t iters = sweep_iters(p, p->sweep_sizes[i]);

		n += K_PINGPONG * (iters + sweep_warm(p, iters, i == 0)) +
		     K_FLOOD * sweep_msgs(p, p->sweep_sizes[i]) * (i == 0 ? 2 : 1);
	}
	return n;
}

static double flood_msgs_all(const struct plan *p)
{
	double n = 0;

	for (uint32_t i = 0; i < p->nsizes; i++)
		n += (double)flood_msgs_for(p, p->sizes[i]);
	return n * p->ndepths * p->flood_runs;
}

void budget_estimate(const struct plan *p, double rtt_ns, double est[BP_N])
{
	/* the ping-pong's runs: EEL's, their stamped twins, and the tail's */
	double rt = rtt_ns * 1e-9, pp_runs = p->runs * (p->stamp_every ? 3.0 : 2.0);
	uint32_t drift = p->iters < 2000 ? p->iters : 2000;

	memset(est, 0, sizeof(double) * BP_N);
	est[BP_MACHINE] = K_MACHINE * 6.0 * drift * rt;
	if (p->tests & T_PINGPONG)
		est[BP_PINGPONG] = K_PINGPONG * (p->warmup + pp_runs * p->iters) * rt;
	if (p->tests & T_FLOOD)
		est[BP_FLOOD] = K_FLOOD * flood_msgs_all(p) * rt;
	if (p->tests & T_OVERLAP)
		est[BP_OVERLAP] = K_OVERLAP * 2.0 * p->overlap_sweeps * p->overlap_runs * p->overlap_msgs * rt;
	if (p->tests & (T_SIGNATURE | T_BULK))
		est[BP_SIGNATURE] = SIG_POINTS * sig_point_s(p, rt);
	if (p->tests & T_BULK)
		est[BP_BULK] = (double)p->nbulk * (BULK_SIG_POINTS * sig_point_s(p, rt) + K_BULK * p->bulk_reps * rt);
	if (p->tests & T_DECOMPOSE)
		est[BP_DECOMPOSE] = K_DECOMPOSE * (double)p->runs * p->iters * rt;
	if (p->tests & T_LIMIT)
		est[BP_LIMIT] = K_LIMIT * (double)p->runs * p->iters * rt;
	if (p->tests & T_SWEEP)
		est[BP_SWEEP] = sweep_reps(p) * rt;
}

static double sum(const double est[BP_N])
{
	double s = 0;

	for (int i = 0; i < BP_N; i++)
		s += est[i];
	return s;
}

double budget_total(const struct timing *t)
{
	return sum(t->estimate_s);
}

static uint32_t cut(uint32_t v, double f, uint32_t least)
{
	double x = floor(v * f);

	if (v <= least)
		return v;
	return x < least ? least : (uint32_t)x;
}

/* The repetitions scaled by f: what each run repeats, never the runs. */
static void scale_plan(struct plan *p, const struct plan *asked, double f)
{
	uint32_t deepest = asked->depths[asked->ndepths - 1];

	p->iters = cut(asked->iters, f, BUDGET_MIN_ITERS);
	p->warmup = asked->warmup < p->iters ? asked->warmup : p->iters;
	p->flood_msgs = cut(asked->flood_msgs, f, deepest > FLOOD_MIN_MSGS ? deepest : FLOOD_MIN_MSGS);
	p->flood_bytes = cut(asked->flood_bytes, f, asked->sizes[asked->nsizes - 1]);
	p->overlap_msgs = cut(asked->overlap_msgs, f, BUDGET_MIN_OVERLAP);
	p->sig_max_samples = cut(asked->sig_max_samples, f, BUDGET_MIN_SIG);
	p->bulk_reps = cut(asked->bulk_reps, f, BUDGET_MIN_BULK);
	p->sig_point_ms = cut(sig_point_ms(asked), f, BUDGET_MIN_SIG_MS);
	p->sweep_iters = cut(asked->sweep_iters, f, BUDGET_MIN_SWEEP);
	p->sweep_msgs = cut(asked->sweep_msgs, f, BUDGET_MIN_SWEEP);
	/* a run's stamped puts stay a burst of 4 in every iters / 128 (cli.c) */
	if (asked->stamp_every && p->iters != asked->iters) {
		uint32_t e = p->iters / 128;

		p->stamp_every = e < 8 ? 8 : e > asked->stamp_every ? asked->stamp_every : e;
	}
}

/* One factor for every test: each keeps its share of the budget in
 * proportion to its cost at the plan asked. The machine's probes are fixed. */
void budget_cut(struct plan *p, double budget_s, double rtt_ns, struct timing *t)
{
	const struct plan asked = *p;
	double est[BP_N], tests, f;

	budget_estimate(p, rtt_ns, est);
	tests = sum(est) - est[BP_MACHINE];
	f = tests > 0 ? (budget_s - est[BP_MACHINE]) / tests : 1;
	f = f > 1 ? 1 : f < 0 ? 0 : f;
	if (f < 1)
		scale_plan(p, &asked, f);
	budget_estimate(p, rtt_ns, t->estimate_s);
	t->scale = f;
	t->rtt_ns = rtt_ns;
	t->fits = sum(t->estimate_s) <= budget_s * 1.01;
}

int budget_plan_within(const struct plan *asked, const struct plan *cut)
{
	struct plan a = *asked, c = *cut;

	if (c.iters > a.iters || c.warmup > a.warmup || c.flood_msgs > a.flood_msgs || c.flood_bytes > a.flood_bytes ||
	    c.overlap_msgs > a.overlap_msgs || c.sig_max_samples > a.sig_max_samples || c.bulk_reps > a.bulk_reps ||
	    c.stamp_every > a.stamp_every || c.sweep_iters > a.sweep_iters || c.sweep_msgs > a.sweep_msgs || !c.iters || c.flood_msgs < 2 || c.overlap_msgs < 16 ||
	    c.sig_max_samples < 50 || c.bulk_reps < 3 || sig_point_ms(&c) > sig_point_ms(&a))
		return 0;
	/* everything else as asked */
	a.iters = c.iters;
	a.warmup = c.warmup;
	a.flood_msgs = c.flood_msgs;
	a.flood_bytes = c.flood_bytes;
	a.overlap_msgs = c.overlap_msgs;
	a.sig_max_samples = c.sig_max_samples;
	a.bulk_reps = c.bulk_reps;
	a.stamp_every = c.stamp_every;
	a.sig_point_ms = c.sig_point_ms;
	a.sweep_iters = c.sweep_iters;
	a.sweep_msgs = c.sweep_msgs;
	return !memcmp(&a, &c, sizeof(a));
}
