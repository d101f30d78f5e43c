/* SPDX-License-Identifier: MIT */
/* userlib/dpdk/backend_dpdk.c — eel on any DPDK port: the firmware's protocol
 * engine (userlib/engine/engine.h) hosted on this core, its frames carried by a
 * DPDK port (userlib/dpdk/wire_dpdk.h).
 *
 * DPDK has no remote memory access, so a put is one-sided in software (seed
 * Bell et al. 2003, the GM/VIPL category): frames carry it and the
 * receiving end's firmware, polling its port, writes it into the registered
 * window. Puts, E-registers, key and bounds checks, sequence numbers and
 * retransmission are the firmware's (firmware/pkt.h), the very code the
 * software NIC runs; this file only brings the port up and joins the wire.
 *
 * URI: dpdk:<pci address or vdev args>[?options]
 *   dpdk:0000:00:03.0                     a PCI NIC bound to a DPDK driver
 *   dpdk:net_af_packet0,iface=veth0        a virtual device (any vdev PMD)
 *   mode=inline (default) | thread         where the firmware runs (engine.h)
 *   link_ms=N                              how long to wait for the link (5000)
 *   and the engine's options (ENGINE_OPTIONS): faults, mtu, rto_us, ...
 * EAL arguments come from eel_opts.backend_args (eel-bench --eal "...").
 *
 * Connecting: each end sends its MAC address, MTU and a nonce over the
 * out-of-band channel; then both send HELLO frames until each has heard the
 * other's on the wire (and told it so out of band), so a wire that does not
 * join the two ports is found at once, not as a timeout in the first put.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_ethdev.h>

#include <eel/pci_facts.h>

#include "userlib/core/backends.h"
#include "userlib/dpdk/dpdk_port.h"
#include "userlib/engine/engine.h"
#include "userlib/dpdk/wire_dpdk.h"

#define DPDK_CONN_MAGIC 0x4b445044u /* "DPDK" */
#define DPDK_CONN_VERSION 1u
#define DPDK_OOB_HEARD 4
#define HELLO_EVERY_MS 1

struct dpdk_be {
	struct dpdk_port port;
	struct dpdk_wire wire;
	uint32_t nonce;
	int port_open;
	int hello_active;     /* the link check is on: progress says hello */
	uint64_t next_hello;
};

/* What an end tells its peer (sent as is over the OOB channel). */
struct dpdk_conn {
	uint32_t magic;
	uint32_t version;
	struct engine_conn engine;
	uint8_t mac[6];
	uint16_t ethertype;
	uint32_t port_mtu;
	uint32_t nonce;
	char boot_id[40];
	char name[64];
};

static struct dpdk_be *DPDK(struct eel_dev *dev)
{
	return ENGINE(dev)->backend;
}

static void dpdk_release(struct engine *e)
{
	struct dpdk_be *b = e->backend;

	dpdk_wire_drain(&b->wire);
	if (b->port_open)
		dpdk_port_close(&b->port);
	free(b);
}

static void dpdk_close(struct eel_dev *dev)
{
	engine_close(dev, dpdk_release);
}

static void boot_id(char *out, size_t n)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");

	out[0] = 0;
	if (f) {
		if (fgets(out, (int)n, f))
			out[strcspn(out, "\n")] = 0;
		fclose(f);
	}
}

/* The firmware's payload per packet: what the port's MTU leaves. */
static int choose_mtu(struct engine *e, struct dpdk_port *p, int given)
{
	uint32_t fit;

	if (p->mtu < DPDK_MTU_OVERHEAD + EEL_FW_MTU_MIN)
		return eel_err(-EMSGSIZE, "dpdk: %s carries %u bytes per frame (%s), too few for eel, which needs "
			       "at least %u (%u of payload + %u of headers): %s", p->dev.args, p->mtu, p->mtu_why,
			       DPDK_MTU_OVERHEAD + EEL_FW_MTU_MIN, EEL_FW_MTU_MIN, DPDK_MTU_OVERHEAD, p->mtu_fix);
	fit = p->mtu - DPDK_MTU_OVERHEAD;
	if (fit > EEL_FW_MTU_MAX)
		fit = EEL_FW_MTU_MAX;
	if (given && e->mtu > fit)
		return eel_err(-EMSGSIZE, "dpdk: mtu=%u does not fit %s: %s is %u bytes, and eel's headers take "
			       "%u: give mtu=%u or less", e->mtu, p->dev.args, p->mtu_why, p->mtu,
			       DPDK_MTU_OVERHEAD, fit);
	if (!given)
		e->mtu = fit;
	return 0;
}

static void fill_caps(struct eel_dev *dev)
{
	struct engine *e = ENGINE(dev);
	struct dpdk_port *p = &DPDK(dev)->port;
	struct eel_caps *c = &dev->caps;

	snprintf(c->backend, sizeof(c->backend), "dpdk");
	snprintf(c->name, sizeof(c->name), "%.63s", p->dev.args);
	engine_caps(e, c);
	/* eel's firmware on this core; the port's doorbell, and its receive
	 * stamp where it has one (dpdk_trace_drain) */
	c->flags |= EEL_CAP_HOSTED_FW;
	c->stamp_mask &= ~(1u << EEL_ST_NIC_FETCH | 1u << EEL_ST_NIC_TX);
	if (p->rx_timestamp) {
		c->flags |= EEL_CAP_NIC_CLOCK;
		c->nic_stamp_mask = 1u << EEL_ST_NIC_RX;
	}
	snprintf(c->doorbell, sizeof(c->doorbell), "rte_eth_tx_burst (the PMD's tail-register write)");
	if (p->dev.is_pci && eel_pci_addr_normalize(p->dev.name, c->pci))
		c->pci[0] = 0;
	if (p->dev.is_pci)
		snprintf(c->attach, sizeof(c->attach), "PCI %.12s (%.40s)", p->dev.name, p->driver);
	else if (p->dev.iface[0])
		snprintf(c->attach, sizeof(c->attach), "vdev %.20s on kernel interface %.12s", p->dev.name,
			 p->dev.iface);
	else
		snprintf(c->attach, sizeof(c->attach), "vdev %.24s (%.32s)", p->dev.name, p->driver);
	if (p->rx_timestamp)
		snprintf(c->clock, sizeof(c->clock), "host %.8s; NIC_RX: the port's clock, mapped", eel_clock()->source);
	else
		snprintf(c->clock, sizeof(c->clock), "host %.8s (firmware on the host; no port stamps)",
			 eel_clock()->source);
}

static int dpdk_open(struct eel_dev *dev, struct eel_uri *u)
{
	struct engine *e = calloc(1, sizeof(*e));
	struct dpdk_be *b;
	const char *mode;
	uint64_t link_ms = 5000;
	int rc, mtu_given;

	if (!e)
		return eel_err(-ENOMEM, "dpdk: out of memory");
	dev->priv = e;
	b = e->backend = calloc(1, sizeof(struct dpdk_be));
	if (!b) {
		rc = eel_err(-ENOMEM, "dpdk: out of memory");
		goto fail;
	}
	mode = eel_uri_str(u, "mode");
	mtu_given = eel_uri_str(u, "mtu") != NULL;
	/* The two ends are usually on two machines: 2 busy threads each. */
	if ((rc = engine_parse(e, dev, u, mode ? mode : "", 2)) ||
	    (rc = eel_uri_u64(u, "link_ms", 0, 600000, &link_ms)) < 0 ||
	    (rc = eel_uri_check_unused(u, ENGINE_OPTIONS " mode link_ms")) ||
	    (rc = dpdk_devspec_parse(u->path, &b->port.dev)) ||
	    (rc = dpdk_eal_attach(&b->port.dev, dev->opts.backend_args)))
		goto fail;
	b->port_open = 1;
	if ((rc = dpdk_port_open(&b->port, (uint32_t)link_ms)) || (rc = choose_mtu(e, &b->port, mtu_given)) ||
	    (rc = engine_start(e)))
		goto fail;
	b->nonce = (uint32_t)(eel_stamp() * 0x9E3779B97F4A7C15ull >> 32) ^ (uint32_t)getpid();
	fill_caps(dev);
	return 0;
fail:
	dpdk_close(dev);
	return rc;
}

static int dpdk_conn_info(struct eel_dev *dev, int server, void *buf, uint32_t cap, uint32_t *len)
{
	struct engine *e = ENGINE(dev);
	struct dpdk_be *b = DPDK(dev);
	struct dpdk_conn c = { .magic = DPDK_CONN_MAGIC, .version = DPDK_CONN_VERSION,
			       .ethertype = DPDK_ETHERTYPE, .port_mtu = b->port.mtu, .nonce = b->nonce };

	(void)server;
	engine_conn_info(e, &c.engine);
	memcpy(c.mac, b->port.mac.addr_bytes, 6);
	boot_id(c.boot_id, sizeof(c.boot_id));
	snprintf(c.name, sizeof(c.name), "%.63s", b->port.dev.args);
	if (cap < sizeof(c))
		return eel_err(-EINVAL, "dpdk: connection info does not fit");
	memcpy(buf, &c, sizeof(c));
	*len = sizeof(c);
	return 0;
}

/* Say hello at most every HELLO_EVERY_MS, and take in what arrives: the
 * wire keeps note of the peer's hello and drops everything else here. */
static void hello_step(struct dpdk_be *b)
{
	uint64_t now = eel_stamp();
	uint32_t len;

	if (now >= b->next_hello) {
		dpdk_wire_hello(&b->wire, b->nonce);
		b->next_hello = now + (uint64_t)(eel_clock()->hz / 1000 * HELLO_EVERY_MS);
	}
	while (dpdk_wire_ops.rx(&b->wire, &len))
		dpdk_wire_ops.rx_done(&b->wire);
}

static int link_check(struct eel_dev *dev, const struct dpdk_conn *peer, struct eel_oob *oob)
{
	struct dpdk_be *b = DPDK(dev);
	struct eel_wait w;
	uint32_t n;
	int rc;

	b->next_hello = 0;
	eel_wait_start(dev, &w, "dpdk: link check");
	while (!b->wire.peer_hello) {
		hello_step(b);
		if ((rc = eel_wait_check(dev, &w))) {
			if (rc != -ETIMEDOUT)
				return rc;
			return eel_err(-EHOSTUNREACH, "dpdk: no frame from the peer's port (%s, %02x:%02x:%02x:%02x:"
				       "%02x:%02x) reached %s in %u ms: are the two ports on one wire (cable, "
				       "veth pair, switch or VM network)?", peer->name, peer->mac[0], peer->mac[1],
				       peer->mac[2], peer->mac[3], peer->mac[4], peer->mac[5], b->port.dev.args,
				       dev->opts.timeout_ms);
		}
	}
	/* We hear the peer. Tell it so, and keep saying hello until it hears us. */
	if ((rc = eel_oob_send(oob, DPDK_OOB_HEARD, NULL, 0)))
		return rc;
	b->hello_active = 1;
	rc = eel_oob_recv(oob, DPDK_OOB_HEARD, NULL, 0, &n, dev->opts.timeout_ms, dev);
	b->hello_active = 0;
	if (rc == -ETIMEDOUT)
		return eel_err(rc, "dpdk: %s hears the peer's port, but the peer does not hear this one within "
			       "%u ms: the wire carries only one way (check the peer's receive side)",
			       b->port.dev.args, dev->opts.timeout_ms);
	return rc;
}

static int dpdk_connect(struct eel_dev *dev, int server, const void *peer, uint32_t len, struct eel_oob *oob)
{
	struct engine *e = ENGINE(dev);
	struct dpdk_be *b = DPDK(dev);
	struct rte_ether_addr mac;
	struct dpdk_conn p;
	char mine[40];
	int rc, same_machine;

	(void)server;
	if (len != sizeof(p))
		return eel_err(-EPROTO, "the peer is not a dpdk end (connection info of %u bytes): both ends "
			       "must use the same kind of NIC", len);
	memcpy(&p, peer, sizeof(p));
	p.boot_id[sizeof(p.boot_id) - 1] = p.name[sizeof(p.name) - 1] = 0;
	if (p.magic != DPDK_CONN_MAGIC || p.version != DPDK_CONN_VERSION || p.ethertype != DPDK_ETHERTYPE)
		return eel_err(-EPROTO, "the peer is not a dpdk end of this version: use the same eel on both ends");
	if (!memcmp(p.mac, b->port.mac.addr_bytes, 6))
		return eel_err(-EINVAL, "dpdk: both ends have the MAC address %02x:%02x:%02x:%02x:%02x:%02x (%s here): "
			       "each end needs a port with an address of its own (net_pcap: add phy_mac=1)",
			       p.mac[0], p.mac[1], p.mac[2], p.mac[3], p.mac[4], p.mac[5], b->port.dev.args);
	if (p.engine.mtu != e->mtu) {
		uint32_t lo = p.engine.mtu < e->mtu ? p.engine.mtu : e->mtu;

		return eel_err(-EINVAL, "dpdk: the two ends' mtu differ (%u here on %s, %u at the peer on %s): "
			       "give both ends mtu=%u", e->mtu, b->port.dev.args, p.engine.mtu, p.name, lo);
	}
	boot_id(mine, sizeof(mine));
	same_machine = mine[0] && !strcmp(mine, p.boot_id);
	if (same_machine && e->mode == ENGINE_THREAD && !e->oversubscribe && sysconf(_SC_NPROCESSORS_ONLN) < 4)
		return eel_err(-EBUSY, "dpdk ?mode=thread with both ends on this machine runs 4 busy threads, and it "
			       "has %ld cores: use mode=inline, or add &oversubscribe=1 (correct, but slow)",
			       sysconf(_SC_NPROCESSORS_ONLN));
	memcpy(mac.addr_bytes, p.mac, 6);
	dpdk_wire_init(&b->wire, &b->port, &mac, p.nonce, engine_max_frame(e));
	if ((rc = link_check(dev, &p, oob)))
		return rc;
	if ((rc = engine_link_up(e, (struct wire){ .ops = &dpdk_wire_ops, .ctx = &b->wire }, &p.engine)))
		return rc;
	/* Two processes of one running kernel stamp with one counter (the
	 * calibrated, invariant TSC); two machines do not. */
	if (same_machine && eel_clock()->invariant)
		dev->caps.flags |= EEL_CAP_SHARED_CLOCK;
	return 0;
}

static int dpdk_progress(struct eel_dev *dev)
{
	struct dpdk_be *b = DPDK(dev);

	if (b->hello_active) {
		hello_step(b);
		return 1;
	}
	return engine_progress(dev);
}

/* The firmware runs on this core: from the put to the NIC's doorbell it is
 * host software (post). DOORBELL and DOORBELL_DONE are rte_eth_tx_burst's
 * call and return (the PMD writes the descriptor and the tail register);
 * the port does not say when it fetched or sent the frame, so NIC_FETCH and
 * NIC_TX stay empty and those stages merge with the wire. Where the port
 * stamps what it receives, its stamp replaces the firmware's NIC_RX (taken
 * when the firmware read the frame). */
static int dpdk_trace_drain(struct eel_dev *dev, enum eel_trace_dir dir, struct eel_trace *out, int max)
{
	struct dpdk_be *b = DPDK(dev);
	int n = engine_trace_drain(dev, dir, out, max);

	for (int i = 0; i < n; i++) {
		uint64_t *t = out[i].t, v;
		struct wire_stamp db;

		if (dir == EEL_TRACE_TX) {
			int have = t[EEL_ST_POST] &&
				   wire_stamps_take(&b->wire.tx_db, out[i].msg_id, t[EEL_ST_POST], UINT64_MAX, &db);

			t[EEL_ST_DOORBELL] = have ? db.t[0] : 0;
			t[EEL_ST_DOORBELL_DONE] = have ? db.t[1] : 0;
			t[EEL_ST_NIC_FETCH] = t[EEL_ST_NIC_TX] = 0;
		}
		if (dir == EEL_TRACE_RX && b->port.rx_timestamp && t[EEL_ST_DMA_START] &&
		    wire_stamps_take(&b->wire.hw_rx, out[i].msg_id, t[EEL_ST_NIC_RX] - eel_clock()->hz / 1000,
				     t[EEL_ST_DMA_START], &db) && (v = db.t[0]))
			t[EEL_ST_NIC_RX] = v;
	}
	return n;
}

static int dpdk_counters(struct eel_dev *dev, struct eel_counter *out, int max)
{
	struct dpdk_be *b = DPDK(dev);
	struct rte_eth_stats st;
	int n = engine_counters(dev, out, max);

	for (int i = 0; i < DW_COUNTERS && n < max; i++, n++) {
		out[n].name = dw_counter_names[i];
		out[n].value = b->wire.cnt[i];
	}
	memset(&st, 0, sizeof(st));
	rte_eth_stats_get(b->port.id, &st);
	if (n + 4 <= max) {
		out[n++] = (struct eel_counter){ .name = "port_rx_missed", .value = st.imissed };
		out[n++] = (struct eel_counter){ .name = "port_rx_errors", .value = st.ierrors };
		out[n++] = (struct eel_counter){ .name = "port_tx_errors", .value = st.oerrors };
		out[n++] = (struct eel_counter){ .name = "port_rx_no_mbuf", .value = st.rx_nombuf };
	}
	return n;
}

/* eel_nic_info: the port's (dpdk_info.c), and the ABI of eel's firmware on this core */
static int dpdk_nic_info(struct eel_dev *dev, struct eel_nic_info *info)
{
	engine_nic_info(ENGINE(dev), info);
	dpdk_port_info(&DPDK(dev)->port, info);
	return 0;
}

const struct eel_backend eel_backend_dpdk = {
	.scheme = "dpdk",
	.open = dpdk_open,
	.close = dpdk_close,
	.conn_info = dpdk_conn_info,
	.connect = dpdk_connect,
	ENGINE_DATA_PATH, /* the firmware's data path (engine.h) */
	.progress = dpdk_progress,
	.trace_drain = dpdk_trace_drain,
	.counters = dpdk_counters,
	.nic_info = dpdk_nic_info,
};
