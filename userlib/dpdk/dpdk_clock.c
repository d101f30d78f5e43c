/* SPDX-License-Identifier: MIT */
/* userlib/dpdk/dpdk_clock.c — a port's clock mapped onto the host's counter
 * (userlib/dpdk/dpdk_port.h).
 *
 * rte_eth_read_clock (rte_ethdev.h) reads the clock the PMD stamps received
 * packets with (RTE_ETH_RX_OFFLOAD_TIMESTAMP); its API documentation gives
 * the method used here: read it twice some time apart, derive its frequency,
 * and convert a timestamp as base time + (timestamp - base clock) / frequency.
 * Each reading is bracketed by two host counter reads; the pair with the
 * narrowest bracket is kept.
 */
#include <time.h>

#include <rte_ethdev.h>

#include <eel/cycles.h>

#include "userlib/dpdk/dpdk_port.h"

/* One (NIC clock, host counter) pair: the best of a few tries. */
static int sample(uint16_t port, uint64_t *nic, uint64_t *host)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 16; i++) {
		uint64_t c0 = eel_cycles(), v, c1;

		if (rte_eth_read_clock(port, &v))
			return -1;
		c1 = eel_cycles();
		if (c1 - c0 < best) {
			best = c1 - c0;
			*nic = v;
			*host = c0 + (c1 - c0) / 2;
		}
	}
	return 0;
}

void dpdk_clock_calibrate(struct dpdk_clock *c, uint16_t port)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	uint64_t n0, h0, n1, h1;

	c->ok = 0;
	if (sample(port, &n0, &h0))
		return;
	nanosleep(&ts, NULL);
	if (sample(port, &n1, &h1) || n1 <= n0 || h1 <= h0)
		return;
	c->ticks_per_cycle = (double)(n1 - n0) / (double)(h1 - h0);
	c->nic0 = n1;
	c->host0 = h1;
	c->ok = 1;
}
