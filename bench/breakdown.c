/* bench/breakdown.c — where the time of one put goes, from the stamps.
 *
 * A traced put has a sender-side record (POST .. NIC_TX) at the sending end
 * and a receiver-side record (NIC_RX .. DETECT) at the other, both keyed by
 * the sender's message number. Stages within one record are differences of
 * one clock and always exact; a stage between the ends (wire: NIC_TX to
 * NIC_RX) and the whole one-way time need both ends to stamp with one clock
 * (EEL_CAP_SHARED_CLOCK: the software NIC, two processes on one machine).
 * Elsewhere those are left to the decomposition (decompose.c), which takes
 * them as what remains of the measured EEL. A stamp read on the host costs
 * the path its own time (eel_clock()->stamp_cycles): each stage is given
 * less the cost of the stamp that ends it, the total less all of them, as
 * the timer's cost is taken off every timed run.
 *
 * A NIC that does not take a stamp (the NIC's stamp_mask) does not let eel
 * tell the two stages around it apart: they are one part, named for both
 * ("fetch+tx"), never split by a guess. Where eel's firmware runs on the
 * host's core over a real NIC (EEL_CAP_HOSTED_FW: dpdk, raw), the stages are
 * named for what does them there: host software up to the NIC's own
 * doorbell, the NIC, then the receiving host's firmware.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

const char *const stage_part_name[STAGE_PARTS] = {
	"post", "doorbell", "fetch", "tx", "wire", "rx", "dma", "detect",
};

static const char *const what_nic[STAGE_PARTS] = {
	"host software: put call to doorbell store",
	"doorbell store issued to retired",
	"NIC sees the doorbell, fetches the descriptor",
	"NIC reads the payload, builds and sends the packet",
	"on the wire, to the receiving NIC",
	"receiving NIC: parse, ACKs, key and bounds checks",
	"payload DMA into host memory",
	"receiving host notices the data",
};

/* eel's firmware on the host's core over a real NIC (dpdk, raw) */
static const char *const what_hosted[STAGE_PARTS] = {
	"host software: put call and eel's firmware, to the NIC's doorbell",
	"the NIC's doorbell (tail register) written to returned",
	"NIC fetches the descriptor and the frame",
	"NIC sends the frame (to its descriptor-done bit)",
	"on the wire, into the receiving NIC, until eel's firmware reads it",
	"eel's firmware on the receiving core: parse, ACKs, key and bounds checks",
	"eel's firmware copies the payload into host memory",
	"receiving host notices the data",
};

/* The stamps, for a part that runs over several stages */
static const char *const stamp_nic[STAGE_PARTS + 1] = {
	"the put call", "the doorbell store", "the doorbell's retirement", "the descriptor fetch", "the packet sent",
	"the packet in", "the checks done", "the payload in memory", "the data seen",
};

static const char *const stamp_hosted[STAGE_PARTS + 1] = {
	"the put call", "the NIC's doorbell", "the doorbell's return", "the descriptor fetch", "the descriptor done",
	"eel's firmware reading the frame", "the checks done", "the payload in memory", "the data seen",
};

/* Stages in order: part k runs from stamp k to stamp k + 1. */
static const int stamp_order[STAGE_PARTS + 1] = {
	EEL_ST_POST, EEL_ST_DOORBELL, EEL_ST_DOORBELL_DONE, EEL_ST_NIC_FETCH, EEL_ST_NIC_TX,
	EEL_ST_NIC_RX, EEL_ST_DMA_START, EEL_ST_DMA_DONE, EEL_ST_DETECT,
};

/* Which parts this NIC tells apart, and their names: part k runs from stamp
 * k to the next stamp the NIC takes. Idempotent. */
void breakdown_spans(struct breakdown *bd, const struct eel_caps *caps)
{
	int hosted = caps->flags & EEL_CAP_HOSTED_FW;
	const char *const *what = hosted ? what_hosted : what_nic;
	const char *const *stamp = hosted ? stamp_hosted : stamp_nic;
	uint32_t mask = caps->stamp_mask ? caps->stamp_mask : (1u << EEL_STAGES) - 1;

	if (bd->spans_set)
		return;
	bd->stage_what = what;
	for (int k = 0; k < STAGE_PARTS;) {
		int e = k;

		while (e + 1 < STAGE_PARTS && !(mask & (1u << stamp_order[e + 1])))
			e++;
		bd->span_extra[k] = e - k;
		snprintf(bd->name[k], sizeof(bd->name[k]), "%s", stage_part_name[k]);
		for (int i = k + 1; i <= e; i++) {
			size_t n = strlen(bd->name[k]);

			bd->absorbed[i] = 1;
			snprintf(bd->name[k] + n, sizeof(bd->name[k]) - n, "+%s", stage_part_name[i]);
		}
		if (e == k)
			snprintf(bd->what[k], sizeof(bd->what[k]), "%s", what[k]);
		else
			snprintf(bd->what[k], sizeof(bd->what[k]), "from %s to %s (not told apart here)", stamp[k],
				 stamp[e + 1]);
		k = e + 1;
	}
	bd->spans_set = 1;
}

/* What stage k (one of the nominal eight) is, on this NIC. */
const char *breakdown_stage_what(const struct breakdown *bd, int k)
{
	return (bd->stage_what ? bd->stage_what : what_nic)[k];
}

static void push(struct breakdown *bd, int k, double ns)
{
	if (bd->nv[k] < bd->cap)
		bd->v[k][bd->nv[k]++] = ns;
}

/* The host's cost of the stamp that ends at stamp_order[e] (none for a
 * stamp read off the NIC's clock). */
static double stamp_cost(const struct breakdown *bd, int e)
{
	return bd->nic_stamps & (1u << stamp_order[e]) ? 0 : bd->stamp_ns;
}

/* Which records part k needs: the sender's (1), the receiver's (2) or both,
 * joined on one clock (3). */
static int part_side(const struct breakdown *bd, int k)
{
	int end = k + bd->span_extra[k] + 1; /* its last stamp, in stamp_order */

	return end <= STAGE_WIRE ? 1 : k > STAGE_WIRE ? 2 : 3;
}

/* Part k of a record (to the end of its span), if both its stamps are there
 * and, within one end, in order: less the cost of the stamp that ends it.
 * Between the ends (part_side 3) the two stamps come from two cores, whose
 * counters may disagree by a few ns (the limit test bounds it): a short part
 * then comes out below zero now and then, and is kept as measured, so that
 * its mean is not biased upwards and the parts' means still add up. */
static int part_of(const struct session *s, const struct breakdown *bd, const struct eel_trace *m, int k,
		   double *ns)
{
	int across = part_side(bd, k) == 3;
	int e = k + bd->span_extra[k] + 1;
	uint64_t a = m->t[stamp_order[k]], b = m->t[stamp_order[e]];

	if (!a || !b || (b < a && !across))
		return 0;
	*ns = cyc_ns(s, (double)(int64_t)(b - a)) - stamp_cost(bd, e);
	return 1;
}

/* DETECT - POST less the cost of every host stamp after POST on the way */
static double total_of(const struct session *s, const struct breakdown *bd, const struct eel_trace *m)
{
	double ns = cyc_ns(s, (double)(m->t[EEL_ST_DETECT] - m->t[EEL_ST_POST]));

	for (int e = 1; e <= STAGE_PARTS; e++)
		if (m->t[stamp_order[e]])
			ns -= stamp_cost(bd, e);
	return ns;
}


int breakdown_add(const struct session *s, struct breakdown *bd, const struct eel_trace *tx, int ntx,
		  const struct eel_trace *rx, int nrx)
{
	int shared = s->caps->flags & EEL_CAP_SHARED_CLOCK;
	int i = 0, j = 0;
	double ns;

	breakdown_spans(bd, s->caps);
	bd->stamp_ns = cyc_ns(s, (double)s->clk->stamp_cycles);
	bd->nic_stamps = s->caps->nic_stamp_mask;
	if (!bd->v[0]) {
		bd->cap = 2 * 65536;
		for (int k = 0; k <= STAGE_PARTS; k++)
			if (!(bd->v[k] = calloc((size_t)bd->cap, sizeof(double))))
				return -1;
		if (!(bd->alt = calloc((size_t)bd->cap, sizeof(double))))
			return -1;
	}
	/* within one end: the sender's stages, then the receiver's */
	for (i = 0; i < ntx; i++) {
		bd->samples++;
		for (int k = 0; k < STAGE_PARTS; k++)
			if (!bd->absorbed[k] && part_side(bd, k) == 1 && part_of(s, bd, &tx[i], k, &ns))
				push(bd, k, ns);
	}
	for (j = 0; j < nrx; j++)
		for (int k = 0; k < STAGE_PARTS; k++)
			if (!bd->absorbed[k] && part_side(bd, k) == 2 && part_of(s, bd, &rx[j], k, &ns))
				push(bd, k, ns);
	if (!shared)
		return 0;
	/* between the ends, one clock: join on msg_id (both lists in message order) */
	for (i = 0, j = 0; i < ntx && j < nrx;) {
		const struct eel_trace *a = &tx[i], *b = &rx[j];
		struct eel_trace m;

		if (a->msg_id != b->msg_id) {
			if ((int32_t)(a->msg_id - b->msg_id) < 0)
				i++;
			else
				j++;
			continue;
		}
		m = *a;
		for (int k = EEL_ST_NIC_RX; k <= EEL_ST_DETECT; k++)
			m.t[k] = b->t[k];
		for (int k = 1; k < STAGE_PARTS; k++) {
			int prev = k - 1;
			uint64_t t0, t1;

			if (bd->absorbed[k] || part_side(bd, k) != 3)
				continue;
			if (part_of(s, bd, &m, k, &ns))
				push(bd, k, ns);
			while (prev > 0 && bd->absorbed[prev])
				prev--;
			t0 = m.t[stamp_order[k]];
			t1 = m.t[stamp_order[k + bd->span_extra[k] + 1]];
			bd->inverted += t0 && t1 && t1 < t0;
			if (m.t[stamp_order[prev]] && t1 > m.t[stamp_order[prev]] && bd->nalt < bd->cap)
				bd->alt[bd->nalt++] = cyc_ns(s, (double)(t1 - m.t[stamp_order[prev]])) -
						      stamp_cost(bd, k + bd->span_extra[k] + 1) -
						      (t0 ? stamp_cost(bd, k) : 0);
		}
		if (m.t[EEL_ST_POST] && m.t[EEL_ST_DETECT] > m.t[EEL_ST_POST])
			push(bd, STAGE_PARTS, total_of(s, bd, &m));
		i++;
		j++;
	}
	return 0;
}

/* The part between the ends came before the end of the part before it in
 * most puts: the two are one part, from the earlier one's start. */
static void merge_inverted(struct breakdown *bd)
{
	const char *const *stamp;
	char what[200];
	int k, prev;
	size_t n;

	for (k = 1; k < STAGE_PARTS && (bd->absorbed[k] || part_side(bd, k) != 3); k++)
		;
	if (k == STAGE_PARTS || 2 * bd->inverted <= bd->nv[k])
		return;
	for (prev = k - 1; prev > 0 && bd->absorbed[prev]; prev--)
		;
	bd->span_extra[prev] += 1 + bd->span_extra[k];
	bd->absorbed[k] = 1;
	snprintf(what, sizeof(what), "%s+%s", bd->name[prev], bd->name[k]);
	n = strlen(what) < sizeof(bd->name[prev]) ? strlen(what) : sizeof(bd->name[prev]) - 1;
	memcpy(bd->name[prev], what, n);
	bd->name[prev][n] = 0;
	stamp = bd->stage_what == what_hosted ? stamp_hosted : stamp_nic;
	snprintf(what, sizeof(what), "from %s to %s (the call returns after the frame is in)", stamp[prev],
		 stamp[prev + bd->span_extra[prev] + 1]);
	memcpy(bd->what[prev], what, sizeof(what)); /* both 200 bytes */
	memcpy(bd->v[prev], bd->alt, (size_t)bd->nalt * sizeof(double));
	bd->nv[prev] = bd->nalt;
	bd->nv[k] = 0;
	bd->inverted = 0;
}

void breakdown_finish(struct breakdown *bd)
{
	double sum = 0;
	int all = 1;

	if (bd->spans_set)
		merge_inverted(bd);

	for (int k = 0; k <= STAGE_PARTS; k++) {
		bd->have[k] = bd->nv[k] > 0;
		if (k < STAGE_PARTS) {
			if (bd->absorbed[k])
				continue; /* inside an earlier part */
			bd->part[k] = stat_of(bd->v[k], bd->nv[k]);
			sum += bd->part[k].median;
			all &= bd->have[k];
		} else {
			bd->total = stat_of(bd->v[k], bd->nv[k]);
		}
	}
	bd->residual_ns = bd->have[STAGE_PARTS] && all ? bd->total.median - sum : NAN;
	bd->done = bd->samples > 0;
}

void breakdown_free(struct breakdown *bd)
{
	for (int k = 0; k <= STAGE_PARTS; k++) {
		free(bd->v[k]);
		bd->v[k] = NULL;
	}
	free(bd->alt);
	bd->alt = NULL;
}
