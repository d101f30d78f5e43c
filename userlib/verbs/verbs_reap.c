/* SPDX-License-Identifier: MIT */
/* userlib/verbs/verbs_reap.c — the verbs backend's completions and errors: send
 * completions retire their WQE and every unsignalled one before it (the
 * caller's go to eel_poll, the hidden ones end here), notifications repost
 * their receive, a failed work completion or an async event becomes the
 * connection's error, named with its cause (ibv_poll_cq(3), ibv_get_async_event(3)).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "userlib/verbs/verbs.h"

#define REAP_BATCH 16

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
	if (v->port_down)
		snprintf(v->errmsg, sizeof(v->errmsg), "%s (port %u of %s went down before: bring its link up, "
			 "for RoCE `ip link set %s up`)", msg, v->port, v->ibdev, v->netdev[0] ? v->netdev : "<netdev>");
	else
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

void vb_reap_send(struct verbs *v)
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
			if (eel_stamp_due(v->stamp_every, &v->detect_pos))
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
void vb_reap_all(struct verbs *v)
{
	vb_reap_send(v);
	reap_recv(v);
	if (v->flushed && !v->err) {
		vb_reap_send(v);
		if (!v->err)
			set_error(v, -ECANCELED, v->flushmsg);
	}
}

/* The device's own news (ibv_get_async_event(3), the fd made non-blocking at
 * open): a queue pair the device gave up on ends the connection; a port that
 * went down is remembered (a link that comes back soon loses nothing on RC,
 * and if the connection fails meanwhile, its message says the port was down). */
void vb_async_events(struct verbs *v)
{
	struct ibv_async_event ev;
	char msg[sizeof(v->errmsg)];

	while (!ibv_get_async_event(v->ctx, &ev)) {
		switch (ev.event_type) {
		case IBV_EVENT_PORT_ERR:
			v->port_down = 1;
			break;
		case IBV_EVENT_PORT_ACTIVE:
			v->port_down = 0;
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
