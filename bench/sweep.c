/* SPDX-License-Identifier: MIT */
/* bench/sweep.c — perftest's size sweep (linux-rdma/perftest: ib_write_lat and
 * ib_write_bw with -s SIZE, or -a for 2 .. 2^23 bytes by powers of two).
 *
 * At each size, first the latency as ib_write_lat measures it: a ping-pong
 * of puts that size, the reply the same size; the receiver sees a message
 * arrive by its mark (its last 8 bytes carry its token: verify.h), every
 * round trip is timed alone, and one way is the round trip / 2. The round
 * trips go into a histogram (method/hist.h), whose minimum, median
 * (perftest's t_typical), mean, 99th and 99.9th percentiles and maximum are
 * reported. Then the bandwidth as ib_write_bw measures it: a flood of puts
 * that size (flood.c's run, Bell et al. 2003 §4.2) at the deepest of
 * --depths, the time per message giving BW average = bytes x 8 / ns (Gb/s)
 * and MsgRate = 1000 / ns (Mpps). How many of each: sweep.h.
 */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "method/hist.h"
#include "post.h"

/* Round i's message from this end's source into the peer's landing place:
 * the pattern under --verify, else its mark. */
static int send_one(struct session *s, uint32_t size, uint32_t i)
{
	uint8_t *src = s->data + sweep_src_off(size);
	unsigned f = size <= s->caps->max_inline ? EEL_PUT_INLINE : 0;

	if (s->plan.verify)
		pattern_fill(src, size, s->point, i);
	else
		mark_put(src, size, token(s, i));
	return put_wait(s, s->data_mr, src, size, &s->peer_data, 0, f);
}

static volatile uint64_t *landing(struct session *s, uint32_t size)
{
	return (volatile uint64_t *)(s->data + mark_offset(size));
}

/* Round i's message has landed here; under --verify, its words that are
 * wrong are added to *bad. */
static int wait_one(struct session *s, uint32_t size, uint32_t i, uint32_t *bad)
{
	int rc = eel_wait_u64(s->dev, landing(s, size), mark_value(token(s, i), size));

	if (!rc && s->plan.verify)
		*bad += pattern_check(s->data, size, s->point, i);
	return rc;
}

/* The client: warm-up rounds (sweep_warm; the server counts the same: its
 * plan is the client's), then `iters` round trips each timed alone into h. */
static int client_lat(struct session *s, uint32_t size, uint32_t iters, int first, struct hist *h)
{
	uint32_t warm = sweep_warm(&s->plan, iters, first), bad = 0;
	uint64_t timer = s->clk->timer_cycles;
	struct point_done d;

	*landing(s, size) = 0;
	if (client_await_ready(s))
		return -1;
	for (uint32_t i = 0; i < warm + iters; i++) {
		uint64_t t0 = eel_cycles(), t1;

		if (send_one(s, size, i))
			return bench_fail("size sweep: put");
		if (wait_one(s, size, i, &bad))
			return bench_fail("size sweep: waiting for the reply");
		t1 = eel_cycles();
		if (i >= warm)
			hist_add(h, t1 - t0 > timer ? t1 - t0 - timer : 0);
	}
	if (client_await_done(s, &d))
		return -1;
	if (bad) {
		fprintf(stderr, "eel-bench: --verify: size sweep: %u words of the %u-byte replies arrived wrong\n",
			bad, size);
		return -1;
	}
	return 0;
}

static int server_lat(struct session *s, uint32_t size, uint32_t iters, int first)
{
	struct point_done d = { 0 };
	uint32_t n = sweep_warm(&s->plan, iters, first) + iters;

	*landing(s, size) = 0;
	if (server_ready(s))
		return -1;
	for (uint32_t i = 0; i < n && !d.status; i++)
		if ((d.status = wait_one(s, size, i, &d.bad_words)) || (d.status = send_one(s, size, i)))
			snprintf(d.msg, sizeof(d.msg), "size sweep (%u B), round %u: %s", size, i, eel_errmsg());
	if (!d.status && (d.status = eel_quiet(s->dev)))
		snprintf(d.msg, sizeof(d.msg), "size sweep (%u B): %s", size, eel_errmsg());
	if (!d.status && d.bad_words)
		snprintf(d.msg, sizeof(d.msg), "size sweep: %u words of the %u-byte pings arrived wrong", d.bad_words,
			 size);
	return server_done(s, &d) || d.status || d.bad_words ? -1 : 0;
}

/* The histogram's figures: one way, each round trip / 2, in ns. */
static void lat_figures(const struct session *s, const struct hist *h, struct sweep_point *pt)
{
	pt->t_min_ns = cyc_ns(s, (double)h->min) / 2;
	pt->t_typical_ns = cyc_ns(s, (double)hist_at(h, 0.5)) / 2;
	pt->t_avg_ns = cyc_ns(s, hist_mean(h)) / 2;
	pt->t_99_ns = cyc_ns(s, (double)hist_at(h, 0.99)) / 2;
	pt->t_99_9_ns = cyc_ns(s, (double)hist_at(h, 0.999)) / 2;
	pt->t_max_ns = cyc_ns(s, (double)h->max) / 2;
}

/* The flood's queue depth: the deepest of --depths, within the send queue. */
static uint32_t depth(const struct session *s, uint32_t msgs)
{
	uint32_t q = s->plan.depths[s->plan.ndepths - 1];

	q = q < s->caps->sq_depth ? q : s->caps->sq_depth;
	return q < msgs ? q : msgs;
}

static int one_size(struct session *s, uint32_t size, int first, struct hist *h, struct sweep_point *pt)
{
	uint32_t iters = sweep_iters(&s->plan, size), msgs = sweep_msgs(&s->plan, size), q = depth(s, msgs);
	double ns = 0;
	int rc;

	if (h)
		hist_init(h);
	rc = s->server ? server_lat(s, size, iters, first) : client_lat(s, size, iters, first, h);
	s->point++;
	/* the first size's flood once untimed first, as its round trips are
	 * warmed up (-a's 2-byte flood went at 3.4 Mpps, the 4-byte one after
	 * it at 8.2) */
	if (rc || (first && flood_once(s, size, q, msgs, &ns)) || flood_once(s, size, q, msgs, &ns))
		return -1;
	if (s->server)
		return 0;
	pt->bytes = size;
	pt->iters = iters;
	lat_figures(s, h, pt);
	pt->msgs = msgs;
	pt->q = q;
	pt->ns_per_msg = ns;
	pt->bw_gbit_per_s = ns > 0 ? size * 8.0 / ns : 0;
	pt->msg_rate_mpps = ns > 0 ? 1000 / ns : 0;
	return 0;
}

int sweep_run(struct session *s, struct results *r)
{
	const struct plan *p = &s->plan;
	struct hist *h = s->server ? NULL : malloc(sizeof(*h));  /* 43 KB */
	int rc = 0;

	if (!s->server && !h)
		return bench_oom("the size sweep's histogram");
	for (uint32_t k = 0; k < p->nsweep && !rc; k++) {
		progress(s, "size sweep: %u B (%u of %u)", p->sweep_sizes[k], k + 1, p->nsweep);
		rc = one_size(s, p->sweep_sizes[k], k == 0, h, &r->sweep.pt[k]);
	}
	if (!rc && !s->server) {
		r->sweep.n = (int)p->nsweep;
		r->sweep.done = 1;
	}
	free(h);
	return rc;
}
