/* SPDX-License-Identifier: MIT */
/* bench/derived.c — figures derived from others, stated only as far as this
 * NIC and this run let them be (docs/methods.md).
 *
 * Bell et al. 2003 4.3's o_s and o_r are the host CPU's time per message that
 * no computation can overlap. Where the NIC itself runs on the host's CPU
 * (the software NIC inline, eel's firmware hosted over DPDK or an e1000), the
 * CPU-overlap test cannot tell the host's work from the NIC's: o_s holds the
 * NIC's send and acknowledgement work (it came out above EEL), o_r the NIC's
 * receive (o_r = g(q=1): nothing overlaps a receive). Culler et al. 1996's L =
 * RTT/2 - o_s - o_r then takes the NIC's work off twice and came out below 0
 * in 4 runs of 5 (no latency is), EEL - (o_s + o_r) (Bell et al. 2003 5.2)
 * at -413 to -1488 ns. Those figures are "not separable on this NIC", with
 * the reason, never a number.
 *
 * Where they are separable, a figure that comes out within its uncertainty of
 * 0, or below it, is not resolved: it is given as a bound ("< X ns"), never as
 * a negative duration.
 */
#include <math.h>
#include <string.h>

#include "bench.h"

int overheads_separable(const struct eel_caps *c, const char **why)
{
	const char *w = NULL;

	if (c->flags & EEL_CAP_HOSTED_FW)
		w = "eel's firmware, this NIC's protocol, runs on the host's CPU: its work is in o_s and o_r";
	else if (c->flags & EEL_CAP_NEEDS_CALLER)
		w = "the NIC runs on the host's CPU inside eel's calls: its work is in o_s and o_r";
	if (why)
		*why = w;
	return !w;
}

struct derived derived_of(const struct eel_caps *c, double raw, double u, int none_at_zero)
{
	struct derived d = { .ns = NAN, .u_ns = NAN, .bound_ns = NAN };

	d.separable = overheads_separable(c, &d.why);
	if (!d.separable)
		return d;
	if (!isfinite(raw)) {
		d.why = "not measured";
		return d;
	}
	d.u_ns = isfinite(u) && u > 0 ? u : 0;
	if (raw - d.u_ns > 0) {
		d.resolved = 1;
		d.ns = raw;
		d.why = NULL;
	} else if (raw + d.u_ns > 0) {
		d.bound_ns = raw + d.u_ns;
		d.why = "within its uncertainty of 0: not resolved";
	} else if (none_at_zero) {
		d.bound_ns = 0;
		d.why = "at or below 0 beyond its uncertainty: none";
	} else {
		d.why = "below 0 beyond its uncertainty: the figures it is derived from contradict each other";
	}
	return d;
}

/* Culler et al. 1996: L = RTT/2 - o_s - o_r. Where no D raised the gap, o_r
 * is not measured (0 stands for it), and RTT/2 - o_s is only L's upper bound. */
struct derived sig_L(const struct eel_caps *c, const struct signature_res *g)
{
	struct derived d = derived_of(c, g->L_ns, g->L_u_ns, 0);

	if (d.separable && !g->o_r_curves) {
		d.resolved = 0;
		d.ns = NAN;
		d.bound_ns = g->L_ns + d.u_ns > 0 ? g->L_ns + d.u_ns : NAN;
		d.why = "no D raised the gap, so o_r is not measured: L is at most RTT/2 - o_s";
	}
	return d;
}

/* Bell et al. 2003 5.2: EEL - (o_s + o_r), all three their medians (EEL's over
 * the ping-pong runs, o_s's and o_r's over the overlap sweeps: one statistic,
 * where the minimum of one less the medians of the others mixed two); its
 * uncertainty is half of each one's interquartile range, added. Below 0
 * beyond that: no computation overlaps a message (none, a bound of 0). */
struct derived overlap_potential(const struct session *s, const struct results *r)
{
	const struct stat *e = &r->pp.eel, *os = &r->ov.os_sweeps, *orr = &r->ov.or_sweeps;
	double u = ((e->p75 - e->p25) + (os->p75 - os->p25) + (orr->p75 - orr->p25)) / 2;

	if (!r->pp.done || !r->ov.done)
		return derived_of(s->caps, NAN, 0, 1);
	return derived_of(s->caps, e->median - os->median - orr->median, u, 1);
}

int stats_differ(const struct stat *a, const struct stat *b)
{
	double d = fabs(a->median - b->median), iqr = (a->p75 - a->p25) + (b->p75 - b->p25);

	return a->n > 0 && b->n > 0 && d > iqr && d > 0.10 * fmin(a->median, b->median);
}

void test_names(uint32_t t, char *out, size_t n)
{
	/* in the order run_end (main.c) runs them; bulk runs the signature first */
	static const struct { uint32_t bit; const char *name; } order[] = {
		{ T_PINGPONG, "pingpong" }, { T_FLOOD, "flood" }, { T_OVERLAP, "overlap" },
		{ T_SIGNATURE | T_BULK, "signature" }, { T_BULK, "bulk" }, { T_DECOMPOSE, "decompose" },
		{ T_LIMIT, "limit" }, { T_SWEEP, "sweep" },
	};
	size_t at = 0;

	if (n)
		out[0] = 0;
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]) && n; i++)
		if (t & order[i].bit) {
			int w = snprintf(out + at, n - at, "%s%s", at ? ", " : "", order[i].name);

			if (w < 0 || (size_t)w >= n - at)
				break;
			at += (size_t)w;
		}
}
