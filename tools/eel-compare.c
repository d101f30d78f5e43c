/* SPDX-License-Identifier: MIT */
/* tools/eel-compare.c — compares two eel-bench runs (JSON, schema eel.run 1..12)
 * for a lab's CI: `eel-compare baseline.json new.json || exit 1`.
 *
 * For every parameter present in both runs it prints A, B, the change in %
 * and a verdict, noise-aware:
 *   - a value measured as a stat (over runs: EEL, the flood point behind g,
 *     bulk T(n) and echo) is compared at its minimum (the figure Bell et al. 2003
 *     reports), and each run brings its own noise: the larger of its
 *     interquartile range (p75 - p25) and of min..median; the stamped stages
 *     are compared at their means (what the breakdown shows), with p25..p75
 *     as the noise, widened by the stage's own uncertainty (schema 7's
 *     unc_ns; before, how far the run's in-place stamp cost sat from a
 *     stamp's cost alone: stamp_accounting). The two runs' noises combine as sqrt(a^2 + b^2); a change
 *     within that is "same".
 *   - o_s and o_r (over their sweeps) and G, 1/G and g/G (run by run) bring
 *     the noise of those (schema 3; the same rule);
 *   - decompose's parts obtained by stamps bring the noise of the stamped
 *     stage of the same name (they are its mean);
 *   - any other single value (L, the signature's and the fits' parameters,
 *     decompose's other parts, the size sweep's t_typical and BW per size)
 *     has no noise of its own: the threshold alone decides.
 *   - a figure unmeasured (null or absent; a G of 0 before schema 11) is
 *     counted as only in one run; one there with the wrong type (a string
 *     where a number is) is a damaged document: one line, exit 2.
 *   - EEL's tail (schema 8) is one histogram per run, no spread over runs:
 *     p99 and p99.9 bring their order statistics' interval (compare_tail.h)
 *     and a threshold of TAIL_THRESHOLD at least; the max is "changed" at most.
 *   - beyond the noise, a change smaller than the threshold (default 5%) is
 *     still "same"; larger ones are "better" or "worse": lower is better for
 *     times and per-byte costs, higher for bandwidths. Derived figures with
 *     no better direction (M, the overlap potential, the limit, fit errors,
 *     T0 of T0 + n/R, which Culler et al. 1996 shows misleads) say "changed" at most.
 *   - a figure either run warned of noise on (warning_figures[], schema 8:
 *     kind "noise" naming it) is not compared: the line says "not compared
 *     (noise)" and, under the table, which run warned what (compare_noise.c).
 * Two launched runs (mpirun, srun: "launch") are compared pair by pair and K
 * by K instead (tools/compare_mesh.c); a launched run and a run between two
 * hosts have nothing in common (one line, exit 2).
 * Exit status: 0 when nothing is worse, 1 when something regressed (listed at
 * the end), 2 for bad input. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <eel/eel.h>

#include "tools/compare.h"
#include "tools/compare_mesh.h"
#include "tools/compare_tail.h"
#include "tools/compare_provenance.h"
#include "tools/compare_noise.h"
#include "tools/report/doc.h"
#include "tools/stdout_check.h"
#include "method/longopt.h"

#ifndef EEL_GIT
#error "EEL_GIT: tools/version.mk passes it to the objects in VERSION_SRC; list this file there"
#endif

struct item {
	char name[64];
	const char *unit;
	double a, b;
	double noise_a, noise_b;   /* NaN: a single value */
	int one_run;               /* a stat of one run on a side: its noise unknown */
	enum cmp_dir dir;
	double thr;                /* judged at this threshold where above --threshold (the tails), else 0 */
	struct verdict v;
};

#define MAX_ITEMS 512

struct cmp {
	const struct run *A, *B;
	struct item it[MAX_ITEMS];
	int n;
	int only_a, only_b;
	/* the first figure present with the wrong type: a damaged document */
	const struct run *bad_run;
	char bad_name[80];
	const char *bad_path, *bad_type;
	int bad_min; /* the stat's min is what is wrong */
};

static double noise_of(const struct stat5 *s)
{
	double iqr = s->p75 - s->p25, low = s->median - s->min;

	if (!isfinite(iqr))
		iqr = 0;
	if (!isfinite(low))
		low = 0;
	return iqr > low ? iqr : low;
}

static struct item *add(struct cmp *c, const char *name, const char *unit, enum cmp_dir d)
{
	struct item *it;

	if (c->n == MAX_ITEMS)
		return NULL;
	it = &c->it[c->n++];
	snprintf(it->name, sizeof(it->name), "%s", name);
	it->unit = unit;
	it->dir = d;
	it->noise_a = it->noise_b = NAN;
	it->thr = 0;
	return it;
}

/* A figure at path that is there but of the wrong type (a string, a bool,
 * an array where a number is; a stat whose min is not a number) is a
 * damaged document, not a figure left unmeasured (null or absent), which
 * would compare as "only in A": noted in c, the first one (eel-compare then
 * stops, exit 2). stat: the figure is a stat (an object with min). */
static void check_type(struct cmp *c, const struct run *r, const struct jr_val *v, const char *path, int stat,
		       const char *name)
{
	const struct jr_val *o = jr_get(v, path), *m = stat && o && o->type == JR_OBJ ? jr_key(o, "min") : NULL;
	const char *bad = NULL;

	if (!o || o->type == JR_NULL || c->bad_path)
		return;
	if (!stat && o->type != JR_NUM)
		bad = jr_type_name(o->type);
	else if (stat && o->type != JR_OBJ)
		bad = jr_type_name(o->type);
	else if (stat && m && m->type != JR_NUM && m->type != JR_NULL)
		bad = jr_type_name(m->type);
	if (bad) {
		c->bad_run = r;
		snprintf(c->bad_name, sizeof(c->bad_name), "%s", name);
		c->bad_path = path;
		c->bad_type = bad;
		c->bad_min = stat && o->type == JR_OBJ;
	}
}

/* present in one only: counted, not compared */
static int both(struct cmp *c, int ha, int hb)
{
	if (ha && !hb)
		c->only_a++;
	if (hb && !ha)
		c->only_b++;
	return ha && hb;
}

/* G, the bandwidth 1/G and M = g/G (and the bulk LogGP fit's G, which takes
 * it) are figures only where the flood measured G (Bell et al. 2003 section
 * 4.2): null with G.why from schema 11 (no LogGP fit), 0 before
 * (an eel-bench before schema 11 wrote 0 ns/B for "not measured"), so a 0
 * there is a figure left unmeasured, not one to compare. */
static int g_figure(const char *path)
{
	return !strcmp(path, "parameters.G.ns_per_byte") || !strcmp(path, "parameters.bandwidth_bytes_per_ns") ||
	       !strcmp(path, "parameters.M_bytes") || !strcmp(path, "bulk.fits.loggp.G_ns_per_byte");
}

static int num_of(const struct jr_val *v, const char *path, double *x)
{
	return jr_num(v, path, x) && (!g_figure(path) || *x > 0);
}

/* A single value; where both runs say how far it is known (schema 3: o_s and
 * o_r over their sweeps, G, 1/G and g/G run by run: noise_path), that noise. */
static void num_item(struct cmp *c, const char *name, const struct jr_val *a, const struct jr_val *b,
		     const char *path, const char *unit, enum cmp_dir d, const char *noise_path)
{
	double x, y;
	struct stat5 nx, ny;
	struct item *it;

	check_type(c, c->A, a, path, 0, name);
	check_type(c, c->B, b, path, 0, name);
	if (!both(c, num_of(a, path, &x), num_of(b, path, &y)))
		return;
	it = add(c, name, unit, d);
	if (!it)
		return;
	it->a = x;
	it->b = y;
	if (noise_path && stat_at(a, noise_path, &nx) && stat_at(b, noise_path, &ny) && nx.n > 1 && ny.n > 1) {
		it->noise_a = noise_of(&nx);
		it->noise_b = noise_of(&ny);
	}
}

/* A stat compared at its minimum, the figure Bell et al. 2003 reports, with
 * each run's noise. */
static void stat_item(struct cmp *c, const char *name, const struct jr_val *a, const struct jr_val *b,
		      const char *path, const char *unit, enum cmp_dir d)
{
	struct stat5 x, y;
	struct item *it;

	check_type(c, c->A, a, path, 1, name);
	check_type(c, c->B, b, path, 1, name);
	if (!both(c, stat_at(a, path, &x), stat_at(b, path, &y)))
		return;
	it = add(c, name, unit, d);
	if (!it)
		return;
	it->a = x.min;
	it->b = y.min;
	/* one run has no spread to tell its noise by (its p25..p75 is 0 wide):
	 * a single value, the threshold alone decides (it said "noise 0.0 %") */
	if (x.n > 1 && y.n > 1) {
		it->noise_a = noise_of(&x);
		it->noise_b = noise_of(&y);
	}
	it->one_run = x.n <= 1 || y.n <= 1;
}

/* A stat of the stamped rounds (a stage, their total) compared at its mean,
 * as the breakdown shows it and as the stages add up to EEL (at the median
 * in a run that gives no mean), with p25..p75 as the noise. */
static void mean_item(struct cmp *c, const char *name, const struct jr_val *a, const struct jr_val *b,
		      const char *path)
{
	struct stat5 x, y;
	struct item *it;

	if (!both(c, stat_at(a, path, &x), stat_at(b, path, &y)))
		return;
	it = add(c, name, "ns", CMP_LOWER);
	if (!it)
		return;
	it->a = isfinite(x.mean) ? x.mean : x.median;
	it->b = isfinite(y.mean) ? y.mean : y.median;
	it->noise_a = x.p75 - x.p25;
	it->noise_b = y.p75 - y.p25;
}

/* The member of array arr whose key field equals the string want. */
static const struct jr_val *by_name(const struct jr_val *arr, const char *key, const char *want)
{
	for (size_t i = 0; i < jr_len(arr, ""); i++) {
		const char *s = jr_str(jr_at(arr, i), key);

		if (s && !strcmp(s, want))
			return jr_at(arr, i);
	}
	return NULL;
}

/* EEL's tail (schema 8, parameters.eel_tail): one histogram per run, no spread
 * over runs. p99 and p99.9 bring their own order-statistic interval as the
 * noise (how well the run's rounds pin them) and are judged at
 * TAIL_THRESHOLD at least (how far they move between runs, measured); the
 * max is one round: "changed" at most. */
static void tail_items(struct cmp *c)
{
	static const struct { const char *name, *key; double q; } tq[] = {
		{ "EEL tail p99", "p99_ns", 0.99 }, { "EEL tail p99.9", "p99_9_ns", 0.999 },
	};
	const struct jr_val *ta = jr_get(c->A->root, "parameters.eel_tail"), *tb = jr_get(c->B->root, "parameters.eel_tail");
	double na, nb;

	for (size_t k = 0; k < sizeof(tq) / sizeof(tq[0]); k++) {
		int at = c->n;

		num_item(c, tq[k].name, ta, tb, tq[k].key, "ns", CMP_LOWER, NULL);
		if (c->n == at)
			continue;
		c->it[at].thr = TAIL_THRESHOLD;
		if (tail_quantile_noise(ta, tq[k].q, &na) && tail_quantile_noise(tb, tq[k].q, &nb)) {
			c->it[at].noise_a = na;
			c->it[at].noise_b = nb;
		}
	}
	num_item(c, "EEL tail max", ta, tb, "max_ns", "ns", CMP_INFO, NULL);
}

/* g is a single number, but the flood point it came from is a stat: its noise. */
static void g_item(struct cmp *c)
{
	const struct jr_val *a = c->A->root, *b = c->B->root;
	double ga, gb;
	struct stat5 sa, sb;
	struct item *it;
	const struct jr_val *pa, *pb;

	check_type(c, c->A, a, "parameters.g.ns", 0, "g");
	check_type(c, c->B, b, "parameters.g.ns", 0, "g");
	if (!both(c, jr_num(a, "parameters.g.ns", &ga), jr_num(b, "parameters.g.ns", &gb)))
		return;
	it = add(c, "g", "ns", CMP_LOWER);
	if (!it)
		return;
	it->a = ga;
	it->b = gb;
	pa = cmp_by_num(jr_get(a, "curves.flood"), "size", num_at(a, "parameters.g.size"), "q", num_at(a, "parameters.g.q"));
	pb = cmp_by_num(jr_get(b, "curves.flood"), "size", num_at(b, "parameters.g.size"), "q", num_at(b, "parameters.g.q"));
	if (stat_at(pa, "ns_per_msg", &sa) && stat_at(pb, "ns_per_msg", &sb)) {
		it->one_run = sa.n <= 1 || sb.n <= 1;
		if (!it->one_run) {
			it->noise_a = noise_of(&sa);
			it->noise_b = noise_of(&sb);
		}
	}
}

/* How far a run's stamped stages may sit from where a stamp costing its cost
 * alone would put them: each stage is given less the stamp that ends it at the
 * run's in-place estimate (breakdown.c), which moves from run to run (here
 * 14 and 25 ns against 11 alone); two runs' stages differ by that much with
 * nothing else changed. 0 where the run does not say. */
static double stamp_accounting(const struct run *r, const struct jr_val *obj, const char *unc)
{
	double used, alone, u;

	/* schema 7: the stage's own 95% half-width, its stamps' cost in place in it */
	if (obj && jr_num(obj, unc, &u) && isfinite(u))
		return u;
	if (!jr_num(r->root, "breakdown.stamp_used_ns", &used) ||
	    !jr_num(r->root, "breakdown.stamp_alone_ns", &alone) || !isfinite(used - alone))
		return 0;
	return fabs(used - alone);
}

/* A stamped stage (at its mean), each run's noise widened by its stamp
 * accounting (unc: where the stage's uncertainty is, in a and b). */
static void stage_item(struct cmp *c, const char *name, const struct jr_val *a, const struct jr_val *b,
		       const char *path, const char *unc)
{
	int at = c->n;

	mean_item(c, name, a, b, path);
	if (c->n > at) {
		c->it[at].noise_a = hypot(c->it[at].noise_a, stamp_accounting(c->A, a, unc));
		c->it[at].noise_b = hypot(c->it[at].noise_b, stamp_accounting(c->B, b, unc));
	}
}

/* A decompose part obtained by stamps is the mean of the breakdown's stage of
 * that name: it brings that stage's noise (its row, "stage NAME", above),
 * where both runs have the stage. A part of 1 ns that became 2.5 was "worse"
 * by the threshold alone, beside its stage's row saying "same (within
 * noise)" of the same rounds. */
static void stamped_part_noise(struct cmp *c, struct item *it, const struct jr_val *pa, const struct jr_val *pb,
			       const char *name)
{
	const char *ma = jr_str(pa, "method"), *mb = jr_str(pb, "method");
	char stage[64];

	if (!ma || !mb || strcmp(ma, "stamped") || strcmp(mb, "stamped"))
		return;
	snprintf(stage, sizeof(stage), "stage %s", name);
	for (int k = 0; k < c->n; k++)
		if (!strcmp(c->it[k].name, stage)) {
			it->noise_a = c->it[k].noise_a;
			it->noise_b = c->it[k].noise_b;
			return;
		}
}

static void parts(struct cmp *c, const char *arr, const char *label, int is_stat)
{
	const struct jr_val *pa = jr_get(c->A->root, arr), *pb = jr_get(c->B->root, arr);
	char name[64];

	for (size_t i = 0; i < jr_len(pa, ""); i++) {
		const char *n = jr_str(jr_at(pa, i), "name");
		const struct jr_val *qb = n ? by_name(pb, "name", n) : NULL;

		if (!n)
			continue;
		if (!qb) {
			c->only_a++;
			continue;
		}
		snprintf(name, sizeof(name), "%s %s", label, n);
		if (is_stat) {
			stage_item(c, name, jr_at(pa, i), qb, "ns", "unc_ns");
		} else {
			int at = c->n;

			num_item(c, name, jr_at(pa, i), qb, "ns", "ns", CMP_LOWER, NULL);
			if (c->n > at)
				stamped_part_noise(c, &c->it[at], jr_at(pa, i), qb, n);
		}
	}
	for (size_t i = 0; i < jr_len(pb, ""); i++) {
		const char *n = jr_str(jr_at(pb, i), "name");

		if (n && !by_name(pa, "name", n))
			c->only_b++;
	}
}

/* One figure of a section measured per size (bulk's points, the sweep's
 * sizes): its name before ", n = SIZE B", its key, unit and direction, and
 * whether it is a stat (compared at its minimum) or a single value. */
struct size_fig {
	const char *label, *key, *unit;
	enum cmp_dir d;
	int stat;
};

/* The figures of each size both runs have (arr: the section's array, size
 * its key of the size); a size in one run only counts its figures as only
 * in that run. */
static void by_size(struct cmp *c, const char *arr, const char *size, const struct size_fig *f, int nf)
{
	const struct jr_val *pa = jr_get(c->A->root, arr), *pb = jr_get(c->B->root, arr);
	char name[96];
	double n;

	for (size_t i = 0; i < jr_len(pa, ""); i++) {
		const struct jr_val *qa = jr_at(pa, i), *qb;

		if (!jr_num(qa, size, &n))
			continue;
		if (!(qb = cmp_by_num(pb, size, n, NULL, 0))) {
			c->only_a += nf;
			continue;
		}
		for (int k = 0; k < nf; k++) {
			snprintf(name, sizeof(name), "%s, n = %.0f B", f[k].label, n);
			if (f[k].stat)
				stat_item(c, name, qa, qb, f[k].key, f[k].unit, f[k].d);
			else
				num_item(c, name, qa, qb, f[k].key, f[k].unit, f[k].d, NULL);
		}
	}
	for (size_t i = 0; i < jr_len(pb, ""); i++)
		if (jr_num(jr_at(pb, i), size, &n) && !cmp_by_num(pa, size, n, NULL, 0))
			c->only_b += nf;
}

/* Bulk's points (Culler et al. 1996): T(n) and the echo at their minima, o_s(n). */
static void bulk(struct cmp *c)
{
	static const struct size_fig f[] = {
		{ "bulk T(n)", "t_ns", "ns", CMP_LOWER, 1 },
		{ "bulk echo", "echo_ns", "ns", CMP_LOWER, 1 },
		{ "bulk o_s(n)", "o_s_ns", "ns", CMP_LOWER, 0 },
	};

	by_size(c, "bulk.points", "size", f, 3);
}

/* The size sweep (perftest's ib_write_lat and ib_write_bw columns), size by
 * size: the typical one-way time (the median, perftest's t_typical) and the
 * flood's bandwidth; the threshold alone (one histogram and one flood a
 * size: no spread over runs). */
static void sweep(struct cmp *c)
{
	static const struct size_fig f[] = {
		{ "sweep t_typical", "t_typical_ns", "ns", CMP_LOWER, 0 },
		{ "sweep BW", "bw_avg_gbit_per_s", "Gb/s", CMP_HIGHER, 0 },
	};

	by_size(c, "sweep.sizes", "bytes", f, 2);
}

static void collect(struct cmp *c)
{
	const struct jr_val *a = c->A->root, *b = c->B->root;
	/* stat: 0 a single value (noise: the path of its spread, if any), 1 a
	 * stat at its minimum, 2 a stat of the stamped rounds at its mean */
	static const struct { const char *name, *path, *unit; enum cmp_dir d; int stat; const char *noise; } simple[] = {
		{ "EEL", "parameters.eel.ns", "ns", CMP_LOWER, 1, NULL },
		{ "EEL with stamps", "parameters.eel_stamped.ns", "ns", CMP_LOWER, 1, NULL },
		{ "o_s", "parameters.o_s.ns", "ns", CMP_LOWER, 0, "parameters.o_s.sweeps" },
		{ "o_r", "parameters.o_r.ns", "ns", CMP_LOWER, 0, "parameters.o_r.sweeps" },
		{ "G", "parameters.G.ns_per_byte", "ns/B", CMP_LOWER, 0, "parameters.G.runs" },
		{ "bandwidth (1/G)", "parameters.bandwidth_bytes_per_ns", "B/ns", CMP_HIGHER, 0, "parameters.bandwidth_runs" },
		{ "M = g/G", "parameters.M_bytes", "B", CMP_INFO, 0, "parameters.M_runs" },
		{ "EEL - (o_s + o_r)", "parameters.overlap_potential.ns", "ns", CMP_INFO, 0, NULL },
		{ "L", "parameters.L.ns", "ns", CMP_LOWER, 0, NULL },
		{ "limit (one way)", "limit.one_way_ns", "ns", CMP_INFO, 1, NULL },
		{ "stage total", "breakdown.total_ns", "ns", CMP_LOWER, 2, NULL },
		{ "decompose EEL", "decompose.eel_ns", "ns", CMP_LOWER, 0, NULL },
		{ "signature RTT", "signature.rtt_ns", "ns", CMP_LOWER, 0, NULL },
		{ "signature o_s", "signature.o_s_ns", "ns", CMP_LOWER, 0, NULL },
		{ "signature g", "signature.g_ns", "ns", CMP_LOWER, 0, NULL },
		{ "signature o_r", "signature.o_r_ns", "ns", CMP_LOWER, 0, NULL },
		{ "signature L", "signature.L_ns", "ns", CMP_LOWER, 0, NULL },
		{ "fit T0 (T0 + n/R)", "bulk.fits.t0r.t0_ns", "ns", CMP_INFO, 0, NULL },
		{ "fit R (T0 + n/R)", "bulk.fits.t0r.r_bytes_per_ns", "B/ns", CMP_HIGHER, 0, NULL },
		{ "fit Hockney alpha", "bulk.fits.hockney.alpha_ns", "ns", CMP_LOWER, 0, NULL },
		{ "fit Hockney beta", "bulk.fits.hockney.beta_ns_per_byte", "ns/B", CMP_LOWER, 0, NULL },
		{ "fit Hockney n_1/2", "bulk.fits.hockney.n_half_bytes", "B", CMP_LOWER, 0, NULL },
		{ "fit Hockney 1/beta", "bulk.fits.hockney.bw_bytes_per_ns", "B/ns", CMP_HIGHER, 0, NULL },
		{ "fit Hockney error", "bulk.fits.hockney.err", "", CMP_INFO, 0, NULL },
		{ "fit Taboada et al. 2003 t0", "bulk.fits.model003.t0_ns", "ns", CMP_LOWER, 0, NULL },
		{ "fit Taboada et al. 2003 ti", "bulk.fits.model003.ti_ns", "ns", CMP_LOWER, 0, NULL },
		{ "fit Taboada et al. 2003 tb", "bulk.fits.model003.tb_ns_per_byte", "ns/B", CMP_LOWER, 0, NULL },
		{ "fit Taboada et al. 2003 1/tb", "bulk.fits.model003.bw_bytes_per_ns", "B/ns", CMP_HIGHER, 0, NULL },
		{ "fit Taboada et al. 2003 1/t0", "bulk.fits.model003.specific_perf_per_ns", "/ns", CMP_HIGHER, 0, NULL },
		{ "fit Taboada et al. 2003 error", "bulk.fits.model003.err", "", CMP_INFO, 0, NULL },
		{ "fit LogGP o_s", "bulk.fits.loggp.o_s_ns", "ns", CMP_LOWER, 0, NULL },
		{ "fit LogGP L", "bulk.fits.loggp.L_ns", "ns", CMP_LOWER, 0, NULL },
		{ "fit LogGP o_r", "bulk.fits.loggp.o_r_ns", "ns", CMP_LOWER, 0, NULL },
		{ "fit LogGP G", "bulk.fits.loggp.G_ns_per_byte", "ns/B", CMP_LOWER, 0, NULL },
		{ "fit LogGP error", "bulk.fits.loggp.err", "", CMP_INFO, 0, NULL },
	};

	for (size_t k = 0; k < sizeof(simple) / sizeof(simple[0]); k++) {
		if (k == 2)
			tail_items(c);
		if (k == 4)
			g_item(c);
		if (simple[k].stat == 2)
			mean_item(c, simple[k].name, a, b, simple[k].path);
		else if (simple[k].stat)
			stat_item(c, simple[k].name, a, b, simple[k].path, simple[k].unit, simple[k].d);
		else
			num_item(c, simple[k].name, a, b, simple[k].path, simple[k].unit, simple[k].d,
				 simple[k].noise);
		if (k == 10) {
			parts(c, "breakdown.parts", "stage", 1);
			stage_item(c, "stage turn", a, b, "breakdown.turn_ns", "breakdown.turn.unc_ns");
		}
		if (k == 11)
			parts(c, "decompose.parts", "decompose", 0);
	}
	bulk(c);
	sweep(c);
}

/* The two runs, and what a reader must know before trusting the comparison. */
static void head(const struct run *A, const struct run *B)
{
	char na[160], nb[160], ha[80], hb[80], ca[40], cb[40];
	const char *sha = jr_str(A->root, "machine.hostname"), *shb = jr_str(B->root, "machine.hostname");

	/* the documents' text as the terminal may print it: no escape sequence
	 * from a file reaches it (jr_printable, as compare_mesh.c does) */
	run_nic_name(A, na, sizeof(na));
	run_nic_name(B, nb, sizeof(nb));
	snprintf(ca, sizeof(ca), "%s", jr_str(A->root, "created") ? jr_str(A->root, "created") : "?");
	snprintf(cb, sizeof(cb), "%s", jr_str(B->root, "created") ? jr_str(B->root, "created") : "?");
	jr_printable(na);
	jr_printable(nb);
	jr_printable(ca);
	jr_printable(cb);
	printf("eel-compare: A = %s (%s, %s)\n", A->path, na, ca);
	printf("             B = %s (%s, %s)\n", B->path, nb, cb);
	if (strcmp(na, nb))
		printf("  note: A and B measured different NICs: the comparison says how they differ, not whether one regressed\n");
	if (sha && shb && strcmp(sha, shb)) {
		snprintf(ha, sizeof(ha), "%s", sha);
		snprintf(hb, sizeof(hb), "%s", shb);
		jr_printable(ha);
		jr_printable(hb);
		printf("  note: A and B ran on different hosts (%s, %s)\n", ha, hb);
	}
}

/* Two launched runs (mpirun, srun): their pairs and curves (compare_mesh.h). */
static int compare_launched(const struct run *A, const struct run *B, double thr)
{
	struct mesh_cmp *m = mesh_cmp_new(A, B, thr);
	int worse;

	if (!m) {
		fprintf(stderr, "eel-compare: out of memory\n");
		return 2;
	}
	if (!mesh_cmp_common(m)) {
		fprintf(stderr, "eel-compare: %s and %s (both launched runs) have no pair or K in common: compare runs of "
			"the same patterns on the same ranks and hosts (eel-bench -t allpairs,k-to-1,1-to-many)\n",
			A->path, B->path);
		mesh_cmp_free(m);
		return 2;
	}
	provenance_diff(A, B, stdout);
	head(A, B);
	printf("  threshold %.3g %%\n", thr);
	worse = mesh_cmp_print(m, stdout);
	mesh_cmp_free(m);
	return worse ? 1 : 0;
}

/* Nothing to compare, said on one line (1): a damaged document, or no
 * figure in common (L: the one launched run, if any). */
static int refused_whole(const struct cmp *c, const struct run *L)
{
	char what[120];

	if (c->bad_path) {
		fprintf(stderr, "eel-compare: %s: %s (its %s%s) is %s, not a number: the document is damaged: compare "
			"the file eel-bench --json wrote\n", c->bad_run->path, c->bad_name, c->bad_path,
			c->bad_min ? ".min" : "", c->bad_type);
		return 1;
	}
	if (c->n)
		return 0;
	if (L) {
		mesh_describe(L, what, sizeof(what));
		fprintf(stderr, "eel-compare: %s is a launched run (%s) and %s a run between two hosts: they have no "
			"section in common: compare two launched runs (mpirun or srun eel-bench) or two runs between two "
			"hosts\n", L->path, what, L == c->A ? c->B->path : c->A->path);
	} else {
		fprintf(stderr, "eel-compare: %s and %s have no parameter in common: compare two runs of the same tests "
			"(eel-bench -t)\n", c->A->path, c->B->path);
	}
	return 1;
}

/* Two runs between two hosts (or one of them launched: its pairs and curves
 * have nothing to meet in the other). */
static int compare_hosts(const struct run *A, const struct run *B, double thr)
{
	struct cmp *c = calloc(1, sizeof(*c));
	const struct run *L = mesh_launched(A) ? A : mesh_launched(B) ? B : NULL;
	static struct noise_refusal refused[MAX_ITEMS];
	char what[120];
	int worse = 0, rc, nrefused = 0;

	if (!c) {
		fprintf(stderr, "eel-compare: out of memory\n");
		return 2;
	}
	c->A = A;
	c->B = B;
	collect(c);
	if (refused_whole(c, L)) {
		free(c);
		return 2;
	}
	if (L)
		mesh_describe(L, what, sizeof(what));
	provenance_diff(A, B, stdout);
	head(A, B);
	if (L)
		printf("  note: only %s is a launched run: its %s are not compared\n", L == A ? "A" : "B", what);
	printf("  threshold %.3g %%; noise: each run's p25..p75 or min..median where the figure is a stat, combined\n", thr);
	for (int i = 0; i < c->n; i++)
		if (!strncmp(c->it[i].name, "EEL tail", 8)) {
			printf("  EEL tail: one histogram per run, no spread over runs: p99 and p99.9 at %.3g %%, their noise "
			       "how well each\n  run's rounds pin them (order statistics, 95%%); the max is one round: "
			       "changed at most\n", thr > TAIL_THRESHOLD ? thr : TAIL_THRESHOLD);
			break;
		}
	printf("\n");
	printf("  %-30s %14s %14s %9s %9s  %s\n", "parameter", "A", "B", "change", "noise", "verdict");

	for (int i = 0; i < c->n; i++) {
		struct item *it = &c->it[i];
		char va[32], vb[32], ch[16], nz[16];
		const char *figs = noise_item_figures(it->name), *wa = noise_warning(A, figs), *wb = noise_warning(B, figs);

		/* a figure either run warned of noise on: its change is the machine's (compare_noise.h) */
		if (wa || wb) {
			cmp_fmt(va, sizeof(va), it->a, it->unit);
			cmp_fmt(vb, sizeof(vb), it->b, it->unit);
			printf("  %-30s %14s %14s %9s %9s  not compared (noise)\n", it->name, va, vb, "", "");
			refused[nrefused++] = (struct noise_refusal){ it->name, wb ? "B" : "A", wb ? wb : wa };
			continue;
		}
		cmp_judge(it->a, it->b, it->noise_a, it->noise_b, it->dir, it->thr > thr ? it->thr : thr, &it->v);
		cmp_fmt(va, sizeof(va), it->a, it->unit);
		cmp_fmt(vb, sizeof(vb), it->b, it->unit);
		if (isfinite(it->v.pct))
			snprintf(ch, sizeof(ch), "%+.1f %%", it->v.pct);
		else
			snprintf(ch, sizeof(ch), "%s", it->v.pct > 0 ? "+inf" : "-inf");
		if (isfinite(it->v.noise) && it->a != 0)
			snprintf(nz, sizeof(nz), "%.1f %%", it->v.noise / fabs(it->a) * 100);
		else
			snprintf(nz, sizeof(nz), "-");
		printf("  %-30s %14s %14s %9s %9s  %s%s\n", it->name, va, vb, ch, nz, it->v.word,
		       it->one_run && strcmp(it->v.word, "same") ? " (one run: its noise unknown, the threshold alone)"
								 : it->v.why);
		if (!strcmp(it->v.word, "worse"))
			worse++;
	}
	if (nrefused) {
		printf("\n");
		noise_print(stdout, refused, nrefused);
	}
	if (c->only_a || c->only_b)
		printf("\n  not compared: %d figure%s only in A, %d only in B (tests or sizes run in one only, or a figure one left unmeasured: null, or a G of 0 before schema 11)\n", c->only_a,
		       c->only_a == 1 ? "" : "s", c->only_b);
	if (worse) {
		int k = 0;

		printf("\neel-compare: %d regression%s beyond %.3g %% and the noise:", worse, worse == 1 ? "" : "s", thr);
		for (int i = 0; i < c->n; i++)
			if (c->it[i].v.word && !strcmp(c->it[i].v.word, "worse")) /* none: not compared (noise) */
				printf("%s %s %+.1f %%", k++ ? "," : "", c->it[i].name, c->it[i].v.pct);
		printf("\n");
		rc = 1;
	} else {
		printf("\neel-compare: no regression beyond %.3g %% and the noise%s\n", thr,
		       nrefused ? " in the figures compared (those a run warned of noise on were not)" : "");
		rc = 0;
	}
	free(c);
	return rc;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: eel-compare A.json B.json [--threshold PCT]\n"
		   "\n"
		   "Compares run B with run A (both written by eel-bench --json) parameter by\n"
		   "parameter: A, B, the change in %% and a verdict. A change within the runs'\n"
		   "own noise, or smaller than the threshold, is \"same\"; lower is better for\n"
		   "times, higher for bandwidths. Two launched runs (mpirun or srun eel-bench)\n"
		   "are compared pair by pair (EEL and g at their medians) and K by K (k-to-1,\n"
		   "1-to-many).\n"
		   "\n"
		   "  -t, --threshold PCT  smallest change in %% that counts (default 5)\n"
		   "  -V, --version        the release and the git commit of this build\n"
		   "  -h, --help\n"
		   "\n"
		   "Exit status: 0 nothing worse, 1 something regressed (listed), 2 bad input.\n"
		   "In CI: eel-compare baseline.json new.json || exit 1\n"
		   "Full reference: man eel-compare (or docs/man/eel-compare.1.md)\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "threshold", required_argument, 0, 't' }, { "version", no_argument, 0, 'V' },
		{ "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 },
	};
	double thr = 5;
	struct run A, B;
	char err[1024];
	static const char shortopts[] = ":t:Vh";
	char msg[400];
	int o, rc;

	stdout_check_at_exit("eel-compare");
	if (longopt_check(argc, argv, shortopts, opts, NULL, msg, sizeof(msg))) {
		fprintf(stderr, "eel-compare: %s: see eel-compare --help\n", msg);
		return 2;
	}
	opterr = 0; /* its messages are ours, one line each */
	while ((o = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
		char *end;

		switch (o) {
		case 't':
			thr = strtod(optarg, &end);
			if (end == optarg || *end || !isfinite(thr) || thr < 0 || thr > 1000) {
				fprintf(stderr, "eel-compare: --threshold '%s' is not a percentage: give a number from 0 to 1000, "
					"e.g. --threshold 5\n", optarg);
				return 2;
			}
			break;
		case 'V':
			printf("eel-compare %s (git %s)\n", EEL_VERSION, EEL_GIT);
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		case ':':
			fprintf(stderr, "eel-compare: %s needs a value: see eel-compare --help\n", argv[optind - 1]);
			return 2;
		default:
			if (optopt)
				fprintf(stderr, "eel-compare: unknown option '-%c': see eel-compare --help\n", optopt);
			else
				fprintf(stderr, "eel-compare: unknown option '%s': see eel-compare --help\n", argv[optind - 1]);
			return 2;
		}
	}
	if (argc - optind != 2) {
		fprintf(stderr, "eel-compare: give two runs, A (the baseline) and B: eel-compare A.json B.json [--threshold PCT]\n");
		return 2;
	}
	if (run_open(&A, argv[optind], "eel-compare", err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	if (run_open(&B, argv[optind + 1], "eel-compare", err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		run_close(&A);
		return 2;
	}
	rc = mesh_launched(&A) && mesh_launched(&B) ? compare_launched(&A, &B, thr) : compare_hosts(&A, &B, thr);
	run_close(&A);
	run_close(&B);
	return rc;
}
