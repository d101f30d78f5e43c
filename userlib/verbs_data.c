/* userlib/verbs_data.c — the data path of the verbs backend: puts, E-register
 * style eput/eget, completions, quiet and the receive-side wait.
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
#include <time.h>
#include <arpa/inet.h>

#include "verbs.h"

#define REAP_BATCH 16

static inline void relax(void)
{
#if defined(__x86_64__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ volatile("yield");
#endif
}

/* ---- errors ---- */

int vb_error(struct verbs *v)
{
	return eel_err(v->err, "%s", v->errmsg);
}

/* The first error of the connection is kept; later ones are its consequences. */
static void set_error(struct verbs *v, int code, const char *msg)
{
	v->cnt[VB_CNT_ERRORS]++;
	if (v->err)
		return;
	v->err = code;
	snprintf(v->errmsg, sizeof(v->errmsg), "%s", msg);
}

/* A flushed work request says only that the QP is in the error state; the
 * cause comes in its own completion (maybe on the other CQ) or async event. */
static void flushed(struct verbs *v, const char *msg)
{
	if (!v->flushed)
		snprintf(v->flushmsg, sizeof(v->flushmsg), "%s", msg);
	v->flushed = 1;
}

static const char *kind_name(const struct vb_sq_ent *e)
{
	if (!e)
		return "a notification (receive)";
	switch (e->kind) {
	case VB_PUT:
		return "put";
	case VB_EPUT:
		return "eput";
	case VB_EGET:
		return "eget (RDMA READ)";
	default:
		return "eel_quiet's zero-length write";
	}
}

int vb_wc_error(const struct vb_wc *wc, const struct vb_sq_ent *e, const char *ibdev, char *buf, size_t n)
{
	char what[160];

	if (e)
		snprintf(what, sizeof(what), "%s of %u bytes to 0x%llx (rkey 0x%x) on %s", kind_name(e), e->len,
			 (unsigned long long)e->raddr, e->rkey, ibdev);
	else
		snprintf(what, sizeof(what), "%s on %s", kind_name(e), ibdev);
	switch (wc->status) {
	case IBV_WC_REM_ACCESS_ERR:
		snprintf(buf, n, "%s was refused by the peer's NIC: remote access error (a wrong rkey, a range "
			 "outside the peer's registered window, or a window without that access): check the "
			 "window and the offset", what);
		return -EREMOTEIO;
	case IBV_WC_REM_INV_REQ_ERR:
		snprintf(buf, n, "%s was refused by the peer's NIC as an invalid request (longer than it takes, "
			 "or an operation its queue pair does not allow)", what);
		return -EREMOTEIO;
	case IBV_WC_REM_OP_ERR:
		snprintf(buf, n, "%s failed at the peer's NIC (remote operation error)", what);
		return -EREMOTEIO;
	case IBV_WC_RETRY_EXC_ERR:
		snprintf(buf, n, "%s got no answer: the peer stopped answering (transport retries exhausted): "
			 "is its process alive, its queue pair open and the link up?", what);
		return -ECONNRESET;
	case IBV_WC_RNR_RETRY_EXC_ERR:
		snprintf(buf, n, "%s: the peer had no receive posted for a notification (receiver not ready, "
			 "retries exhausted): the receiver must poll its notifications", what);
		return -ECONNRESET;
	case IBV_WC_LOC_PROT_ERR:
		snprintf(buf, n, "%s: the source is not inside the registered local region given (local "
			 "protection error)", what);
		return -EFAULT;
	case IBV_WC_WR_FLUSH_ERR:
		snprintf(buf, n, "%s was flushed: the connection had already failed", what);
		return -ECANCELED;
	default:
		snprintf(buf, n, "%s failed: %s (status %u, vendor error 0x%x)", what,
			 ibv_wc_status_str((enum ibv_wc_status)wc->status), wc->status, wc->vendor_err);
		return -EIO;
	}
}

/* ---- completions ---- */

static void pend_push(struct verbs *v, const struct eel_cqe *c)
{
	v->pend[v->pend_head++ & (v->pend_cap - 1)] = *c;
}

/* A send completion retires its WQE and every unsignalled one before it. */
static void send_done(struct verbs *v, const struct vb_wc *wc, uint64_t now)
{
	uint64_t seq = wc->wr_id;
	struct vb_sq_ent *e = &v->ring[seq & (v->sq_depth - 1)];
	int status = 0;

	v->cnt[VB_CNT_SEND_CQES]++;
	if (seq < v->tail || seq >= v->head) {
		set_error(v, -EIO, "a send completion for no posted work request: the driver and eel disagree");
		return;
	}
	v->tail = seq + 1;
	if (wc->status != IBV_WC_SUCCESS) {
		char msg[sizeof(v->errmsg)];

		status = vb_wc_error(wc, e, v->ibdev, msg, sizeof(msg));
		if (wc->status == IBV_WC_WR_FLUSH_ERR)
			flushed(v, msg);
		else
			set_error(v, status, msg);
	}
	if (e->flags & VB_TRACED) {
		struct eel_trace *r = &v->tx[e->trace & (VB_TRACE_RECS - 1)];

		if (r->msg_id == e->msg_id && !r->valid) {
			r->t[EEL_ST_COMPLETE] = now;
			__atomic_store_n(&r->valid, 1, __ATOMIC_RELEASE);
		}
		v->traced_out--;
	}
	if (e->kind == VB_PUT && (e->flags & VB_USER_SIGNALED)) {
		struct eel_cqe c = { .wr_id = e->wr_id, .len = e->len, .status = status, .kind = EEL_CQE_PUT,
				     .msg_id = e->msg_id };

		pend_push(v, &c);
	}
}

static void reap_send(struct verbs *v)
{
	struct vb_wc wc[REAP_BATCH];
	int n;

	do {
		n = vb_cq_poll(&v->scq, wc, REAP_BATCH);
		if (n < 0) {
			set_error(v, -EIO, "polling the send completion queue failed");
			return;
		}
		if (n) {
			uint64_t now = eel_stamp();

			for (int i = 0; i < n; i++)
				send_done(v, &wc[i], now);
		}
	} while (n == REAP_BATCH);
}

int vb_post_recvs(struct verbs *v, uint32_t n)
{
	struct ibv_recv_wr wr[VB_RQ_DEPTH], *bad;
	int rc;

	if (!n)
		return 0;
	for (uint32_t i = 0; i < n; i++)
		wr[i] = (struct ibv_recv_wr){ .wr_id = 0, .next = i + 1 < n ? &wr[i + 1] : NULL, .num_sge = 0 };
	rc = ibv_post_recv(v->qp, wr, &bad);
	if (rc)
		return eel_err(-(rc < 0 ? -rc : rc), "cannot post receives for notifications on %s: %s", v->ibdev,
			       strerror(rc < 0 ? -rc : rc));
	return 0;
}

/* Notifications: each consumed one receive, posted again at once. The
 * receives are not reaped while eel_poll has VB_RQ_DEPTH of them waiting:
 * then the sender sees receiver-not-ready and waits (rnr_retry 7 = for ever). */
static void reap_recv(struct verbs *v)
{
	struct vb_wc wc[REAP_BATCH];

	while (v->notify && v->notify_pend < VB_RQ_DEPTH) {
		uint32_t room = VB_RQ_DEPTH - v->notify_pend, good = 0;
		int n = vb_cq_poll(&v->rcq, wc, room < REAP_BATCH ? (int)room : REAP_BATCH);
		uint64_t now = eel_stamp();

		if (n <= 0) {
			if (n < 0)
				set_error(v, -EIO, "polling the receive completion queue failed");
			return;
		}
		for (int i = 0; i < n; i++) {
			struct eel_cqe c = { .kind = EEL_CQE_NOTIFY };
			char msg[sizeof(v->errmsg)];

			if (wc[i].status == IBV_WC_WR_FLUSH_ERR) {
				snprintf(msg, sizeof(msg), "the connection failed: the queue pair of %s went to the "
					 "error state (its receives were flushed)", v->ibdev);
				flushed(v, msg);
				continue;
			}
			if (wc[i].status != IBV_WC_SUCCESS) {
				set_error(v, vb_wc_error(&wc[i], NULL, v->ibdev, msg, sizeof(msg)), msg);
				continue;
			}
			c.len = wc[i].byte_len;
			c.imm = wc[i].imm;
			c.msg_id = (uint32_t)v->detects;
			pend_push(v, &c);
			v->notify_pend++;
			v->cnt[VB_CNT_NOTIFIES]++;
			if (v->stamp_every && v->detects % v->stamp_every == 0)
				vb_trace_rx(v, v->clk.on ? vb_clock_to_host(&v->clk, wc[i].ts) : 0, now);
			v->detects++;
			good++;
		}
		if (good && vb_post_recvs(v, good))
			set_error(v, -EIO, eel_errmsg());
		if (n < REAP_BATCH)
			return;
	}
}

/* Both CQs; a flush with no cause seen becomes the connection's error only
 * once the send CQ, where a failed WQE's own completion comes first, is empty. */
static void reap_all(struct verbs *v)
{
	reap_send(v);
	reap_recv(v);
	if (v->flushed && !v->err) {
		reap_send(v);
		if (!v->err)
			set_error(v, -ECANCELED, v->flushmsg);
	}
}

/* The device's own news (ibv_get_async_event(3), the fd made non-blocking at
 * open): a port that went down, a queue pair the device gave up on. */
static void async_events(struct verbs *v)
{
	struct ibv_async_event ev;
	char msg[sizeof(v->errmsg)];

	while (!ibv_get_async_event(v->ctx, &ev)) {
		switch (ev.event_type) {
		case IBV_EVENT_PORT_ERR:
			snprintf(msg, sizeof(msg), "port %u of %s went down: bring its link up (for RoCE `ip link "
				 "set %s up`)", v->port, v->ibdev, v->netdev[0] ? v->netdev : "<netdev>");
			set_error(v, -ENETDOWN, msg);
			break;
		case IBV_EVENT_QP_FATAL:
		case IBV_EVENT_QP_REQ_ERR:
		case IBV_EVENT_QP_ACCESS_ERR:
		case IBV_EVENT_CQ_ERR:
		case IBV_EVENT_DEVICE_FATAL:
			snprintf(msg, sizeof(msg), "%s reported %s: the connection is lost", v->ibdev,
				 ibv_event_type_str(ev.event_type));
			set_error(v, -EIO, msg);
			break;
		default:
			break;
		}
		ibv_ack_async_event(&ev);
	}
}

/* Every blocking loop: cheap on most turns; every 256 the completion queues,
 * whether the peer was heard from, the deadline and the peer's process
 * (wait.c); about every ms async events, every 100 ms the port's packet count. */
static int tick(struct eel_dev *dev, struct eel_wait *w)
{
	struct verbs *v = VERBS(dev);
	uint64_t now;
	int rc;

	if (++w->spins & 255)
		return 0;
	reap_all(v);
	now = eel_stamp();
	if (now >= v->async_next) {
		v->async_next = now + (uint64_t)(eel_clock()->hz / 1000);
		async_events(v);
	}
	if (now >= v->rx_read_next) {
		v->rx_read_next = now + (uint64_t)(eel_clock()->hz / 10);
		vb_rx_counter(v);
	}
	/* the peer is talking while its packets arrive or our puts complete:
	 * a wait gives up only after timeout_ms of silence (wait.c) */
	eel_wait_heard(dev, w, v->rx_pkts + v->cnt[VB_CNT_SEND_CQES] + v->cnt[VB_CNT_NOTIFIES]);
	if ((rc = eel_wait_slow(dev, w)))
		return rc;
	return v->err ? vb_error(v) : 0;
}

/* A blocking loop: wait.c's deadline and peer watch, and when it stops spinning. */
struct vb_wait {
	struct eel_wait w;
	uint64_t nap_at;    /* counter value after which it naps between looks (0: never) */
	int napping;
};

static void wait_start(struct eel_dev *dev, struct vb_wait *vw, const char *what)
{
	struct verbs *v = VERBS(dev);

	eel_wait_start(dev, &vw->w, what);
	vw->nap_at = v->spin_cycles ? eel_stamp() + v->spin_cycles : 0;
	vw->napping = 0;
}

/* One turn of a blocking loop whose look found nothing yet: the bookkeeping
 * (tick), then a pause — a spin-loop hint or, once the wait has spun for
 * spin_us (software RDMA devices only, by default), a nap of VB_NAP_NS. On rxe
 * and siw the NIC is the kernel on these CPUs: a waiter that spins for ever
 * takes the CPU from the very work it waits for (and, in a VM, from the host
 * that runs the other VM). A wait that ends within spin_us never naps. */
static int wait_turn(struct eel_dev *dev, struct vb_wait *vw)
{
	int rc;

	if (vw->napping)
		vw->w.spins |= 255; /* after a nap, every look does the whole tick */
	if ((rc = tick(dev, &vw->w)))
		return rc;
	if (!vw->napping && vw->nap_at && !(vw->w.spins & 255) && eel_stamp() >= vw->nap_at)
		vw->napping = 1;
	if (vw->napping)
		nanosleep(&(struct timespec){ .tv_sec = 0, .tv_nsec = VB_NAP_NS }, NULL);
	else
		relax();
	return 0;
}

/* Room for one more WQE: reap; when still full, -EAGAIN or wait for it. */
static int sq_room(struct eel_dev *dev, int block, const char *what)
{
	struct verbs *v = VERBS(dev);
	struct vb_wait w;
	int rc;

	if (v->head - v->tail < v->sq_depth)
		return 0;
	reap_all(v);
	if (v->err)
		return vb_error(v);
	if (v->head - v->tail < v->sq_depth)
		return 0;
	if (!block) {
		v->cnt[VB_CNT_EAGAIN]++;
		return eel_err(-EAGAIN, "send queue full (%u puts in flight): poll, then post again", v->sq_depth);
	}
	wait_start(dev, &w, what);
	while (v->head - v->tail >= v->sq_depth) {
		reap_all(v);
		if ((rc = wait_turn(dev, &w)))
			return rc;
	}
	return v->err ? vb_error(v) : 0;
}

/* ---- posting ---- */

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
	int traced = v->stamp_every && v->puts++ % v->stamp_every == 0;
	uint64_t t_post = traced ? eel_stamp() : 0;
	struct ibv_sge sge;
	struct ibv_send_wr wr;
	struct vb_sq_ent e;
	int rc;

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
	if ((rc = sq_room(dev, 0, NULL)))
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
	if ((rc = sq_room(dev, 1, "eel_eput: waiting for room in the send queue")))
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
	if ((rc = sq_room(dev, 1, "eel_eget: waiting for room in the send queue")))
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
	wait_start(dev, &w, "eel_eget: waiting for the value");
	while (v->tail <= seq) {
		reap_all(v);
		if (v->err)
			return vb_error(v);
		if ((rc = wait_turn(dev, &w)))
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

	reap_all(v);
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

	if ((rc = sq_room(dev, 1, "eel_quiet: waiting for room in the send queue")))
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
	reap_all(v);
	if (v->head == v->tail)
		return v->err ? vb_error(v) : 0;
	if (!(v->ring[(v->head - 1) & (v->sq_depth - 1)].flags & VB_SIGNALED) && (rc = post_fence(dev)))
		return rc;
	wait_start(dev, &w, "eel_quiet: waiting for puts to be delivered");
	while (v->tail != v->head) {
		reap_all(v);
		if (v->err)
			return vb_error(v);
		if ((rc = wait_turn(dev, &w)))
			return rc;
	}
	return v->err ? vb_error(v) : 0;
}

/* Look at memory, as perftest's ib_write_lat polls the last byte: nothing
 * tells the receiver of a plain RDMA WRITE. The send CQ is looked at every
 * 256 turns (a failed put of ours ends the wait with its reason), and on
 * every turn while a stamped put waits for its COMPLETE stamp. */
int vb_wait_u64(struct eel_dev *dev, const volatile uint64_t *addr, uint64_t value)
{
	struct verbs *v = VERBS(dev);
	struct vb_wait w;
	int rc;

	if (*addr != value) {
		wait_start(dev, &w, "waiting for a put to land");
		while (*addr != value) {
			if (v->traced_out)
				reap_send(v);
			if ((rc = wait_turn(dev, &w)))
				return rc;
		}
	}
	if (v->stamp_every && v->detects % v->stamp_every == 0)
		vb_trace_rx(v, 0, eel_stamp());
	v->detects++;
	return 0;
}

int vb_progress(struct eel_dev *dev)
{
	struct verbs *v = VERBS(dev);

	if (v->qp)
		reap_all(v);
	return 0;
}
