/* SPDX-License-Identifier: MIT */
/* bench/limit.c — the floor under EEL, measured in the same run.
 *
 * Both ends on this machine with the software NIC (--pair): the physical
 * limit of this machine for what the software NIC does: a bare ping-pong of
 * one cache line between the two cores of the pair, in two processes, with
 * nothing else: one side stores a value, the other spins until it sees it and
 * stores it back. The one-way time is the floor under any message between
 * these cores; softnic EEL / limit says what the NIC's protocol adds.
 *
 * One more pass stamps each round trip with both cores' counters: the
 * receiving core's stamp t_b must lie between the sender's t_a (before its
 * store) and t_a' (after the answer), so the peer counter's offset is inside
 * [max(t_b - t_a'), min(t_b - t_a)]. Zero inside: stamps taken on the two
 * cores are comparable to within that interval.
 *
 * Each run of the limit (or floor) is followed at once by one ping-pong run
 * of EEL (Bell et al. 2003 4.1, the same round trips), and EEL / limit is taken run
 * by run: a machine whose speed changes between two tests (a VM moving its
 * vCPUs between one core's two threads and two cores: a limit of 60 or 260
 * ns) gives both figures of a ratio the same cores.
 *
 * Otherwise (a server and a client, or any other NIC): the NIC's own floor,
 * eel_floor — a bare echo of one minimum-size frame on its carrier (a DPDK
 * port's rte_eth_tx_burst/rte_eth_rx_burst, the software NIC's shared-memory
 * slots) — in lock step like every other point; EEL / floor says what eel's
 * firmware and host driver add to the carrier. A NIC without a carrier of
 * its own (verbs) has no floor: left out quietly under -t all.
 */
#include <errno.h>
#include <string.h>

#include "bench.h"
#include "cli.h"

#define LINE_PING 0   /* client -> server */
#define LINE_PONG 8   /* server -> client, then the server's stamp */

static int spin_until(struct session *s, volatile uint64_t *at, uint64_t v, uint64_t end)
{
	uint32_t n = 0;

	while (__atomic_load_n(at, __ATOMIC_ACQUIRE) != v)
		if (!(++n & 4095) && eel_cycles() > end) {
			fprintf(stderr, "eel-bench: limit: the other core stopped answering\n");
			return -1;
		}
	return 0;
}

static int client_run(struct session *s, uint32_t n, int skew, struct limit_res *l, double *one_way)
{
	volatile uint64_t *m = s->limit;
	uint64_t end = eel_cycles() + (uint64_t)(s->clk->hz / 1000 * s->plan.timeout_ms);
	uint64_t t0, t1;
	struct point_done d;

	if (client_await_ready(s))
		return -1;
	t0 = eel_cycles();
	for (uint32_t i = 0; i < n; i++) {
		uint64_t tok = token(s, i), ta = 0, ta2, tb;

		if (skew)
			ta = eel_cycles();
		__atomic_store_n(&m[LINE_PING], tok, __ATOMIC_RELEASE);
		if (spin_until(s, &m[LINE_PONG], tok, end))
			return -1;
		if (skew) {
			ta2 = eel_cycles();
			tb = m[LINE_PONG + 1];
			if ((double)tb - (double)ta2 > l->skew_lo_ns)
				l->skew_lo_ns = (double)tb - (double)ta2;
			if ((double)tb - (double)ta < l->skew_hi_ns)
				l->skew_hi_ns = (double)tb - (double)ta;
		}
	}
	t1 = eel_cycles();
	if (client_await_done(s, &d))
		return -1;
	*one_way = cyc_ns(s, (double)(t1 - t0 - s->clk->timer_cycles)) / n / 2;
	return 0;
}

static int server_run(struct session *s, uint32_t n, int skew)
{
	volatile uint64_t *m = s->limit;
	uint64_t end = eel_cycles() + (uint64_t)(s->clk->hz / 1000 * s->plan.timeout_ms);
	struct point_done d = { 0 };

	if (server_ready(s))
		return -1;
	for (uint32_t i = 0; i < n && !d.status; i++) {
		uint64_t tok = token(s, i);

		if (spin_until(s, &m[LINE_PING], tok, end)) {
			d.status = -1;
			snprintf(d.msg, sizeof(d.msg), "limit: the client stopped");
			break;
		}
		if (skew)
			m[LINE_PONG + 1] = eel_cycles();
		__atomic_store_n(&m[LINE_PONG], tok, __ATOMIC_RELEASE);
	}
	return server_done(s, &d) || d.status ? -1 : 0;
}

/* One ping-pong run of EEL beside run `run` of the limit; the ratio. Beside
 * the NIC's floor, which is the median round trip / 2 (eel_floor), EEL is
 * taken the same way (pingpong_interleaved): the two figures of a ratio are
 * one statistic of the same kind of rounds. */
static int beside(struct session *s, struct limit_res *l, double one_way)
{
	static struct pingpong_res pp;
	int v = PP_PUT;

	memset(&pp, 0, sizeof(pp));
	if (l->floor ? pingpong_interleaved(s, &v, 1, 1, s->plan.iters, &pp) :
	    pingpong_series(s, PP_PUT, 1, s->plan.iters, 0, &pp, NULL))
		return -1;
	if (!s->server && pp.nruns == 1 && one_way > 0) {
		l->eel_beside_ns[l->nruns] = pp.eel_ns[0];
		l->ratio[l->nruns] = pp.eel_ns[0] / one_way;
	}
	return 0;
}

static void limit_stats(struct limit_res *l)
{
	double v[MAX_RUNS];

	memcpy(v, l->one_way_ns, sizeof(double) * (size_t)l->nruns);
	l->one_way = stat_of(v, l->nruns);
	memcpy(v, l->eel_beside_ns, sizeof(double) * (size_t)l->nruns);
	l->eel_beside = stat_of(v, l->nruns);
	memcpy(v, l->ratio, sizeof(double) * (size_t)l->nruns);
	l->eel_over = stat_of(v, l->nruns);
}

static int cacheline_run(struct session *s, struct results *r)
{
	struct limit_res *l = &r->lim;
	const struct plan *p = &s->plan;

	l->skew_lo_ns = -1e300;
	l->skew_hi_ns = 1e300;
	/* run -1 warms up, run `runs` measures the counters' agreement */
	for (int run = -1; run <= (int)p->runs; run++, s->point++) {
		int skew = run == (int)p->runs;
		uint32_t n = run < 0 ? (p->warmup ? p->warmup : 1) : p->iters;
		double ow = 0;

		if (s->server ? server_run(s, n, skew) : client_run(s, n, skew, l, &ow))
			return -1;
		if (run >= 0 && !skew) {
			if (beside(s, l, ow))
				return -1;
			if (!s->server)
				l->one_way_ns[l->nruns++] = ow;
		}
	}
	if (!s->server) {
		limit_stats(l);
		l->skew_lo_ns = cyc_ns(s, l->skew_lo_ns);
		l->skew_hi_ns = cyc_ns(s, l->skew_hi_ns);
		l->done = 1;
	}
	return 0;
}

/* One call of eel_floor on each end, in lock step; the client learns the
 * server's end of the pair (its NIC's URI). Returns 1 when the NIC has no
 * floor (both ends say so at once: the same kind of NIC). */
static int floor_point(struct session *s, struct limit_res *l, uint32_t n, double *one_way)
{
	struct point_done d = { 0 };
	int rc;

	if (eel_quiet(s->dev))
		return bench_fail("limit: finishing before the floor");
	if (s->server) {
		if (server_ready(s))
			return -1;
		d.status = eel_floor(s->dev, 1, n, one_way);
		if (d.status)
			snprintf(d.msg, sizeof(d.msg), "floor: %s", eel_errmsg());
		else /* its end of the pair, for the client's report */
			snprintf(d.msg, sizeof(d.msg), "%s", s->uri ? s->uri : s->caps->name);
		if (server_done(s, &d))
			return -1;
		return d.status == -EOPNOTSUPP ? 1 : d.status ? -1 : 0;
	}
	if (client_await_ready(s))
		return -1;
	rc = eel_floor(s->dev, 0, n, one_way);
	if (rc == -EOPNOTSUPP) {
		/* the server found the same; take its report off the channel */
		if (eel_oob_recv(s->oob, OOB_DONE, &d, sizeof(d), NULL, s->plan.timeout_ms, s->dev))
			return bench_fail("waiting for the server's report");
		return 1;
	}
	if (rc)
		return bench_fail("limit: the floor");
	if (client_await_done(s, &d))
		return -1;
	memcpy(l->peer_nic, d.msg, sizeof(l->peer_nic));
	return 0;
}

static int floor_run(struct session *s, struct results *r)
{
	struct limit_res *l = &r->lim;
	const struct plan *p = &s->plan;
	char msg[512];

	l->floor = 1;
	/* run -1 warms up (and finds a NIC without a floor) */
	for (int run = -1; run < (int)p->runs; run++, s->point++) {
		uint32_t n = run < 0 ? (p->warmup ? p->warmup : 1) : p->iters;
		double ow = 0;
		int rc = floor_point(s, l, n, &ow);

		if (rc < 0)
			return -1;
		if (rc > 0) {
			if (p->tests & T_ALL)
				return 0;
			snprintf(msg, sizeof(msg), "%s", eel_errmsg());
			if (!s->server)
				fprintf(stderr, "eel-bench: -t limit: %s\n", msg);
			return -1;
		}
		if (run >= 0) {
			if (beside(s, l, ow))
				return -1;
			if (!s->server)
				l->one_way_ns[l->nruns++] = ow;
		}
	}
	if (!s->server) {
		limit_stats(l);
		l->skew_lo_ns = l->skew_hi_ns = 0;
		l->done = 1;
	}
	return 0;
}

int limit_run(struct session *s, struct results *r)
{
	progress(s, "limit");
	if (s->pair && s->limit && !strcmp(s->caps->backend, "softnic"))
		return cacheline_run(s, r);
	return floor_run(s, r);
}
