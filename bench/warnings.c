/* bench/warnings.c — what a reader must know before trusting the figures:
 * an untrustworthy clock, a noisy machine, stamps that cost too much, a
 * breakdown that does not add up, two cores whose counters disagree. */
#include <math.h>
#include <stdio.h>

#include "bench.h"

int report_warnings(const struct session *s, const struct results *r, char w[][240], int max)
{
	const struct eel_clock *c = s->clk;
	int n = 0;

#define WARN(...) do { if (n < max) snprintf(w[n++], 240, __VA_ARGS__); } while (0)
	if (c->warning[0])
		WARN("clock: %s", c->warning);
	if (r->pp.done && r->pp.eel.spread > 0.10)
		WARN("EEL varies by %.0f%% between runs (interquartile range / median): the machine is "
		     "noisy; pin with --cpu to quiet cores, or raise --runs", 100 * r->pp.eel.spread);
	if (r->pp.done && r->pp.eel.outliers)
		WARN("%d of %d ping-pong runs were outliers (far above the rest): something else ran",
		     r->pp.eel.outliers, r->pp.eel.n);
	/* (stamping does not touch EEL, which is of the runs without stamps: what
	 * it adds to a stamped round is the breakdown's perturbation, a figure) */
	if (r->bd.done && r->bd.have_rounds && r->bd.round.n < 100)
		WARN("only %d rounds were stamped: the breakdown's means are rough; lower --stamp-every "
		     "(now %u) or raise --iters", r->bd.round.n, s->plan.stamp_every);
	if (r->bd.done && !r->bd.have_rounds && r->bd.samples)
		WARN("no stamped round could be joined whole (%d not): the breakdown is of one-way records and "
		     "does not add up to EEL", r->bd.unjoined);
	if (r->bd.done && isfinite(r->bd.residual_ns) && fabs(r->bd.residual_ns) > 0.05 * r->bd.eel_ref_ns) {
		int worst = breakdown_noisiest(&r->bd);

		WARN("the breakdown's parts add up to %.1f ns, EEL is %.1f ns: a residual of %+.1f ns (+-%.1f), "
		     "over 5%% of EEL; likely in %s (the part known least well, +-%.1f ns)", r->bd.parts_sum_ns,
		     r->bd.eel_ref_ns, r->bd.residual_ns, r->bd.residual_unc_ns,
		     worst < 0 ? "turn" : r->bd.name[worst], worst < 0 ? r->bd.turn_unc : r->bd.part_unc[worst]);
	}
	for (int k = 0; r->bd.done && k < STAGE_PARTS; k++)
		if (!r->bd.absorbed[k] && r->bd.have[k] && r->bd.part[k].mean < -r->bd.part_unc[k] &&
		    !(r->bd.across_derived && part_between_ends(&r->bd, k)))
			WARN("breakdown: %s came out below 0 beyond its uncertainty (%.1f +- %.1f ns before it is shown "
			     "as a bound): its stamps' cost in place was not that of the stamps around it",
			     r->bd.name[k], r->bd.part[k].mean, r->bd.part_unc[k]);
	/* tests of one run that saw different machines (a VM moving its vCPUs) */
	if (r->pp.done && r->bulk.done && r->bulk.npt && r->bulk.pt[0].size <= 8 &&
	    r->bulk.pt[0].echo.min > 1.5 * r->pp.eel.median)
		WARN("the bulk echo of %u B took %.1f ns one way (its minimum), EEL %.1f ns: the two tests saw "
		     "different machines (a VM moving its vCPUs, or a busy machine); pin with --cpu and run again",
		     r->bulk.pt[0].size, r->bulk.pt[0].echo.min, r->pp.eel.median);
	if (r->pp.done && r->sig.done && r->sig.rtt_ns > 0 &&
	    (r->sig.rtt_ns / 2 > 1.5 * r->pp.eel.median || r->sig.rtt_ns / 2 < r->pp.eel.median / 1.5))
		WARN("the signature's round trip gives %.1f ns one way, EEL %.1f ns: the two tests saw different "
		     "machines; pin with --cpu and run again", r->sig.rtt_ns / 2, r->pp.eel.median);
	if (r->lim.done && r->lim.eel_over.n && r->lim.eel_over.min < 1)
		WARN("in a run, EEL came out below the %s beside it (EEL / %s %.2f), which nothing on this path "
		     "can beat: the machine changed between the two (a VM moving its vCPUs, or a busy machine); "
		     "pin with --cpu and run again", r->lim.floor ? "NIC's floor" : "cache-line limit",
		     r->lim.floor ? "floor" : "limit", r->lim.eel_over.min);
	if (r->lim.done && (r->lim.skew_lo_ns > 0 || r->lim.skew_hi_ns < 0))
		WARN("the two cores' counters disagree by at least %.0f ns: stamps taken on different cores "
		     "are off by that much", r->lim.skew_lo_ns > 0 ? r->lim.skew_lo_ns : -r->lim.skew_hi_ns);
	if (r->fl.done && r->fl.G_ns_per_byte <= 0)
		WARN("flood: the largest messages were not slower than the smallest: G could not be "
		     "measured (widen --sizes)");
	for (int i = 0; r->fl.done && i < r->fl.npt; i++)
		if (r->fl.pt[i].t.spread > 0.25) {
			WARN("flood points vary by up to %.0f%% between runs (e.g. %u B at q=%u): noisy machine",
			     100 * r->fl.pt[i].t.spread, r->fl.pt[i].size, r->fl.pt[i].q);
			break;
		}
	/* L = RTT/2 - o_s - o_r (Culler et al. 1996): below zero, o_s + o_r
	 * are larger than the one-way time they are part of. On a NIC the host
	 * runs (EEL_CAP_NEEDS_CALLER: its firmware in the host's calls) the send-only cost holds the
	 * issue loop's poll of the NIC and the steady state the NIC's work for
	 * the replies' acknowledgements, which one message's path does not (the
	 * breakdown's sending stages came to 70 ns beside a send-only o_s of
	 * 110-260 here); elsewhere the D curves' gaps were stretched */
	if (r->sig.done && r->sig.o_r_curves && r->sig.L_ns < 0) {
		if (!(s->caps->flags & EEL_CAP_NEEDS_CALLER))
			WARN("signature: L below 0 (%.0f ns): o_s + o_r exceed RTT/2 (%.0f ns): the D curves' gaps "
			     "were stretched (busy machine?): o_r and L of this run are not to be trusted",
			     r->sig.L_ns, r->sig.rtt_ns / 2);
		else
			WARN("signature: L below 0 (%.0f ns): o_s + o_r exceed RTT/2 (%.0f ns): this NIC runs in the "
			     "host's calls, and o_s, o_r hold its polls and ACK work, off one message's path",
			     r->sig.L_ns, r->sig.rtt_ns / 2);
	}
	if (r->sig.done && r->sig.unconverged)
		WARN("signature: %d of %d points fell short of 5%% at 95%% confidence within their budget "
		     "(%u samples, 250 ms): noisy machine; -v marks them, --sig-samples raises the budget",
		     r->sig.unconverged, r->sig.points, s->plan.sig_max_samples);
#undef WARN
	return n;
}
