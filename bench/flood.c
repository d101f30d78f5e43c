/* SPDX-License-Identifier: MIT */
/* bench/flood.c — the flood test, Bell et al. 2003 §4.2.
 *
 * For each message size (8 B .. 128 KB, powers of two) and queue depth q:
 * initiate q non-blocking puts, wait for q/2 of them to complete locally
 * (one completion per q/2 puts: the last of each group is signalled),
 * issue q/2 new ones, and so on until all are issued; complete the last q;
 * then wait for a single reply from the receiver, which guarantees that
 * everything arrived. Time / messages is the gap at that size: g at 8 bytes,
 * and G, the gap per byte, from the difference between g and the time per
 * message at the largest size (§4.2). Bandwidth = 1/G; the size at which a
 * message becomes "large" is M = g/G (§5.5).
 *
 * The messages of a run but its last cycle through a window of
 * FLOOD_WARM_BYTES at each end (at least two places), kept warm in the caches
 * as bulk's one buffer is, so that flood and bulk see the same memory; the
 * last has a place of its own, whose token the receiver waits for (a reused
 * place holds earlier messages with the same bytes). --flood-memory cold
 * gives every message its own place (a window of up to --flood-bytes, cold).
 * A message's last 8 bytes are its token (its mark, verify.h: one under 8
 * bytes, the size sweep's, is all mark, in a place a word wide); --verify
 * checks every byte of the last message at each place, and the NIC's count
 * of deliveries.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "post.h"

static uint32_t place(uint32_t i, uint32_t slots, uint32_t n)
{
	return i == n - 1 ? slots : i % slots;
}

/* The last message of the run to go to place j (j <= slots). */
static uint32_t last_at(uint32_t j, uint32_t slots, uint32_t n)
{
	return j == slots ? n - 1 : j + (n - 2 - j) / slots * slots;
}

/* The payloads, each place holding the last message sent from it: tokens
 * only, or the whole pattern under --verify. */
static void fill_places(struct session *s, uint32_t size, uint32_t n)
{
	uint32_t slots = flood_slots(&s->plan, size, n);

	for (uint32_t j = 0; j <= slots; j++) {
		uint8_t *m = s->data + (size_t)j * flood_stride(size);
		uint32_t i = last_at(j, slots, n);

		if (s->plan.verify)
			pattern_fill(m, size, s->point, i);
		else
			mark_put(m, size, token(s, i));
	}
}

/* Keep q outstanding: issue until q are in flight. Selective signalling:
 * only the last put of each q/2 (and the very last) asks for a completion,
 * which says the q/2 before it are done. */
static int issue(struct session *s, uint32_t size, uint32_t q, uint32_t n, uint32_t *issued, uint32_t completed)
{
	unsigned flags = size <= s->caps->max_inline ? EEL_PUT_INLINE : 0;
	uint32_t half = q / 2 ? q / 2 : 1, slots = flood_slots(&s->plan, size, n);

	while (*issued < n && *issued - completed < q) {
		size_t at = (size_t)place(*issued, slots, n) * flood_stride(size);
		unsigned f = flags | ((*issued + 1) % half == 0 || *issued + 1 == n ? EEL_PUT_SIGNALED : 0);

		if (eel_put(s->dev, s->data_mr, s->data + at, size, &s->peer_data, at, f, *issued, 0))
			return bench_fail("flood: put");
		(*issued)++;
	}
	return 0;
}

/* Client: the timed loop. Returns ns per message. */
static int client_point(struct session *s, uint32_t size, uint32_t q, uint32_t n, double *ns)
{
	uint32_t issued = 0, completed = 0, half = q / 2 ? q / 2 : 1;
	struct point_done d;
	uint64_t t0, t1;

	fill_places(s, size, n);
	if (client_await_ready(s))
		return -1;

	t0 = eel_cycles();
	while (completed < n) {
		if (issue(s, size, q, n, &issued, completed))
			return -1;
		/* wait for q/2 of them (the oldest group) */
		if (poll_until(s, &completed, completed + half < issued ? completed + half : issued,
			       "flood: completions"))
			return -1;
	}
	/* the receiver's single reply: everything has arrived */
	if (eel_wait_u64(s->dev, SLOT(s, SLOT_REPLY), token(s, 0)))
		return bench_fail("flood: waiting for the receiver's reply");
	t1 = eel_cycles();
	if (client_await_done(s, &d))
		return -1;
	*ns = cyc_ns(s, (double)(t1 - t0 - s->clk->timer_cycles)) / n;
	return 0;
}

static uint64_t rx_messages(struct session *s)
{
	struct eel_counter c[64];
	int n = eel_counters(s->dev, c, 64);

	for (int i = 0; i < n; i++)
		if (!strcmp(c[i].name, "rx_messages"))
			return c[i].value;
	return UINT64_MAX;
}

/* The word the receiver waits on: the last message's mark (verify.h), in its
 * own place; zeroed before the run (a message under 8 bytes fills only part). */
static volatile uint64_t *last_word(struct session *s, uint32_t size, uint32_t n)
{
	size_t at = (size_t)flood_slots(&s->plan, size, n) * flood_stride(size) + mark_offset(size);

	return (volatile uint64_t *)(s->data + at);
}

/* Server: wait for the last message, reply, and under --verify check every
 * byte, and that the NIC delivered each message exactly once. */
static int server_point(struct session *s, uint32_t size, uint32_t n)
{
	struct point_done d = { 0 };
	uint32_t slots = flood_slots(&s->plan, size, n);
	volatile uint64_t *last = last_word(s, size, n);
	uint64_t before = 0;

	if (s->plan.verify) {
		memset(s->data, 0xA5, flood_window_bytes(&s->plan, size, n));
		before = rx_messages(s);
	}
	*last = 0;
	if (server_ready(s))
		return -1;
	if ((d.status = eel_wait_u64(s->dev, last, mark_value(token(s, n - 1), size))) ||
	    (d.status = put_slot(s, SLOT_REPLY, token(s, 0))) || (d.status = eel_quiet(s->dev)))
		snprintf(d.msg, sizeof(d.msg), "flood (%u B): %s", size, eel_errmsg());
	if (!d.status && s->plan.verify) {
		uint64_t after = rx_messages(s);
		uint32_t bad_msgs = 0;

		for (uint32_t j = 0; j <= slots; j++) {
			uint32_t b = pattern_check(s->data + (size_t)j * flood_stride(size), size, s->point,
						   last_at(j, slots, n));

			d.bad_words += b;
			bad_msgs += b != 0;
		}
		if (d.bad_words)
			snprintf(d.msg, sizeof(d.msg), "flood of %u x %u B: %u messages arrived wrong "
				 "(%u words lost or corrupted)", n, size, bad_msgs, d.bad_words);
		else if (before != UINT64_MAX && after - before != n) {
			d.bad_words = 1;
			snprintf(d.msg, sizeof(d.msg), "flood of %u x %u B: the NIC delivered %llu messages, "
				 "not %u (lost or duplicated)", n, size, (unsigned long long)(after - before), n);
		}
	}
	return server_done(s, &d) || d.status || d.bad_words ? -1 : 0;
}

/* One run of the flood point (size, q) on this end, the plan's messages for
 * the size: the client's ns per message in *ns (patterns.c). */
int flood_one(struct session *s, uint32_t size, uint32_t q, double *ns)
{
	return flood_once(s, size, q, flood_msgs_for(&s->plan, size), ns);
}

int flood_once(struct session *s, uint32_t size, uint32_t q, uint32_t n, double *ns)
{
	int rc = s->server ? server_point(s, size, n) : client_point(s, size, q, n, ns);

	s->point++;
	return rc;
}

/* Once a millisecond of a loop over several peers: the clock against the
 * deadline, and each peer (a lost one named at once). */
static int many_check(struct session **s, int k, uint64_t end, uint64_t *next, const char *what)
{
	uint64_t now = eel_cycles();

	if (!*next) /* the first look after 1 ms, as post.c's peer_lost */
		*next = now + (uint64_t)(s[0]->clk->hz / 1000);
	if (now < *next)
		return 0;
	*next = now + (uint64_t)(s[0]->clk->hz / 1000);
	for (int i = 0; i < k; i++)
		if (eel_peer_check(s[i]->dev))
			return bench_fail(what);
	if (now > end) {
		fprintf(stderr, "eel-bench: %s: nothing for %u ms\n", what, s[0]->plan.timeout_ms);
		return -1;
	}
	return 0;
}

/* Culler et al. 1996, "Validation of communication scaling" (K-to-1, Table 5):
 * the receiving end of k floods at once, one from each of s[0..k-1] (their
 * senders run flood_one). Every NIC is kept going from this one thread, and
 * each sender gets its reply as soon as its last message is in. */
int flood_serve_many(struct session **s, int k, uint32_t size)
{
	volatile uint64_t *last[FLOOD_MAX_PEERS];
	uint64_t want[FLOOD_MAX_PEERS], end, next = 0;
	int left = k, rc = 0;
	char got[FLOOD_MAX_PEERS] = { 0 };

	for (int i = 0; i < k; i++) {
		uint32_t n = flood_msgs_for(&s[i]->plan, size);

		last[i] = last_word(s[i], size, n);
		want[i] = mark_value(token(s[i], n - 1), size);
		*last[i] = 0;
		if (server_ready(s[i]))
			return -1;
	}
	end = eel_cycles() + (uint64_t)(s[0]->clk->hz / 1000 * s[0]->plan.timeout_ms);
	while (left && !rc) {
		for (int i = 0; i < k; i++) {
			if (got[i])
				continue;
			eel_progress(s[i]->dev);
			if (*last[i] == want[i]) {
				got[i] = 1;
				left--;
				if (put_slot(s[i], SLOT_REPLY, token(s[i], 0)))
					rc = bench_fail("flood from several senders: the reply");
			}
		}
		if (!rc && many_check(s, k, end, &next, "flood from several senders"))
			rc = -1;
	}
	for (int i = 0; i < k; i++) {
		struct point_done d = { 0 };

		if (rc || (d.status = eel_quiet(s[i]->dev)))
			snprintf(d.msg, sizeof(d.msg), "flood from several senders (%u B): %s", size,
				 rc ? "the receiver gave up" : eel_errmsg());
		d.status = rc && !d.status ? -EIO : d.status;
		if (server_done(s[i], &d) || d.status)
			rc = -1;
		s[i]->point++;
	}
	return rc;
}

/* Culler et al. 1996, same section (1-to-many): one end floods k receivers at
 * once (they run flood_one), q puts outstanding to each, the puts going
 * round the receivers; *ns is the time per message over all k x n of them. */
int flood_send_many(struct session **s, int k, uint32_t size, uint32_t q, double *ns)
{
	uint32_t issued[FLOOD_MAX_PEERS] = { 0 }, completed[FLOOD_MAX_PEERS] = { 0 }, total = 0, n = 0;
	uint64_t t0, t1, end, next = 0;
	int left = k;

	for (int i = 0; i < k; i++) {
		n = flood_msgs_for(&s[i]->plan, size);
		fill_places(s[i], size, n);
		if (client_await_ready(s[i]))
			return -1;
	}
	end = eel_cycles() + (uint64_t)(s[0]->clk->hz / 1000 * s[0]->plan.timeout_ms);
	t0 = eel_cycles();
	while (left) {
		for (int i = 0; i < k; i++) {
			struct eel_cqe c[64];
			int got;

			if (completed[i] == n)
				continue;
			if (issue(s[i], size, q, n, &issued[i], completed[i]))
				return -1;
			got = eel_poll(s[i]->dev, c, 64);
			for (int j = 0; j < got; j++) {
				if (c[j].status)
					return bench_fail("flood to several receivers: a completion");
				if (c[j].wr_id + 1 > completed[i])
					completed[i] = (uint32_t)c[j].wr_id + 1;
			}
			if (got < 0)
				return bench_fail("flood to several receivers: completions");
			left -= completed[i] == n;
		}
		if (many_check(s, k, end, &next, "flood to several receivers"))
			return -1;
	}
	/* each receiver's single reply: everything has arrived */
	for (int i = 0; i < k; i++)
		if (eel_wait_u64(s[i]->dev, SLOT(s[i], SLOT_REPLY), token(s[i], 0)))
			return bench_fail("flood to several receivers: waiting for a reply");
	t1 = eel_cycles();
	for (int i = 0; i < k; i++) {
		struct point_done d;

		if (client_await_done(s[i], &d))
			return -1;
		s[i]->point++;
		total += n;
	}
	*ns = cyc_ns(s[0], (double)(t1 - t0 - s[0]->clk->timer_cycles)) / total;
	return 0;
}

static const struct flood_point *point_at(const struct flood_res *f, uint32_t size, uint32_t q)
{
	for (int i = 0; i < f->npt; i++)
		if (f->pt[i].size == size && f->pt[i].q == q)
			return &f->pt[i];
	return NULL;
}

/* The least-squares slope of t over the sizes from `from` up at depth q:
 * from each point's minimum (run < 0) or its run r. 0 when there is no fit. */
static double slope(const struct flood_res *f, const struct plan *p, uint32_t q, uint32_t from, int run)
{
	double x[MAX_SIZES], y[MAX_SIZES];
	struct fit_line l;
	int n = 0;

	for (uint32_t k = 0; k < p->nsizes; k++) {
		const struct flood_point *pt = point_at(f, p->sizes[k], q);

		if (!pt || p->sizes[k] < from || (run >= 0 && (!pt->run || run >= pt->nrun)))
			continue;
		x[n] = p->sizes[k];
		y[n++] = run < 0 ? pt->t.min : pt->run[run];
	}
	return n >= 2 && !fit_linear(x, y, n, &l) ? l.b : 0;
}

/* The smallest size of the bandwidth-bound ones at depth q: at or above
 * M = g/G of the two largest sizes measured there, and at least those two
 * (0: fewer than two sizes measured). */
static uint32_t bandwidth_bound_from(const struct flood_res *f, const struct plan *p, uint32_t q, double g)
{
	uint32_t have[MAX_SIZES], n = 0;
	double G0;

	for (uint32_t k = 0; k < p->nsizes; k++)
		if (point_at(f, p->sizes[k], q))
			have[n++] = p->sizes[k];
	if (n < 2)
		return 0;
	G0 = slope(f, p, q, have[n - 2], -1);
	for (uint32_t k = 0; G0 > 0 && k + 2 < n; k++)
		if (have[k] >= g / G0)
			return have[k];
	return have[n - 2];
}

/* G, 1/G and g/G run by run: the same fit on run r of each size at G's
 * depth (and g's run r), for their spread. */
static void flood_runs_derive(struct flood_res *f, const struct plan *p)
{
	const struct flood_point *g = point_at(f, p->sizes[0], f->g_q);
	double G[MAX_RUNS], bw[MAX_RUNS], M[MAX_RUNS];
	int n = 0;

	memset(&f->G_runs, 0, sizeof(f->G_runs));
	memset(&f->bw_runs, 0, sizeof(f->bw_runs));
	memset(&f->M_runs, 0, sizeof(f->M_runs));
	f->G_runs_none = 0;
	if (!g || !g->run || !flood_G_measured(f))
		return;
	for (int r = 0; r < g->nrun; r++) {
		double Gr = slope(f, p, f->G_q, f->G_min_size, r);

		if (Gr <= 0) {
			f->G_runs_none++; /* this run's large puts were no slower: no G from it */
			continue;
		}
		G[n] = Gr;
		bw[n] = 1 / Gr;
		M[n++] = g->run[r] / Gr;
	}
	f->G_runs = stat_of(G, n);
	f->bw_runs = stat_of(bw, n);
	f->M_runs = stat_of(M, n);
}

/* Bell et al. 2003 §4.2: g, the best 8-byte gap over queue depths (Fig. 6). G, the
 * gap per byte, at the depth that gave g: the least-squares slope of the time
 * per message against its size over the bandwidth-bound sizes, those at or
 * above M = g/G of the two largest sizes (at least those two); M = g/G from
 * the same depth (§5.5). */
/* The depth whose smallest size gave the next best gap after depth q's
 * (ties: the deeper first), 0 when none is left. */
static uint32_t next_depth(const struct flood_res *f, const struct plan *p, uint32_t q)
{
	const struct flood_point *cur = point_at(f, p->sizes[0], q);
	uint32_t next = 0;
	double best = 0;

	for (uint32_t k = 0; cur && k < p->ndepths; k++) {
		const struct flood_point *lo = point_at(f, p->sizes[0], p->depths[k]);

		if (lo && (lo->t.min > cur->t.min || (lo->t.min == cur->t.min && lo->q > q)) &&
		    (!next || lo->t.min < best)) {
			next = lo->q;
			best = lo->t.min;
		}
	}
	return next;
}

void flood_derive(const struct session *s, struct flood_res *f)
{
	const struct plan *p = &s->plan;
	uint32_t smin = p->sizes[0];

	f->g_ns = 0;
	f->G_ns_per_byte = 0;
	for (uint32_t k = 0; k < p->ndepths; k++) {
		const struct flood_point *lo = point_at(f, smin, p->depths[k]);

		if (lo && (!f->g_ns || lo->t.min < f->g_ns)) {
			f->g_ns = lo->t.min;
			f->g_q = lo->q;
		}
	}
	/* at g's depth; where the times do not grow with the size there (an
	 * emulated NIC's noise), at the depth with the next best 8-byte gap that
	 * gives a slope (the table says which) */
	for (uint32_t q = f->g_q; f->g_ns > 0 && q; q = next_depth(f, p, q)) {
		f->G_q = q;
		f->G_min_size = bandwidth_bound_from(f, p, q, f->g_ns);
		if (f->G_min_size)
			f->G_ns_per_byte = fmax(0, slope(f, p, q, f->G_min_size, -1));
		if (f->G_ns_per_byte)
			break;
	}
	if (!f->G_ns_per_byte)
		f->G_q = f->g_q;
	f->bw_bytes_per_ns = flood_G_measured(f) ? 1 / f->G_ns_per_byte : 0;
	f->M_bytes = flood_G_measured(f) ? f->g_ns / f->G_ns_per_byte : 0;
	flood_runs_derive(f, p);
}

int flood_run(struct session *s, struct results *r)
{
	const struct plan *p = &s->plan;
	struct flood_res *f = &r->fl;

	f->pt = calloc(p->nsizes * p->ndepths, sizeof(*f->pt));
	if (!f->pt)
		return bench_oom("the flood's points");
	for (uint32_t a = 0; a < p->nsizes; a++)
		for (uint32_t b = 0; b < p->ndepths; b++) {
			uint32_t size = p->sizes[a], q = p->depths[b], n = flood_msgs_for(p, size);
			double v[MAX_RUNS];

			progress(s, "flood: %u B at q=%u (point %u of %u)", size, q, a * p->ndepths + b + 1,
				 p->nsizes * p->ndepths);
			for (uint32_t run = 0; run < p->flood_runs; run++, s->point++) {
				if (s->server ? server_point(s, size, n) : client_point(s, size, q, n, &v[run]))
					return -1;
			}
			if (!s->server) {
				struct flood_point *pt = &f->pt[f->npt++];

				pt->size = size;
				pt->q = q;
				pt->msgs = n;
				pt->run = malloc(p->flood_runs * sizeof(double));
				if (pt->run) {
					memcpy(pt->run, v, p->flood_runs * sizeof(double));
					pt->nrun = (int)p->flood_runs;
				}
				pt->t = stat_of(v, (int)p->flood_runs);
			}
		}
	if (!s->server) {
		flood_derive(s, f);
		f->done = 1;
	}
	return 0;
}
