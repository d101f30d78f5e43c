/* SPDX-License-Identifier: MIT */
/* bench/signature.c — the communication microbenchmark of Culler et al. 1996
 * ("Communication microbenchmark" and
 * "Microbenchmark signature").
 *
 *     Start Timer
 *         Repeat M times
 *             Issue Request
 *             Compute for D time
 *     Stop Timer
 *     ... handle remaining replies
 *
 * A request is an 8-byte put into the next slot of a ring at the receiver;
 * its reply is an 8-byte put the receiving host issues when it sees the
 * request (Culler et al. 1996's Active Message reply, run by the receiver's CPU), so
 * that o_r is the receive overhead and L a transport latency. Issuing a
 * request handles the replies that have come back and stalls while SIG_RING
 * requests are unanswered (the network is at capacity). (Bulk transfers'
 * o(n), which reads only the send-only regime, takes the NIC's completion as
 * the reply: bulk.c.) The average time per request, the message cost,
 * against M draws the signature: a send-only regime for small M (cost o_s),
 * a transition, and a steady state (cost g). With a computation D larger than
 * the sender's idle time, the steady-state cost becomes g' = o_s + o_r + D,
 * which gives o_r = g' - D - o_s; with RTT = o_s + L + o_r + ... one way,
 * L = RTT/2 - o_s - o_r. RTT is one request and its reply, taken RTT_M times
 * in a row in a sample (the mean), each reply waited for as the ping-pong
 * waits for its echo: a sample of one round trip, its reply reaped by the
 * issue loop's polls, came out 1.4-1.8x two EELs on the same run.
 *
 * Each point is repeated until its mean is known to 5% at 95% confidence,
 * samples taken in batches of 50 ("Small-message empirical results"); a point
 * that cannot get there within --sig-samples samples or a quarter of a second
 * is marked, and the report says how many were.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "bench.h"
#include "post.h"

#define BATCH 50
#define ACCURACY 0.05
#define SEND_ONLY_TOL 0.25 /* a cost within 25% of the first points' is still send-only */
#define STEADY_TOL 0.10    /* within 10% of the asymptote is steady state */
#define RISE 0.05          /* g' more than 5% above g: D was larger than Idle */
#define SPIN_CHECKS 256    /* a waiting loop reads the clock once in this many passes */
#define RTT_M 32           /* round trips one after another in one RTT sample */
#define SIG_RING 64        /* request slots at the receiver: requests unanswered at most */

/* Requests are numbered from 1 in a phase; request k carries token(k) in
 * ring slot (k - 1) % SIG_RING, and its reply is (phase << 32 | k). */
static uint64_t reply_value(const struct session *s, uint32_t k)
{
	return (s->point & 0xffffffffu) << 32 | k;
}

/* Replies seen so far in this phase (they arrive in order: the newest says). */
static uint32_t replied(struct session *s)
{
	uint64_t v = __atomic_load_n(SLOT(s, SLOT_SIG_REPLY), __ATOMIC_ACQUIRE);

	return v >> 32 == (s->point & 0xffffffffu) ? (uint32_t)v : 0;
}

/* Progress until at least `want` requests are answered. */
static int await_replies(struct session *s, uint32_t want, const char *what)
{
	uint64_t end = eel_cycles() + (uint64_t)(s->clk->hz / 1000 * s->plan.timeout_ms);
	uint32_t spins = 0;

	while (replied(s) < want) {
		struct eel_cqe c[64];

		if (eel_poll(s->dev, c, 64) < 0)
			return bench_fail(what);
		/* the clock once in SPIN_CHECKS passes (a read costs about
		 * what the rest of a pass does), the peer once in 4x that */
		if (++spins % SPIN_CHECKS)
			continue;
		if (!(spins % (SPIN_CHECKS * 4)) && eel_peer_check(s->dev))
			return bench_fail(what);
		if (eel_cycles() > end) {
			fprintf(stderr, "eel-bench: %s: no reply from the peer for %u ms\n", what, s->plan.timeout_ms);
			return -1;
		}
	}
	return 0;
}

/* Request k: its token into the ring slot at the receiver (inline where the
 * NIC can; the put's own completion only frees the send queue). */
static int request(struct session *s, uint32_t k)
{
	size_t off = (size_t)((k - 1) % SIG_RING) * 8;
	uint64_t *src = (uint64_t *)(s->data + off);
	unsigned flags = s->caps->max_inline >= 8 ? EEL_PUT_INLINE : 0;
	int rc;

	*src = token(s, k);
	while ((rc = eel_put(s->dev, s->data_mr, src, 8, &s->peer_data, off, flags, k, 0)) == -EAGAIN)
		if (eel_poll(s->dev, (struct eel_cqe[8]){ 0 }, 8) < 0)
			return bench_fail("signature: poll");
	return rc ? bench_fail("signature: request") : 0;
}

/* Burst lengths, about sqrt(2) apart, up to four send queues' worth. */
static int burst_lengths(uint32_t max, uint32_t *m)
{
	static const uint32_t all[] = { 1, 2, 3, 4, 6, 8, 11, 16, 23, 32, 45, 64, 91, 128, 181, 256,
					362, 512, 724, 1024, 1448, 2048, 2896, 4096 };
	int n = 0;

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]) && all[i] <= max && n < SIG_MAX_M; i++)
		m[n++] = all[i];
	return n;
}

/* One sample with the receiving host's replies: the issue phase of m
 * requests (Culler et al. 1996's pseudocode), then the remaining replies. rtt: wait for
 * each reply inside the timer instead. */
static int sample_host_reply(struct session *s, uint32_t m, uint64_t d_cycles, int rtt, double *cost)
{
	uint64_t t0, t1;

	t0 = eel_cycles();
	for (uint32_t i = 0; i < m; i++) {
		uint32_t k = ++s->sig_seq;
		struct eel_cqe c[64];

		/* at capacity: the replies handled while waiting for room */
		if (k - replied(s) > SIG_RING && await_replies(s, k - SIG_RING, "signature: room for a request"))
			return -1;
		if (request(s, k))
			return -1;
		/* rtt: each reply waited for as the ping-pong waits for its echo */
		if (rtt ? eel_wait_u64(s->dev, SLOT(s, SLOT_SIG_REPLY), reply_value(s, k)) != 0
			: eel_poll(s->dev, c, 64) < 0)
			return bench_fail(rtt ? "signature: reply" : "signature: poll");
		if (d_cycles)
			eel_spin_cycles(d_cycles);
	}
	t1 = eel_cycles();
	if (await_replies(s, s->sig_seq, "signature: remaining replies"))
		return -1;
	*cost = cyc_ns(s, (double)(t1 - t0 - s->clk->timer_cycles)) / m;
	return 0;
}

/* One sample with the NIC's completions as the replies (bulk's o(n)). */
static int sample(struct session *s, uint32_t size, uint32_t m, uint64_t d_cycles, int rtt, double *cost)
{
	unsigned flags = EEL_PUT_SIGNALED | (size <= s->caps->max_inline ? EEL_PUT_INLINE : 0);
	uint64_t t0, t1;
	int out = 0, n;
	struct eel_cqe c[64];

	t0 = eel_cycles();
	for (uint32_t i = 0; i < m; i++) {
		int rc;

		while ((rc = eel_put(s->dev, s->data_mr, s->data, size, &s->peer_data, 0, flags, i, 0)) == -EAGAIN) {
			if ((n = eel_poll(s->dev, c, 64)) < 0)
				return bench_fail("signature: poll");
			out -= n;
		}
		if (rc)
			return bench_fail("signature: put");
		out++;
		if (rtt) {
			if (poll_at_least(s, out, "signature: reply") < 0)
				return -1;
			out = 0;
		} else if ((n = eel_poll(s->dev, c, 64)) < 0) {
			return bench_fail("signature: poll");
		} else {
			out -= n;
		}
		if (d_cycles)
			eel_spin_cycles(d_cycles);
	}
	t1 = eel_cycles();
	if (out > 0 && poll_at_least(s, out, "signature: remaining replies") < 0)
		return -1;
	*cost = cyc_ns(s, (double)(t1 - t0 - s->clk->timer_cycles)) / m;
	return 0;
}

/* A point: batches of 50 samples until the mean is known to 5% at 95%, or
 * the point's sample or time budget is spent (then it is marked). */
int sig_point(struct session *s, uint32_t size, uint32_t m, double d_ns, int rtt, int host_reply,
	      struct sig_point *p)
{
	uint64_t d = eel_ns_to_cycles(s->clk, d_ns);
	uint64_t end = eel_cycles() + eel_ns_to_cycles(s->clk, sig_point_ms(&s->plan) * 1e6);
	double sum = 0, sum2 = 0;
	uint32_t n = 0;

	memset(p, 0, sizeof(*p));
	p->m = m;
	do {
		for (int b = 0; b < BATCH; b++, n++) {
			double x;

			/* a budget the plan set (--quick, --duration) ends a batch too */
			if (s->plan.sig_point_ms && b >= 2 && eel_cycles() >= end)
				break;
			if (host_reply ? sample_host_reply(s, m, d, rtt, &x) : sample(s, size, m, d, rtt, &x))
				return -1;
			sum += x;
			sum2 += x * x;
		}
		p->cost_ns = sum / n;
		p->ci_ns = t975(n - 1) * sqrt(fmax(0, (sum2 - n * p->cost_ns * p->cost_ns) / (n - 1)) / n);
		p->converged = p->ci_ns <= ACCURACY * p->cost_ns;
	} while (!p->converged && n + BATCH <= s->plan.sig_max_samples && eel_cycles() < end);
	p->samples = n;
	return 0;
}

/* The regimes of a curve: the steady state is the tail within 10% of the
 * mean of the last three points; send-only is the head within 25% of the
 * first points' cost (the least of the first three). A first point above
 * that is no part of it: at M = 1 a sample's own fixed cost (the timer, a
 * cold path) is not shared out, and it would set o_s above the flat head. */
void sig_regimes(struct sig_curve *c)
{
	double first, tail = 0;
	int k = c->n < 3 ? c->n : 3, i;

	for (i = c->n - k; i < c->n; i++)
		tail += c->pt[i].cost_ns;
	c->g_ns = tail / k;
	for (i = c->n - 1; i > 0 && fabs(c->pt[i - 1].cost_ns - c->g_ns) <= STEADY_TOL * c->g_ns; i--)
		;
	c->steady_min_m = c->pt[i].m;
	first = c->pt[0].cost_ns;
	for (i = 1; i < k; i++)
		first = fmin(first, c->pt[i].cost_ns);
	for (i = 0; i < c->n && c->pt[i].cost_ns > (1 + SEND_ONLY_TOL) * first; i++)
		;
	c->send_only_min_m = c->pt[i].m;
	for (; i < c->n && c->pt[i].cost_ns <= (1 + SEND_ONLY_TOL) * first; i++)
		;
	c->send_only_max_m = c->pt[i - 1].m;
}

/* The mean cost over a curve's send-only regime: o_s (Culler et al. 1996), o(n) per size. */
double sig_send_only_cost(const struct sig_curve *c)
{
	double sum = 0;
	int n = 0;

	for (int i = 0; i < c->n; i++)
		if (c->pt[i].m >= c->send_only_min_m && c->pt[i].m <= c->send_only_max_m) {
			sum += c->pt[i].cost_ns;
			n++;
		}
	return n ? sum / n : 0;
}

/* One curve, measured while the server keeps its NIC going. */
int sig_curve(struct session *s, uint32_t size, double d_ns, uint32_t max_m, int host_reply, struct sig_curve *c,
	      struct signature_res *r)
{
	uint32_t m[SIG_MAX_M];
	int n = burst_lengths(max_m, m);

	memset(c, 0, sizeof(*c));
	c->d_asked_ns = d_ns;
	for (int i = 0; i < n; i++) {
		progress(s, "signature: %u B, D = %.0f ns, M = %u", size, d_ns, m[i]);
		if (sig_point(s, size, m[i], d_ns, 0, host_reply, &c->pt[c->n]))
			return -1;
		r->points++;
		r->unconverged += !c->pt[c->n].converged;
		c->n++;
	}
	/* D as spun: the issue loop's eel_spin_cycles of d_ns's cycles costs those
	 * and its own reads of the counter (11-23 ns more than asked here), all of
	 * which the sender spends between requests; o_r = g' - D - o_s (Culler et
	 * al. 1996) takes off the D spent, measured as bench/overlap.c measures
	 * its own (eel_spin_cost_cycles), not the D asked for */
	c->d_ns = d_ns > 0 ? cyc_ns(s, eel_spin_cost_cycles(eel_ns_to_cycles(s->clk, d_ns), s->clk->timer_cycles))
			   : 0;
	sig_regimes(c);
	return 0;
}

/* The widest 95% interval among a curve's points from M = lo to hi. */
static double widest_ci(const struct sig_curve *c, uint32_t lo, uint32_t hi)
{
	double w = 0;

	for (int i = 0; i < c->n; i++)
		if (c->pt[i].m >= lo && c->pt[i].m <= hi)
			w = fmax(w, c->pt[i].ci_ns);
	return w;
}

/* Culler et al. 1996: o_s from the send-only regime of D = 0, g its asymptote,
 * o_r = g' - D - o_s for each D > Idle (D as spun), L = RTT/2 - o_s - o_r.
 * o_s cancels in L (= RTT/2 - (g' - D), averaged over the D), so L's
 * uncertainty is half the RTT's 95% interval, half the range of L over the
 * D curves, and the widest 95% interval of the points their g' is the mean
 * of (their last three); with no curve beyond Idle, o_r is not measured and
 * L = RTT/2 - o_s, uncertain by the RTT's and the send-only points' intervals. */
void sig_extract(struct signature_res *r)
{
	const struct sig_curve *c0 = &r->curve[0];
	double sum = 0, lo = INFINITY, hi = -INFINITY, ci = 0;
	int n = 0;

	r->o_s_ns = sig_send_only_cost(c0);
	r->g_ns = c0->g_ns;
	for (int k = 1; k < r->ncurves; k++) {
		const struct sig_curve *c = &r->curve[k];
		double Lk = r->rtt_ns / 2 - (c->g_ns - c->d_ns);

		if (c->g_ns <= (1 + RISE) * r->g_ns)
			continue;
		sum += c->g_ns - c->d_ns - r->o_s_ns;
		n++;
		lo = fmin(lo, Lk);
		hi = fmax(hi, Lk);
		if (c->n)
			ci = fmax(ci, widest_ci(c, c->pt[c->n < 3 ? 0 : c->n - 3].m, c->pt[c->n - 1].m));
	}
	r->o_r_curves = n;
	r->o_r_raw_ns = n ? sum / n : 0;
	/* g' - D below the send-only o_s: the raised gaps hold less than the
	 * sender's own cost, so this run does not split them into o_s and o_r
	 * (came out -12 ns on softnic, once in ~10 short runs); L keeps the
	 * computed term: o_s cancels in it, L = RTT/2 - (g' - D) */
	r->o_r_why = !n ? "no D raised the gap: o_r not measured" :
		     r->o_r_raw_ns < 0 ? "not separable here: g' - D came out below the send-only o_s" : NULL;
	r->o_r_ns = r->o_r_why ? NAN : r->o_r_raw_ns;
	r->L_ns = r->rtt_ns / 2 - r->o_s_ns - r->o_r_raw_ns;
	r->L_u_ns = r->rtt_ci_ns / 2 + (n ? (hi - lo) / 2 + ci : widest_ci(c0, c0->send_only_min_m, c0->send_only_max_m));
}

/* The receiving host's side of a phase with host replies: answer each
 * request as it lands, with a put of its number, until the client says the
 * phase is over. Silence for the timeout, or a dead connection, fails it. */
static int serve_requests(struct session *s, struct point_done *d)
{
	uint64_t quiet = (uint64_t)(s->clk->hz / 1000 * s->plan.timeout_ms), end = eel_cycles() + quiet;
	uint32_t k = 1, spins = 0;

	for (;;) {
		volatile uint64_t *slot = (volatile uint64_t *)(s->data + (size_t)((k - 1) % SIG_RING) * 8);

		if (*slot == token(s, k)) {
			if (put_slot(s, SLOT_SIG_REPLY, reply_value(s, k)))
				return snprintf(d->msg, sizeof(d->msg), "signature: reply %u: %s", k, eel_errmsg()), -EIO;
			k++;
			end = eel_cycles() + quiet;
			continue;
		}
		if (eel_progress(s->dev) < 0)
			return snprintf(d->msg, sizeof(d->msg), "signature: %s", eel_errmsg()), -EIO;
		if (++spins % SPIN_CHECKS)
			continue;
		if (*SLOT(s, SLOT_DONE) == token(s, 0))
			return 0;
		if (!(spins % (SPIN_CHECKS * 4)) && eel_peer_check(s->dev))
			return snprintf(d->msg, sizeof(d->msg), "signature: %s", eel_errmsg()), -EIO;
		if (eel_cycles() > end)
			return snprintf(d->msg, sizeof(d->msg), "signature: no request from the peer for %u ms",
					s->plan.timeout_ms), -ETIMEDOUT;
	}
}

/* The server keeps its NIC making progress (and, with host replies, answers
 * the requests) until the client says the phase is over (an 8-byte put of
 * the phase's token). */
int sig_server_phase(struct session *s, int host_reply)
{
	struct point_done d = { 0 };

	if (server_ready(s))
		return -1;
	if (host_reply) {
		d.status = serve_requests(s, &d);
	} else {
		while ((d.status = eel_wait_u64(s->dev, SLOT(s, SLOT_DONE), token(s, 0))) == -ETIMEDOUT)
			; /* the client measures for long: it is alive, or the wait says it is gone */
		if (d.status)
			snprintf(d.msg, sizeof(d.msg), "%s", eel_errmsg());
	}
	return server_done(s, &d) || d.status ? -1 : 0;
}

int sig_client_phase_end(struct session *s)
{
	struct point_done d;

	if (eel_quiet(s->dev) || put_slot(s, SLOT_DONE, token(s, 0)))
		return bench_fail("ending a phase");
	return client_await_done(s, &d);
}

int signature_run(struct session *s, struct results *res)
{
	struct signature_res *r = &res->sig;
	uint32_t max_m = s->plan.sig_max_m && s->plan.sig_max_m < 4 * s->caps->sq_depth ? s->plan.sig_max_m :
			 4 * s->caps->sq_depth;
	double dk[SIG_CURVES] = { 0, 0.5, 1, 2 };
	int rc = 0;

	r->size = 8;
	/* one phase per curve (and one for the RTT), so no wait outlasts the timeout */
	for (int k = -1; k < SIG_CURVES && !rc; k++, s->point++) {
		s->sig_seq = 0;
		if (s->server) {
			rc = sig_server_phase(s, 1);
			continue;
		}
		if (client_await_ready(s))
			return -1;
		if (k < 0) {
			struct sig_point p;

			rc = sig_point(s, r->size, RTT_M, 0, 1, 1, &p);
			r->rtt_ns = p.cost_ns;
			r->rtt_ci_ns = p.ci_ns;
			r->points++;
			r->unconverged += !p.converged;
		} else {
			/* D: 0, then g/2, g, 2g from the D = 0 curve's asymptote */
			rc = sig_curve(s, r->size, dk[k] * r->curve[0].g_ns, max_m, 1, &r->curve[k], r);
			r->ncurves = k + 1;
		}
		rc = rc || sig_client_phase_end(s);
	}
	if (rc)
		return -1;
	if (!s->server) {
		sig_extract(r);
		r->L = sig_L(s->caps, r);
		r->done = 1;
	}
	return 0;
}
