/* SPDX-License-Identifier: MIT */
/* userlib/verbs/verbs_cq.c — completion queues, and the NIC's clock.
 *
 * Where the device stamps its completions (ibv_query_device_ex(3):
 * completion_timestamp_mask and hca_core_clock non-zero) a CQ is created with
 * ibv_create_cq_ex(3) and IBV_WC_EX_WITH_COMPLETION_TIMESTAMP, and polled
 * with ibv_start_poll/ibv_next_poll/ibv_end_poll; the NIC clock is mapped onto
 * the host's counter from readings of ibv_query_rt_values_ex(3), each
 * bracketed by two host counter reads. Elsewhere (rxe, siw) it is a plain
 * ibv_create_cq(3) polled with ibv_poll_cq(3), and no NIC stamps exist.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>

#include "userlib/verbs/verbs.h"

#define POLL_BATCH 16

int vb_cq_create(struct verbs *v, struct vb_cq *cq, int cqe, int want_ts)
{
	memset(cq, 0, sizeof(*cq));
	if (want_ts) {
		struct ibv_cq_init_attr_ex a = {
			.cqe = (uint32_t)cqe,
			.wc_flags = IBV_WC_EX_WITH_BYTE_LEN | IBV_WC_EX_WITH_IMM |
				    IBV_WC_EX_WITH_COMPLETION_TIMESTAMP,
		};

		cq->ex = ibv_create_cq_ex(v->ctx, &a);
		if (cq->ex) {
			cq->cq = ibv_cq_ex_to_cq(cq->ex);
			return 1;
		}
	}
	cq->cq = ibv_create_cq(v->ctx, cqe, NULL, NULL, 0);
	if (!cq->cq)
		return eel_err(-(errno ? errno : ENOMEM), "cannot create a completion queue of %d entries on %s: %s",
			       cqe, v->ibdev, strerror(errno ? errno : ENOMEM));
	return 0;
}

void vb_cq_destroy(struct vb_cq *cq)
{
	if (cq->cq)
		ibv_destroy_cq(cq->cq);
	cq->cq = NULL;
	cq->ex = NULL;
}

/* ibv_create_cq_ex(3): the fields of the current completion, by accessor. */
static void read_ex(struct ibv_cq_ex *ex, struct vb_wc *w)
{
	memset(w, 0, sizeof(*w));
	w->wr_id = ex->wr_id;
	w->status = ex->status;
	w->vendor_err = ibv_wc_read_vendor_err(ex);
	if (ex->status != IBV_WC_SUCCESS)
		return; /* only wr_id, status and vendor_err are valid in an error completion */
	w->opcode = ibv_wc_read_opcode(ex);
	w->byte_len = ibv_wc_read_byte_len(ex);
	if (ibv_wc_read_wc_flags(ex) & IBV_WC_WITH_IMM)
		w->imm = ntohl(ibv_wc_read_imm_data(ex));
	w->ts = ibv_wc_read_completion_ts(ex);
}

static int poll_ex(struct vb_cq *cq, struct vb_wc *wc, int max)
{
	struct ibv_poll_cq_attr attr = { .comp_mask = 0 };
	int n = 0, rc = ibv_start_poll(cq->ex, &attr);

	if (rc == ENOENT)
		return 0;
	if (rc)
		return -rc;
	for (;;) {
		read_ex(cq->ex, &wc[n++]);
		if (n == max || ibv_next_poll(cq->ex))
			break;
	}
	ibv_end_poll(cq->ex);
	return n;
}

int vb_cq_poll(struct vb_cq *cq, struct vb_wc *wc, int max)
{
	struct ibv_wc w[POLL_BATCH];
	int n;

	if (cq->ex)
		return poll_ex(cq, wc, max);
	n = ibv_poll_cq(cq->cq, max < POLL_BATCH ? max : POLL_BATCH, w);
	for (int i = 0; i < n; i++) {
		wc[i].wr_id = w[i].wr_id;
		wc[i].ts = 0;
		wc[i].status = w[i].status;
		wc[i].vendor_err = w[i].vendor_err;
		wc[i].opcode = w[i].opcode;
		wc[i].byte_len = w[i].byte_len;
		wc[i].imm = (w[i].wc_flags & IBV_WC_WITH_IMM) ? ntohl(w[i].imm_data) : 0;
	}
	return n;
}

/* ---- the NIC clock ---- */

/* One reading of the NIC clock, bracketed by the host counter. */
static int read_nic(struct verbs *v, uint64_t *raw, uint64_t *c0, uint64_t *c1)
{
	struct ibv_values_ex val = { .comp_mask = IBV_VALUES_MASK_RAW_CLOCK };
	int rc;

	*c0 = eel_cycles();
	rc = ibv_query_rt_values_ex(v->ctx, &val);
	*c1 = eel_cycles();
	if (rc || !(val.comp_mask & IBV_VALUES_MASK_RAW_CLOCK))
		return -1;
	*raw = (uint64_t)val.raw_clock.tv_sec * 1000000000ull + (uint64_t)val.raw_clock.tv_nsec;
	return 0;
}

/* 1 when the device has a completion clock eel can read, else 0. */
int vb_clock_start(struct verbs *v)
{
	uint64_t raw, c0, c1;

	if (!v->clk.mask || !v->clk.khz || read_nic(v, &raw, &c0, &c1))
		return 0;
	v->clk.k = eel_clock()->hz / ((double)v->clk.khz * 1e3);
	vb_clock_sync(v);
	return 1;
}

/* Take the NIC clock's offset again: the best of a few readings (the
 * narrowest bracket); the rate is the device's nominal hca_core_clock. */
void vb_clock_sync(struct verbs *v)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 8; i++) {
		uint64_t raw, c0, c1;

		if (read_nic(v, &raw, &c0, &c1))
			continue;
		if (c1 - c0 < best) {
			best = c1 - c0;
			v->clk.raw0 = raw;
			v->clk.host0 = (double)c0 + (double)(c1 - c0) / 2;
		}
	}
}

uint64_t vb_clock_to_host(const struct vb_nic_clock *c, uint64_t raw)
{
	uint64_t mask = c->mask ? c->mask : UINT64_MAX;
	uint64_t d = (raw - c->raw0) & mask;
	double dd = d > mask / 2 ? -(double)((mask - d) + 1) : (double)d; /* before raw0: negative */
	double h = c->host0 + dd * c->k;

	return h > 0 ? (uint64_t)(h + 0.5) : 0;
}
