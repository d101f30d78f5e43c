/* SPDX-License-Identifier: MIT */
/* userlib/raw/backend_raw_e1000.c — raw:<pci address>: eel's firmware (hosted by
 * the engine, userlib/engine/engine.h) on an Intel e1000 or e1000e driven by eel's
 * own register-level driver (userlib/raw/e1000.h) — the rings of a real (or
 * QEMU-emulated) PCI NIC as the firmware's wire.
 *
 * URI: raw:<pci address>[:inline|:thread][?options]
 *   the address as `lspci -D` prints it (0000:00:03.0; 00:03.0 works too),
 *   bound to eel_pci (`sudo tools/eel-bind --force <address>`) or, as a
 *   fallback, to uio_pci_generic (root and hugepages needed);
 *   inline (default) / thread: where the firmware runs (as softnic);
 *   the engine's options (ENGINE_OPTIONS); mtu at most RAW_MTU_MAX, the
 *   default, so that a packet fits one 1500-byte Ethernet frame.
 *
 * Connecting: each end sends its NIC's MAC address (from RAL0/RAH0) and its
 * engine's parameters over the out-of-band channel; frames then go to the
 * peer's MAC. The two NICs must share an Ethernet segment.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "userlib/core/backends.h"
#include "userlib/raw/e1000.h"
#include "userlib/engine/engine.h"

#define RAW_CONN_MAGIC 0x45574152u /* "RAWE" */
#define RAW_CONN_VERSION 1u
/* The largest engine mtu whose packets fit one Ethernet frame: the firmware's
 * header and a CRC (when the fault layer is on) inside E1000_MAX_FRAME. */
#define RAW_MTU_MAX (E1000_MAX_FRAME - FW_PKT_HDR - 4u)
_Static_assert(RAW_MTU_MAX >= EEL_FW_MTU_MIN, "an Ethernet frame carries the firmware's smallest mtu");

struct raw_e1000 {
	struct e1000 nic;
	struct e1000_wire wire;
};

/* What an end tells its peer (sent as is over the OOB channel). */
struct raw_conn {
	uint32_t magic;
	uint32_t version;
	struct engine_conn engine;
	uint8_t mac[6];
	uint16_t device;
	char pci[16];
};

static struct raw_e1000 *RAW(struct eel_dev *dev)
{
	return ENGINE(dev)->backend;
}

static void raw_release(struct engine *e)
{
	struct raw_e1000 *r = e->backend;

	e1000_close(&r->nic);
	free(r);
}

static void raw_close(struct eel_dev *dev)
{
	engine_close(dev, raw_release);
}

/* The path "<address>[:inline|:thread]" into the address and the mode. */
static int split_path(const char *path, char *addr, size_t cap, const char **mode)
{
	char a[sizeof(((struct eel_uri *)0)->path)];
	char *c;

	*mode = "";
	snprintf(a, sizeof(a), "%s", path);
	c = strrchr(a, ':');
	if (c && (!strcmp(c, ":inline") || !strcmp(c, ":thread"))) {
		*mode = strrchr(path, ':') + 1;
		*c = 0;
	}
	if (!a[0])
		return eel_err(-EINVAL, "raw: which NIC? give its PCI address, e.g. raw:0000:00:03.0 (`lspci -D` "
			       "lists them)");
	return raw_pci_parse_addr(a, addr, cap);
}

static int raw_open(struct eel_dev *dev, struct eel_uri *u)
{
	struct engine *e = calloc(1, sizeof(*e));
	struct eel_caps *c = &dev->caps;
	struct raw_e1000 *r;
	char addr[16];
	const char *mode, *mtu_given;
	int rc;

	if (!e)
		return eel_err(-ENOMEM, "raw: out of memory");
	dev->priv = e;
	e->backend = r = calloc(1, sizeof(*r));
	if (!r) {
		rc = eel_err(-ENOMEM, "raw: out of memory");
		goto fail;
	}
	mtu_given = eel_uri_str(u, "mtu");
	/* The two ends usually run on two machines: 2 busy threads each in thread mode. */
	if ((rc = split_path(u->path, addr, sizeof(addr), &mode)) || (rc = engine_parse(e, dev, u, mode, 2)) ||
	    (rc = eel_uri_check_unused(u, ENGINE_OPTIONS)))
		goto fail;
	if (!mtu_given)
		e->mtu = RAW_MTU_MAX;
	if (e->mtu > RAW_MTU_MAX) {
		rc = eel_err(-EINVAL, "raw: mtu=%u does not fit one Ethernet frame (1500 bytes): give at most "
			     "mtu=%u", e->mtu, RAW_MTU_MAX);
		goto fail;
	}
	if ((rc = e1000_open(&r->nic, addr, dev->opts.timeout_ms)) || (rc = engine_start(e)))
		goto fail;
	snprintf(c->backend, sizeof(c->backend), "raw");
	snprintf(c->name, sizeof(c->name), "%s", addr);
	engine_caps(e, c);
	/* eel's firmware on this core; the e1000's own doorbell and descriptor
	 * done bit (raw_trace_drain) */
	c->flags |= EEL_CAP_HOSTED_FW;
	c->stamp_mask &= ~(1u << EEL_ST_NIC_FETCH);
	snprintf(c->doorbell, sizeof(c->doorbell), "TDT tail-register write (MMIO, PCI)");
	snprintf(c->attach, sizeof(c->attach), "PCI %s (Intel %s, %s%s)", addr, r->nic.model->chip,
		 r->nic.pci.via == RAW_VIA_EEL_PCI ? "via " : "", raw_pci_via_name(&r->nic.pci));
	snprintf(c->clock, sizeof(c->clock), "host %s (the firmware runs on the host)", eel_clock()->source);
	snprintf(c->pci, sizeof(c->pci), "%s", r->nic.pci.addr);
	return 0;
fail:
	raw_close(dev);
	return rc;
}

static int raw_conn_info(struct eel_dev *dev, int server, void *buf, uint32_t cap, uint32_t *len)
{
	struct raw_e1000 *r = RAW(dev);
	struct raw_conn c = { .magic = RAW_CONN_MAGIC, .version = RAW_CONN_VERSION, .device = r->nic.pci.device };

	(void)server;
	engine_conn_info(ENGINE(dev), &c.engine);
	memcpy(c.mac, r->nic.mac, 6);
	snprintf(c.pci, sizeof(c.pci), "%s", r->nic.pci.addr);
	if (cap < sizeof(c))
		return eel_err(-EINVAL, "raw: connection info does not fit");
	memcpy(buf, &c, sizeof(c));
	*len = sizeof(c);
	return 0;
}

static int raw_connect(struct eel_dev *dev, int server, const void *peer, uint32_t len, struct eel_oob *oob)
{
	struct engine *e = ENGINE(dev);
	struct raw_e1000 *r = RAW(dev);
	struct raw_conn p;

	(void)server;
	(void)oob;
	if (len != sizeof(p))
		return eel_err(-EPROTO, "the peer is not a raw NIC (connection info of %u bytes): both ends must "
			       "use the same kind of NIC", len);
	memcpy(&p, peer, sizeof(p));
	p.pci[sizeof(p.pci) - 1] = 0;
	if (p.magic != RAW_CONN_MAGIC || p.version != RAW_CONN_VERSION)
		return eel_err(-EPROTO, "the peer is not a raw NIC of this version: use the same eel and the same "
			       "kind of NIC on both ends");
	if (!memcmp(p.mac, r->nic.mac, 6))
		return eel_err(-EINVAL, "raw: the peer's NIC (%s) has this NIC's MAC address "
			       "%02x:%02x:%02x:%02x:%02x:%02x: give each end its own NIC, with its own address",
			       p.pci, p.mac[0], p.mac[1], p.mac[2], p.mac[3], p.mac[4], p.mac[5]);
	e1000_wire_init(&r->wire, &r->nic, p.mac, engine_max_frame(e));
	return engine_link_up(e, (struct wire){ .ops = &e1000_wire_ops, .ctx = &r->wire }, &p.engine);
}

/* The firmware runs on this core: from the put to the NIC's doorbell it is
 * host software (post). DOORBELL and DOORBELL_DONE are the TDT store's start
 * and return ([SDM] 13.4.40: the tail register hands the descriptor to the
 * NIC), NIC_TX is when the driver saw the descriptor's DD bit ([SDM] 3.3.3:
 * written back, with RS set, when the NIC is done with it): "doorbell to
 * descriptor done" at register level.
 * The NIC's descriptor fetch is not seen apart from its transmit (NIC_FETCH
 * stays empty: the two stages merge). */
static int raw_trace_drain(struct eel_dev *dev, enum eel_trace_dir dir, struct eel_trace *out, int max)
{
	struct raw_e1000 *r = RAW(dev);
	int n = engine_trace_drain(dev, dir, out, max);

	for (int i = 0; dir == EEL_TRACE_TX && i < n; i++) {
		uint64_t *t = out[i].t;
		struct wire_stamp db;
		int have = t[EEL_ST_POST] && dev->connected &&
			   wire_stamps_take(&r->wire.tx_db, out[i].msg_id, t[EEL_ST_POST], UINT64_MAX, &db);

		t[EEL_ST_DOORBELL] = have ? db.t[0] : 0;
		t[EEL_ST_DOORBELL_DONE] = have ? db.t[1] : 0;
		t[EEL_ST_NIC_FETCH] = 0;
		t[EEL_ST_NIC_TX] = have ? db.t[2] : 0;
	}
	return n;
}

/* The engine's counters, then the e1000's own (wire_e1000.c). */
static int raw_counters(struct eel_dev *dev, struct eel_counter *out, int max)
{
	const char *names[16];
	uint64_t values[16];
	int n = engine_counters(dev, out, max), m;

	if (!dev->connected)
		return n;
	m = e1000_wire_counters(&RAW(dev)->wire, names, values, max - n < 16 ? max - n : 16);
	for (int i = 0; i < m; i++) {
		out[n + i].name = names[i];
		out[n + i].value = values[i];
	}
	return n + m;
}

/* eel_nic_info: the e1000's (raw_info.c), and the ABI of eel's firmware on this core */
static int raw_nic_info(struct eel_dev *dev, struct eel_nic_info *info)
{
	engine_nic_info(ENGINE(dev), info);
	e1000_info(&RAW(dev)->nic, info);
	return 0;
}

const struct eel_backend eel_backend_raw_e1000 = {
	.scheme = "raw",
	.open = raw_open,
	.close = raw_close,
	.conn_info = raw_conn_info,
	.connect = raw_connect,
	ENGINE_DATA_PATH, /* the firmware's data path (engine.h) */
	.progress = engine_progress,
	.trace_drain = raw_trace_drain,
	.counters = raw_counters,
	.nic_info = raw_nic_info,
};
