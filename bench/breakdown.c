/* bench/breakdown.c — where the time of one put goes, from the stamps.
 *
 * A traced put has a sender-side record (POST .. NIC_TX) at the sending end
 * and a receiver-side record (NIC_RX .. DETECT) at the other, both keyed by
 * the sender's message number. Joined, they give the whole one-way timeline;
 * the stages between consecutive stamps add up to DETECT - POST exactly.
 * Only a NIC that stamps both ends with one clock (EEL_CAP_SHARED_CLOCK, the
 * software NIC) gives exact cross-end stages; elsewhere the join is refused.
 */
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

int breakdown_add(const struct session *s, struct breakdown *bd, const struct eel_trace *tx, int ntx,
		  const struct eel_trace *rx, int nrx)
{
	int i = 0, j = 0;

	if (!(s->caps->flags & EEL_CAP_SHARED_CLOCK))
		return 0;
	if (!bd->v) {
		bd->cap = 2 * 65536;
		bd->v = calloc((size_t)bd->cap, sizeof(*bd->v));
		if (!bd->v)
			return -1;
	}
	/* Both lists are in message order: merge-join on msg_id. */
	while (i < ntx && j < nrx && bd->samples < bd->cap) {
		const struct eel_trace *a = &tx[i], *b = &rx[j];
		struct eel_trace m;
		int ok = 1;

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
		for (int k = 0; k <= STAGE_PARTS; k++)
			ok &= m.t[stamp_order[k]] != 0;
		for (int k = 0; ok && k < STAGE_PARTS; k++)
			ok &= m.t[stamp_order[k + 1]] >= m.t[stamp_order[k]];
		if (ok) {
			double *v = bd->v[bd->samples++];

			for (int k = 0; k < STAGE_PARTS; k++)
				v[k] = cyc_ns(s, (double)(m.t[stamp_order[k + 1]] - m.t[stamp_order[k]]));
			v[STAGE_PARTS] = cyc_ns(s, (double)(m.t[EEL_ST_DETECT] - m.t[EEL_ST_POST]));
		}
		i++;
		j++;
	}
	return 0;
}

void breakdown_finish(struct breakdown *bd)
{
	double *col;
	double sum = 0;

	if (!bd->samples || !(col = malloc(sizeof(double) * (size_t)bd->samples)))
		return;
	for (int k = 0; k <= STAGE_PARTS; k++) {
		for (int i = 0; i < bd->samples; i++)
			col[i] = bd->v[i][k];
		if (k < STAGE_PARTS) {
			bd->part[k] = stat_of(col, bd->samples);
			sum += bd->part[k].median;
		} else {
			bd->total = stat_of(col, bd->samples);
		}
	}
	bd->residual_ns = bd->total.median - sum;
	bd->done = 1;
	free(col);
}
