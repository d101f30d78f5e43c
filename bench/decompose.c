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
 * run-by-run differences and one counter tick) — the check that the method
 * works on NICs that do not stamp. The variants' runs give the median round
 * trip, as the stamps give their medians (pingpong_interleaved). When they do
 * not agree, the two variants differ in more than the one stage, and the
 * table says so.
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
	return p;
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
static void check_of(struct decompose_res *d, const struct breakdown *bd, int k, int owner, const char *name,
		     const char *how, double v, double stamped_ns, double noise_ns)
{
	struct dec_part *p = &d->check[d->nchecks++];

	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	snprintf(p->method, sizeof(p->method), "difference");
	snprintf(p->how, sizeof(p->how), "%s", how);
	p->ns = v;
	p->has_check = 1;
	p->noise_ns = noise_ns;
	if (owner == k && !bd->span_extra[k]) {
		p->stamped_ns = stamped_ns;
		p->agrees = fabs(v - p->stamped_ns) <= fmax(AGREE * fabs(p->stamped_ns), p->noise_ns);
	} else {
		p->stamped_ns = bd->part[owner].median;
		snprintf(p->within, sizeof(p->within), "%s", bd->spans_set ? bd->name[owner] : stage_part_name[owner]);
		p->agrees = v <= p->stamped_ns + p->noise_ns;
	}
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

/* Which stages were stamped, and the difference measurements, into parts. */
void decompose_build(struct decompose_res *d, const struct breakdown *bd, double poll_ns)
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
			struct dec_part *p = add(d, name, what, bd->part[k].median,
						 "stamped", k < 2 && !bd->span_extra[k] ? "stamped by the host" :
						 k + bd->span_extra[k] >= STAGE_WIRE && k <= STAGE_WIRE ?
						 "stamped at both ends, one clock" : "stamped by the NIC");

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
	/* The differences: checks where their stage is stamped, parts where not. */
	if (d->have_ereg) {
		const char *how = "EEL of a descriptor put - EEL of an E-register store";

		if (owner[2] >= 0) {
			check_of(d, bd, 2, owner[2], "fetch", how, d->fetch_diff_ns, bd->part[2].median,
				 d->fetch_noise_ns);
		} else {
			add(d, "descriptor", "NIC fetches the descriptor", fmax(d->fetch_diff_ns, 0), "difference",
			    "EEL of a descriptor put - EEL of an E-register store (PIO, no descriptor)");
			remainder_edit(merged, sizeof(merged), "fetch", NULL);
		}
	}
	if (d->have_dma) {
		const char *how = "EEL with the payload DMA'd - EEL with it inline";

		if (owner[3] >= 0) {
			if (d->have_dma_tx || owner[3] != 3 || bd->span_extra[3])
				check_of(d, bd, 3, owner[3], "payload", how, d->payload_diff_ns,
					 d->dma_tx_ns - bd->part[3].median, d->payload_noise_ns);
		} else {
			add(d, "payload", "NIC reads the payload by DMA", fmax(d->payload_diff_ns, 0), "difference",
			    how);
			remainder_edit(merged, sizeof(merged), "tx", "tx less the payload");
		}
	}
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
		sum += p->ns;
	}
	d->residual_ns = d->eel_ns - sum;
	d->done = 1;
}

/* a's runs less b's, run by run (the runs were interleaved): the median into
 * *diff, and into *noise how far apart the runs' differences lie (their IQR)
 * plus one tick of the counter the EELs were timed with. */
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
	*noise = st.p75 - st.p25 + cyc_ns(s, (double)s->clk->resolution_cycles);
}

int decompose_run(struct session *s, struct results *r)
{
	struct decompose_res *d = &r->dec;
	uint32_t runs = s->plan.runs > 6 ? s->plan.runs / 2 : 3, iters = s->plan.iters / 2 + 1;
	static struct pingpong_res dma, pp[3];
	static struct breakdown dma_bd;
	int var[3] = { PP_PUT }, nvar = 1, i_dma = -1, i_ereg = -1;

	memset(&dma, 0, sizeof(dma));
	memset(pp, 0, sizeof(pp));
	/* the plain put's runs, unless -t pingpong ran them (the plan, not
	 * r->pp.done, decides: the server keeps no results) */
	if (!(s->plan.tests & T_PINGPONG) && pingpong_run(s, r))
		return -1;
	/* Where eel's firmware runs on the host over a real NIC (dpdk, raw), the
	 * descriptor and the payload are read by that firmware, on this core,
	 * inside post: a variant's difference would time eel, not the NIC. */
	d->hosted = !!(s->caps->flags & EEL_CAP_HOSTED_FW);
	if (s->caps->max_inline >= 8 && !d->hosted) {
		/* the DMA'd payload's own stamps, for the check */
		if (pingpong_series(s, PP_PUT_DMA, runs, iters, 1, &dma, &dma_bd))
			return -1;
		breakdown_finish(&dma_bd);
		i_dma = nvar;
		var[nvar++] = PP_PUT_DMA;
	}
	if ((s->caps->flags & EEL_CAP_EREGS) && !d->hosted) {
		i_ereg = nvar;
		var[nvar++] = PP_EREG;
	}
	/* the variants whose differences are parts (or checks), interleaved */
	if (nvar > 1 && pingpong_interleaved(s, var, nvar, runs, iters, pp))
		return -1;
	if (s->server)
		return 0;
	d->eel_ns = r->pp.eel.median;
	d->eel_put = nvar > 1 ? pp[0].eel.median : r->pp.eel.median;
	d->have_dma = i_dma >= 0;
	if (d->have_dma) {
		d->eel_dma = pp[i_dma].eel.median;
		run_diff(s, &pp[i_dma], &pp[0], &d->payload_diff_ns, &d->payload_noise_ns);
	}
	d->have_dma_tx = dma_bd.done && dma_bd.have[3];
	d->dma_tx_ns = dma_bd.part[3].median;
	d->have_ereg = i_ereg >= 0;
	if (d->have_ereg) {
		d->eel_ereg = pp[i_ereg].eel.median;
		run_diff(s, &pp[0], &pp[i_ereg], &d->fetch_diff_ns, &d->fetch_noise_ns);
	}
	decompose_build(d, &r->bd, poll_pass_ns(s));
	return 0;
}
