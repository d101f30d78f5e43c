/* SPDX-License-Identifier: MIT */
/* bench/decompose.c — EEL split into its stages on whatever NIC is in use,
 * each part saying how it was obtained, and adding up to the measured EEL.
 *
 *   stamped     both stamps of the stage taken (by the host, or by the NIC's
 *               firmware on its clock mapped onto the host's);
 *   difference  the EEL of one ping-pong variant less another's: a descriptor
 *               put less an E-register store (PIO, no descriptor: the
 *               descriptor fetch), a put whose payload the NIC reads by DMA
 *               less one carrying it inline (the payload fetch);
 *   modelled    detection: half of one pass of the receiver's polling loop,
 *               whose cost is measured (the data lands at a random point of
 *               the loop);
 *   remainder   EEL less every part above: what this NIC does not let eel
 *               tell apart, named by the stages it merges.
 * Nothing is invented: a stage that cannot be told apart stays merged.
 * On a NIC that stamps everything (the software NIC) the difference-based
 * estimates are checked against the stamps instead: they must agree within
 * 10% (or within the noise, for a stage of a few ns: the spread of the
 * run-by-run differences and two steps of the counter; the stamps' side is
 * their medians, as each variant's run gives its median round trip: a mean
 * carries the machine's interruptions in proportion to a stage's length,
 * +9% of a 5000 ns stage seen) — the check that the
 * method works on NICs that do not stamp. A check holds only where the two
 * variants differ in its stage alone: where both variants are stamped (the
 * DMA'd payload beside the inline one) their other stages are compared, and
 * a check whose variants differ elsewhere too says so instead of a verdict;
 * where one variant is not stamped (an E-register store) it cannot be told,
 * and the check says that.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"

#define AGREE 0.10

static struct dec_part *add(struct decompose_res *d, const char *name, const char *what, double ns,
			    const char *method, const char *how)
{
	struct dec_part *p = &d->part[d->nparts++];

	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	snprintf(p->what, sizeof(p->what), "%s", what);
	snprintf(p->method, sizeof(p->method), "%s", method);
	snprintf(p->how, sizeof(p->how), "%s", how);
	p->ns = ns;
	p->bound_ns = fmax(ns, 0);
	p->unresolved = ns <= 0;
	return p;
}

/* A part within its uncertainty unc of 0 is a bound (breakdown.c's rule). */
static void bound(struct dec_part *p, int resolved, double bound_ns)
{
	p->unresolved = !resolved;
	p->bound_ns = bound_ns;
}

/* One pass of the receiver's polling loop: what eel_wait_u64 does per spin. */
static double poll_pass_ns(struct session *s)
{
	uint64_t best = UINT64_MAX;

	for (int r = 0; r < 20; r++) {
		uint64_t t0 = eel_cycles();

		for (int i = 0; i < 100; i++)
			eel_progress(s->dev);
		uint64_t t = eel_cycles() - t0;
		if (t < best)
			best = t;
	}
	return cyc_ns(s, (double)best) / 100;
}

/* A difference estimate beside the stamped part that holds its stage k: a
 * check against the exact stamp when the part is that stage alone, else
 * whether it fits inside the part. */
static struct dec_part *check_of(struct decompose_res *d, const struct breakdown *bd, int k, int owner,
				 const char *name, const char *how, double v, double stamped_ns, double noise_ns)
{
	struct dec_part *p = &d->check[d->nchecks++];

	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	snprintf(p->method, sizeof(p->method), "difference");
	snprintf(p->how, sizeof(p->how), "%s", how);
	p->ns = v;
	p->has_check = 1;
	p->isolated = 1;
	p->noise_ns = noise_ns;
	p->unresolved = v <= noise_ns; /* a difference within its noise of 0: a bound */
	p->bound_ns = fmax(v, 0) + noise_ns;
	if (owner == k && !bd->span_extra[k]) {
		p->stamped_ns = stamped_ns;
		p->agrees = fabs(v - p->stamped_ns) <= fmax(AGREE * fabs(p->stamped_ns), p->noise_ns);
	} else {
		p->stamped_ns = bd->part[owner].mean;
		snprintf(p->within, sizeof(p->within), "%s", bd->spans_set ? bd->name[owner] : stage_part_name[owner]);
		p->agrees = v <= p->stamped_ns + p->noise_ns;
	}
	return p;
}

/* How far the difference of two parts' means is known: three standard
 * errors (sigma from the IQR, as for a normal distribution). */
static double se3(const struct stat *a, const struct stat *b)
{
	double sa = (a->p75 - a->p25) / 1.349, sb = (b->p75 - b->p25) / 1.349;

	return a->n && b->n ? 3 * sqrt(sa * sa / a->n + sb * sb / b->n) : 0;
}

/* Do the stamps of two variants differ in any part but `k`, by more than
 * the noise, three standard errors and 10% of the difference in k? Names
 * them into why. */
static int differ_elsewhere(const struct breakdown *a, const struct breakdown *b, int k, double noise_ns,
			    char *why, size_t cap, double *others)
{
	double dk = fabs(b->part[k].median - a->part[k].median);
	int n = 0;

	why[0] = 0;
	/* b less a in every other stage and the turnaround: small ones add up */
	*others = a->have_rounds && b->have_rounds ? b->turn_st.median - a->turn_st.median : 0;
	for (int i = 0; i < STAGE_PARTS; i++) {
		double di = b->part[i].median - a->part[i].median;

		if (i == k || a->absorbed[i] || !a->have[i] || !b->have[i])
			continue;
		*others += di;
		if (fabs(di) <= fmax(fmax(noise_ns, se3(&a->part[i], &b->part[i])), AGREE * dk))
			continue;
		snprintf(why + strlen(why), cap - strlen(why), "%s%s %+.1f ns", n++ ? ", " : "",
			 a->spans_set ? a->name[i] : stage_part_name[i], di);
	}
	return n;
}

/* A check that does not agree with its stage alone, where the stamps' small
 * differences in every other stage (others, in the difference's sense) add up
 * to what it missed: the variants differ in more than the stage, spread
 * thin; it cannot isolate the stage (not a DISAGREE: the method held). */
static void spread_elsewhere(struct dec_part *p, double others)
{
	double all = p->stamped_ns + others;

	if (p->agrees || fabs(p->ns - all) > fmax(AGREE * fabs(all), p->noise_ns))
		return;
	p->isolated = 0;
	snprintf(p->why_not, sizeof(p->why_not), "the stamps' other stages differ by %+.1f ns in all, each within "
		 "its noise; with them the stamps give %.1f ns", others, all);
}

/* Take a stage's name out of the remainder's list ("a,b,c"), or mark it. */
static void remainder_edit(char *list, size_t cap, const char *stage, const char *to)
{
	char out[96] = "", copy[96], *save = NULL;

	snprintf(copy, sizeof(copy), "%s", list);
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		const char *w = strcmp(t, stage) ? t : to;

		if (w)
			snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%s", out[0] ? "," : "", w);
	}
	snprintf(list, cap, "%s", out);
}

/* The descriptor fetch from the difference of a descriptor put and an
 * E-register store: a check where the fetch is stamped, else a part (and the
 * remainder no longer holds it). */
static void fetch_difference(struct decompose_res *d, const struct breakdown *bd, const struct breakdown *put,
			     const struct breakdown *ereg, const int *owner, char *merged, size_t mcap)
{
	if (!d->have_ereg)
		return;
	const char *how = "EEL of a descriptor put - EEL of an E-register store";

	if (owner[2] >= 0) {
		int both = put && ereg && put->have[2] && ereg->have[2] && !bd->span_extra[2];
		struct dec_part *p = check_of(d, bd, 2, owner[2], "fetch", how, d->fetch_diff_ns,
					      both ? put->part[2].median - ereg->part[2].median : bd->part[2].median,
					      d->fetch_noise_ns);
		char why[140];
		double others = 0;

		if (!both) {
			/* whether the two differ in the fetch alone cannot be told */
			p->isolated = 0;
			snprintf(p->why_not, sizeof(p->why_not), "an E-register store is not stamped here");
		} else if (differ_elsewhere(put, ereg, 2, d->fetch_noise_ns, why, sizeof(why), &others)) {
			p->isolated = 0;
			snprintf(p->why_not, sizeof(p->why_not), "the stamps show the variants differ elsewhere "
				 "too: %s", why);
		} else {
			spread_elsewhere(p, -others);  /* the put's stages less the store's */
		}
	} else {
		bound(add(d, "descriptor", "NIC fetches the descriptor", d->fetch_diff_ns, "difference",
			  "EEL of a descriptor put - EEL of an E-register store (PIO, no descriptor)"),
		      d->fetch_diff_ns > d->fetch_noise_ns, fmax(d->fetch_diff_ns, 0) + d->fetch_noise_ns);
		remainder_edit(merged, mcap, "fetch", NULL);
	}
}

/* The payload's DMA read from the difference of a DMA'd put and an inline
 * one: a check where the tx stage is stamped, else a part. */
static void payload_difference(struct decompose_res *d, const struct breakdown *bd, const struct breakdown *put,
			       const struct breakdown *dma, const int *owner, char *merged, size_t mcap)
{
	if (!d->have_dma)
		return;
	const char *how = "EEL with the payload DMA'd - EEL with it inline";

	if (owner[3] >= 0) {
		if (put && dma && put->have[3] && dma->have[3]) {
			d->have_dma_tx = 1;
			d->payload_stamped_ns = dma->part[3].median - put->part[3].median;
		}
		if (d->have_dma_tx || owner[3] != 3 || bd->span_extra[3]) {
			struct dec_part *p = check_of(d, bd, 3, owner[3], "payload", how, d->payload_diff_ns,
						      d->payload_stamped_ns, d->payload_noise_ns);
			char why[140];
			double others = 0;

			if (put && dma && differ_elsewhere(put, dma, 3, d->payload_noise_ns, why, sizeof(why),
							    &others)) {
				p->isolated = 0;
				snprintf(p->why_not, sizeof(p->why_not), "the stamps show the variants "
					 "differ elsewhere too: %s", why);
			} else if (put && dma) {
				spread_elsewhere(p, others);  /* the DMA'd put's stages less the inline's */
			}
		}
	} else {
		bound(add(d, "payload", "NIC reads the payload by DMA", d->payload_diff_ns, "difference", how),
		      d->payload_diff_ns > d->payload_noise_ns, fmax(d->payload_diff_ns, 0) + d->payload_noise_ns);
		remainder_edit(merged, mcap, "tx", "tx less the payload");
	}
}

/* Which stages were stamped, and the difference measurements, into parts. */
void decompose_build(struct decompose_res *d, const struct breakdown *bd, const struct breakdown *put,
		     const struct breakdown *dma, const struct breakdown *ereg, double poll_ns)
{
	double sum = 0;
	char merged[96] = "";
	int owner[STAGE_PARTS]; /* the stamped part that holds stage k, or -1 */

	d->nparts = 0;
	d->nchecks = 0;
	for (int k = 0; k < STAGE_PARTS; k++)
		owner[k] = -1;
	for (int k = 0; k < STAGE_PARTS; k++) {
		if (bd->absorbed[k])
			continue; /* inside the part before */
		if (bd->done && bd->have[k]) {
			const char *name = bd->spans_set ? bd->name[k] : stage_part_name[k];
			const char *what = bd->spans_set ? bd->what[k] : breakdown_stage_what(bd, k);
			struct dec_part *p = add(d, name, what, bd->part[k].mean,
						 "stamped", k < 2 && !bd->span_extra[k] ? "stamped by the host" :
						 k + bd->span_extra[k] >= STAGE_WIRE && k <= STAGE_WIRE ?
						 "stamped at both ends, one clock" : "stamped by the NIC");

			bound(p, bd->part_resolved[k], bd->part_bound[k]);
			for (int i = k; i <= k + bd->span_extra[k]; i++) {
				owner[i] = k;
				if (bd->span_extra[k])
					snprintf(p->merged + strlen(p->merged), sizeof(p->merged) - strlen(p->merged),
						 "%s%s", i > k ? "," : "", stage_part_name[i]);
			}
			continue;
		}
		for (int i = k; i <= k + bd->span_extra[k]; i++)
			snprintf(merged + strlen(merged), sizeof(merged) - strlen(merged), "%s%s", merged[0] ? "," : "",
				 stage_part_name[i]);
	}
	if (bd->done && bd->have_rounds && bd->turn_st.n)
		bound(add(d, "turn", "ping-pong turnaround: the host's loop from seeing a message to posting the next",
			  bd->turn_st.mean, "stamped", "stamped by the host at both ends (half of each end's)"),
		      bd->turn_resolved, bd->turn_bound);
	/* The differences: checks where their stage is stamped, parts where not. */
	fetch_difference(d, bd, put, ereg, owner, merged, sizeof(merged));
	payload_difference(d, bd, put, dma, owner, merged, sizeof(merged));
	if (owner[STAGE_PARTS - 1] < 0 && poll_ns > 0) {
		add(d, "detect", breakdown_stage_what(bd, STAGE_PARTS - 1), poll_ns / 2, "modelled",
		    "half of one pass of the receiver's polling loop (measured)");
		remainder_edit(merged, sizeof(merged), "detect", NULL);
	}
	for (int i = 0; i < d->nparts; i++)
		sum += d->part[i].ns;
	if (merged[0]) {
		struct dec_part *p = add(d, "remainder", "the stages this NIC does not let eel tell apart",
					 d->eel_ns - sum, "remainder", "EEL less every part above");

		snprintf(p->merged, sizeof(p->merged), "%s", merged);
		/* EEL less the rest: known to EEL's own spread and a step of the counter */
		bound(p, p->ns > d->eel_noise_ns, fmax(p->ns, 0) + d->eel_noise_ns);
		sum += p->ns;
		d->closed = 1;
	}
	/* the parts' sum less EEL, as the breakdown's (breakdown.c); with a
	 * remainder it is 0 by construction, so no check: closed */
	d->residual_ns = sum - d->eel_ns;
	d->done = 1;
}

/* a's runs less b's, run by run (the runs were interleaved): the median into
 * *diff, and into *noise how far apart the runs' differences lie (their IQR)
 * plus two steps of the counter (bench.h). */
static void run_diff(const struct session *s, const struct pingpong_res *a, const struct pingpong_res *b,
		     double *diff, double *noise)
{
	double t[MAX_RUNS];
	int n = a->nruns < b->nruns ? a->nruns : b->nruns;
	struct stat st;

	for (int i = 0; i < n; i++)
		t[i] = a->eel_ns[i] - b->eel_ns[i];
	st = stat_of(t, n);
	*diff = st.median;
	/* one step of the counter for the EELs' difference, one for the stamped
	 * medians' it is set beside (each a median of values in those steps) */
	*noise = st.p75 - st.p25 + 2 * cyc_ns(s, s->clk->resolution_cycles);
}

int decompose_run(struct session *s, struct results *r)
{
	struct decompose_res *d = &r->dec;
	uint32_t runs = s->plan.runs > 6 ? s->plan.runs / 2 : 3, iters = s->plan.iters / 2 + 1;
	static struct pingpong_res st[PP_MAX_VARIANTS], pp[PP_MAX_VARIANTS];
	static struct breakdown st_bd[PP_MAX_VARIANTS];
	int var[PP_MAX_VARIANTS] = { PP_PUT }, nvar = 1, i_dma = -1, i_ereg = -1;

	memset(st, 0, sizeof(st));
	memset(pp, 0, sizeof(pp));
	for (int v = 0; v < PP_MAX_VARIANTS; v++) {
		breakdown_free(&st_bd[v]);
		memset(&st_bd[v], 0, sizeof(st_bd[v]));
	}
	/* the plain put's runs, unless -t pingpong ran them (the plan, not
	 * r->pp.done, decides: the server keeps no results) */
	if (!(s->plan.tests & T_PINGPONG) && pingpong_run(s, r))
		return -1;
	/* Where eel's firmware runs on the host over a real NIC (dpdk, raw), the
	 * descriptor and the payload are read by that firmware, on this core,
	 * inside post: a variant's difference would time eel, not the NIC. */
	d->hosted = !!(s->caps->flags & EEL_CAP_HOSTED_FW);
	if (s->caps->max_inline >= 8 && !d->hosted) {
		i_dma = nvar;
		var[nvar++] = PP_PUT_DMA;
	}
	if ((s->caps->flags & EEL_CAP_EREGS) && !d->hosted) {
		i_ereg = nvar;
		var[nvar++] = PP_EREG;
	}
	/* the variants stamped, their runs interleaved: a check compares their
	 * stages, and a drift of the machine touches them alike; then stamps
	 * off, interleaved, for the differences of EEL */
	if (nvar > 1 && (pingpong_series_n(s, var, nvar, runs, iters, 1, st, st_bd) ||
			 pingpong_interleaved(s, var, nvar, runs, iters, pp)))
		return -1;
	if (s->server)
		return 0;
	d->eel_ns = r->pp.eel.median;
	d->eel_noise_ns = r->pp.eel.p75 - r->pp.eel.p25 + cyc_ns(s, (double)s->clk->resolution_cycles);
	d->eel_put = nvar > 1 ? pp[0].eel.median : r->pp.eel.median;
	d->have_dma = i_dma >= 0;
	if (d->have_dma) {
		d->eel_dma = pp[i_dma].eel.median;
		run_diff(s, &pp[i_dma], &pp[0], &d->payload_diff_ns, &d->payload_noise_ns);
	}
	d->have_ereg = i_ereg >= 0;
	if (d->have_ereg) {
		d->eel_ereg = pp[i_ereg].eel.median;
		run_diff(s, &pp[0], &pp[i_ereg], &d->fetch_diff_ns, &d->fetch_noise_ns);
	}
	decompose_build(d, &r->bd, st_bd[0].done ? &st_bd[0] : NULL, i_dma > 0 && st_bd[i_dma].done ? &st_bd[i_dma] : NULL,
			i_ereg > 0 && st_bd[i_ereg].done ? &st_bd[i_ereg] : NULL, poll_pass_ns(s));
	return 0;
}
