/* SPDX-License-Identifier: MIT */
/* bench/pingpong.c — the ping-pong test, Bell et al. 2003
 * §4.1: an 8-byte put to the peer, which replies with an 8-byte put; the
 * first end blocks for the reply and starts again. `iters` round trips per
 * run; EEL = total / iters / 2. The minimum over >= 10 runs is reported
 * (Bell et al. 2003 §4: "the minimum observed timings over 10 runs or more"), with
 * the median and spread beside it.
 *
 * Runs alternate between stamps off and stamps on, so the cost of stamping is
 * measured in the same session; EEL is taken from the runs without stamps,
 * the stage breakdown from the stamped ones (breakdown.c).
 *
 * The tail: a run's mean hides its slow rounds (a missed doorbell, a
 * retransmission). Timing each round adds a clock read to it, so EEL's own
 * runs stay as they are and the tail has runs of its own, as many and as
 * long, run r after EEL's run r (a drift touches both alike), stamps off,
 * each round trip timed alone and kept in a histogram (method/hist.h); the
 * tail's mean against EEL's says what the timing costs.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "post.h"

#define MAX_TRACES 65536

/* The round the breakdown takes: the last of each burst of stamped ones,
 * which both ends stamp alike (eel_stamp_due, EEL_STAMP_BURST); *pos counts
 * through the period as the library's does. */
static int round_due(uint32_t every, uint32_t *pos)
{
	uint32_t p = *pos, last = every < EEL_STAMP_BURST ? every - 1 : EEL_STAMP_BURST - 1;

	*pos = p + 1 >= every ? 0 : p + 1;
	return p == last;
}

struct traces {
	struct eel_trace *tx, *rx;
	int ntx, nrx;
	struct bd_rounds rd;   /* the client's loop tops around its stamped rounds */
};

static void drain(struct session *s, struct traces *t)
{
	int n;

	while (t->ntx < MAX_TRACES &&
	       (n = eel_trace_drain(s->dev, EEL_TRACE_TX, t->tx + t->ntx, MAX_TRACES - t->ntx)) > 0)
		t->ntx += n;
	while (t->nrx < MAX_TRACES &&
	       (n = eel_trace_drain(s->dev, EEL_TRACE_RX, t->rx + t->nrx, MAX_TRACES - t->nrx)) > 0)
		t->nrx += n;
}

/* The 8-byte message of a ping-pong round, as the variant sends it. */
static int post(struct session *s, int variant, int slot, uint64_t v)
{
	uint64_t *src = SLOT(s, CTRL_SLOTS - 2);
	int rc;

	switch (variant) {
	case PP_PUT_DMA:
		*src = v; /* the NIC reads it from registered memory */
		while ((rc = eel_put(s->dev, s->ctrl_mr, src, 8, &s->peer_ctrl, (uint64_t)slot * 64, 0, 0, 0)) ==
		       -EAGAIN)
			if (eel_poll(s->dev, (struct eel_cqe[8]){ 0 }, 8) < 0)
				break;
		return rc;
	case PP_EREG:
		return eel_eput(s->dev, &s->peer_ctrl, (uint64_t)slot * 64, v);
	default:
		return put_slot(s, slot, v);
	}
}

/* One run: n round trips. *eel_ns = total / n / 2 (Bell et al. 2003 4.1), or with
 * rtt (an array of n), the median of the round trips each timed alone / 2.
 * With rd, a stamped run (one round in `every` stamped, the first first, as
 * eel_set_stamp_every does at both ends): the loop's top is stamped before
 * and after each stamped round (breakdown_rounds). */
static int client_run(struct session *s, int variant, uint32_t n, double *eel_ns, uint64_t *rtt,
		      struct bd_rounds *rd, uint32_t every)
{
	uint64_t t0, t1, ti;
	uint32_t left = 0;
	int open = 0;
	struct point_done d;

	if (client_await_ready(s))
		return -1;
	t0 = ti = eel_cycles();
	for (uint32_t i = 0; i < n; i++) {
		uint64_t tok = token(s, i);

		if (rd) {
			/* the first burst of a run follows the handshake that
			 * started it: its rounds ran cold (here 1.5-2 us against
			 * ~0.9), one in 20 of the breakdown's at 10^4 rounds a
			 * run, while EEL's own runs amortise them over 10^4; it
			 * is stamped (both ends stamp alike) but not taken
			 * unless the run has no other */
			int due = round_due(every, &left) && rd->n < rd->cap && (i >= every || n < 2 * every);

			if (open || due) {
				uint64_t t = eel_stamp();

				if (open)
					rd->end[rd->n++] = t;
				if (due)
					rd->start[rd->n] = t;
			}
			open = due;
		}
		if (post(s, variant, SLOT_PING, tok))
			return bench_fail("ping-pong: put");
		if (eel_wait_u64(s->dev, SLOT(s, SLOT_PONG), tok))
			return bench_fail("ping-pong: waiting for the reply");
		if (rtt) {
			uint64_t t = eel_cycles();

			rtt[i] = t - ti;
			ti = t;
		}
	}
	if (open)
		rd->end[rd->n++] = eel_stamp();
	t1 = eel_cycles();
	if (client_await_done(s, &d))
		return -1;
	if (rtt) {
		double v = (double)u64_median(rtt, n) - (double)s->clk->timer_cycles;

		*eel_ns = cyc_ns(s, v) / 2;
	} else {
		*eel_ns = cyc_ns(s, (double)(t1 - t0 - s->clk->timer_cycles)) / n / 2;
	}
	return 0;
}

static int server_run(struct session *s, int variant, uint32_t n)
{
	struct point_done d = { 0 };

	if (server_ready(s))
		return -1;
	for (uint32_t i = 0; i < n && !d.status; i++) {
		uint64_t tok = token(s, i);

		if ((d.status = eel_wait_u64(s->dev, SLOT(s, SLOT_PING), tok)) ||
		    (d.status = post(s, variant, SLOT_PONG, tok)))
			snprintf(d.msg, sizeof(d.msg), "ping-pong round %u: %s", i, eel_errmsg());
	}
	if (!d.status && (d.status = eel_quiet(s->dev)))
		snprintf(d.msg, sizeof(d.msg), "ping-pong: %s", eel_errmsg());
	return server_done(s, &d) || d.status ? -1 : 0;
}

/* The server's trace records go to the client, which joins both ends'. */
static int exchange_traces(struct session *s, struct traces *t, struct breakdown *bd)
{
	size_t rec = sizeof(struct eel_trace);

	if (s->server) {
		uint32_t hdr[2] = { (uint32_t)t->ntx, (uint32_t)t->nrx };
		size_t len = sizeof(hdr) + (size_t)(t->ntx + t->nrx) * rec;
		char *buf = malloc(len);
		int rc;

		if (!buf)
			return bench_oom("the stamps sent to the client");
		memcpy(buf, hdr, sizeof(hdr));
		memcpy(buf + sizeof(hdr), t->tx, (size_t)t->ntx * rec);
		memcpy(buf + sizeof(hdr) + (size_t)t->ntx * rec, t->rx, (size_t)t->nrx * rec);
		rc = eel_oob_send(s->oob, OOB_TRACES, buf, (uint32_t)len);
		free(buf);
		return rc ? bench_fail("sending stamps to the client") : 0;
	} else {
		size_t cap = sizeof(uint32_t) * 2 + 2 * (size_t)MAX_TRACES * rec;
		char *buf = malloc(cap);
		uint32_t hdr[2], len;
		int rc = -1;

		if (!buf)
			return bench_oom("the server's stamps");
		if (eel_oob_recv(s->oob, OOB_TRACES, buf, (uint32_t)cap, &len, s->plan.timeout_ms, s->dev)) {
			bench_fail("receiving the server's stamps");
		} else {
			memcpy(hdr, buf, sizeof(hdr));
			if (len == sizeof(hdr) + (size_t)(hdr[0] + hdr[1]) * rec &&
			    hdr[0] <= MAX_TRACES && hdr[1] <= MAX_TRACES) {
				const struct eel_trace *ptx = (const void *)(buf + sizeof(hdr));
				const struct eel_trace *prx = ptx + hdr[0];

				/* the first failure stops the rest (one line said, not three) */
				rc = breakdown_add(s, bd, t->tx, t->ntx, prx, (int)hdr[1]) ||
				     breakdown_add(s, bd, ptx, (int)hdr[0], t->rx, t->nrx) ||
				     breakdown_rounds(s, bd, &t->rd, t->tx, t->ntx, t->rx, t->nrx, ptx, (int)hdr[0],
						      prx, (int)hdr[1]) ? -1 : 0;
				breakdown_finish(bd);
			} else {
				fprintf(stderr, "eel-bench: the server's stamps are malformed\n");
			}
		}
		free(buf);
		return rc;
	}
}

static int traces_alloc(struct traces *t)
{
	memset(t, 0, sizeof(*t));
	t->tx = calloc(MAX_TRACES, sizeof(struct eel_trace));
	t->rx = calloc(MAX_TRACES, sizeof(struct eel_trace));
	t->rd.start = calloc(MAX_TRACES, sizeof(uint64_t));
	t->rd.end = calloc(MAX_TRACES, sizeof(uint64_t));
	t->rd.cap = MAX_TRACES;
	return t->tx && t->rx && t->rd.start && t->rd.end ? 0 : bench_oom("the ping-pong's stamp records");
}

static void traces_free(struct traces *t)
{
	free(t->tx);
	free(t->rx);
	free(t->rd.start);
	free(t->rd.end);
}

/* A run of the tail: n round trips, stamps off, each timed alone (rtt: n
 * cycles' room), every one into pp->tail less the clock read. */
static int tail_run(struct session *s, int variant, uint32_t n, uint64_t *rtt, struct pingpong_res *pp)
{
	uint64_t read = s->clk->timer_cycles;
	double median_ns, sum = 0;

	s->point++;
	eel_set_stamp_every(s->dev, 0);
	if (s->server)
		return server_run(s, variant, n);
	if (client_run(s, variant, n, &median_ns, rtt, NULL, 0))
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t v = rtt[i] > read ? rtt[i] - read : 0;

		hist_add(&pp->tail, v);
		sum += (double)v;
	}
	pp->tail_ns[pp->ntail++] = cyc_ns(s, sum / n) / 2;
	return 0;
}

/* The timing's cost is told from 0 only beyond the run-by-run differences'
 * own spread (their IQR) and a step of the counter: a preempted run moves its
 * mean by microseconds, which is the machine's, not the timing's. */
double pingpong_tail_cost_noise(const struct session *s, const struct pingpong_res *pp)
{
	return pp->tail_cost.p75 - pp->tail_cost.p25 + cyc_ns(s, (double)s->clk->resolution_cycles);
}

int pingpong_tail_cost_resolved(const struct session *s, const struct pingpong_res *pp)
{
	return pp->tail_cost.n >= TAIL_COST_MIN_RUNS && fabs(pp->tail_cost.median) > pingpong_tail_cost_noise(s, pp);
}

/* Stamping cannot make a round faster: a stamp cost (stamped run over
 * unstamped, less 1) not above 0 is the runs' own variation (a cold first
 * run: --warmup 0 gave -48%), and the cost is not separable here. */
int pingpong_stamp_cost_separable(const struct pingpong_res *pp)
{
	return pp->stamp_cost.n > 0 && pp->stamp_cost.median > 0;
}

double pingpong_tail_ns(const struct session *s, const struct pingpong_res *pp, double q)
{
	return cyc_ns(s, (double)hist_at(&pp->tail, q)) / 2;
}

/* A variant's results once its runs are done (the client's). */
static void series_stats(const struct session *s, struct pingpong_res *pp, int nst)
{
	double v[MAX_RUNS];

	memcpy(v, pp->eel_ns, sizeof(double) * (size_t)pp->nruns);
	pp->eel = stat_of(v, pp->nruns);
	for (int i = 0; i < nst && i < pp->nruns; i++)
		v[i] = pp->eel_stamped_ns[i] / pp->eel_ns[i] - 1;
	pp->stamp_cost = stat_of(v, nst < pp->nruns ? nst : pp->nruns);
	memcpy(v, pp->eel_stamped_ns, sizeof(double) * (size_t)nst);
	pp->eel_stamped = stat_of(v, nst);
	for (int i = 0; i < pp->ntail && i < pp->nruns; i++)
		v[i] = pp->tail_ns[i] - pp->eel_ns[i];
	pp->tail_cost = stat_of(v, pp->ntail < pp->nruns ? pp->ntail : pp->nruns);
	pp->done = 1;
}

/* Runs of nvar ping-pong variants, run r of each after run r of the one
 * before (a drift in the machine's speed touches them alike). With stamps,
 * each variant's runs alternate between stamps off and on (the cost of
 * stamping measured in the same session), its stamped runs' traces are joined
 * into bd[v]; pp[v] gets the runs without stamps. With tail, the first
 * variant's run r (with stamps, its stamped run r) is followed by run r of
 * its tail (tail_run). */
static int series(struct session *s, const int *variant, int nvar, uint32_t runs, uint32_t iters, int stamps,
		  int tail, struct pingpong_res *pp, struct breakdown *bd)
{
	const struct plan *p = &s->plan;
	struct traces t[PP_MAX_VARIANTS];
	int nst[PP_MAX_VARIANTS] = { 0 }, rc = -1, v;
	uint64_t *rtt = NULL;

	stamps = stamps && p->stamp_every && s->caps->stamp_mask && bd;
	if (tail && !s->server && !(rtt = malloc(sizeof(uint64_t) * iters)))
		return bench_oom("the tail's round trips");
	if (tail && !s->server) {
		hist_init(&pp[0].tail);
		pp[0].ntail = 0;
	}
	for (v = 0; v < nvar; v++)
		if (traces_alloc(&t[v]))
			goto out;
	/* run -1 is the warm-up; then runs alternate: even without stamps, odd with */
	for (int run = -1; run < (int)runs * (stamps ? 2 : 1); run++) {
		int stamped = stamps && run >= 0 && (run & 1);
		uint32_t n = run < 0 ? p->warmup : iters;

		for (v = 0; v < nvar && n; v++, s->point++) {
			double eel_ns = 0;

			if (run < 0)
				progress(s, "ping-pong%s: warm-up, %u round trips", variant[v] == PP_PUT_DMA ?
					 " (payload DMA'd)" : variant[v] == PP_EREG ? " (E-register stores)" : "", n);
			else
				progress(s, "ping-pong%s: run %d of %u%s", variant[v] == PP_PUT_DMA ? " (payload DMA'd)" :
					 variant[v] == PP_EREG ? " (E-register stores)" : "", run + 1,
					 runs * (stamps ? 2 : 1), stamped ? ", stamped" : "");
			eel_set_stamp_every(s->dev, stamped ? p->stamp_every : 0);
			if (s->server ? server_run(s, variant[v], n) :
			    client_run(s, variant[v], n, &eel_ns, NULL, stamped ? &t[v].rd : NULL, p->stamp_every))
				goto out;
			if (stamped)
				drain(s, &t[v]);
			/* after run r's pair (stamps off, on): the pairs stay as they were */
			if (tail && !v && run >= 0 && (stamped || !stamps) && tail_run(s, variant[v], n, rtt, &pp[v]))
				goto out;
			if (s->server || run < 0)
				continue;
			if (stamped)
				pp[v].eel_stamped_ns[nst[v]++] = eel_ns;
			else
				pp[v].eel_ns[pp[v].nruns++] = eel_ns;
		}
	}
	eel_set_stamp_every(s->dev, 0);
	for (v = 0; v < nvar; v++) {
		if (stamps && !s->server) {
			double e[MAX_RUNS];

			memcpy(e, pp[v].eel_ns, sizeof(double) * (size_t)pp[v].nruns);
			/* a stamped message or round 10x EEL (and 5 us) long was
			 * preempted (a run with one is an outlier among runs): a
			 * 35 us preemption in 200 stamped rounds of ~1 us moved
			 * their mean by 170 ns, where EEL's 10^4 rounds a run
			 * dilute it to 2 ns; the stamps' cost in place is what
			 * they add to EEL (breakdown.c) */
			bd[v].eel_ref_ns = stat_of(e, pp[v].nruns).median;
			/* its uncertainty too: the residual compares the stamped
			 * runs' parts with the unstamped runs' EEL, and the
			 * machine's drift between runs moves the second as much as
			 * the first (breakdown.c) */
			bd[v].eel_ref_unc_ns = median_unc95(e, pp[v].nruns);
			bd[v].cut_ns = fmax(10 * bd[v].eel_ref_ns, 5000);
		}
		if (stamps && exchange_traces(s, &t[v], &bd[v]))
			goto out;
		if (!s->server)
			series_stats(s, &pp[v], nst[v]);
	}
	rc = 0;
out:
	for (int k = 0; k < nvar; k++)
		traces_free(&t[k]);
	free(rtt);
	return rc;
}

int pingpong_series_n(struct session *s, const int *variant, int nvar, uint32_t runs, uint32_t iters, int stamps,
		      struct pingpong_res *pp, struct breakdown *bd)
{
	return series(s, variant, nvar, runs, iters, stamps, 0, pp, bd);
}

int pingpong_series(struct session *s, int variant, uint32_t runs, uint32_t iters, int stamps,
		    struct pingpong_res *pp, struct breakdown *bd)
{
	return series(s, &variant, 1, runs, iters, stamps, 0, pp, bd);
}

/* EEL (Bell et al. 2003 4.1), the stage breakdown from its stamped runs, and its tail. */
int pingpong_run(struct session *s, struct results *r)
{
	int v = PP_PUT;

	return series(s, &v, 1, s->plan.runs, s->plan.iters, 1, 1, &r->pp, &r->bd);
}

/* Runs of several variants interleaved, stamps off: run i of each variant
 * follows run i of the one before, so a drift in the machine's speed (another
 * process, a frequency step) touches every variant alike and a difference
 * between two variants can be taken run by run (decompose.c). pp[v] gets
 * variant v's runs, each the median round trip / 2: a difference of medians
 * is set beside the stamps' medians, and a mean would carry the machine's
 * interruptions in proportion to how long a variant's stages take (in this
 * VM, 5% of an injected 3000 ns). */
/* ... and with each (one variant), every round trip's RTT/2 in ns, run by run. */
static int interleaved(struct session *s, const int *variant, int nvar, uint32_t runs, uint32_t iters,
		       struct pingpong_res *pp, double *each)
{
	uint32_t most = iters > s->plan.warmup ? iters : s->plan.warmup;
	uint64_t *rtt = s->server ? NULL : malloc(sizeof(uint64_t) * (most ? most : 1));
	int rc = -1;

	if (!s->server && !rtt)
		return bench_fail("ping-pong variants: no memory for the round trips");
	eel_set_stamp_every(s->dev, 0);
	for (int run = -1; run < (int)runs; run++) {
		for (int v = 0; v < nvar; v++, s->point++) {
			uint32_t n = run < 0 ? s->plan.warmup : iters;
			double eel_ns = 0;

			if (n == 0)
				continue;
			if (run < 0)
				progress(s, "ping-pong variants, interleaved: warm-up, %u round trips", n);
			else
				progress(s, "ping-pong variants, interleaved: run %d of %u", run + 1, runs);
			if (s->server ? server_run(s, variant[v], n) :
			    client_run(s, variant[v], n, &eel_ns, rtt, NULL, 0))
				goto out;
			if (!s->server && run >= 0)
				pp[v].eel_ns[pp[v].nruns++] = eel_ns;
			for (uint32_t i = 0; each && !s->server && run >= 0 && i < n; i++)
				each[(size_t)run * iters + i] = cyc_ns(s, (double)rtt[i] - (double)s->clk->timer_cycles) / 2;
		}
	}
	for (int v = 0; v < nvar && !s->server; v++) {
		double t[MAX_RUNS];

		memcpy(t, pp[v].eel_ns, sizeof(double) * (size_t)pp[v].nruns);
		pp[v].eel = stat_of(t, pp[v].nruns);
		pp[v].done = 1;
	}
	rc = 0;
out:
	free(rtt);
	return rc;
}

int pingpong_interleaved(struct session *s, const int *variant, int nvar, uint32_t runs, uint32_t iters,
			 struct pingpong_res *pp)
{
	return interleaved(s, variant, nvar, runs, iters, pp, NULL);
}

/* Round trips each timed alone (patterns.c: a pair's min, median and p99). */
int pingpong_each(struct session *s, uint32_t runs, uint32_t iters, double *out)
{
	struct pingpong_res *pp = calloc(1, sizeof(*pp));
	int v = PP_PUT, rc;

	if (!pp)
		return bench_fail("ping-pong: no memory");
	rc = interleaved(s, &v, 1, runs, iters, pp, out);
	free(pp);
	return rc;
}
