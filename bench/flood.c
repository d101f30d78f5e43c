/* bench/flood.c — the flood test, seed 000 (000_08b5a44ef913033a.txt) §4.2.
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
 * Every message of a run goes to its own place in the receiver's window, so
 * --verify can check each byte that arrived; its last 8 bytes are its token.
 */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "post.h"

#define FLOOD_MIN_MSGS 128u

uint32_t flood_msgs_for(const struct plan *p, uint32_t size)
{
	uint32_t n = p->flood_bytes / size;

	if (n < FLOOD_MIN_MSGS)
		n = FLOOD_MIN_MSGS;
	return n < p->flood_msgs ? n : p->flood_msgs;
}

/* Client: the timed loop. Returns ns per message. */
static int client_point(struct session *s, uint32_t size, uint32_t q, uint32_t n, double *ns)
{
	unsigned flags = size <= s->caps->max_inline ? EEL_PUT_INLINE : 0;
	uint32_t issued = 0, completed = 0, half = q / 2 ? q / 2 : 1;
	struct point_done d;
	uint64_t t0, t1;

	/* The payloads: tokens only, or the whole pattern under --verify. */
	for (uint32_t i = 0; i < n; i++) {
		uint8_t *m = s->data + (size_t)i * size;

		if (s->plan.verify)
			pattern_fill(m, size, s->point, i);
		else {
			uint64_t tok = token(s, i);

			memcpy(m + size - 8, &tok, 8);
		}
	}
	if (client_await_ready(s))
		return -1;

	t0 = eel_cycles();
	while (completed < n) {
		/* keep q outstanding: issue until q are in flight. Selective
		 * signalling: only the last put of each q/2 (and the very last)
		 * asks for a completion, which says the q/2 before it are done */
		while (issued < n && issued - completed < q) {
			const uint8_t *src = s->data + (size_t)issued * size;
			unsigned f = flags | ((issued + 1) % half == 0 || issued + 1 == n ? EEL_PUT_SIGNALED : 0);

			if (eel_put(s->dev, s->data_mr, src, size, &s->peer_data, (uint64_t)issued * size, f,
				    issued, 0))
				return bench_fail("flood: put");
			issued++;
		}
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

/* Server: wait for the last message, reply, and under --verify check every
 * byte, and that the NIC delivered each message exactly once. */
static int server_point(struct session *s, uint32_t size, uint32_t n)
{
	struct point_done d = { 0 };
	const volatile uint64_t *last = (const volatile uint64_t *)(s->data + (size_t)n * size - 8);
	uint64_t before = 0;

	if (s->plan.verify) {
		memset(s->data, 0xA5, (size_t)n * size);
		before = rx_messages(s);
	}
	if (server_ready(s))
		return -1;
	if ((d.status = eel_wait_u64(s->dev, last, token(s, n - 1))) ||
	    (d.status = put_slot(s, SLOT_REPLY, token(s, 0))) || (d.status = eel_quiet(s->dev)))
		snprintf(d.msg, sizeof(d.msg), "flood (%u B): %s", size, eel_errmsg());
	if (!d.status && s->plan.verify) {
		uint64_t after = rx_messages(s);
		uint32_t bad_msgs = 0;

		for (uint32_t i = 0; i < n; i++) {
			uint32_t b = pattern_check(s->data + (size_t)i * size, size, s->point, i);

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

static const struct flood_point *point_at(const struct flood_res *f, uint32_t size, uint32_t q)
{
	for (int i = 0; i < f->npt; i++)
		if (f->pt[i].size == size && f->pt[i].q == q)
			return &f->pt[i];
	return NULL;
}

/* G, 1/G and g/G run by run: run r of the largest size less run r of the
 * smallest at G's depth (and g's run r at g's depth), for their spread. */
static void flood_runs_derive(struct flood_res *f, uint32_t smin, uint32_t smax)
{
	const struct flood_point *lo = point_at(f, smin, f->G_q), *hi = point_at(f, smax, f->G_q),
				 *g = point_at(f, smin, f->g_q);
	double G[MAX_RUNS], bw[MAX_RUNS], M[MAX_RUNS];
	int n = 0;

	memset(&f->G_runs, 0, sizeof(f->G_runs));
	memset(&f->bw_runs, 0, sizeof(f->bw_runs));
	memset(&f->M_runs, 0, sizeof(f->M_runs));
	if (!lo || !hi || !g || !lo->run || !hi->run || !g->run || f->G_ns_per_byte <= 0)
		return;
	for (int r = 0; r < lo->nrun && r < hi->nrun && r < g->nrun; r++) {
		double Gr = (hi->run[r] - lo->run[r]) / (smax - smin);

		if (Gr <= 0)
			continue; /* this run's largest puts were no slower: no G from it */
		G[n] = Gr;
		bw[n] = 1 / Gr;
		M[n++] = g->run[r] / Gr;
	}
	f->G_runs = stat_of(G, n);
	f->bw_runs = stat_of(bw, n);
	f->M_runs = stat_of(M, n);
}

/* seed 000 §4.2: g from 8-byte floods (best over queue depths, Fig. 6),
 * G from the time per message at the largest size less g. */
void flood_derive(const struct session *s, struct flood_res *f)
{
	const struct plan *p = &s->plan;
	uint32_t smin = p->sizes[0], smax = p->sizes[p->nsizes - 1];

	f->g_ns = 0;
	f->G_ns_per_byte = 0;
	for (uint32_t k = 0; k < p->ndepths; k++) {
		const struct flood_point *lo = NULL, *hi = NULL;

		for (int i = 0; i < f->npt; i++)
			if (f->pt[i].q == p->depths[k]) {
				if (f->pt[i].size == smin)
					lo = &f->pt[i];
				if (f->pt[i].size == smax)
					hi = &f->pt[i];
			}
		if (lo && (!f->g_ns || lo->t.min < f->g_ns)) {
			f->g_ns = lo->t.min;
			f->g_q = lo->q;
		}
		if (lo && hi && smax > smin) {
			double G = (hi->t.min - lo->t.min) / (smax - smin);

			if (G > 0 && (!f->G_ns_per_byte || G < f->G_ns_per_byte)) {
				f->G_ns_per_byte = G;
				f->G_q = hi->q;
			}
		}
	}
	f->bw_bytes_per_ns = f->G_ns_per_byte > 0 ? 1 / f->G_ns_per_byte : 0;
	f->M_bytes = f->G_ns_per_byte > 0 ? f->g_ns / f->G_ns_per_byte : 0;
	flood_runs_derive(f, smin, smax);
}

int flood_run(struct session *s, struct results *r)
{
	const struct plan *p = &s->plan;
	struct flood_res *f = &r->fl;

	f->pt = calloc(p->nsizes * p->ndepths, sizeof(*f->pt));
	if (!f->pt)
		return -1;
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
