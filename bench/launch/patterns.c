/* SPDX-License-Identifier: MIT */
/* bench/launch/patterns.c — the patterns of many ranks (bench/launch/mesh.h), each one of
 * the seeds' methods run between several pairs at once:
 *
 *   allpairs   EEL (Bell et al. 2003 §4.1, ping-pong of 8-byte puts) and g
 *              (§4.2, the flood at 8 B, best over the queue depths) for every
 *              ordered pair, in the rounds of a round-robin schedule
 *              (schedule.c), each round's disjoint pairs measured at once;
 *              --serial one pair at a time, the others waiting (netgauge's
 *              way), to show that the two agree where the network is not the
 *              bottleneck (Culler et al. 1996, "Validation of communication
 *              scaling": half the nodes requesting, half replying, gave the
 *              same parameters "to two significant digits").
 *   k-to-1     K = 1 .. N-1 ranks flood rank 0 at once; each sender's g
 *              against its g alone: LogP has the receiver limit the
 *              aggregate, each sender's gap growing as K (Culler et al. 1996,
 *              same section, Table 5: g_K-to-1 / g_1-to-1).
 *   1-to-many  rank 0 floods K = 1 .. N-1 ranks at once: its time per
 *              message against one receiver's (same section: the gap fell
 *              ~30% on Myrinet and the Paragon, where the receiver's
 *              turnaround was the bottleneck).
 *
 * PMIx fences separate the timed regions; within one, only the NICs and the
 * out-of-band channel of each pair are used. Every rank puts what it
 * measured through PMIx at the end, and rank 0 gets it all.
 */
#include <stdlib.h>
#include <string.h>

#include "mesh.h"
#include "schedule.h"

#define RES_MAGIC 0x53454c45u  /* "ELES" */
#define RES_VERSION 1u

static void who(const struct mesh *m, int peer)
{
	char a[100], b[100];

	snprintf(bench_who, sizeof(bench_who), "%s with %s", mesh_who(m, m->rank, a, sizeof(a)),
		 mesh_who(m, peer, b, sizeof(b)));
}

static int barrier(struct mesh *m)
{
	if (!launch_barrier(&m->l))
		return 0;
	fprintf(stderr, "eel-bench: %s\n", m->l.err);
	return -1;
}

/* EEL: every round trip's RTT/2, and Bell et al. 2003's figure, the
 * minimum over runs of each run's mean. */
static int pair_eel(struct session *s, const struct plan *p, struct pair_res *r)
{
	size_t n = (size_t)p->runs * p->iters;
	double *v = s->server ? NULL : malloc(sizeof(double) * n);
	int rc;

	if (!s->server && !v) {
		fprintf(stderr, "eel-bench: no memory for %zu round trips: lower --runs or --iters\n", n);
		return -1;
	}
	rc = pingpong_each(s, p->runs, p->iters, v);
	if (!rc && v) {
		struct stat st;

		r->eel_bell = 0;
		for (uint32_t run = 0; run < p->runs; run++) {
			double sum = 0;

			for (uint32_t i = 0; i < p->iters; i++)
				sum += v[(size_t)run * p->iters + i];
			if (!run || sum / p->iters < r->eel_bell)
				r->eel_bell = sum / p->iters;
		}
		st = stat_of(v, (int)n);
		r->eel_n = (uint32_t)n;
		r->eel_min = st.min;
		r->eel_median = st.median;
		r->eel_p99 = quantile(v, (int)n, 0.99);
	}
	free(v);
	return rc;
}

/* g: the flood of the plan's smallest size at each depth, the best depth's
 * runs (Bell et al. 2003 §4.2, Fig. 6). */
static int pair_g(struct session *s, const struct plan *p, struct pair_res *r)
{
	double v[MAX_RUNS];

	for (uint32_t k = 0; k < p->ndepths; k++) {
		for (uint32_t run = 0; run < p->flood_runs; run++)
			if (flood_one(s, p->sizes[0], p->depths[k], &v[run]))
				return -1;
		if (!s->server) {
			struct stat st = stat_of(v, (int)p->flood_runs);

			if (!r->g_q || st.min < r->g_min) {
				r->g_q = p->depths[k];
				r->g_n = p->flood_runs;
				r->g_min = st.min;
				r->g_median = st.median;
				r->g_p99 = quantile(v, (int)p->flood_runs, 0.99);
			}
		}
	}
	return 0;
}

/* Both directions of a pair: the lower rank keeps the time first. */
static int pair_both(struct mesh *m, int peer, const struct plan *p, struct rank_res *mine)
{
	struct session *s = &m->s[peer];

	who(m, peer);
	for (int dir = 0; dir < 2; dir++) {
		s->server = (m->rank < peer) == dir;
		if (pair_eel(s, p, &mine->to[peer]) || pair_g(s, p, &mine->to[peer]))
			return -1;
		if (!s->server)
			mine->to[peer].done = 1;
	}
	return 0;
}

static int allpairs(struct mesh *m, const struct cli *c, struct rank_res *mine)
{
	int n = m->size;

	for (int round = 0; round < rr_rounds(n); round++) {
		int partner = rr_partner(n, round, m->rank);

		if (!m->serial) {
			if (barrier(m) || (partner >= 0 && pair_both(m, partner, &c->plan, mine)))
				return -1;
			continue;
		}
		for (int a = 0; a < n; a++) {
			int b = rr_partner(n, round, a);

			if (b <= a)
				continue;
			if (barrier(m) || ((m->rank == a || m->rank == b) && pair_both(m, partner, &c->plan, mine)))
				return -1;
		}
	}
	return barrier(m);
}

/* K = 1 .. N-1 ranks flood rank 0 at once (k-to-1, into: rank 0 receives),
 * or rank 0 floods them (1-to-many), at the plan's deepest depth. Rank 0
 * keeps 1-to-many's time per message, each sender its k-to-1 g. */
static int k_curve(struct mesh *m, const struct plan *p, int into, double *g)
{
	uint32_t q = p->depths[p->ndepths - 1];
	struct session *peers[MESH_MAX];
	double v[MAX_RUNS];

	for (int k = 1; k < m->size; k++) {
		if (barrier(m))
			return -1;
		if (m->rank == 0) {
			snprintf(bench_who, sizeof(bench_who), "rank 0 %s %d ranks", into ? "receiving from" : "sending to", k);
			for (int i = 0; i < k; i++) {
				peers[i] = &m->s[i + 1];
				peers[i]->server = into;
			}
			for (uint32_t run = 0; run < p->flood_runs; run++)
				if (into ? flood_serve_many(peers, k, p->sizes[0])
					 : flood_send_many(peers, k, p->sizes[0], q, &v[run]))
					return -1;
		} else if (m->rank <= k) {
			who(m, 0);
			m->s[0].server = !into;
			for (uint32_t run = 0; run < p->flood_runs; run++)
				if (flood_one(&m->s[0], p->sizes[0], q, &v[run]))
					return -1;
		}
		if ((m->rank == 0) != into && m->rank <= k)
			g[k] = stat_of(v, (int)p->flood_runs).min;
	}
	return barrier(m);
}

/* Every rank's results to rank 0, after the last timed region. */
static int gather(struct mesh *m, const struct rank_res *mine, struct rank_res *all)
{
	snprintf(bench_who, sizeof(bench_who), "rank %d", m->rank);
	if (launch_put(&m->l, "eel.res", mine, sizeof(*mine)) || launch_exchange(&m->l)) {
		fprintf(stderr, "eel-bench: %s: %s\n", bench_who, m->l.err);
		return -1;
	}
	for (int r = 0; m->rank == 0 && r < m->size; r++) {
		size_t len = 0;

		if (r == 0) {
			all[0] = *mine;
			continue;
		}
		if (launch_get(&m->l, r, "eel.res", &all[r], sizeof(all[r]), &len) || len != sizeof(all[r]) ||
		    all[r].magic != RES_MAGIC || all[r].version != RES_VERSION || all[r].rank != r) {
			fprintf(stderr, "eel-bench: rank %d's results: %s\n", r,
				m->l.err[0] ? m->l.err : "not this eel-bench's: run the same eel-bench on every rank");
			return -1;
		}
	}
	return 0;
}

int patterns_run(struct mesh *m, const struct cli *c, struct rank_res *all)
{
	static struct rank_res mine;

	memset(&mine, 0, sizeof(mine));
	mine.magic = RES_MAGIC;
	mine.version = RES_VERSION;
	mine.rank = m->rank;
	if ((c->plan.tests & T_ALLPAIRS) && allpairs(m, c, &mine))
		return -1;
	if ((c->plan.tests & T_KTO1) && k_curve(m, &c->plan, 1, mine.kto1_g))
		return -1;
	if ((c->plan.tests & T_ONE_TO_MANY) && k_curve(m, &c->plan, 0, mine.many_g))
		return -1;
	return gather(m, &mine, all);
}
