/* SPDX-License-Identifier: MIT */
/* bench/overlap.c — the CPU-overlap test, Bell et al. 2003
 * §4.3.
 *
 * Send side: the flood test with 8-byte puts at queue depth 1, with a
 * computation of D ns inserted between initiating a put and completing it.
 * Small D changes nothing (the completion would have waited anyway); once
 * o_s + D exceeds the gap the time rises. o_s = g - D_max, with D_max the
 * largest D that does not raise the time and g the time at D = 0; when the
 * first D already raises it, o_s = g.
 *
 * Receive side, for puts that need no receive call, as Bell et al. 2003 §4.3 words
 * it: "the computation is done in isolation, followed by a 'quiet' call to
 * guarantee all messages have been received". The receiver sees the first
 * message (its clock starts), computes (n - 1) x D without looking at the
 * NIC, then waits once for the last message; its time per message rises
 * once D + o_r exceeds the gap: o_r = g - D_max likewise, on the receiver's
 * clock. (Waiting for each message between computations instead measures
 * the gap at q = 1: D_max came out 0 and o_r = g(q=1).)
 *
 * D is swept in steps of g/16 until the time rises, then the edge is found
 * by bisection (4 halvings: to g/256): the search is method/dmax.c's. Each
 * point is the minimum over --overlap-runs runs (noise only adds time);
 * "rises" means more than 3% above g, and a rise in the sweep counts only
 * when the next step confirms it.
 * Each point's D is the computation as measured (spin_ns): the spin asked for
 * d and its own clock reads, which a small d does not cover.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "method/dmax.h"
#include "post.h"

/* The computation a point inserts per message, measured: one
 * eel_spin_cycles of d's cycles is d and the spin's own clock reads, 20-40
 * ns here, the whole of it for a small d. Bell et al. 2003 4.3 reads the CPU
 * time added, so the curve's D is this (eel_spin_cost_cycles), not the d
 * asked for. */
static double spin_ns(struct session *s, double d)
{
	return cyc_ns(s, eel_spin_cost_cycles(eel_ns_to_cycles(s->clk, d), s->clk->timer_cycles));
}

/* ---- one point, the send side: the client measures ---- */

static int send_point_client(struct session *s, double d_ns, uint32_t n, double *t_ns, double *da_ns)
{
	struct ov_point pt = { 1, n, d_ns, 0, 0 };
	uint64_t spin = eel_ns_to_cycles(s->clk, d_ns), t0, t1;
	unsigned flags = EEL_PUT_SIGNALED | (s->caps->max_inline >= 8 ? EEL_PUT_INLINE : 0);
	struct point_done d;

	for (uint32_t i = 0; i < n; i++) {
		uint64_t tok = token(s, i);

		memcpy(s->data + (size_t)i * 8, &tok, 8);
	}
	if (eel_oob_send(s->oob, OOB_POINT, &pt, sizeof(pt)) || client_await_ready(s))
		return bench_fail("overlap: starting a point");
	t0 = eel_cycles();
	for (uint32_t i = 0; i < n; i++) {
		if (eel_put(s->dev, s->data_mr, s->data + (size_t)i * 8, 8, &s->peer_data, (uint64_t)i * 8,
			    flags, i, 0))
			return bench_fail("overlap: put");
		if (spin)
			eel_spin_cycles(spin);       /* the computation */
		if (poll_at_least(s, 1, "overlap: completion") < 0)
			return -1;
	}
	if (eel_wait_u64(s->dev, SLOT(s, SLOT_REPLY), token(s, 0)))
		return bench_fail("overlap: waiting for the receiver's reply");
	t1 = eel_cycles();
	if (client_await_done(s, &d))
		return -1;
	*t_ns = cyc_ns(s, (double)(t1 - t0 - s->clk->timer_cycles)) / n;
	*da_ns = spin_ns(s, d_ns);
	return 0;
}

static int send_point_server(struct session *s, const struct ov_point *pt)
{
	struct point_done d = { 0 };

	if (server_ready(s))
		return -1;
	if ((d.status = eel_wait_u64(s->dev, (const volatile uint64_t *)(s->data + (size_t)(pt->n - 1) * 8),
				     token(s, pt->n - 1))) ||
	    (d.status = put_slot(s, SLOT_REPLY, token(s, 0))) || (d.status = eel_quiet(s->dev)))
		snprintf(d.msg, sizeof(d.msg), "overlap: %s", eel_errmsg());
	for (uint32_t i = 0; !d.status && s->plan.verify && i < pt->n; i++)
		d.bad_words += pattern_check(s->data + (size_t)i * 8, 8, s->point, i);
	if (d.bad_words)
		snprintf(d.msg, sizeof(d.msg), "overlap: %u of %u puts arrived wrong", d.bad_words, pt->n);
	return server_done(s, &d) || d.status || d.bad_words ? -1 : 0;
}

/* ---- one point, the receive side: the server measures ---- */

static int recv_point_server(struct session *s, double d_ns, uint32_t n, double *t_ns, double *da_ns)
{
	struct ov_point pt = { 1, n, d_ns, 0, 0 };
	uint64_t spin = eel_ns_to_cycles(s->clk, d_ns), t0 = 0, t1;

	if (eel_oob_send(s->oob, OOB_POINT, &pt, sizeof(pt)))
		return bench_fail("overlap: starting a point");
	if (eel_wait_u64(s->dev, (const volatile uint64_t *)s->data, token(s, 0)))
		return bench_fail("overlap (receive side): waiting for the first put");
	t0 = eel_cycles();
	for (uint32_t i = 1; i < n && spin; i++)
		eel_spin_cycles(spin);               /* the computation, in isolation */
	/* the quiet: every put is in once the last one is (they arrive in order) */
	if (eel_wait_u64(s->dev, (const volatile uint64_t *)(s->data + (size_t)(n - 1) * 8), token(s, n - 1)))
		return bench_fail("overlap (receive side): waiting for the last put");
	t1 = eel_cycles();
	if (put_slot(s, SLOT_REPLY, token(s, 0)) || eel_quiet(s->dev))
		return bench_fail("overlap (receive side): reply");
	*t_ns = cyc_ns(s, (double)(t1 - t0)) / (n - 1);
	*da_ns = spin_ns(s, d_ns);
	return 0;
}

static int recv_point_client(struct session *s, const struct ov_point *pt)
{
	unsigned flags = EEL_PUT_SIGNALED | (s->caps->max_inline >= 8 ? EEL_PUT_INLINE : 0);

	for (uint32_t i = 0; i < pt->n; i++) {
		uint64_t tok = token(s, i);

		memcpy(s->data + (size_t)i * 8, &tok, 8);
		if (eel_put(s->dev, s->data_mr, s->data + (size_t)i * 8, 8, &s->peer_data, (uint64_t)i * 8,
			    flags, i, 0))
			return bench_fail("overlap (receive side): put");
		if (poll_at_least(s, 1, "overlap (receive side): completion") < 0)
			return -1;
	}
	if (eel_wait_u64(s->dev, SLOT(s, SLOT_REPLY), token(s, 0)))
		return bench_fail("overlap (receive side): waiting for the reply");
	return 0;
}

/* ---- the sweep, on the measuring end ---- */

/* min over runs of the time per message at computation d (asked for); *da
 * the computation as measured */
static int measure(struct session *s, point_fn fn, double d, double *t, double *da)
{
	double v[MAX_RUNS];

	progress(s, "overlap: D = %.0f ns", d);
	*da = INFINITY;
	for (uint32_t r = 0; r < s->plan.overlap_runs; r++, s->point++) {
		double a;

		if (fn(s, d, s->plan.overlap_msgs, &v[r], &a))
			return -1;
		*da = fmin(*da, a);
	}
	*t = stat_of(v, (int)s->plan.overlap_runs).min;
	return 0;
}

/* The search's time at D: measure()'s, on this session and side. */
struct sweep_ctx {
	struct session *s;
	point_fn fn;
};

static int time_at(void *ctx, double d, double *t, double *da)
{
	struct sweep_ctx *c = ctx;

	return measure(c->s, c->fn, d, t, da);
}

/* One sweep of D on the measuring end: the search is method/dmax.c's, the
 * rule eel-mpi's CPU-overlap test keeps too. */
int overlap_sweep(struct session *s, point_fn fn, struct overlap_curve *c)
{
	struct sweep_ctx ctx = { s, fn };

	return dmax_search(time_at, &ctx, c);
}

/* The following end: run points until told the sweep is over. */
static int follow(struct session *s, int (*fn)(struct session *, const struct ov_point *))
{
	for (;;) {
		struct ov_point pt;

		if (eel_oob_recv(s->oob, OOB_POINT, &pt, sizeof(pt), NULL, s->plan.timeout_ms, s->dev))
			return bench_fail("overlap: waiting for the next point");
		if (!pt.go)
			return 0;
		if (!pt.n || pt.n > s->plan.overlap_msgs) {
			fprintf(stderr, "eel-bench: overlap: the peer asked for %u messages\n", pt.n);
			return -1;
		}
		if (fn(s, &pt))
			return -1;
		s->point++;
	}
}

static int stop(struct session *s)
{
	struct ov_point pt = { 0, 0, 0, 0, 0 };

	return eel_oob_send(s->oob, OOB_POINT, &pt, sizeof(pt)) ? bench_fail("overlap: ending") : 0;
}

/* The sweeps of one side, on the measuring end: o over them, and the curve
 * of the sweep whose o is their median (the one the report draws). */
static int sweeps(struct session *s, point_fn fn, struct overlap_curve *rep, struct stat *o, double *os)
{
	static struct overlap_curve c[MAX_SWEEPS];
	uint32_t n = s->plan.overlap_sweeps;
	double v[MAX_SWEEPS];

	for (uint32_t k = 0; k < n; k++) {
		if (overlap_sweep(s, fn, &c[k]))
			return -1;
		os[k] = v[k] = c[k].o_ns;
	}
	*o = stat_of(v, (int)n);
	*rep = c[0];
	for (uint32_t k = 0; k < n; k++)
		if (fabs(c[k].o_ns - o->median) < fabs(rep->o_ns - o->median))
			*rep = c[k];
	return 0;
}

/* The receive side's result, server to client. */
struct recv_result {
	struct overlap_curve curve;
	uint32_t n;
	double o[MAX_SWEEPS];
};

int overlap_run(struct session *s, struct results *r)
{
	struct overlap_res *o = &r->ov;
	static struct recv_result rr;
	double os[MAX_SWEEPS];

	if (s->server) {
		if (follow(s, send_point_server) || sweeps(s, recv_point_server, &rr.curve, &o->or_sweeps, rr.o) ||
		    stop(s))
			return -1;
		rr.n = s->plan.overlap_sweeps;
		if (eel_oob_send(s->oob, OOB_CURVE, &rr, sizeof(rr)))
			return bench_fail("overlap: sending the receive-side curve");
		return 0;
	}
	if (sweeps(s, send_point_client, &o->send, &o->os_sweeps, os) || stop(s) || follow(s, recv_point_client))
		return -1;
	if (eel_oob_recv(s->oob, OOB_CURVE, &rr, sizeof(rr), NULL, s->plan.timeout_ms, s->dev))
		return bench_fail("overlap: receiving the receive-side curve");
	if (rr.curve.n < 0 || rr.curve.n > OV_MAX_STEPS || rr.n != s->plan.overlap_sweeps) {
		fprintf(stderr, "eel-bench: overlap: the server's curve is malformed\n");
		return -1;
	}
	o->recv = rr.curve;
	o->or_sweeps = stat_of(rr.o, (int)rr.n);
	o->done = 1;
	return 0;
}
