/* SPDX-License-Identifier: MIT */
/* tests/host/cost_drive.c — the 8-byte put that tools/eel-cost counts under
 * callgrind: a softnic:inline pair in this one process, both ends driven by
 * one thread, a ping-pong of 8-byte puts (eel-bench -t pingpong's: flags 0,
 * the source in registered memory, one 64-byte slot a round).
 *
 *   cost_drive [put|wire|recv N]   no arguments: 1000 rounds, each checked
 *
 * With one thread doing both ends, a put's frame is on the wire before the
 * peer looks, so no pass finds the wire empty and no count depends on
 * timing: stamps off (stamp_every 0), the retransmission timer 10 s away.
 * callgrind counts (--collect-atstart=no) only what lies between
 * CALLGRIND_TOGGLE_COLLECT pairs, around N rounds after N warm-up ones:
 *   put:  eel_put, from the call to its return, the frame on the wire (the
 *         firmware runs at the doorbell: engine_put -> fw_doorbell), then
 *         what the pass does after it (the ACK received applied, the timer);
 *   wire: eel_put, from the call to the frame on the wire: the shared-memory
 *         wire's send stops the count (userlib/softnic/wire_shm.c,
 *         eel_cost_wire_mark: a VALGRIND=1 build's);
 *   recv: eel_wait_u64 on the slot the frame writes, from the call (the
 *         frame waiting on the wire) to its return, the 8 bytes visible and
 *         the ACK owed (fw_receive -> fw_recv -> rx_fast, the fast path).
 * Both ends' puts and waits are counted: 2N of each. Setting up the pair
 * needs its out-of-band handshake from both ends at once: one thread an end
 * until connected. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <eel/eel.h>

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#endif
#endif
#ifndef CALLGRIND_TOGGLE_COLLECT
#define CALLGRIND_TOGGLE_COLLECT /* without valgrind's headers: nothing counted */
#endif

#ifdef EEL_COST_MARKS
extern int eel_cost_wire_mark; /* userlib/softnic/wire_shm.c */
#else
static int eel_cost_wire_mark; /* a build without the mark: "wire" refused */
#endif

enum count { COUNT_NONE, COUNT_PUT, COUNT_WIRE, COUNT_RECV };

#define URI "softnic:inline?rto_us=10000000"
#define REGION 4096
#define SLOTS 32 /* 64-byte slots a round lands in, in turn */

struct end {
	int server;
	uint16_t port;
	struct eel_oob_listener *l;
	struct eel_dev *dev;
	struct eel_oob *oob;
	uint64_t *buf;
	struct eel_mr *mr;
	int rc;
};

static void *connect_end(void *arg)
{
	struct end *e = arg;
	struct eel_opts o;

	eel_opts_default(&o);
	o.stamp_every = 0;
	o.timeout_ms = 20000;
	e->rc = eel_open(URI, &o, &e->dev);
	if (!e->rc)
		e->rc = e->server ? eel_oob_accept(e->l, 20000, 20000, &e->oob)
				  : eel_oob_connect("127.0.0.1", e->port, 20000, &e->oob);
	if (!e->rc)
		e->rc = eel_connect(e->dev, e->oob);
	if (!e->rc && !(e->buf = aligned_alloc(4096, REGION)))
		e->rc = -1;
	if (!e->rc) {
		memset(e->buf, 0, REGION);
		e->rc = eel_mr_reg(e->dev, e->buf, REGION, EEL_ACCESS_REMOTE_WRITE, &e->mr);
	}
	if (e->rc)
		fprintf(stderr, "cost_drive: %s end: %s\n", e->server ? "server" : "client", eel_errmsg());
	return NULL;
}

/* The counted calls, each in a function of its own: what lies between the
 * marks is the call with its arguments, whatever the caller's layout. */
static __attribute__((noinline)) int put_to_return(struct end *from, struct end *to, uint64_t *src, uint32_t slot)
{
	int rc;

	CALLGRIND_TOGGLE_COLLECT;
	rc = eel_put(from->dev, from->mr, src, 8, &to->mr->win, (uint64_t)slot * 64, 0, 0, 0);
	CALLGRIND_TOGGLE_COLLECT;
	return rc;
}

/* The count stops at the wire (eel_cost_wire_mark); -1 when no frame went. */
static __attribute__((noinline)) int put_to_wire(struct end *from, struct end *to, uint64_t *src, uint32_t slot)
{
	int rc;

	eel_cost_wire_mark = 1;
	CALLGRIND_TOGGLE_COLLECT;
	rc = eel_put(from->dev, from->mr, src, 8, &to->mr->win, (uint64_t)slot * 64, 0, 0, 0);
	if (eel_cost_wire_mark) {
		CALLGRIND_TOGGLE_COLLECT;
		eel_cost_wire_mark = 0;
		fprintf(stderr, "cost_drive: the put returned with no frame sent\n");
		return -1;
	}
	return rc;
}

static __attribute__((noinline)) int wait_counted(struct end *to, uint32_t slot, uint64_t v)
{
	int rc;

	CALLGRIND_TOGGLE_COLLECT;
	rc = eel_wait_u64(to->dev, to->buf + slot * 8, v);
	CALLGRIND_TOGGLE_COLLECT;
	return rc;
}

/* One way of round r: from puts v into to's slot; to waits for it. The
 * source is the last slot of from's region (not a landing slot). */
static int one_way(struct end *from, struct end *to, uint32_t r, uint64_t v, enum count c)
{
	uint64_t *src = from->buf + (REGION / 8 - 8);
	uint32_t slot = r % SLOTS;
	int rc;

	*src = v;
	if (c == COUNT_PUT)
		rc = put_to_return(from, to, src, slot);
	else if (c == COUNT_WIRE)
		rc = put_to_wire(from, to, src, slot);
	else
		rc = eel_put(from->dev, from->mr, src, 8, &to->mr->win, (uint64_t)slot * 64, 0, 0, 0);
	if (rc)
		return rc;
	if (c == COUNT_RECV)
		return wait_counted(to, slot, v);
	return eel_wait_u64(to->dev, to->buf + slot * 8, v);
}

static int rounds(struct end *a, struct end *b, uint32_t n, uint32_t base, enum count c)
{
	for (uint32_t r = base; r < base + n; r++) {
		uint64_t v = ((uint64_t)r << 1) + 1;

		if (one_way(a, b, r, v, c) || one_way(b, a, r, v + 1, c)) {
			fprintf(stderr, "cost_drive: round %u: %s\n", r, eel_errmsg());
			return -1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct end a = { .server = 1 }, b = { 0 };
	pthread_t ta, tb;
	uint32_t n = 1000;
	enum count c = COUNT_NONE;
	int rc;

	if (argc == 3 && atoi(argv[2]) > 0)
		c = !strcmp(argv[1], "put") ? COUNT_PUT
		    : !strcmp(argv[1], "wire") ? COUNT_WIRE
		    : !strcmp(argv[1], "recv") ? COUNT_RECV : COUNT_NONE;
	if (argc != 1 && c == COUNT_NONE) {
		fprintf(stderr, "usage: cost_drive [put|wire|recv N]   (N rounds counted after N warm-up ones)\n");
		return 2;
	}
#ifndef EEL_COST_MARKS
	if (c == COUNT_WIRE) {
		fprintf(stderr, "cost_drive: wire: this build has no mark at the wire: build it with VALGRIND=1\n");
		return 2;
	}
#endif
	if (c != COUNT_NONE)
		n = (uint32_t)atoi(argv[2]);
	if (eel_oob_listen("127.0.0.1", 0, &a.l)) {
		fprintf(stderr, "cost_drive: listen: %s\n", eel_errmsg());
		return 1;
	}
	b.port = eel_oob_listener_port(a.l);
	pthread_create(&ta, NULL, connect_end, &a);
	pthread_create(&tb, NULL, connect_end, &b);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	eel_oob_listener_close(a.l);
	if (a.rc || b.rc)
		return 1;
	/* warm-up rounds (caches, lazy binding, the firmware's first passes),
	 * then the counted ones */
	rc = rounds(&a, &b, n, 0, COUNT_NONE) || rounds(&a, &b, n, n, c);
	eel_mr_dereg(a.dev, a.mr);
	eel_mr_dereg(b.dev, b.mr);
	eel_close(a.dev);
	eel_close(b.dev);
	eel_oob_close(a.oob);
	eel_oob_close(b.oob);
	free(a.buf);
	free(b.buf);
	if (!rc && argc == 1)
		printf("ok: %u ping-pong rounds of 8-byte puts on %s, one thread for both ends\n", 2 * n, URI);
	return rc ? 1 : 0;
}
