/* SPDX-License-Identifier: MIT */
/* userlib/verbs/verbs_dev.c — the RDMA device behind verbs:<ibdev>[:port]: finding
 * it (ibv_get_device_list(3), ibv_open_device(3)), its port
 * (ibv_query_port(3)), the GID a RoCE connection is addressed by
 * (ibv_query_gid_ex(3)), and what sysfs says about how it is attached. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <eel/pci_facts.h>

#include "userlib/core/nic_info.h"
#include "userlib/verbs/verbs.h"

#define SYSFS_IB "/sys/class/infiniband"

int vb_parse_path(const char *path, char *ibdev, size_t n, unsigned *port)
{
	const char *colon = strchr(path, ':');
	size_t len = colon ? (size_t)(colon - path) : strlen(path);
	char *end;
	unsigned long p = 1;

	if (len >= n)
		return eel_err(-EINVAL, "RDMA device name '%.*s' is too long (at most %zu characters)",
			       (int)len, path, n - 1);
	memcpy(ibdev, path, len);
	ibdev[len] = 0;
	if (colon) {
		errno = 0;
		p = strtoul(colon + 1, &end, 10);
		if (errno || end == colon + 1 || *end || p < 1 || p > 255)
			return eel_err(-EINVAL, "bad port '%s' in verbs:%s: give the port number, e.g. "
				       "verbs:%s:1", colon + 1, path, ibdev[0] ? ibdev : "rxe0");
	}
	*port = (unsigned)p;
	return 0;
}

uint32_t vb_mtu_bytes(enum ibv_mtu m)
{
	return m >= IBV_MTU_256 && m <= IBV_MTU_4096 ? 128u << m : 0;
}

/* Text into a fixed field, cut to fit (the fields are for people to read). */
static void text(char *out, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void text(char *out, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(out, n, fmt, ap);
	va_end(ap);
}

/* The network device under GID index gid of the port ("" when none). */
static void gid_netdev(const struct verbs *v, int gid, char *out, size_t n)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), SYSFS_IB "/%s/ports/%u/gid_attrs/ndevs/%d", v->ibdev, v->port, gid);
	eel_sysfs_line(out, n, "%s", path);
}

/* iWARP: the network device whose MAC address GID 0 holds (an iWARP GID is
 * the port's MAC address, zero-padded: siw, cxgb4); "" when none matches. */
static void mac_netdev(const struct verbs *v, char *out, size_t n)
{
	union ibv_gid g;
	char want[18], path[PATH_MAX], mac[32];
	DIR *d;
	struct dirent *e;

	out[0] = 0;
	if (ibv_query_gid(v->ctx, v->port, 0, &g))
		return;
	snprintf(want, sizeof(want), "%02x:%02x:%02x:%02x:%02x:%02x", g.raw[0], g.raw[1], g.raw[2], g.raw[3],
		 g.raw[4], g.raw[5]);
	if (!(d = opendir("/sys/class/net")))
		return;
	while ((e = readdir(d)) && !out[0]) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/class/net/%s/address", e->d_name);
		eel_sysfs_line(mac, sizeof(mac), "%s", path);
		if (!strcmp(mac, want))
			snprintf(out, n, "%.15s", e->d_name); /* IFNAMSIZ - 1 */
	}
	closedir(d);
}

/* What drives the device: a PCI function's kernel driver, or none (software). */
static void find_driver(struct verbs *v)
{
	eel_sysfs_link(v->pci, sizeof(v->pci), SYSFS_IB "/%s/device", v->ibdev);
	if (v->pci[0]) {
		eel_sysfs_link(v->driver, sizeof(v->driver), SYSFS_IB "/%s/device/driver", v->ibdev);
		v->software = 0;
		return;
	}
	/* rxe and siw sit on a network device and have no bus device of their own */
	v->software = 1;
	snprintf(v->driver, sizeof(v->driver), "%s", v->iwarp ? "siw" : "rxe");
	{
		char path[PATH_MAX];

		snprintf(path, sizeof(path), SYSFS_IB "/%s/parent", v->ibdev);
		eel_sysfs_line(v->netdev, sizeof(v->netdev), "%s", path);
	}
}

static void list_names(struct ibv_device **list, int n, char *out, size_t cap)
{
	size_t at = 0;

	out[0] = 0;
	for (int i = 0; i < n && at < cap; i++)
		at += (size_t)snprintf(out + at, cap - at, "%s%s", i ? ", " : "", ibv_get_device_name(list[i]));
}

static int open_port(struct verbs *v, unsigned port)
{
	struct ibv_device_attr_ex ax;
	struct ibv_port_attr pa;
	int rc;

	memset(&ax, 0, sizeof(ax));
	if (ibv_query_device_ex(v->ctx, NULL, &ax) && (rc = ibv_query_device(v->ctx, &ax.orig_attr)))
		return eel_err(-rc, "cannot query RDMA device %s: %s", v->ibdev, strerror(rc));
	if (port < 1 || port > ax.orig_attr.phys_port_cnt)
		return eel_err(-ENODEV, "%s has no port %u: its ports are 1 to %u (e.g. verbs:%s:1)", v->ibdev,
			       port, ax.orig_attr.phys_port_cnt, v->ibdev);
	v->port = (uint8_t)port;
	v->max_rd = ax.orig_attr.max_qp_rd_atom ? (uint32_t)ax.orig_attr.max_qp_rd_atom : 1;
	v->max_rd_init = ax.orig_attr.max_qp_init_rd_atom ? (uint32_t)ax.orig_attr.max_qp_init_rd_atom : 1;
	v->clk.mask = ax.completion_timestamp_mask;
	v->clk.khz = ax.hca_core_clock;
	if ((rc = ibv_query_port(v->ctx, v->port, &pa)))
		return eel_err(-rc, "cannot query port %u of %s: %s", port, v->ibdev, strerror(rc));
	v->link_eth = pa.link_layer == IBV_LINK_LAYER_ETHERNET;
	v->lid = pa.lid;
	v->mtu = pa.active_mtu;
	v->max_msg = pa.max_msg_sz;
	v->gid_tbl_len = pa.gid_tbl_len;
	if (pa.state != IBV_PORT_ACTIVE) {
		if (!v->netdev[0])
			gid_netdev(v, 0, v->netdev, sizeof(v->netdev));
		if (v->link_eth || v->software)
			return eel_err(-ENETDOWN, "port %u of %s is %s, not ACTIVE: bring its Ethernet link up "
				       "(`ip link set %s up`) and check the cable or the peer", port, v->ibdev,
				       ibv_port_state_str(pa.state), v->netdev[0] ? v->netdev : "<netdev>");
		return eel_err(-ENETDOWN, "port %u of %s is %s, not ACTIVE: check the cable, and that a subnet "
			       "manager runs on the fabric (opensm)", port, v->ibdev, ibv_port_state_str(pa.state));
	}
	if (!v->link_eth && !v->iwarp && v->lid == 0)
		return eel_err(-ENETDOWN, "port %u of %s has no LID: start a subnet manager on the fabric (opensm)",
			       port, v->ibdev);
	return 0;
}

int vb_open_device(struct verbs *v, const char *want, unsigned port)
{
	struct ibv_device **list;
	struct ibv_device *d = NULL;
	char names[256];
	int n = 0, rc;

	list = ibv_get_device_list(&n);
	if (!list || n == 0) {
		if (list)
			ibv_free_device_list(list);
		return eel_err(-ENODEV, "no RDMA device: for Soft-RoCE run `rdma link add rxe0 type rxe netdev eth0` "
			       "(module rdma_rxe); for a NIC, install its rdma-core provider (ibverbs-providers) "
			       "and check `ibv_devices`");
	}
	list_names(list, n, names, sizeof(names));
	for (int i = 0; i < n; i++)
		if (want[0] ? !strcmp(ibv_get_device_name(list[i]), want) : n == 1)
			d = list[i];
	if (!d) {
		rc = want[0] ? eel_err(-ENODEV, "no RDMA device named '%s': present: %s (see `ibv_devices`)", want, names)
			     : eel_err(-EINVAL, "several RDMA devices (%s): say which, e.g. verbs:%s",
				       names, ibv_get_device_name(list[0]));
		ibv_free_device_list(list);
		return rc;
	}
	snprintf(v->ibdev, sizeof(v->ibdev), "%s", ibv_get_device_name(d));
	v->iwarp = d->transport_type == IBV_TRANSPORT_IWARP;
	/* iWARP connects through rdma_cm, whose QPs must live on its own
	 * context of the device (verbs_cm.c) */
	v->ctx = v->iwarp ? vb_cm_context(v, v->ibdev) : ibv_open_device(d);
	rc = errno;
	ibv_free_device_list(list);
	if (!v->ctx)
		return eel_err(-(rc ? rc : ENODEV), "cannot open RDMA device %s: %s: is ib_uverbs loaded%s, and may "
			       "this user open /dev/infiniband/uverbs*?", v->ibdev, strerror(rc ? rc : ENODEV),
			       v->iwarp ? " (and rdma_ucm, for iWARP)" : "");
	find_driver(v);
	/* iWARP has no immediate data in an RDMA WRITE (RFC 5040 defines none) */
	v->notify = !v->iwarp;
	return open_port(v, port);
}

static int v4_mapped(const union ibv_gid *g)
{
	static const uint8_t pre[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

	return !memcmp(g->raw, pre, sizeof(pre));
}

static int gid_zero(const union ibv_gid *g)
{
	static const union ibv_gid zero;

	return !memcmp(g->raw, zero.raw, sizeof(zero.raw));
}

int vb_pick_gid(const struct ibv_gid_entry *e, int n)
{
	int best = -1, best_score = 0;

	for (int i = 0; i < n; i++) {
		int score;

		if (gid_zero(&e[i].gid) || e[i].gid_type == IBV_GID_TYPE_IB)
			continue;
		/* RoCE v2 (routable, UDP) before v1; an IPv4-mapped address first */
		score = (e[i].gid_type == IBV_GID_TYPE_ROCE_V2 ? 4 : 2) + v4_mapped(&e[i].gid);
		if (score > best_score) {
			best = i;
			best_score = score;
		}
	}
	return best;
}

/* "1 (RoCE v2, ::ffff:10.0.0.1), ..." for messages */
static void usable_list(struct verbs *v, char *out, size_t cap)
{
	size_t at = 0;

	out[0] = 0;
	for (int i = 0; i < v->gid_tbl_len && i < 256 && at < cap; i++) {
		struct ibv_gid_entry e;

		if (ibv_query_gid_ex(v->ctx, v->port, (uint32_t)i, &e, 0) || gid_zero(&e.gid))
			continue;
		at += (size_t)snprintf(out + at, cap - at, "%s%d", at ? ", " : "", i);
	}
	if (!out[0])
		snprintf(out, cap, "none");
}

int vb_choose_gid(struct verbs *v, int forced)
{
	struct ibv_gid_entry e[256];
	int idx[256], n = 0, pick;
	char list[160];

	if (forced >= 0) {
		struct ibv_gid_entry one;

		if (forced >= v->gid_tbl_len || ibv_query_gid_ex(v->ctx, v->port, (uint32_t)forced, &one, 0) ||
		    gid_zero(&one.gid)) {
			usable_list(v, list, sizeof(list));
			return eel_err(-EINVAL, "gid_index=%d is empty on port %u of %s: usable GID indices are %s "
				       "(see %s/%s/ports/%u/gids)", forced, v->port, v->ibdev, list, SYSFS_IB,
				       v->ibdev, v->port);
		}
		v->gid_index = forced;
		v->gid = one.gid;
		goto netdev;
	}
	if (v->iwarp) {
		/* iWARP: addressed by IP through rdma_cm (verbs_cm.c), no GID needed */
		v->gid_index = -1;
		if (!v->netdev[0])
			gid_netdev(v, 0, v->netdev, sizeof(v->netdev));
		if (!v->netdev[0])
			mac_netdev(v, v->netdev, sizeof(v->netdev));
		return 0;
	}
	if (!v->link_eth) {
		/* InfiniBand: routed by LID inside the subnet, no GRH needed */
		v->gid_index = -1;
		ibv_query_gid(v->ctx, v->port, 0, &v->gid);
		return 0;
	}
	for (int i = 0; i < v->gid_tbl_len && i < 256; i++)
		if (!ibv_query_gid_ex(v->ctx, v->port, (uint32_t)i, &e[n], 0)) {
			idx[n] = i;
			n++;
		}
	pick = vb_pick_gid(e, n);
	if (pick < 0)
		return eel_err(-EADDRNOTAVAIL, "no usable GID on port %u of %s: give %s an IP address "
			       "(e.g. `ip addr add 10.0.0.1/24 dev %s`), or pick one with ?gid_index=", v->port,
			       v->ibdev, v->netdev[0] ? v->netdev : "its network device",
			       v->netdev[0] ? v->netdev : "eth0");
	v->gid_index = idx[pick];
	v->gid = e[pick].gid;
netdev:
	if (v->link_eth || v->software) {
		char nd[32];

		gid_netdev(v, v->gid_index, nd, sizeof(nd));
		if (nd[0])
			snprintf(v->netdev, sizeof(v->netdev), "%s", nd);
	}
	return 0;
}

void vb_describe(const struct verbs *v, struct eel_caps *c)
{
	const struct eel_clock *hc = eel_clock();

	if (v->software)
		text(c->doorbell, sizeof(c->doorbell), "write() system call to the kernel driver (software RDMA)");
	else if (!strncmp(v->driver, "mlx5", 4))
		text(c->doorbell, sizeof(c->doorbell), "write-combined MMIO store (BlueFlame)");
	else
		text(c->doorbell, sizeof(c->doorbell), "MMIO store");
	if (v->software)
		text(c->attach, sizeof(c->attach), "software (%s on %s)", v->driver,
			 v->netdev[0] ? v->netdev : "?");
	else
		text(c->attach, sizeof(c->attach), "PCI %s (%s)", v->pci, v->driver[0] ? v->driver : "?");
	/* the PCI function that carries the traffic: the RDMA NIC's own, or, for
	 * rxe and siw, the Ethernet NIC under their network device */
	{
		char dev[64] = "";

		if (v->pci[0])
			text(dev, sizeof(dev), "%s", v->pci);
		else if (v->netdev[0])
			eel_sysfs_link(dev, sizeof(dev), "/sys/class/net/%s/device", v->netdev);
		if (!dev[0] || eel_pci_addr_normalize(dev, c->pci))
			c->pci[0] = 0; /* none, or not a PCI function (virtio0, ...) */
	}
	if (v->clk.on)
		text(c->clock, sizeof(c->clock), "NIC completion clock (%.1f MHz) mapped onto host %s",
			 (double)v->clk.khz / 1e3, hc->source);
	else
		text(c->clock, sizeof(c->clock), "host %s only: %s has no completion timestamps", hc->source,
			 v->ibdev);
}
