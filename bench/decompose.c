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

/* Which stages were stamped, and the difference measurements, into parts. */
void decompose_build(struct decompose_res *d, const struct breakdown *bd, double poll_ns)
{
	double sum = 0;
	char merged[96] = "";
	int stamped_fetch = bd->done && bd->have[2], stamped_tx = bd->done && bd->have[3];
	int stamped_detect = bd->done && bd->have[STAGE_PARTS - 1];

	d->nparts = 0;
	d->nchecks = 0;
	for (int k = 0; k < STAGE_PARTS; k++) {
		if (bd->done && bd->have[k]) {
			struct dec_part *p = add(d, stage_part_name[k], stage_part_what[k], bd->part[k].median,
						 "stamped", k < 2 ? "stamped by the host" :
						 k == STAGE_WIRE ? "stamped at both ends, one clock" :
						 "stamped by the NIC");

			(void)p;
			continue;
		}
		snprintf(merged + strlen(merged), sizeof(merged) - strlen(merged), "%s%s", merged[0] ? "," : "",
			 stage_part_name[k]);
	}
	/* The differences: checks where the stages are stamped, parts where not. */
	if (d->have_ereg) {
		double v = d->fetch_diff_ns;

		if (stamped_fetch) {
			struct dec_part *p = &d->check[d->nchecks++];

			memset(p, 0, sizeof(*p));
			snprintf(p->name, sizeof(p->name), "fetch");
			snprintf(p->method, sizeof(p->method), "difference");
			snprintf(p->how, sizeof(p->how), "EEL of a descriptor put - EEL of an E-register store");
			p->ns = v;
			p->stamped_ns = bd->part[2].median;
			p->has_check = 1;
			p->noise_ns = d->fetch_noise_ns;
			p->agrees = fabs(v - p->stamped_ns) <= fmax(AGREE * fabs(p->stamped_ns), p->noise_ns);
		} else {
			add(d, "descriptor", "NIC fetches the descriptor", fmax(v, 0), "difference",
			    "EEL of a descriptor put - EEL of an E-register store (PIO, no descriptor)");
		}
	}
	if (d->have_dma) {
		double v = d->payload_diff_ns;

		if (stamped_tx && d->have_dma_tx) {
			struct dec_part *p = &d->check[d->nchecks++];

			memset(p, 0, sizeof(*p));
			snprintf(p->name, sizeof(p->name), "payload");
			snprintf(p->method, sizeof(p->method), "difference");
			snprintf(p->how, sizeof(p->how), "EEL with the payload DMA'd - EEL with it inline");
			p->ns = v;
			p->stamped_ns = d->dma_tx_ns - bd->part[3].median;
			p->has_check = 1;
			p->noise_ns = d->payload_noise_ns;
			p->agrees = fabs(v - p->stamped_ns) <= fmax(AGREE * fabs(p->stamped_ns), p->noise_ns);
		} else if (!stamped_tx) {
			add(d, "payload", "NIC reads the payload by DMA", fmax(v, 0), "difference",
			    "EEL with the payload DMA'd - EEL with it inline");
		}
	}
	if (!stamped_detect && poll_ns > 0) {
		char *c = strstr(merged, "detect");

		add(d, "detect", stage_part_what[STAGE_PARTS - 1], poll_ns / 2, "modelled",
		    "half of one pass of the receiver's polling loop (measured)");
		if (c) /* no longer part of the remainder */
			memmove(c > merged ? c - 1 : c, c + 6, strlen(c + 6) + 1);
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
	if (s->caps->max_inline >= 8) {
		/* the DMA'd payload's own stamps, for the check */
		if (pingpong_series(s, PP_PUT_DMA, runs, iters, 1, &dma, &dma_bd))
			return -1;
		breakdown_finish(&dma_bd);
		i_dma = nvar;
		var[nvar++] = PP_PUT_DMA;
	}
	if (s->caps->flags & EEL_CAP_EREGS) {
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
