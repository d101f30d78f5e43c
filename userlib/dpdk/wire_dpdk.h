/* SPDX-License-Identifier: MIT */
/* userlib/dpdk/wire_dpdk.h — the firmware's frames on a DPDK port: the engine's
 * wire (userlib/engine/wire.h) with rte_eth_tx_burst and rte_eth_rx_burst.
 *
 * Each firmware frame travels in one Ethernet frame of eel's own ethertype
 * (dpdk_port.h: header, length, frame). Sending is one rte_eth_tx_burst of
 * one mbuf (the PMD writes the NIC's tail register: the doorbell); receiving
 * takes a burst and hands the frames out one at a time, keeping only those
 * of eel's ethertype from the peer's MAC address to ours.
 */
#ifndef EEL_USERLIB_WIRE_DPDK_H
#define EEL_USERLIB_WIRE_DPDK_H

#include <stdint.h>

#include <rte_ether.h>

#include "userlib/dpdk/dpdk_port.h"
#include "userlib/engine/wire_stamps.h"
#include "userlib/engine/wire.h"

#define DPDK_RX_BURST 32u

/* The link check before the firmware takes over (backend_dpdk.c): frames
 * that start with this byte are never the firmware's (FW_WIRE_MAGIC 0xE2)
 * nor the floor's (engine_floor.c); the wire takes them out of the stream. */
#define DPDK_HELLO_MAGIC 0xD1u

struct dpdk_hello {
	uint8_t magic;
	uint8_t rsvd[3];
	uint32_t nonce;             /* the sender's, from its connection info */
};

enum dpdk_wire_counter {
	DW_TX_RING_FULL,            /* frames dropped: the TX ring stayed full */
	DW_RX_FOREIGN,              /* frames not from the peer, or not eel's */
	DW_RX_BAD_LEN,              /* eel frames whose length field lies */
	DW_COUNTERS
};

extern const char *const dw_counter_names[DW_COUNTERS];

struct dpdk_wire {
	struct dpdk_port *port;
	uint16_t id;
	uint32_t max_frame;             /* firmware frame bytes, CRC included */
	struct rte_ether_hdr tx_hdr;    /* to the peer, from us, eel's type */
	struct rte_ether_hdr rx_hdr;    /* what a frame for us must start with */
	struct rte_mbuf *tx;            /* allocated, not yet sent */
	struct rte_mbuf *rx[DPDK_RX_BURST];
	uint16_t rx_n, rx_i;
	struct rte_mbuf *cur;           /* the frame handed out, until rx_done */
	uint32_t peer_nonce;
	int peer_hello;                 /* a HELLO from the peer came in */
	struct wire_stamps tx_db;       /* traced messages: rte_eth_tx_burst called, returned */
	struct wire_stamps hw_rx;       /* traced messages the port stamped on receipt */
	uint64_t cnt[DW_COUNTERS];
};

/* Join the port to the peer at peer_mac. */
void dpdk_wire_init(struct dpdk_wire *w, struct dpdk_port *p, const struct rte_ether_addr *peer_mac,
		    uint32_t peer_nonce, uint32_t max_frame);
/* Give back every mbuf the wire holds. */
void dpdk_wire_drain(struct dpdk_wire *w);
/* Send a HELLO (the link check). 0 when it went out. */
int dpdk_wire_hello(struct dpdk_wire *w, uint32_t nonce);

extern const struct wire_ops dpdk_wire_ops; /* ctx: struct dpdk_wire */

#endif
