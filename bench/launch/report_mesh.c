/* SPDX-License-Identifier: MIT */
/* bench/launch/report_mesh.c — rank 0's report of the patterns (bench/launch/mesh.h): the
 * table, and the JSON document (schema "eel.run" 5, docs/json.md). */
#include <stdio.h>
#include <string.h>

#include "bench/report/json.h"
#include "mesh.h"
#include "bench/report/outfile.h"
#include "bench/report/report.h"
#include "bench/report/safe_text.h"
#include "bench/provenance.h"

/* Pairs far from the rest: beyond the pairs' median + k x MAD (the median
 * absolute deviation), for EEL's and g's medians alike. */
void mesh_flags_of(const struct mesh *m, const struct rank_res *all, double k, struct mesh_flags *f)
{
	static double e[MESH_MAX * MESH_MAX], g[MESH_MAX * MESH_MAX];
	int n = 0;

	memset(f, 0, sizeof(*f));
	f->k = k;
	for (int a = 0; a < m->size; a++)
		for (int b = 0; b < m->size; b++)
			if (a != b && all[a].to[b].done) {
				e[n] = all[a].to[b].eel_median;
				g[n++] = all[a].to[b].g_median;
			}
	f->eel_mad = mad_of(e, n, &f->eel_median);
	f->g_mad = mad_of(g, n, &f->g_median);
	f->eel_limit = f->eel_median + k * f->eel_mad;
	f->g_limit = f->g_median + k * f->g_mad;
}

static int flagged_eel(const struct mesh_flags *f, const struct pair_res *p)
{
	return p->done && p->eel_median > f->eel_limit;
}

static int flagged_g(const struct mesh_flags *f, const struct pair_res *p)
{
	return p->done && p->g_median > f->g_limit;
}

/* Any rank's machine oversubscribed (mesh.c judge_oversub): its waits
 * yielded, and allpairs went one pair at a time. */
static int oversubscribed(const struct mesh *m)
{
	for (int r = 0; r < m->size; r++)
		if (m->ep[r].oversub)
			return 1;
	return 0;
}

static const char *host(const struct mesh *m, int r, char *buf, size_t n)
{
	return safe_text(m->ep[r].host, buf, n);
}

static void allpairs_table(FILE *f, const struct mesh *m, const struct cli *c, const struct rank_res *all)
{
	const struct plan *p = &c->plan;
	struct mesh_flags fl;
	int nflag = 0;
	char h1[80], h2[80], n1[80], n2[80];

	mesh_flags_of(m, all, c->flag_k, &fl);
	fprintf(f, "\n  allpairs: every ordered pair, %s (Bell et al. 2003 §4.1, §4.2)\n",
		c->serial ? "one pair at a time (--serial)" :
		m->serial ? "one pair at a time (oversubscribed: a machine with more busy ranks than cores)" :
			    "each round's disjoint pairs at once (round-robin schedule)");
	fprintf(f, "  EEL: RTT/2 of each 8-byte round trip (%u runs x %u); g: ns per %u-byte put at the best depth "
		"of %u..%u, over %u runs\n", p->runs, p->iters, p->sizes[0], p->depths[0], p->depths[p->ndepths - 1],
		p->flood_runs);
	fprintf(f, "  %-9s %10s %10s %10s %10s   %9s %9s %9s %4s\n", "from->to", "EEL min", "median", "p99",
		"Bell min", "g min", "median", "p99", "q");
	for (int a = 0; a < m->size; a++)
		for (int b = 0; b < m->size; b++) {
			const struct pair_res *r = &all[a].to[b];
			char ft[32];

			if (a == b)
				continue;
			snprintf(ft, sizeof(ft), "%d->%d", a, b);
			if (!r->done) {
				fprintf(f, "  %-9s not measured\n", ft);
				continue;
			}
			fprintf(f, "  %-9s %10.1f %10.1f %10.1f %10.1f   %9.1f %9.1f %9.1f %4u%s%s\n", ft, r->eel_min,
				r->eel_median, r->eel_p99, r->eel_bell, r->g_min, r->g_median, r->g_p99, r->g_q,
				flagged_eel(&fl, r) ? "  EEL!" : "", flagged_g(&fl, r) ? "  g!" : "");
			nflag += flagged_eel(&fl, r) || flagged_g(&fl, r);
		}
	if (m->size <= 16) {
		fprintf(f, "\n  EEL median (ns), row: from, column: to\n  %6s", "");
		for (int b = 0; b < m->size; b++)
			fprintf(f, " %8d", b);
		fprintf(f, "\n");
		for (int a = 0; a < m->size; a++) {
			fprintf(f, "  %6d", a);
			for (int b = 0; b < m->size; b++)
				if (a == b || !all[a].to[b].done)
					fprintf(f, " %8s", "-");
				else
					fprintf(f, " %8.1f", all[a].to[b].eel_median);
			fprintf(f, "\n");
		}
	}
	fprintf(f, "\n  flagged beyond median + %g x MAD: EEL %.1f + %g x %.1f = %.1f ns, g %.1f + %g x %.1f = %.1f ns%s\n",
		fl.k, fl.eel_median, fl.k, fl.eel_mad, fl.eel_limit, fl.g_median, fl.k, fl.g_mad, fl.g_limit,
		nflag ? "" : ": none");
	for (int a = 0; a < m->size; a++)
		for (int b = 0; b < m->size; b++) {
			const struct pair_res *r = &all[a].to[b];

			if (a == b || !(flagged_eel(&fl, r) || flagged_g(&fl, r)))
				continue;
			fprintf(f, "    %d -> %d: %s NIC %s -> %s NIC %s:%s%s\n", a, b, host(m, a, h1, sizeof(h1)),
				safe_text(m->ep[a].nic, n1, sizeof(n1)), host(m, b, h2, sizeof(h2)),
				safe_text(m->ep[b].nic, n2, sizeof(n2)), flagged_eel(&fl, r) ? " EEL" : "",
				flagged_g(&fl, r) ? " g" : "");
		}
}

static void kto1_table(FILE *f, const struct mesh *m, const struct cli *c, const struct rank_res *all)
{
	double g1 = all[1].kto1_g[1];

	fprintf(f, "\n  k-to-1: K ranks flood rank 0 at once, %u-byte puts at q=%u (Culler et al. 1996, \"Validation "
		"of communication scaling\", Table 5)\n", c->plan.sizes[0], c->plan.depths[c->plan.ndepths - 1]);
	fprintf(f, "  %4s %14s %14s %12s   %s\n", "K", "g per sender", "slowest", "g_K / g_1", "LogP, receiver-bound: K");
	for (int k = 1; k < m->size; k++) {
		double v[MESH_MAX], med;
		int n = 0;

		for (int r = 1; r <= k; r++)
			v[n++] = all[r].kto1_g[k];
		mad_of(v, n, &med);
		fprintf(f, "  %4d %11.1f ns %11.1f ns %12.2f   %d\n", k, med, v[n - 1], g1 > 0 ? med / g1 : 0, k);
	}
}

static void many_table(FILE *f, const struct mesh *m, const struct cli *c, const struct rank_res *all)
{
	fprintf(f, "\n  1-to-many: rank 0 floods K ranks at once, %u-byte puts at q=%u to each (Culler et al. 1996, "
		"same section)\n", c->plan.sizes[0], c->plan.depths[c->plan.ndepths - 1]);
	fprintf(f, "  %4s %18s %14s\n", "K", "rank 0's gap", "over K=1");
	for (int k = 1; k < m->size; k++)
		fprintf(f, "  %4d %15.1f ns %14.2f\n", k, all[0].many_g[k],
			all[0].many_g[1] > 0 ? all[0].many_g[k] / all[0].many_g[1] : 0);
}

void report_mesh_table(FILE *f, const struct mesh *m, const struct cli *c, const struct rank_res *all)
{
	char h[80], n[80];

	fprintf(f, "eel-bench %s: %d ranks, launched through PMIx\n", EEL_VERSION, m->size);
	for (int r = 0; r < m->size; r++)
		fprintf(f, "  rank %-3d %-24s NIC %s\n", r, host(m, r, h, sizeof(h)), safe_text(m->ep[r].nic, n, sizeof(n)));
	for (int a = -1, b = -1; mesh_shared_core(m, &a, &b);)
		fprintf(f, "  WARNING: ranks %d and %d are bound to one core (%d): between them every message waits for "
			"the other's timeslice; launch with --bind-to none (mpirun) or --cpu-bind=none (srun), or "
			"fewer ranks than cores\n", a, b, m->ep[a].cpu);
	if (oversubscribed(m))
		fprintf(f, "  oversubscribed: more busy ranks than cores (rank 0's machine: %d ranks, %d cores): the "
			"NICs' waits yield their core, allpairs measures one pair at a time; k-to-1 and 1-to-many "
			"share the cores\n", m->local_size, m->cores);
	if (c->plan.tests & T_ALLPAIRS)
		allpairs_table(f, m, c, all);
	if (c->plan.tests & T_KTO1)
		kto1_table(f, m, c, all);
	if (c->plan.tests & T_ONE_TO_MANY)
		many_table(f, m, c, all);
}

/* A pair's distribution, its object left open for what else it has. */
static void dist_json(struct json *j, const char *key, double min, double median, double p99, uint32_t n, int flagged)
{
	json_obj(j, key);
	json_num(j, "min_ns", min);
	json_num(j, "median_ns", median);
	json_num(j, "p99_ns", p99);
	json_u64(j, "n", n);
	json_bool(j, "flagged", flagged);
}

/* The flag's line: median + k x MAD. */
static void flag_json(struct json *j, const char *key, double median, double mad, double limit)
{
	json_obj(j, key);
	json_num(j, "median_ns", median);
	json_num(j, "mad_ns", mad);
	json_num(j, "limit_ns", limit);
	json_obj_end(j);
}

static void allpairs_json(struct json *j, const struct mesh *m, const struct cli *c, const struct rank_res *all)
{
	struct mesh_flags fl;

	mesh_flags_of(m, all, c->flag_k, &fl);
	json_obj(j, "allpairs");
	json_str(j, "schedule", m->serial ? "serial" : "round-robin");
	json_num(j, "flag_k", fl.k);
	flag_json(j, "eel_flag", fl.eel_median, fl.eel_mad, fl.eel_limit);
	flag_json(j, "g_flag", fl.g_median, fl.g_mad, fl.g_limit);
	json_arr(j, "pairs");
	for (int a = 0; a < m->size; a++)
		for (int b = 0; b < m->size; b++) {
			const struct pair_res *r = &all[a].to[b];

			if (a == b)
				continue;
			json_obj(j, NULL);
			json_u64(j, "from", (uint64_t)a);
			json_u64(j, "to", (uint64_t)b);
			json_bool(j, "measured", r->done);
			dist_json(j, "eel", r->eel_min, r->eel_median, r->eel_p99, r->eel_n, flagged_eel(&fl, r));
			json_num(j, "bell_ns", r->eel_bell);
			json_obj_end(j);
			dist_json(j, "g", r->g_min, r->g_median, r->g_p99, r->g_n, flagged_g(&fl, r));
			json_u64(j, "q", r->g_q);
			json_obj_end(j);
			json_obj_end(j);
		}
	json_arr_end(j);
	json_obj_end(j);
}

/* k-to-1 and 1-to-many: rank 0 and the flood's size and depth, then a point a K. */
static void curve_json(struct json *j, const char *key, const char *role, const struct mesh *m, const struct cli *c,
		       const struct rank_res *all)
{
	json_obj(j, key);
	json_u64(j, role, 0);
	json_u64(j, "size", c->plan.sizes[0]);
	json_u64(j, "q", c->plan.depths[c->plan.ndepths - 1]);
	json_arr(j, "points");
	for (int k = 1; k < m->size; k++) {
		json_obj(j, NULL);
		json_u64(j, "k", (uint64_t)k);
		if (!strcmp(role, "sender")) {
			json_num(j, "gap_ns", all[0].many_g[k]);
		} else {
			json_arr(j, "g_ns");
			for (int r = 1; r <= k; r++)
				json_num(j, NULL, all[r].kto1_g[k]);
			json_arr_end(j);
		}
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

/* Where the figures come from (bench/provenance.c), rank 0's, as a pair's
 * run gives its client's: eel's build, the kernel, rank 0's NIC (the first
 * of its connections' devices: one per peer, the same NIC). Without it,
 * eel-compare could not name a difference of firmware or build between two
 * launched runs. */
static void provenance_of_rank0(struct json *j, const struct mesh *m)
{
	struct eel_nic_info info;

	memset(&info, 0, sizeof(info));
	for (int p = 1; p < m->size; p++)
		if (m->s[p].dev && !eel_nic_info(m->s[p].dev, &info))
			break;
	provenance_json(j, &info);
}

int report_mesh_json(const char *path, const struct mesh *m, const struct cli *c, const struct rank_res *all,
		     int argc, char **argv)
{
	const struct plan *p = &c->plan;
	struct json j;
	struct out o;

	if (out_open(path, &o, 0))
		return -1;
	json_begin(&j, o.f);
	report_json_head(&j, argc, argv);
	json_obj(&j, "nic");   /* rank 0's, as a pair's run names its client's */
	json_str(&j, "uri", c->uri);
	json_str(&j, "name", m->ep[0].nic);
	json_obj_end(&j);
	provenance_of_rank0(&j, m);
	json_obj(&j, "launch");
	json_str(&j, "by", "pmix");
	json_u64(&j, "ranks", (uint64_t)m->size);
	json_str(&j, "uri", c->uri);
	json_bool(&j, "oversubscribed", oversubscribed(m));
	json_arr(&j, "ranks_at");
	for (int r = 0; r < m->size; r++) {
		json_obj(&j, NULL);
		json_u64(&j, "rank", (uint64_t)r);
		json_str(&j, "host", m->ep[r].host);
		json_str(&j, "nic", m->ep[r].nic);
		json_str(&j, "pci", m->ep[r].pci);
		json_num(&j, "core", m->ep[r].cpu);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_obj_end(&j);
	json_obj(&j, "options");
	json_u64(&j, "iters", p->iters);
	json_u64(&j, "runs", p->runs);
	json_u64(&j, "warmup", p->warmup);
	json_u64(&j, "flood_runs", p->flood_runs);
	json_u64(&j, "flood_msgs", p->flood_msgs);
	json_arr(&j, "depths");
	for (uint32_t i = 0; i < p->ndepths; i++)
		json_u64(&j, NULL, p->depths[i]);
	json_arr_end(&j);
	json_u64(&j, "timeout_ms", p->timeout_ms);
	json_obj_end(&j);
	if (p->tests & T_ALLPAIRS)
		allpairs_json(&j, m, c, all);
	if (p->tests & T_KTO1)
		curve_json(&j, "k_to_1", "receiver", m, c, all);
	if (p->tests & T_ONE_TO_MANY)
		curve_json(&j, "one_to_many", "sender", m, c, all);
	return report_json_finish(path, &j, &o);
}
