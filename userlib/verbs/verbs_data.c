/* SPDX-License-Identifier: MIT */
/* userlib/verbs/verbs_data.c — the data path of the verbs backend: puts, E-register
 * style eput/eget, eel_poll and eel_quiet (completions: verbs_reap.c; the
 * blocking loops and the receive-side wait: verbs_wait.c).
 *
 * Puts are RDMA WRITEs on the RC queue pair (ibv_post_send(3), opcode
 * IBV_WR_RDMA_WRITE; IBTA Vol. 1 ch. 9, transport layer), the payload inline in
 * the WQE when it fits (IBV_SEND_INLINE) or gathered by the NIC from the
 * caller's registered region. A notified put is IBV_WR_RDMA_WRITE_WITH_IMM:
 * it consumes a receive the receiver posted beforehand (ibv_post_recv(3),
 * zero-length: the data goes where the WRITE says) and gives the receiver a
 * completion carrying the immediate.
 *
 * Selective signalling: the caller may post unsignalled puts for ever, but an
 * unsignalled WQE leaves the send queue only when a later signalled one
 * completes (ibv_post_send(3), IBV_SEND_SIGNALED; ibv_create_qp(3),
 * sq_sig_all = 0). So at least one WQE in every sq_depth/2 is signalled here,
 * whether the caller asked or not, and those hidden completions are reaped
 * inside eel_put, eel_poll, eel_quiet and the waits, so the queue never fills
 * with WQEs nobody will retire.
 *
 * Quiet: on RC a WRITE's completion means the responder acknowledged it
 * (IBTA Vol. 1 ch. 9, reliable service), so once the last WQE posted has
 * completed, everything before it was delivered. If that WQE was unsignalled,
 * a signalled zero-length WRITE is posted behind it, and waited for.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>

#include "userlib/verbs/verbs.h"

/* Post one send WQE described by e. Stamps DOORBELL and DOORBELL_DONE around
 * ibv_post_send (which writes the WQE and rings: on rxe and siw a write()
 * to the kernel, which runs the requester at once; on mlx5 a BlueFlame store). */
static int post_send(struct verbs *v, struct ibv_send_wr *wr, struct vb_sq_ent *e, uint64_t t_post)
{
	uint64_t seq = v->head, t_db = 0, t_done = 0;
	struct ibv_send_wr *bad = NULL;
	int traced = t_post != 0, rc;

	if (traced)
		wr->send_flags |= IBV_SEND_SIGNALED;   /* so COMPLETE can be stamped */
	if (!(wr->send_flags & IBV_SEND_SIGNALED) && seq - v->last_sig >= v->sq_depth / 2) {
		wr->send_flags |= IBV_SEND_SIGNALED;
		v->cnt[VB_CNT_HIDDEN_SIGNALS]++;
	}
	if (wr->send_flags & IBV_SEND_SIGNALED)
		e->flags |= VB_SIGNALED;
	wr->wr_id = seq;
	wr->next = NULL;
	v->ring[seq & (v->sq_depth - 1)] = *e;
	if (traced)
		t_db = eel_stamp();
	rc = ibv_post_send(v->qp, wr, &bad);
	if (traced)
		t_done = eel_stamp();
	if (__builtin_expect(rc != 0, 0)) {
		rc = rc < 0 ? -rc : rc;
		return eel_err(-rc, "ibv_post_send on %s failed: %s", v->ibdev, strerror(rc));
	}
	v->head++;
	if (e->flags & VB_SIGNALED)
		v->last_sig = seq;
	if (traced) {
		uint32_t slot;
		struct eel_trace *r = vb_trace_tx(v, &slot);

		r->msg_id = e->msg_id;
		r->t[EEL_ST_POST] = t_post;
		r->t[EEL_ST_DOORBELL] = t_db;
		r->t[EEL_ST_DOORBELL_DONE] = t_done;
		v->ring[seq & (v->sq_depth - 1)].trace = slot;
		v->ring[seq & (v->sq_depth - 1)].flags |= VB_TRACED;
		v->traced_out++;
	}
	return 0;
}

int vb_put(struct eel_dev *dev, const struct eel_mr *lmr, const void *src, size_t len,
	   const struct eel_window *dst, uint64_t dst_off, unsigned flags, uint64_t wr_id, uint32_t imm)
{
	struct verbs *v = VERBS(dev);
	uint32_t msg = (uint32_t)v->puts;
	int traced = eel_stamp_due(v->stamp_every, &v->stamp_pos);
	uint64_t t_post = traced ? eel_stamp() : 0;
	struct ibv_sge sge;
	struct ibv_send_wr wr;
	struct vb_sq_ent e;
	int rc;

	v->puts += v->stamp_every != 0;

	if (__builtin_expect(v->err != 0, 0))
		return vb_error(v);
	if (flags & ~(unsigned)(EEL_PUT_SIGNALED | EEL_PUT_INLINE | EEL_PUT_NOTIFY))
		return eel_err(-EINVAL, "eel_put: unknown flags 0x%x", flags);
	if (len > dev->caps.max_put)
		return eel_err(-EMSGSIZE, "eel_put: %zu bytes is more than %s's largest message (%llu)", len,
			       v->ibdev, (unsigned long long)dev->caps.max_put);
	if ((flags & EEL_PUT_NOTIFY) && !v->notify)
		return eel_err(-EOPNOTSUPP, "eel_put: %s (%s) has no RDMA WRITE with immediate, so no notified "
			       "puts: detect the data with eel_wait_u64 instead", v->ibdev, v->driver);
	if (flags & EEL_PUT_INLINE) {
		if (len > dev->caps.max_inline)
			return eel_err(-EINVAL, "eel_put: %zu bytes inline, %s carries at most %u", len, v->ibdev,
				       dev->caps.max_inline);
	} else if (!lmr || (const char *)src < (const char *)lmr->addr ||
		   (size_t)((const char *)src - (const char *)lmr->addr) > lmr->len ||
		   len > lmr->len - (size_t)((const char *)src - (const char *)lmr->addr)) {
		return eel_err(-EINVAL, "eel_put: the source (%zu bytes at %p) is not inside the local region "
			       "given: register it, or pass EEL_PUT_INLINE for small puts", len, src);
	}
	if ((flags & EEL_PUT_SIGNALED) && v->user_sig_out >= v->sq_depth) {
		v->cnt[VB_CNT_EAGAIN]++;
		return eel_err(-EAGAIN, "%u signalled puts not yet polled: poll their completions first",
			       v->user_sig_out);
	}
	if ((rc = vb_sq_room(dev, 0, NULL)))
		return rc;

	sge.addr = (uintptr_t)src;
	sge.length = (uint32_t)len;
	sge.lkey = lmr ? lmr->lkey : 0;
	memset(&wr, 0, sizeof(wr));
	wr.sg_list = &sge;
	wr.num_sge = len ? 1 : 0;
	wr.opcode = (flags & EEL_PUT_NOTIFY) ? IBV_WR_RDMA_WRITE_WITH_IMM : IBV_WR_RDMA_WRITE;
	wr.send_flags = ((flags & EEL_PUT_SIGNALED) ? IBV_SEND_SIGNALED : 0) |
			((flags & EEL_PUT_INLINE) ? IBV_SEND_INLINE : 0);
	wr.imm_data = htonl(imm);
	wr.wr.rdma.remote_addr = dst->addr + dst_off;
	wr.wr.rdma.rkey = dst->rkey;
	e = (struct vb_sq_ent){ .wr_id = wr_id, .len = (uint32_t)len, .kind = VB_PUT, .msg_id = msg,
				.rkey = dst->rkey, .raddr = dst->addr + dst_off,
				.flags = (flags & EEL_PUT_SIGNALED) ? VB_USER_SIGNALED : 0 };
	if ((rc = post_send(v, &wr, &e, t_post)))
		return rc;
	v->cnt[VB_CNT_PUTS]++;
	if (flags & EEL_PUT_SIGNALED)
		v->user_sig_out++;
	return 0;
}

/* eput: an 8-byte RDMA WRITE, inline where the device allows (on mlx5 the
 * whole WQE then goes to the NIC in the BlueFlame store: no descriptor DMA). */
int vb_eput(struct eel_dev *dev, const struct eel_window *dst, uint64_t off, uint64_t value)
{
	struct verbs *v = VERBS(dev);
	struct ibv_sge sge;
	struct ibv_send_wr wr;
	struct vb_sq_ent e;
	uint64_t *slot;
	int rc;

	if (v->err)
		return vb_error(v);
	if ((rc = vb_sq_room(dev, 1, "eel_eput: waiting for room in the send queue")))
		return rc;
	slot = &v->stage[v->head & (v->sq_depth - 1)];
	*slot = value;
	sge = (struct ibv_sge){ .addr = (uintptr_t)slot, .length = 8, .lkey = v->stage_mr->lkey };
	memset(&wr, 0, sizeof(wr));
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = IBV_WR_RDMA_WRITE;
	wr.send_flags = dev->caps.max_inline >= 8 ? IBV_SEND_INLINE : 0;
	wr.wr.rdma.remote_addr = dst->addr + off;
	wr.wr.rdma.rkey = dst->rkey;
	e = (struct vb_sq_ent){ .len = 8, .kind = VB_EPUT, .rkey = dst->rkey, .raddr = dst->addr + off };
	if ((rc = post_send(v, &wr, &e, 0)))
		return rc;
	v->cnt[VB_CNT_EPUTS]++;
	return 0;
}

/* eget: an 8-byte RDMA READ (ibv_post_send(3), IBV_WR_RDMA_READ) into a staging slot,
 * signalled, and waited for. */
int vb_eget(struct eel_dev *dev, const struct eel_window *src, uint64_t off, uint64_t *value)
{
	struct verbs *v = VERBS(dev);
	struct ibv_sge sge;
	struct ibv_send_wr wr;
	struct vb_sq_ent e;
	struct vb_wait w;
	volatile uint64_t *slot;
	uint64_t seq;
	int rc;

	if (v->err)
		return vb_error(v);
	if ((rc = vb_sq_room(dev, 1, "eel_eget: waiting for room in the send queue")))
		return rc;
	seq = v->head;
	slot = &v->stage[seq & (v->sq_depth - 1)];
	sge = (struct ibv_sge){ .addr = (uintptr_t)slot, .length = 8, .lkey = v->stage_mr->lkey };
	memset(&wr, 0, sizeof(wr));
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = IBV_WR_RDMA_READ;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.wr.rdma.remote_addr = src->addr + off;
	wr.wr.rdma.rkey = src->rkey;
	e = (struct vb_sq_ent){ .len = 8, .kind = VB_EGET, .rkey = src->rkey, .raddr = src->addr + off };
	if ((rc = post_send(v, &wr, &e, 0)))
		return rc;
	v->cnt[VB_CNT_EGETS]++;
	vb_wait_start(dev, &w, "eel_eget: waiting for the value");
	while (v->tail <= seq) {
		vb_reap_all(v);
		if (v->err)
			return vb_error(v);
		if ((rc = vb_wait_turn(dev, &w)))
			return rc;
	}
	if (v->err)
		return vb_error(v);
	*value = *slot;
	return 0;
}

int vb_poll(struct eel_dev *dev, struct eel_cqe *out, int max)
{
	struct verbs *v = VERBS(dev);
	int n = 0;

	vb_reap_all(v);
	while (n < max && v->pend_tail != v->pend_head) {
		struct eel_cqe *c = &v->pend[v->pend_tail++ & (v->pend_cap - 1)];

		if (c->kind == EEL_CQE_NOTIFY)
			v->notify_pend--;
		else
			v->user_sig_out--;
		if (c->status)
			eel_err(c->status, "%s", v->errmsg);
		out[n++] = *c;
	}
	if (!n && v->err)
		return vb_error(v);
	return n;
}

/* A signalled zero-length RDMA WRITE behind the last WQE, to the place that
 * WQE wrote: its completion says all before it were delivered. */
static int post_fence(struct eel_dev *dev)
{
	struct verbs *v = VERBS(dev);
	const struct vb_sq_ent *last = &v->ring[(v->head - 1) & (v->sq_depth - 1)];
	struct ibv_send_wr wr;
	struct vb_sq_ent e;
	int rc;

	if ((rc = vb_sq_room(dev, 1, "eel_quiet: waiting for room in the send queue")))
		return rc;
	memset(&wr, 0, sizeof(wr));
	wr.num_sge = 0;
	wr.opcode = IBV_WR_RDMA_WRITE;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.wr.rdma.remote_addr = last->raddr;
	wr.wr.rdma.rkey = last->rkey;
	e = (struct vb_sq_ent){ .len = 0, .kind = VB_FENCE, .rkey = last->rkey, .raddr = last->raddr };
	v->cnt[VB_CNT_FENCES]++;
	return post_send(v, &wr, &e, 0);
}

int vb_quiet(struct eel_dev *dev)
{
	struct verbs *v = VERBS(dev);
	struct vb_wait w;
	int rc;

	if (v->err)
		return vb_error(v);
	vb_reap_all(v);
	if (v->head == v->tail)
		return v->err ? vb_error(v) : 0;
	if (!(v->ring[(v->head - 1) & (v->sq_depth - 1)].flags & VB_SIGNALED) && (rc = post_fence(dev)))
		return rc;
	vb_wait_start(dev, &w, "eel_quiet: waiting for puts to be delivered");
	while (v->tail != v->head) {
		vb_reap_all(v);
		if (v->err)
			return vb_error(v);
		if ((rc = vb_wait_turn(dev, &w)))
			return rc;
	}
	return v->err ? vb_error(v) : 0;
}
