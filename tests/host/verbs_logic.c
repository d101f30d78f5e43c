/* SPDX-License-Identifier: MIT */
/* tests/host/verbs_logic.c — the verbs backend's decisions that need no RDMA
 * device: device URIs, the GID choice for RoCE, the peer's connection info,
 * work completion errors as messages, the NIC clock mapped onto the host's.
 * (The backend on a real device is tested in two VMs: tests/vm/suite-verbs.sh.) */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "userlib/verbs/verbs.h"

static void paths(void)
{
	char dev[64];
	unsigned port = 0;

	CHECK(vb_parse_path("rxe0", dev, sizeof(dev), &port) == 0 && !strcmp(dev, "rxe0") && port == 1,
	      "rxe0 -> '%s' port %u", dev, port);
	CHECK(vb_parse_path("mlx5_1:2", dev, sizeof(dev), &port) == 0 && !strcmp(dev, "mlx5_1") && port == 2,
	      "mlx5_1:2 -> '%s' port %u", dev, port);
	CHECK(vb_parse_path("", dev, sizeof(dev), &port) == 0 && !dev[0] && port == 1, "empty -> '%s' %u", dev, port);
	CHECK(vb_parse_path("rxe0:0", dev, sizeof(dev), &port) == -EINVAL && strstr(eel_errmsg(), "bad port '0'"),
	      "port 0: %s", eel_errmsg());
	CHECK(vb_parse_path("rxe0:x", dev, sizeof(dev), &port) == -EINVAL && strstr(eel_errmsg(), "verbs:rxe0:1"),
	      "port x: %s", eel_errmsg());
	CHECK(vb_parse_path("rxe0:1x", dev, sizeof(dev), &port) == -EINVAL, "port 1x accepted");
	CHECK(vb_parse_path("a_very_long_device_name_that_does_not_fit", dev, 16, &port) == -EINVAL &&
	      strstr(eel_errmsg(), "too long"), "long name: %s", eel_errmsg());
	CHECK_EQ_U(vb_mtu_bytes(IBV_MTU_1024), 1024);
	CHECK_EQ_U(vb_mtu_bytes(IBV_MTU_4096), 4096);
	CHECK_EQ_U(vb_mtu_bytes(IBV_MTU_256), 256);
	CHECK_EQ_U(vb_mtu_bytes((enum ibv_mtu)0), 0);
}

static struct ibv_gid_entry gid(const char *kind, uint32_t type)
{
	struct ibv_gid_entry e;

	memset(&e, 0, sizeof(e));
	e.gid_type = type;
	if (!strcmp(kind, "v4")) {         /* ::ffff:10.99.0.1 */
		e.gid.raw[10] = e.gid.raw[11] = 0xff;
		e.gid.raw[12] = 10;
		e.gid.raw[13] = 99;
		e.gid.raw[15] = 1;
	} else if (!strcmp(kind, "ll")) {  /* fe80::5054:ff:fe99:0 */
		e.gid.raw[0] = 0xfe;
		e.gid.raw[1] = 0x80;
		e.gid.raw[8] = 0x50;
		e.gid.raw[9] = 0x54;
	}
	return e;
}

static void gids(void)
{
	/* what rxe shows: 0 = link-local, 1 = IPv4-mapped, both RoCE v2 */
	struct ibv_gid_entry rxe[] = { gid("ll", IBV_GID_TYPE_ROCE_V2), gid("v4", IBV_GID_TYPE_ROCE_V2) };
	/* a NIC with both RoCE versions for each address */
	struct ibv_gid_entry both[] = { gid("ll", IBV_GID_TYPE_ROCE_V1), gid("ll", IBV_GID_TYPE_ROCE_V2),
					gid("v4", IBV_GID_TYPE_ROCE_V1), gid("v4", IBV_GID_TYPE_ROCE_V2) };
	struct ibv_gid_entry v1only[] = { gid("0", IBV_GID_TYPE_ROCE_V2), gid("ll", IBV_GID_TYPE_ROCE_V1),
					  gid("v4", IBV_GID_TYPE_ROCE_V1) };
	struct ibv_gid_entry v2ll[] = { gid("v4", IBV_GID_TYPE_ROCE_V1), gid("ll", IBV_GID_TYPE_ROCE_V2) };
	struct ibv_gid_entry none[] = { gid("0", IBV_GID_TYPE_ROCE_V2), gid("v4", IBV_GID_TYPE_IB) };

	CHECK_EQ_U(vb_pick_gid(rxe, 2), 1);
	CHECK_EQ_U(vb_pick_gid(both, 4), 3);
	CHECK_EQ_U(vb_pick_gid(v1only, 3), 2);       /* an all-zero entry is never used */
	CHECK_EQ_U(vb_pick_gid(v2ll, 2), 1);         /* RoCE v2 before v1, even link-local */
	CHECK(vb_pick_gid(none, 2) == -1, "an empty or InfiniBand-only table gave %d", vb_pick_gid(none, 2));
	CHECK(vb_pick_gid(none, 0) == -1, "no entries");
}

static struct vb_conn good_conn(void)
{
	struct vb_conn c;

	memset(&c, 0, sizeof(c));
	c.magic = VB_CONN_MAGIC;
	c.version = VB_CONN_VERSION;
	c.qpn = 0x11;
	c.psn = 0x123456;
	c.link_eth = 1;
	c.mtu = IBV_MTU_1024;
	c.max_rd = 16;
	c.notify = 1;
	strcpy(c.ibdev, "rxe0");
	return c;
}

static void peers(void)
{
	struct verbs v;
	struct vb_conn c = good_conn(), out;
	uint32_t softnic[20] = { 0x4e534e53u, 1 };

	memset(&v, 0, sizeof(v));
	strcpy(v.ibdev, "rxe0");
	v.link_eth = 1;
	v.gid_index = 1;
	CHECK(vb_check_peer(&v, &c, sizeof(c), &out) == 0 && out.qpn == 0x11 && out.psn == 0x123456,
	      "a good peer: %s", eel_errmsg());
	CHECK(vb_check_peer(&v, softnic, sizeof(softnic), &out) == -EPROTO &&
	      strstr(eel_errmsg(), "not an RDMA device driven by eel's verbs backend"), "softnic: %s", eel_errmsg());
	CHECK(vb_check_peer(&v, &c, 4, &out) == -EPROTO, "4 bytes");
	c.version = VB_CONN_VERSION + 1;
	{
		char want[64];

		snprintf(want, sizeof(want), "connection version %u", VB_CONN_VERSION + 1);
		CHECK(vb_check_peer(&v, &c, sizeof(c), &out) == -EPROTO && strstr(eel_errmsg(), want) &&
		      strstr(eel_errmsg(), "same eel version"), "version: %s", eel_errmsg());
	}
	c = good_conn();
	CHECK(vb_check_peer(&v, &c, sizeof(c) - 4, &out) == -EPROTO && strstr(eel_errmsg(), "bytes"),
	      "short: %s", eel_errmsg());
	c.link_eth = 0;
	c.lid = 3;
	CHECK(vb_check_peer(&v, &c, sizeof(c), &out) == -EPROTO && strstr(eel_errmsg(), "one fabric"),
	      "InfiniBand peer of a RoCE port: %s", eel_errmsg());
	c = good_conn();
	c.mtu = 9;
	CHECK(vb_check_peer(&v, &c, sizeof(c), &out) == -EPROTO && strstr(eel_errmsg(), "malformed"),
	      "mtu 9: %s", eel_errmsg());
	c = good_conn();
	c.qpn = 0;
	CHECK(vb_check_peer(&v, &c, sizeof(c), &out) == -EPROTO, "QP 0 accepted");
	/* InfiniBand both ends: the peer needs a LID */
	v.link_eth = 0;
	v.gid_index = -1;
	c = good_conn();
	c.link_eth = 0;
	CHECK(vb_check_peer(&v, &c, sizeof(c), &out) == -EPROTO && strstr(eel_errmsg(), "opensm"),
	      "LID 0: %s", eel_errmsg());
	c.lid = 7;
	CHECK(vb_check_peer(&v, &c, sizeof(c), &out) == 0, "LID 7: %s", eel_errmsg());
	/* iWARP: connected by rdma_cm (no QP number), never with RoCE or InfiniBand */
	v.link_eth = 1;
	v.gid_index = -1;
	v.iwarp = 1;
	c = good_conn();
	CHECK(vb_check_peer(&v, &c, sizeof(c), &out) == -EPROTO && strstr(eel_errmsg(), "both ends must be iWARP"),
	      "RoCE peer of an iWARP device: %s", eel_errmsg());
	c.iwarp = 1;
	c.qpn = 0;
	CHECK(vb_check_peer(&v, &c, sizeof(c), &out) == -EPROTO && strstr(eel_errmsg(), "no address"),
	      "iWARP peer without an address: %s", eel_errmsg());
	c.ip[0] = 10;
	c.ip[3] = 2;
	c.cm_port = 4791;
	CHECK(vb_check_peer(&v, &c, sizeof(c), &out) == 0 && out.cm_port == 4791,
	      "an iWARP peer, its address and port: %s", eel_errmsg());
}

static void completions(void)
{
	struct vb_sq_ent put = { .len = 64, .kind = VB_PUT, .rkey = 0x1234, .raddr = 0x7f0000001000ull };
	struct vb_wc wc = { .status = IBV_WC_REM_ACCESS_ERR };
	char msg[400];

	CHECK(vb_wc_error(&wc, &put, "rxe0", msg, sizeof(msg)) == -EREMOTEIO &&
	      strstr(msg, "put of 64 bytes to 0x7f0000001000 (rkey 0x1234) on rxe0 was refused by the peer's NIC"),
	      "%s", msg);
	wc.status = IBV_WC_RETRY_EXC_ERR;
	CHECK(vb_wc_error(&wc, &put, "rxe0", msg, sizeof(msg)) == -ECONNRESET && strstr(msg, "stopped answering"),
	      "%s", msg);
	wc.status = IBV_WC_RNR_RETRY_EXC_ERR;
	CHECK(vb_wc_error(&wc, &put, "rxe0", msg, sizeof(msg)) == -ECONNRESET && strstr(msg, "poll its notif"),
	      "%s", msg);
	wc.status = IBV_WC_WR_FLUSH_ERR;
	CHECK(vb_wc_error(&wc, &put, "rxe0", msg, sizeof(msg)) == -ECANCELED && strstr(msg, "already failed"),
	      "%s", msg);
	wc.status = IBV_WC_LOC_PROT_ERR;
	CHECK(vb_wc_error(&wc, &put, "rxe0", msg, sizeof(msg)) == -EFAULT && strstr(msg, "registered local"),
	      "%s", msg);
	wc.status = IBV_WC_MW_BIND_ERR;
	wc.vendor_err = 0x42;
	CHECK(vb_wc_error(&wc, NULL, "mlx5_0", msg, sizeof(msg)) == -EIO && strstr(msg, "notification") &&
	      strstr(msg, "vendor error 0x42"), "%s", msg);
}

static void clock_map(void)
{
	/* a 32-bit NIC counter at half the host's rate, read at raw 0xfffffff0 = host 1e6 */
	struct vb_nic_clock c = { .on = 1, .mask = 0xffffffffull, .khz = 1000000, .raw0 = 0xfffffff0ull,
				  .host0 = 1e6, .k = 2.0 };

	CHECK_EQ_U(vb_clock_to_host(&c, 0xfffffff0ull), 1000000);
	CHECK_EQ_U(vb_clock_to_host(&c, 0xfffffffaull), 1000020);
	CHECK_EQ_U(vb_clock_to_host(&c, 0x10ull), 1000064);        /* across the wrap */
	CHECK_EQ_U(vb_clock_to_host(&c, 0xffffffe0ull), 999968);   /* before the reading */
	c.host0 = 10;
	CHECK_EQ_U(vb_clock_to_host(&c, 0xff000000ull), 0);        /* long before: clamped, not wrapped */
}

int main(void)
{
	paths();
	gids();
	peers();
	completions();
	clock_map();
	CHECK_DONE();
}
