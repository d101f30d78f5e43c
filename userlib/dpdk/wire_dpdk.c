/* SPDX-License-Identifier: MIT */
/* userlib/dpdk/wire_dpdk.c — the engine's wire on a DPDK port
 * (userlib/dpdk/wire_dpdk.h).
 *
 * Transmit (Programmer's Guide, "Poll Mode Driver", and rte_ethdev.h
 * rte_eth_tx_burst): an mbuf from the port's pool (rte_pktmbuf_alloc), the
 * frame built in its data area, one rte_eth_tx_burst; the PMD owns the mbuf
 * from then on and frees it when the NIC is done with it.
 * Receive (rte_eth_rx_burst): up to DPDK_RX_BURST mbufs at a time, handed
 * out one by one and freed (rte_pktmbuf_free) when the firmware is done.
 */
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>

#include <eel/cycles.h>

#include "firmware/pkt.h"
#include "userlib/dpdk/wire_dpdk.h"

const char *const dw_counter_names[DW_COUNTERS] = {
	[DW_TX_RING_FULL] = "dpdk_tx_ring_full_drops",
	[DW_RX_FOREIGN] = "dpdk_rx_foreign",
	[DW_RX_BAD_LEN] = "dpdk_rx_bad_length",
};

/* How long a send may wait for room in a full TX ring before the frame is
 * dropped (the firmware's retransmission covers it), in tries. */
#define TX_TRIES 4096

void dpdk_wire_init(struct dpdk_wire *w, struct dpdk_port *p, const struct rte_ether_addr *peer_mac,
		    uint32_t peer_nonce, uint32_t max_frame)
{
	memset(w, 0, sizeof(*w));
	w->port = p;
	w->id = p->id;
	w->max_frame = max_frame;
	w->peer_nonce = peer_nonce;
	rte_ether_addr_copy(peer_mac, &w->tx_hdr.dst_addr);
	rte_ether_addr_copy(&p->mac, &w->tx_hdr.src_addr);
	w->tx_hdr.ether_type = rte_cpu_to_be_16(DPDK_ETHERTYPE);
	rte_ether_addr_copy(&p->mac, &w->rx_hdr.dst_addr);
	rte_ether_addr_copy(peer_mac, &w->rx_hdr.src_addr);
	w->rx_hdr.ether_type = rte_cpu_to_be_16(DPDK_ETHERTYPE);
}

void dpdk_wire_drain(struct dpdk_wire *w)
{
	if (w->tx)
		rte_pktmbuf_free(w->tx);
	if (w->cur)
		rte_pktmbuf_free(w->cur);
	while (w->rx_i < w->rx_n)
		rte_pktmbuf_free(w->rx[w->rx_i++]);
	w->tx = w->cur = NULL;
	w->rx_i = w->rx_n = 0;
}

static void *dw_tx_alloc(void *ctx, uint32_t len)
{
	struct dpdk_wire *w = ctx;
	struct rte_mbuf *m;

	if (len > w->max_frame)
		return NULL;
	if (!w->tx) {
		m = rte_pktmbuf_alloc(w->port->pool);
		if (!m)
			return NULL; /* every mbuf is in a ring: the wire is full */
		w->tx = m;
	}
	return rte_pktmbuf_mtod(w->tx, uint8_t *) + DPDK_HDR;
}

static void dw_tx_send(void *ctx, void *frame, uint32_t len)
{
	struct dpdk_wire *w = ctx;
	struct rte_mbuf *m = w->tx;
	uint8_t *p = rte_pktmbuf_mtod(m, uint8_t *);
	uint32_t n = DPDK_HDR + len, msg_id;
	int traced = wire_frame_traced(p + DPDK_HDR, len, FW_PKT_LAST, &msg_id) && wire_stamps_new(&w->tx_db, msg_id);
	uint64_t t0;

	(void)frame;
	w->tx = NULL;
	memcpy(p, &w->tx_hdr, RTE_ETHER_HDR_LEN);
	p[14] = (uint8_t)(len >> 8);
	p[15] = (uint8_t)len;
	if (n < DPDK_MIN_FRAME) {
		/* Ethernet's minimum frame: padded (IEEE 802.3 clause 4.2.3.3) */
		memset(p + n, 0, DPDK_MIN_FRAME - n);
		n = DPDK_MIN_FRAME;
	}
	m->data_len = (uint16_t)n;
	m->pkt_len = n;
	/* The doorbell: the PMD writes the descriptor and the NIC's tail
	 * register (a system call's kick for af_packet). A traced message's
	 * last frame keeps when it was rung and when it returned: the
	 * breakdown's DOORBELL and DOORBELL_DONE (backend_dpdk.c). */
	t0 = traced ? eel_stamp() : 0;
	for (int i = 0; i < TX_TRIES; i++)
		if (rte_eth_tx_burst(w->id, 0, &m, 1) == 1) {
			if (traced)
				wire_stamps_push(&w->tx_db, msg_id, t0, eel_stamp(), 0);
			return;
		}
	rte_pktmbuf_free(m);
	w->cnt[DW_TX_RING_FULL]++;
}

/* A traced message's first packet: keep the NIC's receive stamp. */
static void keep_hw_stamp(struct dpdk_wire *w, const struct rte_mbuf *m, const uint8_t *f, uint32_t len)
{
	const struct dpdk_port *p = w->port;
	uint32_t msg_id;

	if (!(m->ol_flags & p->ts_flag) || !wire_frame_traced(f, len, FW_PKT_FIRST, &msg_id))
		return;
	wire_stamps_push(&w->hw_rx, msg_id,
			 dpdk_clock_to_host(&p->clock, *RTE_MBUF_DYNFIELD(m, p->ts_offset, const rte_mbuf_timestamp_t *)),
			 0, 0);
}

static const void *dw_rx(void *ctx, uint32_t *len)
{
	struct dpdk_wire *w = ctx;

	if (w->cur) { /* looked at again before rx_done: the same frame (firmware/hal.h) */
		const uint8_t *p = rte_pktmbuf_mtod(w->cur, const uint8_t *);

		*len = (uint32_t)p[14] << 8 | p[15];
		return p + DPDK_HDR;
	}
	for (;;) {
		struct rte_mbuf *m;
		const uint8_t *p;
		uint32_t n;

		if (w->rx_i == w->rx_n) {
			w->rx_i = 0;
			w->rx_n = rte_eth_rx_burst(w->id, 0, w->rx, DPDK_RX_BURST);
			if (!w->rx_n)
				return NULL;
		}
		m = w->rx[w->rx_i++];
		p = rte_pktmbuf_mtod(m, const uint8_t *);
		if (m->data_len < DPDK_HDR || memcmp(p, &w->rx_hdr, RTE_ETHER_HDR_LEN)) {
			w->cnt[DW_RX_FOREIGN]++;
			rte_pktmbuf_free(m);
			continue;
		}
		n = (uint32_t)p[14] << 8 | p[15];
		if (n > (uint32_t)m->data_len - DPDK_HDR || n > w->max_frame || n == 0) {
			w->cnt[DW_RX_BAD_LEN]++;
			rte_pktmbuf_free(m);
			continue;
		}
		if (p[DPDK_HDR] == DPDK_HELLO_MAGIC) {
			struct dpdk_hello h;

			if (n >= sizeof(h)) {
				memcpy(&h, p + DPDK_HDR, sizeof(h));
				if (h.nonce == w->peer_nonce)
					w->peer_hello = 1;
			}
			rte_pktmbuf_free(m);
			continue;
		}
		if (w->port->rx_timestamp)
			keep_hw_stamp(w, m, p + DPDK_HDR, n);
		w->cur = m;
		*len = n;
		return p + DPDK_HDR;
	}
}

/* Another frame may be waiting: the port is asked at the next look. */
static int dw_rx_done(void *ctx)
{
	struct dpdk_wire *w = ctx;

	rte_pktmbuf_free(w->cur);
	w->cur = NULL;
	return 1;
}

int dpdk_wire_hello(struct dpdk_wire *w, uint32_t nonce)
{
	struct dpdk_hello h = { .magic = DPDK_HELLO_MAGIC, .nonce = nonce };
	void *f = dw_tx_alloc(w, sizeof(h));
	uint64_t drops = w->cnt[DW_TX_RING_FULL];

	if (!f)
		return -1;
	memcpy(f, &h, sizeof(h));
	dw_tx_send(w, f, sizeof(h));
	return w->cnt[DW_TX_RING_FULL] == drops ? 0 : -1;
}

const struct wire_ops dpdk_wire_ops = {
	.tx_alloc = dw_tx_alloc,
	.tx_send = dw_tx_send,
	.rx = dw_rx,
	.rx_done = dw_rx_done,
};
