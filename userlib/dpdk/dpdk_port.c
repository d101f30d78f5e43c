/* SPDX-License-Identifier: MIT */
/* userlib/dpdk/dpdk_port.c — one DPDK port set up for eel (userlib/dpdk/dpdk_port.h).
 *
 * The sequence is the Programmer's Guide's ("Poll Mode Driver", "Device
 * Configuration"): rte_eth_dev_configure with one RX and one TX queue,
 * rte_eth_rx_queue_setup with a mempool of mbufs (rte_pktmbuf_pool_create,
 * "Mbuf Library"), rte_eth_tx_queue_setup, rte_eth_dev_start; then the link
 * (rte_eth_link_get_nowait) and the port's address and MTU.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>

#include <eel/cycles.h>

#include "userlib/core/dev.h"
#include "userlib/dpdk/dpdk_port.h"

#define POOL_MBUFS 4095u  /* RX ring + TX ring + frames in flight; 2^n - 1 (rte_mempool.h) */
#define POOL_CACHE 64u
#define RING_DESC 512u

static void sleep_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* A kernel interface behind a virtual device (af_packet, pcap) limits the
 * frames it passes to its own MTU, whatever the port says. */
static void kernel_mtu_limit(struct dpdk_port *p)
{
	char path[96];
	unsigned v;
	FILE *f;

	if (!p->dev.iface[0])
		return;
	snprintf(path, sizeof(path), "/sys/class/net/%s/mtu", p->dev.iface);
	f = fopen(path, "r");
	if (!f)
		return;
	if (fscanf(f, "%u", &v) == 1 && v < p->mtu) {
		p->mtu = v;
		snprintf(p->mtu_why, sizeof(p->mtu_why), "the MTU of %s", p->dev.iface);
		snprintf(p->mtu_fix, sizeof(p->mtu_fix), "ip link set dev %s mtu 1500", p->dev.iface);
	}
	fclose(f);
}

/* ... and its link is the kernel interface's: af_packet's port reports
 * "up" whatever the interface does (sysfs operstate, RFC 2863 ifOperStatus;
 * "unknown" is what drivers without carrier detection report). */
static int kernel_link_up(const struct dpdk_port *p)
{
	char path[96], state[32] = "";
	FILE *f;

	if (!p->dev.iface[0])
		return 1;
	snprintf(path, sizeof(path), "/sys/class/net/%s/operstate", p->dev.iface);
	f = fopen(path, "r");
	if (!f)
		return 1;
	if (!fgets(state, sizeof(state), f))
		state[0] = 0;
	fclose(f);
	return !strncmp(state, "up", 2) || !strncmp(state, "unknown", 7);
}

static int wait_link(struct dpdk_port *p, uint32_t link_ms)
{
	struct rte_eth_link link;
	uint32_t waited = 0;

	for (;;) {
		memset(&link, 0, sizeof(link));
		if (rte_eth_link_get_nowait(p->id, &link) == 0 && link.link_status == RTE_ETH_LINK_UP &&
		    kernel_link_up(p))
			return 0;
		if (waited >= link_ms)
			break;
		sleep_ms(10);
		waited += 10;
	}
	if (p->dev.iface[0])
		return eel_err(-ENOLINK, "dpdk: %s has no link after %u ms: bring %s and its peer up "
			       "(ip link set dev %s up; a veth pair needs both ends up)",
			       p->dev.args, link_ms, p->dev.iface, p->dev.iface);
	return eel_err(-ENOLINK, "dpdk: port %s (%s) has no link after %u ms: connect it to the peer's port "
		       "(cable, switch, or the VM's network) and check the peer's port is up",
		       p->dev.name, p->driver, link_ms);
}

int dpdk_port_open(struct dpdk_port *p, uint32_t link_ms)
{
	struct rte_eth_dev_info info;
	struct rte_eth_conf conf;
	uint16_t nb_rxd = RING_DESC, nb_txd = RING_DESC, mtu = 0;
	char pool_name[RTE_MEMPOOL_NAMESIZE];
	static unsigned pools;
	int socket, rc;

	if (rte_eth_dev_get_port_by_name(p->dev.name, &p->id))
		return eel_err(-ENODEV, "dpdk: no port %s", p->dev.name);
	if ((rc = rte_eth_dev_info_get(p->id, &info)))
		return eel_err(rc, "dpdk: cannot query port %s: %s", p->dev.name, rte_strerror(-rc));
	snprintf(p->driver, sizeof(p->driver), "%s", info.driver_name ? info.driver_name : "?");

	memset(&conf, 0, sizeof(conf));
	if (info.rx_offload_capa & RTE_ETH_RX_OFFLOAD_TIMESTAMP)
		conf.rxmode.offloads |= RTE_ETH_RX_OFFLOAD_TIMESTAMP;
	if ((rc = rte_eth_dev_configure(p->id, 1, 1, &conf)))
		return eel_err(rc, "dpdk: %s (%s) refused one RX and one TX queue: %s", p->dev.name, p->driver,
			       rte_strerror(-rc));
	p->configured = 1;
	if ((rc = rte_eth_dev_adjust_nb_rx_tx_desc(p->id, &nb_rxd, &nb_txd)))
		return eel_err(rc, "dpdk: %s: ring sizes: %s", p->dev.name, rte_strerror(-rc));
	if ((rc = rte_eth_dev_get_mtu(p->id, &mtu)))
		return eel_err(rc, "dpdk: %s: cannot read the MTU: %s", p->dev.name, rte_strerror(-rc));
	p->mtu = mtu;
	snprintf(p->mtu_why, sizeof(p->mtu_why), "the port's MTU (%s)", p->driver);
	snprintf(p->mtu_fix, sizeof(p->mtu_fix), "raise the port's MTU, or use a port with a larger one");
	kernel_mtu_limit(p);

	/* Mbufs large enough for a whole frame of this MTU (no scattered RX),
	 * VLAN tags and FCS included, and never smaller than DPDK's default. */
	p->frame_room = p->mtu + RTE_ETHER_HDR_LEN + RTE_ETHER_CRC_LEN + 2 * RTE_VLAN_HLEN;
	if (p->frame_room < RTE_MBUF_DEFAULT_DATAROOM)
		p->frame_room = RTE_MBUF_DEFAULT_DATAROOM;
	socket = rte_eth_dev_socket_id(p->id);
	if (socket < 0)
		socket = (int)rte_socket_id();
	snprintf(pool_name, sizeof(pool_name), "eel_mbuf_%u_%u", p->id, pools++);
	p->pool = rte_pktmbuf_pool_create(pool_name, POOL_MBUFS, POOL_CACHE, 0,
					  (uint16_t)(RTE_PKTMBUF_HEADROOM + p->frame_room), socket);
	if (!p->pool)
		return eel_err(-ENOMEM, "dpdk: no memory for %u mbufs of %u bytes (%s): give the EAL more "
			       "(--eal \"-m 512\", or more hugepages)", POOL_MBUFS, p->frame_room,
			       rte_strerror(rte_errno));
	if ((rc = rte_eth_rx_queue_setup(p->id, 0, nb_rxd, (unsigned)socket, NULL, p->pool)))
		return eel_err(rc, "dpdk: %s: RX queue: %s", p->dev.name, rte_strerror(-rc));
	if ((rc = rte_eth_tx_queue_setup(p->id, 0, nb_txd, (unsigned)socket, NULL)))
		return eel_err(rc, "dpdk: %s: TX queue: %s", p->dev.name, rte_strerror(-rc));
	if (conf.rxmode.offloads & RTE_ETH_RX_OFFLOAD_TIMESTAMP)
		rte_mbuf_dyn_rx_timestamp_register(&p->ts_offset, &p->ts_flag);
	if ((rc = rte_eth_dev_start(p->id)))
		return eel_err(rc, "dpdk: %s (%s) did not start: %s", p->dev.name, p->driver, rte_strerror(-rc));
	p->started = 1;
	if ((rc = rte_eth_macaddr_get(p->id, &p->mac)))
		return eel_err(rc, "dpdk: %s: no MAC address: %s", p->dev.name, rte_strerror(-rc));
	if ((rc = wait_link(p, link_ms)))
		return rc;
	/* Hardware receive stamps count only when their clock maps onto ours. */
	if ((conf.rxmode.offloads & RTE_ETH_RX_OFFLOAD_TIMESTAMP) && p->ts_offset >= 0 && p->ts_flag) {
		dpdk_clock_calibrate(&p->clock, p->id);
		p->rx_timestamp = p->clock.ok;
	}
	return 0;
}

void dpdk_port_close(struct dpdk_port *p)
{
	if (p->started)
		rte_eth_dev_stop(p->id);
	p->started = 0;
	/* Unplugging closes the port and gives its mbufs back. */
	dpdk_eal_detach(&p->dev);
	p->configured = 0;
	if (p->pool)
		rte_mempool_free(p->pool);
	p->pool = NULL;
}
