/* SPDX-License-Identifier: MIT */
/* userlib/verbs/verbs_cm.c — connecting an iWARP queue pair (siw, cxgb4, irdma in
 * iWARP mode) through the RDMA connection manager (librdmacm).
 *
 * An iWARP QP cannot be walked to RTS with ibv_modify_qp alone: the stream
 * underneath is a TCP connection, and the MPA handshake on it (RFC 5044) is
 * the connection manager's to make (rdma_cm(7)). So, on iWARP:
 *   open    the device's context is the one librdmacm holds (rdma_get_devices):
 *           the PD, CQs and MRs live on it, as rdma_create_qp requires;
 *   info    the server binds an rdma_cm id to its network device's IPv4
 *           address and listens; both ends send their address (and the
 *           server its port) in struct vb_conn;
 *   connect the client resolves the address and the route and connects, the
 *           server accepts the request; each creates its QP on its id
 *           (rdma_create_qp) and the connection manager brings it to RTS.
 * Every wait on the event channel is bounded by the device's timeout.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>

#include <rdma/rdma_cma.h>

#include "userlib/verbs/verbs.h"

/* The context librdmacm holds for the device named ibdev, or NULL. */
struct ibv_context *vb_cm_context(struct verbs *v, const char *ibdev)
{
	int n = 0;

	if (!v->cm_devs)
		v->cm_devs = rdma_get_devices(&n);
	else
		while (v->cm_devs[n])
			n++;
	for (int i = 0; v->cm_devs && i < n; i++)
		if (!strcmp(ibv_get_device_name(v->cm_devs[i]->device), ibdev))
			return v->cm_devs[i];
	return NULL;
}

/* The IPv4 address of the device's network interface. */
static int local_ip(struct verbs *v, struct in_addr *ip)
{
	struct ifaddrs *all, *a;
	int found = 0;

	if (!v->netdev[0])
		return eel_err(-ENODEV, "%s has no network device under it (sysfs parent): cannot tell its "
			       "IP address", v->ibdev);
	if (getifaddrs(&all))
		return eel_err(-errno, "cannot list the network interfaces: %s", strerror(errno));
	for (a = all; a && !found; a = a->ifa_next)
		if (a->ifa_addr && a->ifa_addr->sa_family == AF_INET && !strcmp(a->ifa_name, v->netdev)) {
			*ip = ((const struct sockaddr_in *)(const void *)a->ifa_addr)->sin_addr;
			found = 1;
		}
	freeifaddrs(all);
	if (!found)
		return eel_err(-EADDRNOTAVAIL, "%s's network device %s has no IPv4 address: give it one "
			       "(`ip addr add 10.0.0.1/24 dev %s`)", v->ibdev, v->netdev, v->netdev);
	return 0;
}

static int cm_fail(struct verbs *v, int err, const char *what)
{
	return eel_err(-(err ? err : EIO), "iWARP on %s: %s: %s", v->ibdev, what, strerror(err ? err : EIO));
}

/* The server's half of the connection info: listen on its address. */
int vb_cm_info(struct verbs *v, int server, struct vb_conn *c)
{
	struct sockaddr_in sa;
	int rc;

	if ((rc = local_ip(v, &sa.sin_addr)))
		return rc;
	memcpy(c->ip, &sa.sin_addr, 4);
	if (!server || v->cm_listen)
		goto port;
	if (!(v->cm_ch = rdma_create_event_channel()))
		return cm_fail(v, errno, "rdma_create_event_channel (is rdma_ucm loaded?)");
	if (rdma_create_id(v->cm_ch, &v->cm_listen, NULL, RDMA_PS_TCP))
		return cm_fail(v, errno, "rdma_create_id");
	memset(&sa.sin_zero, 0, sizeof(sa.sin_zero));
	sa.sin_family = AF_INET;
	sa.sin_port = 0;
	if (rdma_bind_addr(v->cm_listen, (struct sockaddr *)&sa))
		return cm_fail(v, errno, "binding to its address");
	if (rdma_listen(v->cm_listen, 1))
		return cm_fail(v, errno, "listening");
port:
	c->cm_port = server ? ntohs(rdma_get_src_port(v->cm_listen)) : 0;
	return 0;
}

/* The next event on the channel, of the wanted type, within the timeout. */
static int cm_event(struct verbs *v, enum rdma_cm_event_type want, uint32_t timeout_ms, struct rdma_cm_id **id,
		    const char *what)
{
	struct pollfd p = { .fd = v->cm_ch->fd, .events = POLLIN };
	struct rdma_cm_event *ev;
	int rc, status;
	enum rdma_cm_event_type got;

	rc = poll(&p, 1, (int)timeout_ms);
	if (rc == 0)
		return eel_err(-ETIMEDOUT, "iWARP on %s: %s: nothing from the peer in %u ms: is the peer's "
			       "address reachable from %s?", v->ibdev, what, timeout_ms, v->netdev);
	if (rc < 0 || rdma_get_cm_event(v->cm_ch, &ev))
		return cm_fail(v, errno, what);
	got = ev->event;
	status = ev->status;
	if (id)
		*id = ev->id;
	rdma_ack_cm_event(ev);
	if (got != want)
		return eel_err(status == -ETIMEDOUT || got == RDMA_CM_EVENT_UNREACHABLE ? -EHOSTUNREACH :
			       -ECONNREFUSED, "iWARP on %s: %s: %s (status %d): check that the peer runs eel-bench "
			       "on an iWARP device too, and that its address is reachable from %s", v->ibdev, what,
			       rdma_event_str(got), status, v->netdev);
	return 0;
}

/* The QP on the id, with the inline data the device gave at open. */
static int cm_qp(struct verbs *v, struct rdma_cm_id *id)
{
	struct ibv_qp_init_attr a;

	memset(&a, 0, sizeof(a));
	a.send_cq = v->scq.cq;
	a.recv_cq = v->rcq.cq;
	a.qp_type = IBV_QPT_RC;
	a.cap.max_send_wr = v->sq_depth;
	a.cap.max_recv_wr = VB_RQ_DEPTH;
	a.cap.max_send_sge = 1;
	a.cap.max_recv_sge = 1;
	a.cap.max_inline_data = v->max_inline;
	if (rdma_create_qp(id, v->pd, &a))
		return cm_fail(v, errno, "creating the queue pair on the connection");
	v->qp = id->qp;
	v->cm_id = id;
	return 0;
}

static void cm_param(const struct verbs *v, const struct vb_conn *p, struct rdma_conn_param *cp)
{
	uint32_t rd = v->max_rd_init < p->max_rd ? v->max_rd_init : p->max_rd;

	memset(cp, 0, sizeof(*cp));
	cp->initiator_depth = (uint8_t)(rd ? (rd < 16 ? rd : 16) : 1);
	cp->responder_resources = (uint8_t)(v->max_rd < 16 ? v->max_rd : 16);
	cp->retry_count = 6;
	cp->rnr_retry_count = 7;
}

int vb_cm_connect(struct verbs *v, int server, const struct vb_conn *p, uint32_t timeout_ms)
{
	struct rdma_conn_param cp;
	struct rdma_cm_id *id;
	int rc;

	cm_param(v, p, &cp);
	if (server) {
		if ((rc = cm_event(v, RDMA_CM_EVENT_CONNECT_REQUEST, timeout_ms, &id, "waiting for the client's "
				   "connection request")) ||
		    (rc = cm_qp(v, id)))
			return rc;
		if (rdma_accept(id, &cp))
			return cm_fail(v, errno, "accepting the connection");
		return cm_event(v, RDMA_CM_EVENT_ESTABLISHED, timeout_ms, NULL, "accepting the connection");
	}
	{
		struct sockaddr_in src = { .sin_family = AF_INET }, dst = { .sin_family = AF_INET };

		if ((rc = local_ip(v, &src.sin_addr)))
			return rc;
		memcpy(&dst.sin_addr, p->ip, 4);
		dst.sin_port = htons(p->cm_port);
		if (!(v->cm_ch = rdma_create_event_channel()))
			return cm_fail(v, errno, "rdma_create_event_channel (is rdma_ucm loaded?)");
		if (rdma_create_id(v->cm_ch, &id, NULL, RDMA_PS_TCP))
			return cm_fail(v, errno, "rdma_create_id");
		v->cm_id = id;
		if (rdma_resolve_addr(id, (struct sockaddr *)&src, (struct sockaddr *)&dst, (int)timeout_ms))
			return cm_fail(v, errno, "resolving the peer's address");
		if ((rc = cm_event(v, RDMA_CM_EVENT_ADDR_RESOLVED, timeout_ms, NULL, "resolving the peer's address")))
			return rc;
		if (rdma_resolve_route(id, (int)timeout_ms))
			return cm_fail(v, errno, "resolving the route to the peer");
		if ((rc = cm_event(v, RDMA_CM_EVENT_ROUTE_RESOLVED, timeout_ms, NULL, "resolving the route")) ||
		    (rc = cm_qp(v, id)))
			return rc;
		if (rdma_connect(id, &cp))
			return cm_fail(v, errno, "connecting");
		return cm_event(v, RDMA_CM_EVENT_ESTABLISHED, timeout_ms, NULL, "connecting");
	}
}

void vb_cm_close(struct verbs *v)
{
	if (v->cm_id) {
		if (v->qp)
			rdma_disconnect(v->cm_id);
		if (v->qp)
			rdma_destroy_qp(v->cm_id);
		v->qp = NULL;
		rdma_destroy_id(v->cm_id);
		v->cm_id = NULL;
	}
	if (v->cm_listen)
		rdma_destroy_id(v->cm_listen);
	v->cm_listen = NULL;
	if (v->cm_ch)
		rdma_destroy_event_channel(v->cm_ch);
	v->cm_ch = NULL;
}
