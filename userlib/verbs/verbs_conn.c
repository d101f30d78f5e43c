/* SPDX-License-Identifier: MIT */
/* userlib/verbs/verbs_conn.c — connecting two RC queue pairs.
 *
 * Each end sends its struct vb_conn (QP number, starting PSN, LID, GID, MTU)
 * over the out-of-band channel (eel_connect), then walks its QP through the
 * states of ibv_modify_qp(3) (IBTA Vol. 1 ch. 10, the QP state machine):
 * RESET -> INIT (port, access rights) -> RTR (the peer's address, QP number
 * and PSN, the path MTU) -> RTS (timeouts, retries, our PSN), and finally
 * tells the peer its QP is ready, so no put arrives at a QP that cannot yet
 * take it. iWARP is connected by the RDMA connection manager instead
 * (verbs_cm.c).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "userlib/verbs/verbs.h"

/* RTS: local ACK timeout 4.096 us * 2^17 = 0.54 s and 6 retries: a silent
 * peer fails a put after about 4 s (ibv_modify_qp(3); 7 would mean "for ever"
 * on rxe, whose completer never counts 7 down). Receiver-not-ready is retried
 * for ever (7). A longer timeout than perftest's 14 also spares rxe under
 * emulation its spurious go-back-N retransmissions: its retransmit timer is
 * not restarted by each ACK, so when it fires with anything unacknowledged in
 * flight, it resends it. */
#define VB_ACK_TIMEOUT 17
#define VB_RETRY_CNT 6
#define VB_RNR_RETRY 7
#define VB_MIN_RNR_TIMER 12 /* 0.64 ms */
#define VB_MAX_RD 16

int vb_conn_info(struct eel_dev *dev, int server, void *buf, uint32_t cap, uint32_t *len)
{
	struct verbs *v = VERBS(dev);
	struct vb_conn c;

	memset(&c, 0, sizeof(c));
	c.magic = VB_CONN_MAGIC;
	c.version = VB_CONN_VERSION;
	c.qpn = v->qp ? v->qp->qp_num : 0;
	c.psn = v->psn;
	c.lid = v->lid;
	c.link_eth = (uint8_t)v->link_eth;
	c.mtu = (uint8_t)v->mtu;
	memcpy(c.gid, v->gid.raw, sizeof(c.gid));
	c.max_rd = v->max_rd < VB_MAX_RD ? v->max_rd : VB_MAX_RD;
	c.notify = (uint32_t)v->notify;
	snprintf(c.ibdev, sizeof(c.ibdev), "%.31s", v->ibdev);
	c.iwarp = (uint8_t)v->iwarp;
	if (v->iwarp) {
		int rc = vb_cm_info(v, server, &c);

		if (rc)
			return rc;
	}
	if (cap < sizeof(c))
		return eel_err(-EINVAL, "verbs: connection info does not fit");
	memcpy(buf, &c, sizeof(c));
	*len = sizeof(c);
	return 0;
}

static const char *fabric(int eth)
{
	return eth ? "Ethernet (RoCE)" : "InfiniBand";
}

int vb_check_peer(const struct verbs *v, const void *peer, uint32_t len, struct vb_conn *out)
{
	uint32_t magic = 0, version = 0;
	struct vb_conn p;

	if (len >= 8) {
		memcpy(&magic, peer, 4);
		memcpy(&version, (const char *)peer + 4, 4);
	}
	if (magic != VB_CONN_MAGIC)
		return eel_err(-EPROTO, "the peer is not an RDMA device driven by eel's verbs backend: both ends "
			       "must use verbs:<ibdev> (and the same eel version)");
	if (version != VB_CONN_VERSION || len != sizeof(p))
		return eel_err(-EPROTO, "the peer's eel speaks verbs connection version %u (%u bytes), this one "
			       "version %u (%zu bytes): run the same eel version on both ends", version, len,
			       VB_CONN_VERSION, sizeof(p));
	memcpy(&p, peer, sizeof(p));
	p.ibdev[sizeof(p.ibdev) - 1] = 0;
	if (p.iwarp != v->iwarp)
		return eel_err(-EPROTO, "%s here is %s, the peer's %s %s: both ends must be iWARP, or neither",
			       v->ibdev, v->iwarp ? "iWARP" : "InfiniBand or RoCE", p.ibdev,
			       p.iwarp ? "iWARP" : "InfiniBand or RoCE");
	if (p.link_eth != v->link_eth)
		return eel_err(-EPROTO, "%s here is on %s, the peer's %s on %s: both ends must be on one fabric",
			       v->ibdev, fabric(v->link_eth), p.ibdev, fabric(p.link_eth));
	if (p.iwarp && !p.cm_port && !p.ip[0] && !p.ip[1] && !p.ip[2] && !p.ip[3])
		return eel_err(-EPROTO, "the peer's iWARP connection info has no address: run the same eel version "
			       "on both ends");
	if (p.mtu < IBV_MTU_256 || p.mtu > IBV_MTU_4096 || (!p.iwarp && !p.qpn) || p.qpn > 0xffffff ||
	    p.psn > 0xffffff)
		return eel_err(-EPROTO, "the peer's connection info is malformed (mtu %u, QP 0x%x, PSN 0x%x): run "
			       "the same eel version on both ends", p.mtu, p.qpn, p.psn);
	if (!p.link_eth && v->gid_index < 0 && !p.lid)
		return eel_err(-EPROTO, "the peer's port (%s) has no LID: a subnet manager must run on the "
			       "fabric (opensm)", p.ibdev);
	*out = p;
	return 0;
}

static int modify(struct verbs *v, struct ibv_qp_attr *a, int mask, const char *to, const char *hint)
{
	int rc = ibv_modify_qp(v->qp, a, mask);

	if (rc)
		return eel_err(-rc, "cannot bring the queue pair of %s to %s: %s%s", v->ibdev, to, strerror(rc), hint);
	return 0;
}

static int to_init(struct verbs *v)
{
	struct ibv_qp_attr a;

	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_INIT;
	a.pkey_index = 0;
	a.port_num = v->port;
	a.qp_access_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
	return modify(v, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS, "INIT", "");
}

static int to_rtr(struct verbs *v, const struct vb_conn *p)
{
	struct ibv_qp_attr a;
	char gid[INET6_ADDRSTRLEN], hint[256];

	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = v->mtu;
	a.dest_qp_num = p->qpn;
	a.rq_psn = p->psn;
	a.max_dest_rd_atomic = (uint8_t)(v->max_rd < VB_MAX_RD ? v->max_rd : VB_MAX_RD);
	a.min_rnr_timer = VB_MIN_RNR_TIMER;
	a.ah_attr.port_num = v->port;
	a.ah_attr.dlid = p->lid;
	a.ah_attr.sl = 0;
	if (v->gid_index >= 0) {
		/* RoCE (and a chosen GID on InfiniBand): addressed by a global route header */
		a.ah_attr.is_global = 1;
		memcpy(a.ah_attr.grh.dgid.raw, p->gid, sizeof(p->gid));
		a.ah_attr.grh.sgid_index = (uint8_t)v->gid_index;
		a.ah_attr.grh.hop_limit = 64;
	}
	inet_ntop(AF_INET6, p->gid, gid, sizeof(gid));
	snprintf(hint, sizeof(hint), " (is the peer's GID %s reachable from %s? check both ends' addresses, "
		 "or choose another with ?gid_index=)", gid, v->netdev[0] ? v->netdev : v->ibdev);
	return modify(v, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
		      IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER, "RTR (ready to receive)", hint);
}

static int to_rts(struct verbs *v, const struct vb_conn *p)
{
	struct ibv_qp_attr a;
	uint32_t rd = v->max_rd_init < p->max_rd ? v->max_rd_init : p->max_rd;

	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = VB_ACK_TIMEOUT;
	a.retry_cnt = VB_RETRY_CNT;
	a.rnr_retry = VB_RNR_RETRY;
	a.sq_psn = v->psn;
	a.max_rd_atomic = (uint8_t)(rd ? (rd < VB_MAX_RD ? rd : VB_MAX_RD) : 1);
	return modify(v, &a, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
		      IBV_QP_MAX_QP_RD_ATOMIC, "RTS (ready to send)", "");
}

int vb_connect(struct eel_dev *dev, int server, const void *peer, uint32_t len, struct eel_oob *oob)
{
	struct verbs *v = VERBS(dev);
	struct vb_conn p;
	uint32_t got;
	int rc;

	if ((rc = vb_check_peer(v, peer, len, &p)))
		return rc;
	if (p.mtu < v->mtu)
		v->mtu = (enum ibv_mtu)p.mtu; /* the path MTU: the smaller port's */
	dev->caps.mtu = vb_mtu_bytes(v->mtu);
	if (v->iwarp) {
		if ((rc = vb_cm_connect(v, server, &p, dev->opts.timeout_ms)))
			return rc;
	} else if ((rc = to_init(v)) || (v->notify && (rc = vb_post_recvs(v, VB_RQ_DEPTH))) ||
		   (rc = to_rtr(v, &p)) || (rc = to_rts(v, &p))) {
		return rc;
	}
	if ((rc = eel_oob_send(oob, VB_OOB_RTS, NULL, 0)) ||
	    (rc = eel_oob_recv(oob, VB_OOB_RTS, NULL, 0, &got, dev->opts.timeout_ms, NULL)))
		return rc;
	if (v->clk.on)
		vb_clock_sync(v);
	return 0;
}
