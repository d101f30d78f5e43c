/* SPDX-License-Identifier: MIT */
/* tools/compare_mesh.c — eel-compare on two launched runs (compare_mesh.h).
 *
 * allpairs: an ordered pair is the same pair in both runs when its ranks and
 * their hosts (launch.ranks_at) are; it is compared at its medians, EEL's
 * (RTT/2 of every round trip, Bell et al. 2003 §4.1) and g's (over the flood
 * runs at the best depth, §4.2), as eel-bench's matrix and flags show them.
 * Each run brings its own noise for the pair: min..median, the part of its
 * spread the document keeps below the median (it keeps min, median and p99;
 * p99 is the scheduler's tail); the two combine as elsewhere in eel-compare
 * (compare.h: within the combined noise or under the threshold is "same").
 * A pair is worse when its EEL or g is, better when one is and neither is
 * worse. The flags are each run's own (its median + k x MAD over its pairs).
 *
 * k-to-1 (the senders' median g at each K) and 1-to-many (rank 0's gap at
 * each K) are the curves of Culler et al. 1996, "Validation of communication
 * scaling": each point is a minimum over runs with no spread kept, so the
 * threshold alone decides; the shape (g_K / g_1) is shown beside. */
#include "compare_mesh.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "method/stats.h"
#include "tools/compare.h"

struct fig {
	int have;                 /* measured in both */
	double a, b, na, nb;      /* the medians; each run's min..median */
	int flag_a, flag_b;
	struct verdict v;
};

struct prow {
	int from, to;
	char hosts[96];           /* "vm -> vm" */
	struct fig eel, g;
	const char *word;         /* the pair's verdict */
};

struct crow {
	int k;
	double a, b, ra, rb;      /* the figure; over K = 1 (NaN: no K = 1) */
	struct verdict v;
};

struct curve {
	const char *key, *label, *what, *shape;
	struct crow *rows;
	int n;
	char only[2][160];        /* the Ks in one run only */
	char note[200];
};

struct mesh_cmp {
	const struct run *A, *B;
	double thr;
	struct prow *pairs;
	int npairs;
	char only[2][400];        /* pairs in one run only (or measured in one only) */
	int nonly[2];
	struct curve kto1, many;
};

int mesh_launched(const struct run *r)
{
	return jr_get(r->root, "launch") != NULL;
}

void mesh_describe(const struct run *r, char *buf, size_t n)
{
	static const char *const key[] = { "allpairs", "k_to_1", "one_to_many" }, *const name[] = { "allpairs", "k-to-1", "1-to-many" };
	double ranks = num_at(r->root, "launch.ranks");
	size_t l;

	snprintf(buf, n, "%.0f ranks:", isfinite(ranks) ? ranks : 0);
	for (int i = 0, k = 0; i < 3; i++)
		if (jr_get(r->root, key[i]) && (l = strlen(buf)) < n)
			snprintf(buf + l, n - l, "%s %s", k++ ? "," : "", name[i]);
}

/* A rank as the document gives it: a whole number 0..2^20, else -1. */
static int rank_of(const struct jr_val *v, const char *key)
{
	double x;

	if (!jr_num(v, key, &x) || x != floor(x) || x < 0 || x > (1 << 20))
		return -1;
	return (int)x;
}

/* Rank r's host in run R as the document names it ("?" when it does not). */
static const char *host_raw(const struct run *R, int r)
{
	const char *h = jr_str(cmp_by_num(jr_get(R->root, "launch.ranks_at"), "rank", r, NULL, 0), "host");

	return h && *h ? h : "?";
}

/* The same ranks on the same hosts in A and B. */
static int same_hosts(const struct mesh_cmp *m, int from, int to)
{
	return !strcmp(host_raw(m->A, from), host_raw(m->B, from)) && !strcmp(host_raw(m->A, to), host_raw(m->B, to));
}

/* Rank r's host in run R, printable (cut to n). */
static void host_of(const struct run *R, int r, char *buf, size_t n)
{
	snprintf(buf, n, "%s", host_raw(R, r));
	jr_printable(buf);
}

static void hosts_of(const struct run *R, int from, int to, char *buf, size_t n)
{
	char h1[40], h2[40];

	host_of(R, from, h1, sizeof(h1));
	host_of(R, to, h2, sizeof(h2));
	snprintf(buf, n, "%s -> %s", h1, h2);
}

/* The pair (from, to) of run R's allpairs, measured; NULL when there is none. */
static const struct jr_val *pair_of(const struct run *R, int from, int to)
{
	const struct jr_val *p = cmp_by_num(jr_get(R->root, "allpairs.pairs"), "from", from, "to", to);
	int measured = 0;

	return p && jr_bool(p, "measured", &measured) && measured ? p : NULL;
}

/* One figure (eel or g) of a pair in both runs, at its median. */
static void fig_of(struct fig *f, const struct jr_val *pa, const struct jr_val *pb, const char *key, double thr)
{
	char m[32], lo[32], fl[32];
	double mina, minb;

	snprintf(m, sizeof(m), "%s.median_ns", key);
	snprintf(lo, sizeof(lo), "%s.min_ns", key);
	snprintf(fl, sizeof(fl), "%s.flagged", key);
	memset(f, 0, sizeof(*f));
	if (!jr_num(pa, m, &f->a) || !jr_num(pb, m, &f->b))
		return;
	f->have = 1;
	f->na = jr_num(pa, lo, &mina) && mina <= f->a ? f->a - mina : NAN;
	f->nb = jr_num(pb, lo, &minb) && minb <= f->b ? f->b - minb : NAN;
	jr_bool(pa, fl, &f->flag_a);
	jr_bool(pb, fl, &f->flag_b);
	cmp_judge(f->a, f->b, f->na, f->nb, CMP_LOWER, thr, &f->v);
}

/* "0->3 (vm -> vm)" added to a run's list of pairs the other lacks. */
static void only_add(struct mesh_cmp *m, int side, const struct run *R, int from, int to)
{
	char *s = m->only[side], h[96];
	size_t len = strlen(s);

	if (m->nonly[side]++ >= 6)
		return;
	hosts_of(R, from, to, h, sizeof(h));
	snprintf(s + len, sizeof(m->only[side]) - len, "%s%d->%d (%s)", len ? ", " : "", from, to, h);
}

static int pair_match(struct mesh_cmp *m)
{
	const struct jr_val *pa = jr_get(m->A->root, "allpairs.pairs"), *pb = jr_get(m->B->root, "allpairs.pairs");
	size_t na = jr_len(pa, "");

	m->pairs = calloc(na ? na : 1, sizeof(*m->pairs));
	if (!m->pairs)
		return -1;
	for (size_t i = 0; i < na; i++) {
		const struct jr_val *x = jr_at(pa, i), *y;
		int from = rank_of(x, "from"), to = rank_of(x, "to");
		struct prow *r;

		if (from < 0 || to < 0 || pair_of(m->A, from, to) != x)
			continue;   /* not measured, or a repeat */
		y = pair_of(m->B, from, to);
		if (!y || !same_hosts(m, from, to)) {
			only_add(m, 0, m->A, from, to);
			continue;
		}
		r = &m->pairs[m->npairs++];
		r->from = from;
		r->to = to;
		hosts_of(m->A, from, to, r->hosts, sizeof(r->hosts));
		fig_of(&r->eel, x, y, "eel", m->thr);
		fig_of(&r->g, x, y, "g", m->thr);
		if ((r->eel.have && !strcmp(r->eel.v.word, "worse")) || (r->g.have && !strcmp(r->g.v.word, "worse")))
			r->word = "worse";
		else if ((r->eel.have && !strcmp(r->eel.v.word, "better")) || (r->g.have && !strcmp(r->g.v.word, "better")))
			r->word = "better";
		else
			r->word = "same";
	}
	for (size_t i = 0; i < jr_len(pb, ""); i++) {
		const struct jr_val *y = jr_at(pb, i);
		int from = rank_of(y, "from"), to = rank_of(y, "to");

		if (from < 0 || to < 0 || pair_of(m->B, from, to) != y)
			continue;
		if (!pair_of(m->A, from, to) || !same_hosts(m, from, to))
			only_add(m, 1, m->B, from, to);
	}
	return 0;
}

/* A curve's figure at K: k-to-1's senders' median g, 1-to-many's gap. NaN: none. */
static double point_at(const struct run *R, const char *key, int k)
{
	const struct jr_val *p = cmp_by_num(jr_get(R->root, key), "k", k, NULL, 0), *g;
	double v[64], x;
	int n = 0;

	if (jr_num(p, "gap_ns", &x))
		return x;
	g = jr_get(p, "g_ns");
	for (size_t i = 0; i < jr_len(g, "") && n < 64; i++)
		if (jr_num(jr_at(g, i), "", &x))
			v[n++] = x;
	return stat_median(v, n);   /* as eel-bench's table takes the senders' */
}

static void only_k(char *s, size_t len, int k)
{
	size_t l = strlen(s);

	snprintf(s + l, len - l, "%s%d", l ? ", " : "", k);
}

static int curve_match(struct mesh_cmp *m, struct curve *c)
{
	char path[32];
	const struct jr_val *ca = jr_get(m->A->root, c->key), *cb = jr_get(m->B->root, c->key);
	size_t na = jr_len(ca, "points"), nb = jr_len(cb, "points");
	double a1, b1;

	if (!ca || !cb) {
		if (ca || cb)
			snprintf(c->note, sizeof(c->note), "%s only in %s: not compared", c->label, ca ? "A" : "B");
		return 0;
	}
	c->rows = calloc(na ? na : 1, sizeof(*c->rows));
	if (!c->rows)
		return -1;
	if (num_at(ca, "size") != num_at(cb, "size") || num_at(ca, "q") != num_at(cb, "q"))
		snprintf(c->note, sizeof(c->note), "note: A flooded %.0f-byte puts at q=%.0f, B %.0f-byte at q=%.0f: the "
			 "curves say how they differ, not whether one regressed", num_at(ca, "size"), num_at(ca, "q"),
			 num_at(cb, "size"), num_at(cb, "q"));
	snprintf(path, sizeof(path), "%s.points", c->key);
	a1 = point_at(m->A, path, 1);
	b1 = point_at(m->B, path, 1);
	for (size_t i = 0; i < na; i++) {
		int k = rank_of(jr_at(jr_get(ca, "points"), i), "k");
		double a = k > 0 ? point_at(m->A, path, k) : NAN, b;
		struct crow *r;

		if (!isfinite(a) || cmp_by_num(jr_get(ca, "points"), "k", k, NULL, 0) != jr_at(jr_get(ca, "points"), i))
			continue;
		b = point_at(m->B, path, k);
		if (!isfinite(b)) {
			only_k(c->only[0], sizeof(c->only[0]), k);
			continue;
		}
		r = &c->rows[c->n++];
		r->k = k;
		r->a = a;
		r->b = b;
		r->ra = a1 > 0 ? a / a1 : NAN;
		r->rb = b1 > 0 ? b / b1 : NAN;
		cmp_judge(a, b, NAN, NAN, CMP_LOWER, m->thr, &r->v);
	}
	for (size_t i = 0; i < nb; i++) {
		int k = rank_of(jr_at(jr_get(cb, "points"), i), "k");

		if (k > 0 && isfinite(point_at(m->B, path, k)) && !isfinite(point_at(m->A, path, k)))
			only_k(c->only[1], sizeof(c->only[1]), k);
	}
	return 0;
}

struct mesh_cmp *mesh_cmp_new(const struct run *A, const struct run *B, double thr)
{
	struct mesh_cmp *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->A = A;
	m->B = B;
	m->thr = thr;
	m->kto1 = (struct curve){ .key = "k_to_1", .label = "k-to-1",
				  .what = "g per sender (the senders' median) as K ranks flood rank 0 at once",
				  .shape = "g_K/g_1" };
	m->many = (struct curve){ .key = "one_to_many", .label = "1-to-many",
				  .what = "rank 0's time per message flooding K ranks at once", .shape = "over K=1" };
	if (pair_match(m) || curve_match(m, &m->kto1) || curve_match(m, &m->many)) {
		mesh_cmp_free(m);
		return NULL;
	}
	return m;
}

void mesh_cmp_free(struct mesh_cmp *m)
{
	if (!m)
		return;
	free(m->pairs);
	free(m->kto1.rows);
	free(m->many.rows);
	free(m);
}

int mesh_cmp_common(const struct mesh_cmp *m)
{
	int n = m->kto1.n + m->many.n;

	for (int i = 0; i < m->npairs; i++)
		n += m->pairs[i].eel.have + m->pairs[i].g.have;
	return n;
}

static void ratio(char *buf, size_t n, double a, double b)
{
	if (a > 0 && isfinite(b))
		snprintf(buf, n, b / a >= 100 ? "%.0f" : b / a >= 0.01 ? "%.2f" : "%.1e", b / a);
	else
		snprintf(buf, n, "-");
}

static void noise_pct(char *buf, size_t n, const struct verdict *v, double a)
{
	if (isfinite(v->noise) && a != 0)
		snprintf(buf, n, v->noise / fabs(a) < 10 ? "%.1f %%" : "%.0f %%", v->noise / fabs(a) * 100);
	else
		snprintf(buf, n, "-");
}

static void fig_row(FILE *f, const struct prow *r, int hw, const char *name, const struct fig *x)
{
	char pair[24], va[32], vb[32], ba[16], nz[16], vd[40];

	if (!x->have)
		return;
	snprintf(pair, sizeof(pair), "%d->%d", r->from, r->to);
	cmp_fmt(va, sizeof(va), x->a, "ns");
	cmp_fmt(vb, sizeof(vb), x->b, "ns");
	ratio(ba, sizeof(ba), x->a, x->b);
	noise_pct(nz, sizeof(nz), &x->v, x->a);
	snprintf(vd, sizeof(vd), "%s%s", x->v.word, x->v.why);
	fprintf(f, "  %-7s %-*s %-4s %12s %12s %7s %8s  %-22s %s\n", pair, hw, r->hosts, name, va, vb, ba, nz,
		vd, x->flag_a && x->flag_b ? "A B" : x->flag_a ? "A" : x->flag_b ? "B" : "");
}

static void pairs_print(const struct mesh_cmp *m, FILE *f)
{
	const struct prow *big = NULL;
	const struct fig *bigf = NULL;
	int hw = 5, worse = 0, better = 0, same = 0;
	double ka = num_at(m->A->root, "allpairs.flag_k"), kb = num_at(m->B->root, "allpairs.flag_k");
	const char *sa = jr_str(m->A->root, "allpairs.schedule"), *sb = jr_str(m->B->root, "allpairs.schedule");

	for (int i = 0; i < m->npairs; i++)
		if ((int)strlen(m->pairs[i].hosts) > hw)
			hw = (int)strlen(m->pairs[i].hosts);
	fprintf(f, "\n  allpairs: every ordered pair at its medians (A %s, B %s; Bell et al. 2003 §4.1, §4.2)\n",
		sa && !strcmp(sa, "serial") ? "serial" : "round-robin", sb && !strcmp(sb, "serial") ? "serial" : "round-robin");
	fprintf(f, "  noise: each run's min..median of the pair, combined; flagged: beyond that run's median + k x MAD "
		"(A k = %g, B k = %g)\n", ka, kb);
	fprintf(f, "  %-7s %-*s %-4s %12s %12s %7s %8s  %-22s %s\n", "pair", hw, "hosts", "fig", "A", "B", "B/A", "noise",
		"verdict", "flagged");
	for (int i = 0; i < m->npairs; i++) {
		const struct prow *r = &m->pairs[i];

		fig_row(f, r, hw, "EEL", &r->eel);
		fig_row(f, r, hw, "g", &r->g);
		worse += !strcmp(r->word, "worse");
		better += !strcmp(r->word, "better");
		same += !strcmp(r->word, "same");
		for (int k = 0; k < 2; k++) {
			const struct fig *x = k ? &r->g : &r->eel;

			if (x->have && isfinite(x->v.pct) && (!bigf || fabs(x->v.pct) > fabs(bigf->v.pct))) {
				big = r;
				bigf = x;
			}
		}
	}
	for (int s = 0; s < 2; s++)
		if (m->nonly[s])
			fprintf(f, "  pairs measured only in %c (%d): %s%s\n", "AB"[s], m->nonly[s], m->only[s],
				m->nonly[s] > 6 ? ", ..." : "");
	fprintf(f, "  pairs: %d compared: %d worse, %d better, %d same", m->npairs, worse, better, same);
	if (bigf && bigf->v.pct != 0)
		fprintf(f, "; the largest change: %d->%d (%s) %s %+.1f %% (%.1f -> %.1f ns, %s)", big->from, big->to,
			big->hosts, bigf == &big->eel ? "EEL" : "g", bigf->v.pct, bigf->a, bigf->b, bigf->v.word);
	fprintf(f, "\n");
}

static void curve_print(const struct curve *c, FILE *f)
{
	if (c->note[0])
		fprintf(f, "\n  %s\n", c->note);
	if (!c->rows)
		return;
	fprintf(f, "\n  %s: %s (Culler et al. 1996, \"Validation of communication scaling\")\n", c->label, c->what);
	fprintf(f, "  each point a minimum over runs, no spread kept: the threshold alone decides\n");
	fprintf(f, "  %4s %12s %12s %7s %10s %10s  %s\n", "K", "A", "B", "B/A", c->shape, c->shape, "verdict");
	fprintf(f, "  %4s %12s %12s %7s %10s %10s\n", "", "", "", "", "(A)", "(B)");
	for (int i = 0; i < c->n; i++) {
		const struct crow *r = &c->rows[i];
		char va[32], vb[32], ba[16], ra[16], rb[16];

		cmp_fmt(va, sizeof(va), r->a, "ns");
		cmp_fmt(vb, sizeof(vb), r->b, "ns");
		ratio(ba, sizeof(ba), r->a, r->b);
		ratio(ra, sizeof(ra), 1, r->ra);
		ratio(rb, sizeof(rb), 1, r->rb);
		fprintf(f, "  %4d %12s %12s %7s %10s %10s  %s%s\n", r->k, va, vb, ba, ra, rb, r->v.word, r->v.why);
	}
	for (int s = 0; s < 2; s++)
		if (c->only[s][0])
			fprintf(f, "  K only in %c: %s\n", "AB"[s], c->only[s]);
}

/* "A runs 4 ranks at softnic, B ..." and where their ranks differ. */
static void notes_print(const struct mesh_cmp *m, FILE *f)
{
	char da[120], db[120], ua[120], ub[120];
	const char *sua = jr_str(m->A->root, "launch.uri"), *sub = jr_str(m->B->root, "launch.uri");

	mesh_describe(m->A, da, sizeof(da));
	mesh_describe(m->B, db, sizeof(db));
	snprintf(ua, sizeof(ua), "%s", sua ? sua : "?");
	snprintf(ub, sizeof(ub), "%s", sub ? sub : "?");
	jr_printable(ua);
	jr_printable(ub);
	fprintf(f, "  launched: A %s (rank 0's NIC %s), B %s (%s)\n", da, ua, db, ub);
	for (size_t r = 0; r < jr_len(m->A->root, "launch.ranks_at"); r++) {
		const struct jr_val *x = jr_at(jr_get(m->A->root, "launch.ranks_at"), r);
		const struct jr_val *y = cmp_by_num(jr_get(m->B->root, "launch.ranks_at"), "rank", num_at(x, "rank"), NULL, 0);
		const char *na = jr_str(x, "nic"), *nb = jr_str(y, "nic");

		if (na && nb && strcmp(na, nb))
			fprintf(f, "  note: rank %.0f measured with another NIC in B: the pairs say how they differ, "
				"not whether one regressed\n", num_at(x, "rank"));
	}
}

int mesh_cmp_print(const struct mesh_cmp *m, FILE *f)
{
	int worse = 0, k = 0;

	notes_print(m, f);
	if (jr_get(m->A->root, "allpairs") && jr_get(m->B->root, "allpairs"))
		pairs_print(m, f);
	else if (jr_get(m->A->root, "allpairs") || jr_get(m->B->root, "allpairs"))
		fprintf(f, "\n  allpairs only in %s: not compared\n", jr_get(m->A->root, "allpairs") ? "A" : "B");
	curve_print(&m->kto1, f);
	curve_print(&m->many, f);

	for (int i = 0; i < m->npairs; i++)
		worse += (m->pairs[i].eel.have && !strcmp(m->pairs[i].eel.v.word, "worse")) +
			 (m->pairs[i].g.have && !strcmp(m->pairs[i].g.v.word, "worse"));
	for (int i = 0; i < m->kto1.n; i++)
		worse += !strcmp(m->kto1.rows[i].v.word, "worse");
	for (int i = 0; i < m->many.n; i++)
		worse += !strcmp(m->many.rows[i].v.word, "worse");
	if (!worse) {
		fprintf(f, "\neel-compare: no regression beyond %.3g %% and the noise\n", m->thr);
		return 0;
	}
	fprintf(f, "\neel-compare: %d regression%s beyond %.3g %% and the noise:", worse, worse == 1 ? "" : "s", m->thr);
	for (int i = 0; i < m->npairs; i++)
		for (int j = 0; j < 2; j++) {
			const struct fig *x = j ? &m->pairs[i].g : &m->pairs[i].eel;

			if (x->have && !strcmp(x->v.word, "worse"))
				fprintf(f, "%s %d->%d %s %+.1f %%", k++ ? "," : "", m->pairs[i].from, m->pairs[i].to,
					j ? "g" : "EEL", x->v.pct);
		}
	for (int j = 0; j < 2; j++) {
		const struct curve *c = j ? &m->many : &m->kto1;

		for (int i = 0; i < c->n; i++)
			if (!strcmp(c->rows[i].v.word, "worse"))
				fprintf(f, "%s %s K=%d %+.1f %%", k++ ? "," : "", c->label, c->rows[i].k, c->rows[i].v.pct);
	}
	fprintf(f, "\n");
	return worse;
}
