/* SPDX-License-Identifier: MIT */
/* userlib/raw/wire_e1000.c — an e1000's descriptor rings as an eel wire
 * (userlib/engine/wire.h): the firmware's frames in Ethernet frames (e1000.h).
 *
 * Transmit ([SDM] 3.3, legacy descriptors): tx_alloc hands out the packet
 * buffer of the next free descriptor, reclaiming finished ones by their DD
 * bit; tx_send writes the Ethernet header and the descriptor (EOP, IFCS, RS),
 * then the tail register TDT — the NIC's doorbell. Receive ([SDM] 3.2): rx
 * polls the DD bit of the next descriptor, keeps only eel frames from the
 * peer to this NIC, and returns the firmware's frame; rx_done gives the
 * descriptor back to the NIC through RDT.
 *
 * The register-level doorbell measurement: for every frame sent, the cycles
 * from just before the TDT store to the moment the driver sees the
 * descriptor's DD bit, and the cycles the TDT store itself took. The driver
 * looks at once after the store, then at every call of the wire (the
 * firmware calls rx on each of its steps), so the figure is exact when the
 * NIC finished before the first look (dd_first_look counts those) and at
 * most one firmware step late otherwise.
 */
#include <stdlib.h>
#include <string.h>

#include <eel/cycles.h>

#include "userlib/raw/e1000.h"

static void bump(uint64_t *c)
{
	__atomic_store_n(c, *c + 1, __ATOMIC_RELAXED);
}

/* One TDT-to-DD sample (the descriptor's store began at tdt_at[idx]); a
 * traced message's last frame gives its three stamps to the breakdown
 * (backend_raw_e1000.c: DOORBELL, DOORBELL_DONE, NIC_TX). */
static void dd_seen(struct e1000_wire *w, uint32_t idx, uint64_t now)
{
	uint64_t s = w->samples % E1000_DD_WINDOW;

	__atomic_store_n(&w->dd_cycles[s], now - w->tdt_at[idx], __ATOMIC_RELAXED);
	__atomic_store_n(&w->samples, w->samples + 1, __ATOMIC_RELEASE);
	if (w->traced[idx]) {
		wire_stamps_push(&w->tx_db, w->traced[idx] - 1, w->tdt_at[idx], w->tdt_done[idx], now);
		w->traced[idx] = 0;
	}
	w->tdt_at[idx] = 0;
}

/* Walk the sent descriptors in order while the NIC has written DD back. */
static void reclaim(struct e1000_wire *w)
{
	while (w->tx_clean != w->tx_tail) {
		uint32_t i = w->tx_clean;

		if (w->tdt_at[i]) {
			if (!(w->nic->txd[i].status & E1000_TXD_STAT_DD))
				return;
			dd_seen(w, i, eel_stamp());
			e1000_rmb(); /* the buffer is ours again only after DD */
		}
		w->tx_clean = (i + 1) % E1000_NTX;
	}
}

static void *e1000_tx_alloc(void *ctx, uint32_t len)
{
	struct e1000_wire *w = ctx;

	if (len > w->max_frame)
		return NULL;
	reclaim(w);
	/* One descriptor stays unused: TDT == TDH means an empty ring. */
	if ((w->tx_tail + 1) % E1000_NTX == w->tx_clean) {
		bump(&w->tx_full);
		return NULL;
	}
	return w->nic->tx_buf + (size_t)w->tx_tail * E1000_BUF + E1000_EEL_HDR;
}

static void e1000_tx_send(void *ctx, void *frame, uint32_t len)
{
	struct e1000_wire *w = ctx;
	struct e1000 *nic = w->nic;
	uint32_t i = w->tx_tail, total = E1000_EEL_HDR + len, msg_id;
	uint8_t *b = nic->tx_buf + (size_t)i * E1000_BUF;
	volatile struct e1000_tx_desc *d = &nic->txd[i];
	uint64_t t0, t1, n;

	(void)frame; /* the buffer tx_alloc gave, at b + E1000_EEL_HDR */
	w->traced[i] = wire_frame_traced(b + E1000_EEL_HDR, len, FW_PKT_LAST, &msg_id) &&
		       wire_stamps_new(&w->tx_db, msg_id) ? msg_id + 1 : 0;
	memcpy(b, w->dst, 6);
	memcpy(b + 6, w->src, 6);
	b[12] = E1000_ETHERTYPE_EEL >> 8;
	b[13] = E1000_ETHERTYPE_EEL & 0xff;
	b[14] = (uint8_t)(len >> 8);
	b[15] = (uint8_t)len;
	if (total < E1000_ETH_MIN) {
		memset(b + total, 0, E1000_ETH_MIN - total); /* padded here: no stale bytes on the wire */
		total = E1000_ETH_MIN;
	}
	/* [SDM] 3.3.3: a legacy descriptor, the whole frame in one buffer. */
	d->addr = nic->tx_buf_bus + (uint64_t)i * E1000_BUF;
	d->length = (uint16_t)total;
	d->cso = 0;
	d->cmd = E1000_TXD_CMD_EOP | E1000_TXD_CMD_IFCS | E1000_TXD_CMD_RS;
	d->status = 0;
	d->css = 0;
	d->special = 0;
	w->tx_tail = (i + 1) % E1000_NTX;
	n = w->tx_frames;
	bump(&w->tx_frames); /* counted before the NIC can count it (GPTC) */
	/* The doorbell: descriptor and buffer visible first, then the tail. */
	e1000_wmb();
	t0 = eel_stamp();
	e1000_wr(nic, E1000_TDT, w->tx_tail);
	t1 = eel_stamp();
	w->tdt_at[i] = t0 ? t0 : 1;
	w->tdt_done[i] = t1;
	__atomic_store_n(&w->store_cycles[n % E1000_DD_WINDOW], t1 - t0, __ATOMIC_RELAXED);
	/* The first look: done already (as when the device model transmits
	 * inside the store, QEMU's way)? */
	if (d->status & E1000_TXD_STAT_DD) {
		bump(&w->dd_first_look);
		dd_seen(w, i, eel_stamp());
	}
}

/* Give the current receive descriptor back to the NIC: it becomes the tail
 * ([SDM] 3.2, receive descriptor queue: the NIC fills from RDH up to, not
 * including, RDT). */
static void give_back(struct e1000_wire *w)
{
	struct e1000 *nic = w->nic;
	uint32_t i = w->rx_next;

	nic->rxd[i].status = 0;
	w->rx_next = (i + 1) % E1000_NRX;
	e1000_wmb();
	e1000_wr(nic, E1000_RDT, i);
}

static const void *e1000_rx(void *ctx, uint32_t *len)
{
	struct e1000_wire *w = ctx;
	struct e1000 *nic = w->nic;

	reclaim(w);
	for (int n = 0; n < 64; n++) {
		volatile struct e1000_rx_desc *d = &nic->rxd[w->rx_next];
		const uint8_t *b = nic->rx_buf + (size_t)w->rx_next * E1000_BUF;
		uint8_t st = d->status;
		uint32_t got, flen;

		if (!(st & E1000_RXD_STAT_DD))
			return NULL;
		e1000_rmb();
		got = d->length;
		flen = got >= E1000_EEL_HDR ? (uint32_t)b[14] << 8 | b[15] : 0;
		/* [SDM] 3.2.3: one whole, error-free frame per descriptor; then ours? */
		if (!(st & E1000_RXD_STAT_EOP) || (d->errors & E1000_RXD_ERR_MASK) || got < E1000_EEL_HDR ||
		    got > E1000_BUF || b[12] != (E1000_ETHERTYPE_EEL >> 8) || b[13] != (E1000_ETHERTYPE_EEL & 0xff) ||
		    memcmp(b, w->src, 6) || memcmp(b + 6, w->dst, 6) || flen > got - E1000_EEL_HDR ||
		    flen > w->max_frame) {
			bump(&w->rx_dropped);
			give_back(w);
			continue;
		}
		*len = flen;
		return b + E1000_EEL_HDR;
	}
	return NULL;
}

/* A frame taken: counted here, not at a look (e1000_rx hands the same
 * frame out until then: firmware/hal.h). Another frame may be waiting:
 * the next look also reclaims sent descriptors (reclaim), so it is always
 * made. */
static int e1000_rx_done(void *ctx)
{
	struct e1000_wire *w = ctx;

	bump(&w->rx_frames);
	give_back(w);
	return 1;
}

const struct wire_ops e1000_wire_ops = {
	.tx_alloc = e1000_tx_alloc,
	.tx_send = e1000_tx_send,
	.rx = e1000_rx,
	.rx_done = e1000_rx_done,
};

void e1000_wire_init(struct e1000_wire *w, struct e1000 *nic, const uint8_t dst[6], uint32_t max_frame)
{
	memset(w, 0, sizeof(*w));
	w->nic = nic;
	memcpy(w->src, nic->mac, 6);
	memcpy(w->dst, dst, 6);
	w->max_frame = max_frame < E1000_MAX_FRAME ? max_frame : E1000_MAX_FRAME;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* min and median of the last min(samples, window) values of ring. */
static void min_median(const uint64_t *ring, uint64_t samples, uint64_t *min, uint64_t *median)
{
	uint64_t tmp[E1000_DD_WINDOW];
	size_t n = samples < E1000_DD_WINDOW ? (size_t)samples : E1000_DD_WINDOW;

	*min = *median = 0;
	if (!n)
		return;
	for (size_t i = 0; i < n; i++)
		tmp[i] = __atomic_load_n(&ring[i], __ATOMIC_RELAXED);
	qsort(tmp, n, sizeof(tmp[0]), cmp_u64);
	*min = tmp[0];
	*median = tmp[n / 2];
}

int e1000_wire_counters(struct e1000_wire *w, const char **names, uint64_t *values, int max)
{
	static const char *const n[12] = {
		"e1000_tx_frames", "e1000_rx_frames", "e1000_rx_dropped", "e1000_tx_ring_full",
		"e1000_tdt_to_dd_cycles_min", "e1000_tdt_to_dd_cycles_median",
		"e1000_tdt_write_cycles_min", "e1000_tdt_write_cycles_median",
		"e1000_tdt_to_dd_samples", "e1000_dd_at_first_look",
		"e1000_hw_good_rx", "e1000_hw_good_tx",
	};
	uint64_t v[12], samples, sent;
	int k = 0;

	/* Read so that a firmware thread running meanwhile cannot break
	 * GPRC >= frames taken and GPTC <= frames sent: the frames taken
	 * before GPRC, GPTC before the frames sent. The NIC's own counts run
	 * from e1000_open ([SDM] 13.7: GPRC counts every good frame received,
	 * eel's or not; GPTC every frame sent). */
	v[1] = __atomic_load_n(&w->rx_frames, __ATOMIC_ACQUIRE);
	v[2] = __atomic_load_n(&w->rx_dropped, __ATOMIC_ACQUIRE);
	v[10] = w->hw_rx += e1000_rd(w->nic, E1000_GPRC);
	v[11] = w->hw_tx += e1000_rd(w->nic, E1000_GPTC);
	samples = __atomic_load_n(&w->samples, __ATOMIC_ACQUIRE);
	sent = __atomic_load_n(&w->tx_frames, __ATOMIC_ACQUIRE);
	v[0] = sent;
	v[3] = __atomic_load_n(&w->tx_full, __ATOMIC_RELAXED);
	min_median(w->dd_cycles, samples, &v[4], &v[5]);
	min_median(w->store_cycles, sent, &v[6], &v[7]);
	v[8] = samples < E1000_DD_WINDOW ? samples : E1000_DD_WINDOW;
	v[9] = __atomic_load_n(&w->dd_first_look, __ATOMIC_RELAXED);
	for (; k < 12 && k < max; k++) {
		names[k] = n[k];
		values[k] = v[k];
	}
	return k;
}
