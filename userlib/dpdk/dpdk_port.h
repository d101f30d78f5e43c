/* SPDX-License-Identifier: MIT */
/* userlib/dpdk/dpdk_port.h — one DPDK port, as the backend uses it: one RX and
 * one TX queue, a mempool, the link, the MTU, and the port's clock where it
 * has one (dpdk_port.c, dpdk_clock.c).
 *
 * Names follow the DPDK API (doc.dpdk.org/api-22.11/rte__ethdev_8h.html) and
 * the Programmer's Guide, "Poll Mode Driver".
 */
#ifndef EEL_USERLIB_DPDK_PORT_H
#define EEL_USERLIB_DPDK_PORT_H

#include <stdint.h>

#include <rte_ether.h>

#include "userlib/dpdk/dpdk_eal.h"

/* IEEE 802 "Local Experimental Ethertype 1" (IEEE Std 802-2014, 9.2.4:
 * 88-B5 and 88-B6 are for public use in development and experiments and are
 * never assigned to a product protocol). */
#define DPDK_ETHERTYPE 0x88B5u

/* eel's frame on Ethernet: the 14-byte Ethernet header, the length of what
 * follows (2 bytes, big-endian: a short frame is padded to the Ethernet
 * minimum, and the padding must not reach the firmware), then the firmware's
 * frame (firmware/pkt.h, with the fault layer's CRC when there is one).
 * 16 bytes in all: the firmware's header starts 16-byte aligned. */
#define DPDK_HDR 16u
#define DPDK_MIN_FRAME 60u /* RTE_ETHER_MIN_LEN without the 4-byte FCS */

/* What the port's MTU (the bytes after the Ethernet header) must hold beyond
 * eel's payload per packet: the length field, the firmware's 40-byte header,
 * the 4-byte CRC. */
#define DPDK_MTU_OVERHEAD (DPDK_HDR - RTE_ETHER_HDR_LEN + 40u + 4u)

/* The port's clock against the host's counter (dpdk_clock.c). */
struct dpdk_clock {
	int ok;                 /* rte_eth_read_clock works on this port */
	double ticks_per_cycle; /* NIC clock ticks per host counter cycle */
	uint64_t nic0, host0;   /* one reading of both */
};

/* Calibrate: rte_eth_read_clock against eel_stamp over about 20 ms, as the
 * rte_eth_read_clock API documentation describes. ok = 0 where the PMD has
 * no clock to read. */
void dpdk_clock_calibrate(struct dpdk_clock *c, uint16_t port);

static inline uint64_t dpdk_clock_to_host(const struct dpdk_clock *c, uint64_t nic)
{
	return c->host0 + (uint64_t)(int64_t)((double)(int64_t)(nic - c->nic0) / c->ticks_per_cycle);
}

struct rte_mempool;

struct dpdk_port {
	struct dpdk_devspec dev;
	uint16_t id;
	int configured, started;
	char driver[32];          /* rte_eth_dev_info.driver_name */
	struct rte_mempool *pool;
	struct rte_ether_addr mac;
	uint32_t mtu;             /* bytes after the Ethernet header a frame may carry */
	char mtu_why[64];         /* where that limit comes from, for messages */
	char mtu_fix[96];         /* and how to raise it */
	uint32_t frame_room;      /* bytes of one mbuf's data room */
	int rx_timestamp;         /* RTE_ETH_RX_OFFLOAD_TIMESTAMP on and its clock mapped */
	int ts_offset;            /* the mbuf dynamic field holding the timestamp */
	uint64_t ts_flag;         /* the dynamic flag saying it is valid */
	struct dpdk_clock clock;
};

/* Configure and start the port named by p->dev (already probed by
 * dpdk_eal_attach): one RX and one TX queue, mbufs for whole frames of the
 * port's MTU; wait up to link_ms for the link; learn the MAC address and the
 * MTU. 0, or a negative errno with eel's message set. */
int dpdk_port_open(struct dpdk_port *p, uint32_t link_ms);
void dpdk_port_close(struct dpdk_port *p);

/* eel_nic_info's part a port knows (dpdk_info.c). */
struct eel_nic_info;
void dpdk_port_info(const struct dpdk_port *p, struct eel_nic_info *info);

#endif
