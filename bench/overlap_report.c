/* SPDX-License-Identifier: MIT */
/* bench/overlap_report.c — the overlap (overlap.c, Bell et al. 2003 4.3) in the table
 * (o_s, o_r, the overlap potential with the ping-pong's EEL; the curves under -v)
 * and in the JSON document (parameters o_s, o_r, overlap_potential; curves
 * overlap_send, overlap_recv: docs/json.md). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/report/json.h"
#include "bench/report/report.h"


/* Bell et al. 2003 4.3's CPU-overlap o_s and o_r, or, where the NIC runs on
 * the host's CPU, why they are not separable (derived.c): there the overlap
 * test's g(q=1) - D_max holds the NIC's work too (o_s came out above EEL,
 * o_r = g(q=1)), and the host's own work is in the breakdown's host stages. */
void overlap_table_rows(FILE *f, const struct session *s, const struct results *r)
{
	const char *why;
	char how[160];

	if (!r->ov.done)
		return;
	if (!overheads_separable(s->caps, &why)) {
		fprintf(f, "  %-20s not separable on this NIC: %s (4.3)\n", "o_s", why);
		fprintf(f, "  %-20s not separable on this NIC: %s (4.3)\n", "o_r", why);
		fprintf(f, "  (the CPU-overlap test's g(q=1) - D_max: %.0f ns sending, %.0f receiving, the host's and the NIC's work;\n"
			"   the host's own: the breakdown's host stages%s)\n", r->ov.os_sweeps.median, r->ov.or_sweeps.median,
			verbose ? "" : "; -v: the overlap curves");
		return;
	}
	snprintf(how, sizeof(how), "CPU overlap, q=1, %d sweep%s; median's: g(q=1) %.0f - D_max %.0f%s (4.3)",
		 r->ov.os_sweeps.n, r->ov.os_sweeps.n == 1 ? "" : "s", r->ov.send.g_ns, r->ov.send.dmax_ns,
		 r->ov.send.rose_at_first ? ", any D raised it: o_s = g(q=1)" :
		 r->ov.send.dmax_extrapolated ? " (extrapolated)" : " (measured)");
	row_stat(f, s, "o_s", &r->ov.os_sweeps, how);
	snprintf(how, sizeof(how), "receiver computes n x D, then a quiet, %d sweep%s; median's: g(q=1) %.0f - "
		 "D_max %.0f%s (4.3)", r->ov.or_sweeps.n, r->ov.or_sweeps.n == 1 ? "" : "s", r->ov.recv.g_ns,
		 r->ov.recv.dmax_ns, r->ov.recv.rose_at_first ? ", any D raised it: o_r = g(q=1)" :
		 r->ov.recv.dmax_extrapolated ? " (extrapolated)" : " (measured)");
	row_stat(f, s, "o_r", &r->ov.or_sweeps, how);
}

/* Bell et al. 2003 5.2: EEL - (o_s + o_r), the three medians (derived.c) */
void overlap_table_potential(FILE *f, const struct session *s, const struct results *r)
{
	struct derived d = overlap_potential(s, r);
	const char *how = "potential overlap of computation per message, EEL, o_s, o_r each their median (5.2)";

	if (!(r->pp.done && r->ov.done))
		return;
	if (d.separable && !d.resolved && d.bound_ns == 0)
		fprintf(f, "  %-20s %13s %13s %8s  %8s   %s: o_s + o_r exceed EEL, the CPUs are busy longer than a "
			"message takes (+-%.1f ns)\n", "EEL - (o_s + o_r)", "none", "", "", "", how, d.u_ns);
	else
		row_derived(f, s, "EEL - (o_s + o_r)", &d, how);
}

/* -v: each side's curve, D -> ns per message */
void overlap_table_curves(FILE *f, const struct results *r)
{
	const struct overlap_curve *c[2] = { &r->ov.send, &r->ov.recv };

	if (!r->ov.done)
		return;
	for (int k = 0; k < 2; k++) {
		fprintf(f, "\n  overlap, %s side: D (ns) -> ns per message\n", k ? "receive" : "send");
		for (int i = 0; i < c[k]->n; i++)
			fprintf(f, "    %9.1f -> %9.1f\n", c[k]->d_ns[i], c[k]->t_ns[i]);
	}
}

/* Bell et al. 2003 4.3's o_s or o_r: where they are not separable on this NIC
 * (derived.c), `ns` and `cycles` are null and `why` says why; the overlap
 * test's figure is kept as g_less_dmax_ns (and over the sweeps), which is
 * o only where separable. */
static void overlap_obj(struct json *j, const struct session *s, const char *key, const struct overlap_curve *c,
			const struct stat *sweeps, const char *method)
{
	const char *why;
	int sep = overheads_separable(s->caps, &why);

	json_obj(j, key);
	json_num(j, "ns", sep ? c->o_ns : NAN);
	json_bool(j, "separable", sep);
	if (!sep)
		json_str(j, "why", why);
	json_num(j, "g_less_dmax_ns", c->o_ns);
	stat_obj(j, "sweeps", sweeps);
	if (sep)
		json_u64(j, "cycles", (uint64_t)(c->o_ns * s->clk->hz / 1e9 + 0.5));
	else
		json_num(j, "cycles", NAN);
	json_num(j, "g_ns", c->g_ns);
	json_num(j, "dmax_ns", c->dmax_ns);
	json_bool(j, "rose_at_first", c->rose_at_first);
	json_bool(j, "dmax_extrapolated", c->dmax_extrapolated);
	json_str(j, "method", method);
	json_obj_end(j);
}

void overlap_json_parameters(struct json *j, const struct session *s, const struct results *r)
{
	if (!r->ov.done)
		return;
	overlap_obj(j, s, "o_s", &r->ov.send, &r->ov.os_sweeps,
		    "Bell et al. 2003 4.3: flood q=1 with computation; o_s = g - D_max (the median sweep's)");
	overlap_obj(j, s, "o_r", &r->ov.recv, &r->ov.or_sweeps,
		    "Bell et al. 2003 4.3: receiver computes n x D in isolation, then one quiet; o_r = g - D_max (the median sweep's)");
}

/* parameters: EEL - (o_s + o_r), with the ping-pong's EEL */
void overlap_json_potential(struct json *j, const struct session *s, const struct results *r)
{
	if (r->pp.done && r->ov.done) {
		struct derived d = overlap_potential(s, r);

		derived_obj(j, s, "overlap_potential", &d, "Bell et al. 2003 5.2: EEL - (o_s + o_r), each its median "
			    "(EEL over the ping-pong runs, o_s and o_r over the overlap sweeps); uncertainty: half of each "
			    "one's interquartile range, added; none (bound 0) when below 0 beyond it");
	}
}

static void curve(struct json *j, const char *key, const double *x, const double *y, int n)
{
	json_obj(j, key);
	json_arr(j, "d_ns");
	for (int i = 0; i < n; i++)
		json_num(j, NULL, x[i]);
	json_arr_end(j);
	json_arr(j, "ns_per_msg");
	for (int i = 0; i < n; i++)
		json_num(j, NULL, y[i]);
	json_arr_end(j);
	json_obj_end(j);
}

void overlap_json_curves(struct json *j, const struct results *r)
{
	if (!r->ov.done)
		return;
	curve(j, "overlap_send", r->ov.send.d_ns, r->ov.send.t_ns, r->ov.send.n);
	curve(j, "overlap_recv", r->ov.recv.d_ns, r->ov.recv.t_ns, r->ov.recv.n);
}
