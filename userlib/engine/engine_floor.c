/* SPDX-License-Identifier: MIT */
/* userlib/engine/engine_floor.c — the floor under an engine-hosting NIC's EEL
 * (eel_floor, include/eel/eel.h): a bare echo of one minimum-size frame on
 * the backend's own carrier — a DPDK port's rte_eth_tx_burst/rx_burst, the
 * software NIC's shared-memory slots — with none of eel's protocol and not
 * through the fault layer. EEL / floor is what the firmware and its host
 * driver add to the carrier.
 *
 * The firmware is paused meanwhile: inline, nothing runs it but the caller,
 * who is here; in thread mode its thread is stopped and joined, so it no
 * longer touches the wire, and started again afterwards. Floor frames start
 * with a byte the firmware never accepts (its packets start with
 * FW_WIRE_MAGIC), so a peer whose firmware still runs drops them; the client
 * then sends its ping again after a millisecond.
 *
 * Client: ping 0 synchronises (untimed), pings 1..iters are timed, then FIN.
 * Each round trip is timed alone (from the echo before to its own, as the
 * ping-pong's client does, bench/pingpong.c) and the one-way time is the
 * median round trip / 2: on a machine shared with other busy processes a
 * preempted round trip takes milliseconds, which a mean over the run carries
 * and the median does not.
 * A ping is sent again after 1 ms without its echo; each time that proves
 * too soon (the echo came after all), the wait doubles, up to 64 ms (a slow
 * machine, an emulated NIC). When any ping went twice, the client then takes
 * the late echoes off the wire before it lets the firmware run again.
 * Server: echoes every ping; it follows the run of the first ping 0 it sees
 * and stops at that run's FIN, or 100 ms after echoing its last ping (a lost
 * FIN). Frames that are not the floor's are taken off the wire and ignored.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "userlib/engine/engine.h"

#define FLOOR_MAGIC 0xF1u       /* never FW_WIRE_MAGIC (0xE2) */
#define RESEND_US 1000
#define RESEND_MAX_US 64000
#define LINGER_MS 100
#define DRAIN_MAX_MS 250

enum { FLOOR_PING = 1, FLOOR_PONG = 2, FLOOR_FIN = 3 };

/* 16 bytes: the smallest frame a carrier takes (it pads to its own minimum,
 * Ethernet's 60 bytes on a DPDK port). */
struct floor_frame {
	uint8_t magic;
	uint8_t type;
	uint16_t rsvd;
	uint32_t run;
	uint32_t seq;
	uint32_t rsvd2;
};

static int send_frame(const struct wire *c, uint8_t type, uint32_t run, uint32_t seq)
{
	struct floor_frame f = { .magic = FLOOR_MAGIC, .type = type, .run = run, .seq = seq };
	void *buf = c->ops->tx_alloc(c->ctx, sizeof(f));

	if (!buf)
		return -1; /* the carrier is full: the caller tries again */
	memcpy(buf, &f, sizeof(f));
	c->ops->tx_send(c->ctx, buf, sizeof(f));
	return 0;
}

/* The next floor frame off the carrier, if any; anything else is dropped. */
static int recv_frame(const struct wire *c, struct floor_frame *f)
{
	const uint8_t *p;
	uint32_t len;

	while ((p = c->ops->rx(c->ctx, &len))) {
		int ours = len >= sizeof(*f) && p[0] == FLOOR_MAGIC;

		if (ours)
			memcpy(f, p, sizeof(*f));
		c->ops->rx_done(c->ctx);
		if (ours)
			return 1;
	}
	return 0;
}

/* After pings went twice: their late echoes, off the wire for a while. */
static void drain_late_echoes(const struct wire *c, uint64_t cycles)
{
	uint64_t end = eel_stamp() + cycles;
	struct floor_frame f;

	while (eel_stamp() < end)
		recv_frame(c, &f);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int client(struct eel_dev *dev, const struct wire *c, uint32_t iters, uint64_t *rtt, double *one_way_ns)
{
	const struct eel_clock *clk = eel_clock();
	uint64_t resend = eel_ns_to_cycles(clk, RESEND_US * 1000.0);
	uint64_t resend_max = eel_ns_to_cycles(clk, RESEND_MAX_US * 1000.0), longest = 0;
	uint32_t run = (uint32_t)(eel_stamp() * 0x9E3779B97F4A7C15ull >> 32) | 1, twice = 0;
	uint64_t ti = 0, t;
	struct floor_frame f;
	struct eel_wait w;
	int rc;

	for (uint32_t seq = 0; seq <= iters; seq++) {
		uint64_t first, sent;
		uint32_t spins = 0;
		int again = 0;

		eel_wait_start(dev, &w, "eel_floor: waiting for the echo");
		while (send_frame(c, FLOOR_PING, run, seq))
			if ((rc = eel_wait_check(dev, &w)))
				return rc;
		first = sent = eel_stamp();
		for (;;) {
			if (recv_frame(c, &f) && f.type == FLOOR_PONG && f.run == run && f.seq == seq)
				break;
			/* the clock read once in 16 polls: the loop as tight as the carrier's */
			if (!(++spins & 15) && eel_stamp() - sent > resend && !send_frame(c, FLOOR_PING, run, seq)) {
				sent = eel_stamp();
				again = 1;
			}
			if ((rc = eel_wait_check(dev, &w)))
				return rc;
		}
		if (again) {
			/* sent too soon, or lost: wait longer before the next resend */
			twice++;
			if (seq && (resend *= 2) > resend_max)
				resend = resend_max;
		}
		if (eel_stamp() - first > longest)
			longest = eel_stamp() - first;
		t = eel_cycles();
		if (seq)
			rtt[seq - 1] = t - ti;
		ti = t;
	}
	send_frame(c, FLOOR_FIN, run, iters);
	if (twice)
		drain_late_echoes(c, 2 * longest < eel_ns_to_cycles(clk, DRAIN_MAX_MS * 1e6) ? 2 * longest :
				  eel_ns_to_cycles(clk, DRAIN_MAX_MS * 1e6));
	qsort(rtt, iters, sizeof(*rtt), cmp_u64);
	*one_way_ns = eel_cycles_to_ns(clk, (double)rtt[(iters - 1) / 2] - (double)clk->timer_cycles) / 2;
	return 0;
}

static int server(struct eel_dev *dev, const struct wire *c, uint32_t iters)
{
	uint64_t linger = eel_ns_to_cycles(eel_clock(), LINGER_MS * 1e6), last_at = 0;
	uint32_t run = 0;
	int adopted = 0;
	struct floor_frame f;
	struct eel_wait w;
	int rc;

	eel_wait_start(dev, &w, "eel_floor: waiting for the peer's pings");
	for (;;) {
		if (recv_frame(c, &f)) {
			if (f.type == FLOOR_FIN && adopted && f.run == run)
				return 0;
			if (f.type == FLOOR_PING) {
				if (!adopted && f.seq == 0) {
					adopted = 1;
					run = f.run;
				}
				while (send_frame(c, FLOOR_PONG, f.run, f.seq))
					if ((rc = eel_wait_check(dev, &w)))
						return rc;
				if (adopted && f.run == run && f.seq == iters)
					last_at = eel_stamp();
				eel_wait_start(dev, &w, "eel_floor: waiting for the peer's pings");
			}
		}
		if (last_at && eel_stamp() - last_at > linger)
			return 0;
		if ((rc = eel_wait_check(dev, &w)))
			return rc;
	}
}

int engine_floor(struct eel_dev *dev, int is_server, uint32_t iters, double *one_way_ns)
{
	struct engine *e = ENGINE(dev);
	/* the backend's own carrier, under the fault layer if there is one */
	struct wire c = e->faulty ? e->faults.lower : e->wire;
	int thread = e->thread_running;
	uint64_t *rtt = NULL;
	int rc, rc2 = 0;

	*one_way_ns = 0;
	if (!c.ops)
		return eel_err(-ENOTCONN, "eel_floor: the NIC has no wire yet: connect first");
	if (!is_server && !(rtt = malloc(sizeof(*rtt) * iters)))
		return eel_err(-ENOMEM, "eel_floor: no memory to time %u round trips: ask for fewer", iters);
	if (thread)
		engine_thread_stop(e);
	rc = is_server ? server(dev, &c, iters) : client(dev, &c, iters, rtt, one_way_ns);
	if (thread)
		rc2 = engine_thread_start(e);
	free(rtt);
	return rc ? rc : rc2;
}
