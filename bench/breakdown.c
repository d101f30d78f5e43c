/* bench/breakdown.c — where the time of one put goes, from the stamps.
 *
 * A traced put has a sender-side record (POST .. NIC_TX) at the sending end
 * and a receiver-side record (NIC_RX .. DETECT) at the other, both keyed by
 * the sender's message number. Stages within one record are differences of
 * one clock and always exact; the one stage between the ends (wire: NIC_TX to
 * NIC_RX) and the whole one-way time need both ends to stamp with one clock
 * (EEL_CAP_SHARED_CLOCK: the software NIC, two processes on one machine).
 * Elsewhere those are left to the decomposition (decompose.c), which takes
 * them as what remains of the measured EEL.
 */
#include <math.h>
#include <stdlib.h>

#include "bench.h"

const char *const stage_part_name[STAGE_PARTS] = {
	"post", "doorbell", "fetch", "tx", "wire", "rx", "dma", "detect",
};

const char *const stage_part_what[STAGE_PARTS] = {
	"host software: put call to doorbell store",
	"doorbell store issued to retired",
	"NIC sees the doorbell, fetches the descriptor",
	"NIC reads the payload, builds and sends the packet",
	"on the wire, to the receiving NIC",
	"receiving NIC checks the packet (key, bounds)",
	"payload DMA into host memory",
	"receiving host notices the data",
};

/* Stages in order: part k runs from stamp k to stamp k + 1. */
static const int stamp_order[STAGE_PARTS + 1] = {
	EEL_ST_POST, EEL_ST_DOORBELL, EEL_ST_DOORBELL_DONE, EEL_ST_NIC_FETCH, EEL_ST_NIC_TX,
	EEL_ST_NIC_RX, EEL_ST_DMA_START, EEL_ST_DMA_DONE, EEL_ST_DETECT,
};

static void push(struct breakdown *bd, int k, double ns)
{
	if (bd->nv[k] < bd->cap)
		bd->v[k][bd->nv[k]++] = ns;
}

/* Part k of a record, if both its stamps are there and in order. */
static int part_of(const struct session *s, const struct eel_trace *m, int k, double *ns)
{
	uint64_t a = m->t[stamp_order[k]], b = m->t[stamp_order[k + 1]];

	if (!a || !b || b < a)
		return 0;
	*ns = cyc_ns(s, (double)(b - a));
	return 1;
}

int breakdown_add(const struct session *s, struct breakdown *bd, const struct eel_trace *tx, int ntx,
		  const struct eel_trace *rx, int nrx)
{
	int shared = s->caps->flags & EEL_CAP_SHARED_CLOCK;
	int i = 0, j = 0;
	double ns;

	if (!bd->v[0]) {
		bd->cap = 2 * 65536;
		for (int k = 0; k <= STAGE_PARTS; k++)
			if (!(bd->v[k] = calloc((size_t)bd->cap, sizeof(double))))
				return -1;
	}
	/* within one end: the sender's stages, then the receiver's */
	for (i = 0; i < ntx; i++) {
		bd->samples++;
		for (int k = 0; k < STAGE_WIRE; k++)
			if (part_of(s, &tx[i], k, &ns))
				push(bd, k, ns);
	}
	for (j = 0; j < nrx; j++)
		for (int k = STAGE_WIRE + 1; k < STAGE_PARTS; k++)
			if (part_of(s, &rx[j], k, &ns))
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
		if (part_of(s, &m, STAGE_WIRE, &ns))
			push(bd, STAGE_WIRE, ns);
		if (m.t[EEL_ST_POST] && m.t[EEL_ST_DETECT] > m.t[EEL_ST_POST])
			push(bd, STAGE_PARTS, cyc_ns(s, (double)(m.t[EEL_ST_DETECT] - m.t[EEL_ST_POST])));
		i++;
		j++;
	}
	return 0;
}

void breakdown_finish(struct breakdown *bd)
{
	double sum = 0;
	int all = 1;

	for (int k = 0; k <= STAGE_PARTS; k++) {
		bd->have[k] = bd->nv[k] > 0;
		if (k < STAGE_PARTS) {
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
