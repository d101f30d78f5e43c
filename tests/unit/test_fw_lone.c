/* SPDX-License-Identifier: MIT */
/* tests/unit/test_fw_lone.c — the lone put's path (fw_send.c, fw_send_lone;
 * firmware/README.md, "The fast path"): a doorbell for one new one-packet
 * put, with nothing else to do, goes straight to the wire; every other case
 * is handed to the fetch and fw_send untouched. Each case runs on two
 * identical pairs (fakenic.h): on one the doorbell's send side tries
 * fw_send_lone first, on the other only the fetch and fw_send run. The lone
 * path must be taken exactly when the case says, leave the NIC as it found
 * it when it is not, and when it is, put the same frames on the wire and
 * leave the sender in the same state (PSNs, message table, timer, counters,
 * ACKs applied) and the same trace records (a traced put takes it too: the
 * breakdown times the path EEL's puts take) as the general path. The sender's registers are plain
 * memory and its DMA direct (hal.h, regs, dma_direct); its clock moves at each read, so an emulated delay or a
 * clock read skipped shows in the state. Each of fw_send_lone's guards has
 * a case here that fails without it, but four whose states this pair does
 * not reach: descriptor or payload reads in flight with nothing left to
 * send, a full message table (FW_MSGS; the fake send queue holds FN_SQ),
 * and a probe due with no resend left (a NAK's resends acknowledged before
 * they went). */
#include "check.h"
#include "fakenic.h"
#include "fn_puts.h"
#include "firmware/fw_fetch.h"
#include "firmware/fw_send.h"

#define BIG 65536u
#define REGS_CALLED 2

static uint8_t src[BIG], mem[BIG];
static uint32_t lkey, rkey;

/* The sender's clock: a tick at each read. */
static uint64_t tick_now(void *ctx)
{
	return (*(uint64_t *)(uintptr_t)((struct fn_nic *)ctx)->now)++;
}

static struct fw_hal_ops ticking;

struct lone_case {
	const char *what;
	int direct;                       /* the sender's registers plain memory and its DMA direct
					   * (hal.h: regs, dma_direct); REGS_CALLED: DMA direct, the
					   * registers through the HAL's calls */
	uint64_t delay_fetch, delay_tx, delay_payload;
	void (*before)(struct fn_pair *p); /* the state the doorbell finds */
	struct eel_fw_sqe (*put)(void);   /* the put rung (0: none) */
	int lone;                         /* fw_send_lone takes it */
	int wire_shut;                    /* the wire has no room at the doorbell, then opens */
};

static struct fn_pair *pair_new(const struct lone_case *c)
{
	struct fn_config cf = fn_defaults();
	struct fn_pair *p;

	p = fn_pair_new(&cf);
	p->a.fw.hal.regs = c->direct == 1 ? (void *)&p->a.bar : NULL;
	p->a.fw.hal.dma_direct = c->direct != 0;
	p->a.fw.hal.ops = &ticking;
	p->a.bar.delay_fetch = c->delay_fetch;
	p->a.bar.delay_tx = c->delay_tx;
	p->a.bar.delay_payload = c->delay_payload;
	fn_puts_regions(p, src, sizeof(src), mem, sizeof(mem), &lkey, &rkey);
	fn_step(p); /* both NICs take their configuration */
	return p;
}

/* The NIC's state, all but its configuration and key cache. */
static int same_fw(const struct fw *x, const struct fw *y)
{
	size_t from = offsetof(struct fw, sq_fetched), to = offsetof(struct fw, mr_cache);

	return !memcmp((const char *)x + from, (const char *)y + from, to - from) && x->error == y->error &&
	       x->error_info == y->error_info && !memcmp(x->cnt, y->cnt, sizeof(x->cnt));
}

static int same_frames(const struct fn_link *x, const struct fn_link *y)
{
	if (x->n != y->n)
		return 0;
	for (uint32_t i = 0; i < x->n; i++)
		if (x->q[i].len != y->q[i].len || memcmp(x->q[i].buf, y->q[i].buf, x->q[i].len))
			return 0;
	return 1;
}

/* The doorbell's send side without the lone path (fw_main.c, fw_doorbell). */
static void general(struct fw *fw)
{
	if (fw_fetch_sq(fw))
		fw_send(fw);
}

static void ring(struct fn_pair *p, struct eel_fw_sqe d)
{
	fn_post(&p->a, &d);
}

static struct eel_fw_sqe put8(void)
{
	return fn_put_desc(lkey, src, 8, rkey, mem, 0, 1, 0);
}

static struct eel_fw_sqe traced(void);

static void run(const struct lone_case *c)
{
	struct fn_pair *l = pair_new(c), *g = pair_new(c);
	uint32_t cap = l->ab.cap; /* the wire's room, given back after a case that shut it */
	int took;

	if (c->before) {
		c->before(l);
		c->before(g);
	}
	REQUIRE(same_fw(&l->a.fw, &g->a.fw), "%s: the two pairs differ before the doorbell", c->what);
	if (c->put) {
		ring(l, c->put());
		ring(g, c->put());
	}
	if (c->wire_shut)
		l->ab.cap = g->ab.cap = 0;
	took = fw_send_lone(&l->a.fw);
	CHECK(took == c->lone, "%s: fw_send_lone returned %d, want %d", c->what, took, c->lone);
	if (!took) {
		CHECK(same_fw(&l->a.fw, &g->a.fw) && same_frames(&l->ab, &g->ab), "%s: handed over, changed",
		      c->what);
		general(&l->a.fw);
	}
	general(&g->a.fw);
	CHECK(same_frames(&l->ab, &g->ab), "%s: the frames on the wire differ", c->what);
	CHECK(same_fw(&l->a.fw, &g->a.fw), "%s: the sender's state differs", c->what);
	if (c->wire_shut) { /* the put waits in the message table, then goes as the general path's */
		CHECK(l->ab.n == 0 && l->a.fw.snd_nxt != l->a.fw.psn_next, "%s: the put did not wait", c->what);
		l->ab.cap = g->ab.cap = cap;
		fw_send(&l->a.fw);
		fw_send(&g->a.fw);
		CHECK(l->ab.n == 1 && same_frames(&l->ab, &g->ab), "%s: the frames sent once the wire opened differ",
		      c->what);
	}
	fn_settle(l, 3000);
	fn_settle(g, 3000);
	CHECK(same_fw(&l->a.fw, &g->a.fw) && same_fw(&l->b.fw, &g->b.fw), "%s: settled, the NICs differ", c->what);
	CHECK(memcmp(&l->a.status, &g->a.status, sizeof(l->a.status)) == 0, "%s: status blocks differ", c->what);
	/* a traced put's records, the sender's stamps read off the same ticks
	 * in the same order: the breakdown times the lone path as it runs */
	CHECK(memcmp(l->a.trace, g->a.trace, sizeof(l->a.trace)) == 0 &&
	      memcmp(l->b.trace, g->b.trace, sizeof(l->b.trace)) == 0, "%s: the trace records differ", c->what);
	if (c->put == traced) { /* records there to compare: the TX one's stamps, the RX one's */
		const struct eel_trace *tx = &l->a.trace[0], *rx = &l->b.trace[FN_TR + 0];

		CHECK(tx->valid && tx->t[EEL_ST_NIC_FETCH] && tx->t[EEL_ST_NIC_TX] > tx->t[EEL_ST_NIC_FETCH] &&
		      rx->valid && rx->msg_id == tx->msg_id, "%s: no TX record with NIC_FETCH < NIC_TX, or no RX record",
		      c->what);
	}
	fn_pair_free(l);
	fn_pair_free(g);
}

/* ---- the states a doorbell may find ---- */

static void one_round(struct fn_pair *p) /* a put, acknowledged */
{
	ring(p, put8());
	fn_settle(p, 3000);
}

static void ack_waiting(struct fn_pair *p) /* a put's ACK received, not applied */
{
	ring(p, put8());
	fw_doorbell(&p->a.fw);
	fw_step(&p->b.fw);
	fw_step(&p->b.fw); /* the ACK it asked for, a pass later */
	fw_receive(&p->a.fw);
	CHECK(p->a.fw.ack_in_new, "ack_waiting: no ACK waiting");
}

static void two_rung(struct fn_pair *p) /* with the put, two new descriptors */
{
	ring(p, put8());
}

static void wire_full(struct fn_pair *p) /* a put taken, not sent: the wire was full */
{
	p->ab.cap = 0;
	ring(p, put8());
	fw_doorbell(&p->a.fw);
	p->ab.cap = 512;
	CHECK(p->a.fw.snd_nxt != p->a.fw.psn_next, "wire_full: nothing waiting");
}

/* Two puts sent and lost, the timer run out: F-RTO marks the oldest for
 * resending (fw_send.c, on_timeout), the wire full so it waits. */
static void resend_marked(struct fn_pair *p)
{
	ring(p, put8());
	fw_doorbell(&p->a.fw);
	ring(p, put8());
	fw_doorbell(&p->a.fw);
	fn_link_clear(&p->ab);
	p->ab.cap = 0;
	p->now += 100000;
	for (uint32_t i = 0; i <= FW_TIMER_PASSES; i++)
		fw_send(&p->a.fw);
	p->ab.cap = 512;
	CHECK(p->a.fw.resends && p->a.fw.snd_nxt == p->a.fw.psn_next, "resend_marked: no resend marked");
}

/* Three puts, the second lost: the receiver's NAK, its resends out, the
 * probes after them still owed (the wire full after two frames). */
static void probes_owed(struct fn_pair *p)
{
	for (int i = 0; i < 3; i++) {
		ring(p, put8());
		fw_doorbell(&p->a.fw);
	}
	fn_drop(&p->ab, 1);
	fw_step(&p->b.fw);
	fw_receive(&p->a.fw);
	p->ab.cap = p->ab.n + 2;
	fw_send(&p->a.fw);
	p->ab.cap = 512;
	CHECK(p->a.fw.probe_left && p->a.fw.snd_nxt == p->a.fw.psn_next && !p->a.fw.resends,
	      "probes_owed: probe_left %u snd_nxt %u psn_next %u", p->a.fw.probe_left, p->a.fw.snd_nxt,
	      p->a.fw.psn_next);
}

/* 32 puts of 4 packets sent, none acknowledged: the window is full. */
static void window_full(struct fn_pair *p)
{
	for (uint32_t k = 0; k < 32; k++)
		ring(p, fn_put_desc(lkey, src + 1024 * k, 1024, rkey, mem + 1024 * k, 0, k, 0));
	for (int i = 0; i < 64; i++)
		fw_doorbell(&p->a.fw);
	CHECK(p->a.fw.snd_nxt == p->a.fw.psn_next && p->a.fw.snd_nxt - p->a.fw.snd_una == FW_WINDOW,
	      "window_full: %u in flight", p->a.fw.snd_nxt - p->a.fw.snd_una);
}

static void failed(struct fn_pair *p) /* the NIC failed on a bad key */
{
	ring(p, fn_put_desc(EEL_FW_KEY(1, 99), src, 8, rkey, mem, 0, 1, 0));
	fn_settle(p, 3000);
	CHECK(p->a.fw.error, "failed: no error");
}

/* ---- the puts ---- */

static struct eel_fw_sqe put_inline(void)
{
	return fn_put_desc(0, src, 8, rkey, mem, EEL_FW_SQE_INLINE | EEL_FW_SQE_SIGNALED | EEL_FW_SQE_NOTIFY, 2, 5);
}

static struct eel_fw_sqe inline_long(void)
{
	return fn_put_desc(0, src, EEL_FW_MAX_INLINE + 1, rkey, mem, EEL_FW_SQE_INLINE, 3, 0);
}

static struct eel_fw_sqe bad_key(void)
{
	return fn_put_desc(EEL_FW_KEY(1, 99), src, 8, rkey, mem, 0, 4, 0);
}

static struct eel_fw_sqe past_region(void)
{
	return fn_put_desc(lkey, src + BIG - 4, 8, rkey, mem, 0, 5, 0);
}

static struct eel_fw_sqe traced(void)
{
	return fn_put_desc(lkey, src, 8, rkey, mem, EEL_FW_SQE_TRACE, 6, 0);
}

static struct eel_fw_sqe not_put(void)
{
	struct eel_fw_sqe d = put8();

	d.opcode = 9;
	return d;
}

static struct eel_fw_sqe two_packets(void)
{
	return fn_put_desc(lkey, src, 257, rkey, mem, 0, 7, 0); /* mtu 256 */
}

static void eget(struct fn_pair *p) /* an E-register load rung, not the send queue */
{
	fn_ereg(&p->a, 0, EEL_FW_EREG_GET, rkey, mem, 0);
}

/* A put in flight, not acknowledged, after FW_MSGS puts whose second was
 * signalled: the next message's slot in the table (FW_MSGS + 1, the
 * second's) holds a signalled put's kind and flags until it is filled. The
 * lone put's ACK request (ack_wanted) reads its own: none here (not alone
 * in flight, not signalled), where the slot's old flags would ask for one. */
static void stale_slot(struct fn_pair *p)
{
	for (uint32_t i = 0; i < FW_MSGS; i++) {
		ring(p, fn_put_desc(lkey, src, 8, rkey, mem, i == 1 ? EEL_FW_SQE_SIGNALED : 0, 100 + i, 0));
		fn_settle(p, 3000);
	}
	ring(p, put8());
	fw_doorbell(&p->a.fw);
	CHECK(p->a.fw.snd_nxt - p->a.fw.snd_una == 1 && p->a.fw.msg_tail == FW_MSGS + 1,
	      "stale_slot: %u in flight, message %u next", p->a.fw.snd_nxt - p->a.fw.snd_una, p->a.fw.msg_tail);
}

static const struct lone_case cases[] = {
	{ "first put", 1, 0, 0, 0, NULL, put8, 1, 0 },
	{ "after a round trip", 1, 0, 0, 0, one_round, put8, 1, 0 },
	{ "an ACK waiting", 1, 0, 0, 0, ack_waiting, put8, 1, 0 },
	{ "inline, signalled, NOTIFY", 1, 0, 0, 0, one_round, put_inline, 1, 0 },
	{ "the DMA through a bus", 0, 0, 0, 0, NULL, put8, 0, 0 },
	{ "the registers through calls", REGS_CALLED, 0, 0, 0, NULL, put8, 0, 0 },
	{ "two descriptors rung", 1, 0, 0, 0, two_rung, put8, 0, 0 },
	{ "a put waiting to be sent", 1, 0, 0, 0, wire_full, put8, 0, 0 },
	{ "no room on the wire for the put", 1, 0, 0, 0, NULL, put8, 1, 1 },
	{ "no room on the wire for a traced put", 1, 0, 0, 0, NULL, traced, 1, 1 },
	{ "no room on the wire, inline", 1, 0, 0, 0, one_round, put_inline, 1, 1 },
	{ "a put in flight, the next slot a signalled put's", 1, 0, 0, 0, stale_slot, put8, 1, 0 },
	{ "a resend marked", 1, 0, 0, 0, resend_marked, put8, 0, 0 },
	{ "probes owed", 1, 0, 0, 0, probes_owed, put8, 0, 0 },
	{ "the window full", 1, 0, 0, 0, window_full, put8, 0, 0 },
	{ "the NIC failed", 1, 0, 0, 0, failed, put8, 0, 0 },
	{ "a fetch delay", 1, 5, 0, 0, NULL, put8, 0, 0 },
	{ "a transmit delay", 1, 0, 5, 0, NULL, put8, 0, 0 },
	{ "a payload delay", 1, 0, 0, 5, NULL, put8, 0, 0 },
	{ "a bad key", 1, 0, 0, 0, one_round, bad_key, 0, 0 },
	{ "a source past its region", 1, 0, 0, 0, one_round, past_region, 0, 0 },
	{ "inline too long", 1, 0, 0, 0, NULL, inline_long, 0, 0 },
	{ "a traced put", 1, 0, 0, 0, NULL, traced, 1, 0 },
	{ "a traced put after a round trip", 1, 0, 0, 0, one_round, traced, 1, 0 },
	{ "not a put", 1, 0, 0, 0, NULL, not_put, 0, 0 },
	{ "two packets", 1, 0, 0, 0, NULL, two_packets, 0, 0 },
	{ "an E-register load", 1, 0, 0, 0, eget, NULL, 0, 0 },
};

int main(void)
{
	ticking = fn_hal_ops;
	ticking.now = tick_now;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run(&cases[i]);
	CHECK_DONE();
}
