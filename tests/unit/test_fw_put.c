/* SPDX-License-Identifier: MIT */
/* tests/unit/test_fw_put.c — the firmware delivers puts: small, inline,
 * multi-packet, unaligned, 0 .. 1 MB; completions (signalled, NOTIFY with
 * imm and total length, owner bit across ring passes), the status block,
 * trace records and counters. Two firmwares on a fake HAL (fakenic.h), a
 * perfect wire. */
#include "check.h"
#include "fakenic.h"

#define BUF (1u << 20)
#define GUARD 64u

static uint8_t *src, *dst;

static void fill(uint8_t *p, size_t n, uint32_t seed)
{
	uint64_t s = seed * 2654435761u + 7;

	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(fn_rand(&s) >> 56);
}

/* A region of `len` bytes at dst + off, guarded on both sides by 0xEE. */
static int untouched(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != 0xEE)
			return 0;
	return 1;
}

struct world {
	struct fn_pair *p;
	uint32_t lkey, rkey;
};

static struct world world(uint32_t mtu)
{
	struct fn_config c = fn_defaults();
	struct world w;

	c.mtu = mtu;
	w.p = fn_pair_new(&c);
	w.lkey = fn_mr(&w.p->a, 1, src, BUF + 2 * GUARD, EEL_FW_MR_LOCAL_READ);
	w.rkey = fn_mr(&w.p->b, 2, dst, BUF + 2 * GUARD, EEL_FW_MR_REMOTE_WRITE);
	return w;
}

/* One signalled put of every size, at unaligned offsets at both ends. */
static void test_sizes(void)
{
	static const uint32_t sizes[] = { 0, 1, 7, 8, 9, 63, 255, 256, 257, 511, 512, 1000, 4096,
					  65536 + 3, 300000, BUF - 16 };
	struct world w = world(256);
	uint64_t pkts = 0;

	for (unsigned k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		uint32_t len = sizes[k], so = 3 + k % 5, doff = GUARD + 5 + k % 3;
		struct eel_fw_sqe d;
		struct eel_fw_cqe e = { 0 };
		int got = 0;

		fill(src, BUF + 2 * GUARD, k);
		memset(dst, 0xEE, BUF + 2 * GUARD);
		d = fn_put_desc(w.lkey, src + so, len, w.rkey, dst + doff, EEL_FW_SQE_SIGNALED, 100 + k, 0);
		CHECK(fn_post(&w.p->a, &d) == 0, "post size %u", len);
		for (int i = 0; i < 20000 && !got; i++) {
			fn_step(w.p);
			got = fn_poll(&w.p->a, &e);
		}
		CHECK(got, "size %u: no completion", len);
		CHECK(got && e.opcode == EEL_FW_CQE_PUT && e.status == EEL_FW_OK && e.wr_id == 100 + k &&
		      e.len == len && e.msg_id == k && e.trace == 0,
		      "size %u: CQE op %u status %u wr_id %llu len %u msg_id %u trace %u", len, e.opcode, e.status,
		      (unsigned long long)e.wr_id, e.len, e.msg_id, e.trace);
		CHECK(memcmp(dst + doff, src + so, len) == 0, "size %u: payload differs", len);
		CHECK(untouched(dst, doff) && untouched(dst + doff + len, BUF + 2 * GUARD - doff - len),
		      "size %u: bytes written outside [raddr, raddr + len)", len);
		pkts += len ? (len + 255) / 256 : 1;
		CHECK_EQ_U(fn_counter(&w.p->a, EEL_FW_CNT_TX_PKTS), pkts);
		CHECK_EQ_U(fn_counter(&w.p->b, EEL_FW_CNT_RX_PKTS), pkts);
		CHECK_EQ_U(fn_counter(&w.p->b, EEL_FW_CNT_RX_MSGS), k + 1);
		CHECK_EQ_U(fn_counter(&w.p->a, EEL_FW_CNT_TX_MSGS), k + 1);
		CHECK_EQ_U(w.p->a.status.sq_cons, k + 1);
		CHECK_EQ_U(w.p->b.status.last_rx, k); /* msg_id, not traced */
	}
	/* a perfect wire: nothing resent, nothing refused */
	CHECK_EQ_U(fn_counter(&w.p->a, EEL_FW_CNT_RETRANSMITS), 0);
	CHECK_EQ_U(fn_counter(&w.p->a, EEL_FW_CNT_TIMEOUTS), 0);
	CHECK_EQ_U(fn_counter(&w.p->b, EEL_FW_CNT_OOO) + fn_counter(&w.p->b, EEL_FW_CNT_DUPS) +
		   fn_counter(&w.p->b, EEL_FW_CNT_BAD), 0);
	CHECK_EQ_U(w.p->a.status.error + w.p->b.status.error, 0);
	CHECK_EQ_U(w.p->a.dma_violations + w.p->b.dma_violations, 0);
	/* a put of many packets streams: its payload reads were in flight
	 * together (fw_send.c, send_ahead), each waited for once, and the
	 * payloads above are whole */
	CHECK(w.p->a.rd_out_max > 1 && w.p->a.rd_out_max <= FW_HAL_READS, "reads in flight at most %u",
	      w.p->a.rd_out_max);
	CHECK_EQ_U(w.p->a.rd_out, 0);
	fn_pair_free(w.p);
}

/* Inline puts carry their payload in the descriptor: no local key needed. */
static void test_inline(void)
{
	struct world w = world(256);
	struct eel_fw_cqe e = { 0 };

	memset(dst, 0xEE, BUF + 2 * GUARD);
	for (uint32_t len = 0; len <= EEL_FW_MAX_INLINE; len++) {
		uint8_t payload[EEL_FW_MAX_INLINE];
		struct eel_fw_sqe d;

		for (uint32_t i = 0; i < len; i++)
			payload[i] = (uint8_t)(0x40 + len + i);
		d = fn_put_desc(0, payload, len, w.rkey, dst + GUARD + 32 * len + 1,
				EEL_FW_SQE_INLINE | EEL_FW_SQE_SIGNALED, len, 0);
		d.laddr = 0xdead0000; /* never read for an inline put */
		CHECK(fn_post(&w.p->a, &d) == 0, "post");
		fn_settle(w.p, 1000);
		CHECK(fn_poll(&w.p->a, &e) && e.status == EEL_FW_OK && e.wr_id == len && e.len == len,
		      "inline %u: CQE status %u wr_id %llu len %u", len, e.status, (unsigned long long)e.wr_id, e.len);
		CHECK(memcmp(dst + GUARD + 32 * len + 1, payload, len) == 0, "inline %u: payload", len);
		CHECK(untouched(dst + GUARD + 32 * len + 1 + len, 31 - len), "inline %u: wrote past the end", len);
	}
	CHECK_EQ_U(w.p->a.dma_violations + w.p->b.dma_violations, 0);
	fn_pair_free(w.p);
}

/* Unsignalled puts write no CQE but free their SQ slot; the owner bit flips
 * on every pass over the CQ, and a stale entry is never read as new. */
static void test_cq_wrap(void)
{
	struct fn_config c = fn_defaults();
	struct fn_pair *p;
	uint32_t lkey, rkey;
	uint64_t x;

	c.cq_size = 8;
	p = fn_pair_new(&c);
	lkey = fn_mr(&p->a, 1, &x, 8, EEL_FW_MR_LOCAL_READ);
	rkey = fn_mr(&p->b, 1, dst, 8 * 64, EEL_FW_MR_REMOTE_WRITE);
	for (uint32_t i = 0; i < 50; i++) {
		uint8_t flags = i % 3 == 2 ? 0 : EEL_FW_SQE_SIGNALED;
		struct eel_fw_sqe d;
		struct eel_fw_cqe e = { 0 };

		x = 0x1111111111111111ull * (i % 15);
		d = fn_put_desc(lkey, &x, 8, rkey, dst + 8 * (i % 64), flags, i, 0);
		fn_post(&p->a, &d);
		fn_settle(p, 1000);
		CHECK_EQ_U(p->a.status.sq_cons, i + 1);
		if (flags) {
			uint64_t slot = p->a.cq_cons;
			uint32_t owner = (uint32_t)((slot / 8 + 1) & 1);

			CHECK(fn_poll(&p->a, &e) && e.wr_id == i && e.owner == owner,
			      "put %u: CQE wr_id %llu owner %u (want %u)", i, (unsigned long long)e.wr_id, e.owner, owner);
		}
		CHECK(!fn_poll(&p->a, &e), "put %u: a CQE for an unsignalled put, or a stale one read as new", i);
		CHECK(memcmp(dst + 8 * (i % 64), &x, 8) == 0, "put %u: payload", i);
	}
	CHECK(p->a.cq_cons > 16, "the CQ went round more than twice (%llu CQEs)", (unsigned long long)p->a.cq_cons);
	fn_pair_free(p);
}

/* NOTIFY: the receiver gets a CQE with the sender's imm and msg_id and the
 * message's total length, written after the payload. */
static void test_notify(void)
{
	struct world w = world(256);
	struct eel_fw_cqe e = { 0 };
	struct eel_fw_sqe d;

	memset(dst, 0xEE, BUF + 2 * GUARD);
	fill(src, 4096, 9);
	/* two unsignalled puts, the second notifying: msg_id 1 */
	d = fn_put_desc(w.lkey, src, 100, w.rkey, dst + GUARD, 0, 1, 0);
	fn_post(&w.p->a, &d);
	d = fn_put_desc(w.lkey, src + 1, 1000, w.rkey, dst + GUARD + 200, EEL_FW_SQE_NOTIFY, 2, 0xdeadbeef);
	fn_post(&w.p->a, &d);
	fn_settle(w.p, 1000);
	CHECK(fn_poll(&w.p->b, &e), "no NOTIFY CQE");
	CHECK(e.opcode == EEL_FW_CQE_NOTIFY && e.status == EEL_FW_OK && e.imm == 0xdeadbeef && e.len == 1000 &&
	      e.msg_id == 1 && e.wr_id == 0,
	      "NOTIFY CQE op %u status %u imm 0x%x len %u msg_id %u wr_id %llu", e.opcode, e.status, e.imm, e.len,
	      e.msg_id, (unsigned long long)e.wr_id);
	CHECK(!fn_poll(&w.p->b, &e), "a second CQE at the receiver");
	CHECK(!fn_poll(&w.p->a, &e), "a CQE for unsignalled puts at the sender");
	CHECK_EQ_U(w.p->a.status.sq_cons, 2);
	CHECK(memcmp(dst + GUARD + 200, src + 1, 1000) == 0 && memcmp(dst + GUARD, src, 100) == 0, "payloads");
	/* a zero-length NOTIFY put is a doorbell with imm */
	d = fn_put_desc(0, NULL, 0, w.rkey, dst + GUARD, EEL_FW_SQE_NOTIFY | EEL_FW_SQE_INLINE, 3, 77);
	fn_post(&w.p->a, &d);
	fn_settle(w.p, 1000);
	CHECK(fn_poll(&w.p->b, &e) && e.imm == 77 && e.len == 0 && e.msg_id == 2, "empty NOTIFY: imm %u len %u",
	      e.imm, e.len);
	fn_pair_free(w.p);
}

/* TRACE: the sender stamps fetch and tx into TX record `trace`, the receiver
 * stamps rx, DMA start and done into its next RX record and names it in
 * last_rx; the sender's CQE carries the record index + 1. */
static void test_trace(void)
{
	struct world w = world(256);
	struct eel_fw_cqe e = { 0 };
	struct eel_fw_sqe d;
	const struct eel_trace *tx, *rx;

	fill(src, 4096, 3);
	for (uint32_t k = 0; k < 3; k++) {
		d = fn_put_desc(w.lkey, src, 600, w.rkey, dst + GUARD, EEL_FW_SQE_SIGNALED | EEL_FW_SQE_TRACE, k, 0);
		d.trace = 5 + k;
		w.p->a.trace[5 + k].t[EEL_ST_POST] = 1; /* the host's own stamps stay */
		fn_post(&w.p->a, &d);
		fn_settle(w.p, 1000);
		tx = &w.p->a.trace[5 + k];
		rx = &w.p->b.trace[FN_TR + k];
		CHECK(fn_poll(&w.p->a, &e) && e.trace == 6 + k, "CQE trace %u, want %u", e.trace, 6 + k);
		CHECK(tx->valid && tx->msg_id == k && tx->t[EEL_ST_POST] == 1 && tx->t[EEL_ST_NIC_FETCH] &&
		      tx->t[EEL_ST_NIC_TX] >= tx->t[EEL_ST_NIC_FETCH],
		      "TX record %u: valid %u msg_id %u fetch %llu tx %llu", k, tx->valid, tx->msg_id,
		      (unsigned long long)tx->t[EEL_ST_NIC_FETCH], (unsigned long long)tx->t[EEL_ST_NIC_TX]);
		CHECK(rx->valid && rx->msg_id == k && rx->t[EEL_ST_NIC_RX] >= tx->t[EEL_ST_NIC_TX] &&
		      rx->t[EEL_ST_DMA_START] >= rx->t[EEL_ST_NIC_RX] &&
		      rx->t[EEL_ST_DMA_DONE] >= rx->t[EEL_ST_DMA_START] && rx->t[EEL_ST_NIC_RX],
		      "RX record %u: valid %u msg_id %u rx %llu dma %llu..%llu", k, rx->valid, rx->msg_id,
		      (unsigned long long)rx->t[EEL_ST_NIC_RX], (unsigned long long)rx->t[EEL_ST_DMA_START],
		      (unsigned long long)rx->t[EEL_ST_DMA_DONE]);
		CHECK_EQ_U(w.p->b.status.last_rx,
			   (uint64_t)k | (uint64_t)k << 32 | EEL_FW_LAST_RX_TRACED | EEL_FW_LAST_RX_DETECT);
	}
	/* an untraced put leaves no record and says so in last_rx */
	d = fn_put_desc(w.lkey, src, 8, w.rkey, dst + GUARD, 0, 9, 0);
	fn_post(&w.p->a, &d);
	fn_settle(w.p, 1000);
	CHECK_EQ_U(w.p->b.status.last_rx, 3);
	CHECK(!w.p->b.trace[FN_TR + 3].valid, "an untraced put used an RX record");

	/* a put that chose its stamps (the SQE's stamps, struct eel_trace's
	 * want): only those are taken, at each end; one that takes none at
	 * the receiving end leaves no record there */
	d = fn_put_desc(w.lkey, src, 8, w.rkey, dst + GUARD, EEL_FW_SQE_TRACE, 10, 0);
	d.trace = 10;
	d.stamps = (uint16_t)(EEL_TRACE_CHOSEN | 1u << EEL_ST_POST | 1u << EEL_ST_NIC_TX | 1u << EEL_ST_NIC_RX);
	w.p->a.trace[10].t[EEL_ST_NIC_FETCH] = 77; /* stale: not asked for, written 0 */
	fn_post(&w.p->a, &d);
	fn_settle(w.p, 1000);
	tx = &w.p->a.trace[10];
	rx = &w.p->b.trace[FN_TR + 3];
	CHECK(tx->valid && tx->msg_id == 4 && tx->t[EEL_ST_NIC_FETCH] == 0 && tx->t[EEL_ST_NIC_TX],
	      "chosen TX record: valid %u msg_id %u fetch %llu tx %llu", tx->valid, tx->msg_id,
	      (unsigned long long)tx->t[EEL_ST_NIC_FETCH], (unsigned long long)tx->t[EEL_ST_NIC_TX]);
	CHECK(rx->valid && rx->msg_id == 4 && rx->t[EEL_ST_NIC_RX] >= tx->t[EEL_ST_NIC_TX] && !rx->t[EEL_ST_DMA_START] &&
	      !rx->t[EEL_ST_DMA_DONE] && (rx->want & EEL_TRACE_STAMPS) == 1u << EEL_ST_NIC_RX,
	      "chosen RX record: valid %u msg_id %u want %#x rx %llu dma %llu..%llu", rx->valid, rx->msg_id, rx->want,
	      (unsigned long long)rx->t[EEL_ST_NIC_RX], (unsigned long long)rx->t[EEL_ST_DMA_START],
	      (unsigned long long)rx->t[EEL_ST_DMA_DONE]);
	CHECK_EQ_U(w.p->b.status.last_rx, 4 | (uint64_t)3 << 32 | EEL_FW_LAST_RX_TRACED);
	d = fn_put_desc(w.lkey, src, 8, w.rkey, dst + GUARD, EEL_FW_SQE_TRACE, 11, 0);
	d.trace = 11;
	d.stamps = (uint16_t)(EEL_TRACE_CHOSEN | 1u << EEL_ST_POST | 1u << EEL_ST_DOORBELL);
	fn_post(&w.p->a, &d);
	fn_settle(w.p, 1000);
	CHECK(w.p->a.trace[11].valid && !w.p->a.trace[11].t[EEL_ST_NIC_TX] && !w.p->b.trace[FN_TR + 4].valid,
	      "a put with no stamp at the receiver: TX valid %u tx %llu, RX record used %u", w.p->a.trace[11].valid,
	      (unsigned long long)w.p->a.trace[11].t[EEL_ST_NIC_TX], w.p->b.trace[FN_TR + 4].valid);
	CHECK_EQ_U(w.p->b.status.last_rx, 5);
	fn_pair_free(w.p);
}

/* Many puts in flight at once, in both directions: acknowledgements ride on
 * data packets, and a full window waits. */
static void test_both_ways(void)
{
	struct world w = world(256);
	uint32_t lkey_b = fn_mr(&w.p->b, 1, src, BUF + 2 * GUARD, EEL_FW_MR_LOCAL_READ);
	uint32_t rkey_a = fn_mr(&w.p->a, 2, dst, BUF + 2 * GUARD, EEL_FW_MR_REMOTE_WRITE);
	struct eel_fw_cqe e = { 0 };
	int na = 0, nb = 0;

	fill(src, BUF + 2 * GUARD, 11);
	memset(dst, 0xEE, BUF + 2 * GUARD);
	for (uint32_t i = 0; i < FN_SQ; i++) {
		struct eel_fw_sqe d = fn_put_desc(w.lkey, src + 4096 * i, 4096, w.rkey, dst + 4096 * i,
						  EEL_FW_SQE_SIGNALED, i, 0);

		CHECK(fn_post(&w.p->a, &d) == 0, "post a %u", i);
		d = fn_put_desc(lkey_b, src + 4096 * (FN_SQ + i), 4096, rkey_a, dst + 4096 * (FN_SQ + i),
				EEL_FW_SQE_SIGNALED, i, 0);
		CHECK(fn_post(&w.p->b, &d) == 0, "post b %u", i);
	}
	CHECK(fn_sq_full(&w.p->a) && fn_sq_full(&w.p->b), "the send queues are full");
	fn_settle(w.p, 10000);
	while (fn_poll(&w.p->a, &e))
		CHECK(e.status == EEL_FW_OK && e.wr_id == (uint64_t)na++, "a: CQE %d wr_id %llu status %u", na - 1,
		      (unsigned long long)e.wr_id, e.status);
	while (fn_poll(&w.p->b, &e))
		CHECK(e.status == EEL_FW_OK && e.wr_id == (uint64_t)nb++, "b: CQE %d wr_id %llu status %u", nb - 1,
		      (unsigned long long)e.wr_id, e.status);
	CHECK(na == (int)FN_SQ && nb == (int)FN_SQ, "completions: a %d, b %d", na, nb);
	CHECK(memcmp(dst, src, 2 * FN_SQ * 4096) == 0, "payloads");
	/* 16 packets per put: ACKs mostly ride on data */
	CHECK(fn_counter(&w.p->a, EEL_FW_CNT_ACKS_TX) < 16 * FN_SQ / 4, "a sent %llu explicit ACKs",
	      (unsigned long long)fn_counter(&w.p->a, EEL_FW_CNT_ACKS_TX));
	CHECK_EQ_U(fn_counter(&w.p->a, EEL_FW_CNT_RETRANSMITS) + fn_counter(&w.p->b, EEL_FW_CNT_RETRANSMITS), 0);
	fn_pair_free(w.p);
}

/* Steps until a's send queue count reaches want, at most max; the steps taken. */
static int steps_to_sq_cons(struct fn_pair *p, uint64_t want, int max)
{
	int i;

	for (i = 0; i < max && p->a.status.sq_cons < want; i++)
		fn_step(p);
	return i;
}

/* ACK coalescing (fw_send.c, IBTA Vol. 1 9.7.6.1). A flood of unsignalled
 * puts, two posted a step, many in flight: an ACK frame for some
 * FW_ACK_EVERY packets, not one for every packet or two. A put that asks
 * (signalled, or alone in flight) is acknowledged within a few steps. Two
 * unsignalled puts, neither alone, that nothing follows: their ACK waits
 * for the quiet wire, FW_QUIET_PASSES receive passes, and comes then. */
static void test_ack_coalescing(void)
{
	struct world w = world(1024);
	struct fn_pair *p = w.p;
	struct eel_fw_cqe e = { 0 };
	struct eel_fw_sqe d;
	uint32_t posted = 0;
	int steps;

	fill(src, 4096, 5);
	for (int step = 0; posted < 512 && step < 100000; step++) {
		for (int k = 0; k < 2 && posted < 512; k++) {
			d = fn_put_desc(w.lkey, src + 8 * (posted % 64), 8, w.rkey, dst + GUARD + 8 * (posted % 64),
					0, posted, 0);
			if (fn_post(&p->a, &d))
				break;
			posted++;
		}
		fn_step(p);
	}
	fn_settle(p, 100000);
	CHECK_EQ_U(posted, 512);
	CHECK_EQ_U(p->a.status.sq_cons, 512);
	CHECK(fn_counter(&p->b, EEL_FW_CNT_ACKS_TX) <= 512 / 8,
	      "512 puts, two a step: %llu ACK frames (coalesced: at most one in 8)",
	      (unsigned long long)fn_counter(&p->b, EEL_FW_CNT_ACKS_TX));
	CHECK_EQ_U(fn_counter(&p->a, EEL_FW_CNT_RETRANSMITS) + fn_counter(&p->a, EEL_FW_CNT_TIMEOUTS), 0);

	/* a signalled put: its completion within a few steps */
	d = fn_put_desc(w.lkey, src, 8, w.rkey, dst + GUARD, EEL_FW_SQE_SIGNALED, 1000, 0);
	fn_post(&p->a, &d);
	steps = steps_to_sq_cons(p, 513, 100);
	CHECK(steps <= 6 && fn_poll(&p->a, &e) && e.wr_id == 1000, "a signalled put: acknowledged after %d steps",
	      steps);
	/* an unsignalled put alone in flight: the same */
	d = fn_put_desc(w.lkey, src, 8, w.rkey, dst + GUARD, 0, 1001, 0);
	fn_post(&p->a, &d);
	steps = steps_to_sq_cons(p, 514, 100);
	CHECK(steps <= 6, "a put alone in flight: acknowledged after %d steps", steps);
	/* two unsignalled puts at once: the quiet wire's ACK, not sooner */
	d = fn_put_desc(w.lkey, src, 8, w.rkey, dst + GUARD, 0, 1002, 0);
	fn_post(&p->a, &d);
	d.wr_id = 1003;
	fn_post(&p->a, &d);
	steps = steps_to_sq_cons(p, 516, 10 * FW_QUIET_PASSES);
	CHECK(steps >= (int)FW_QUIET_PASSES && steps <= (int)FW_QUIET_PASSES + 6,
	      "two puts with nothing after them: acknowledged after %d steps (the quiet wire's %u passes)", steps,
	      FW_QUIET_PASSES);
	CHECK_EQ_U(fn_counter(&p->a, EEL_FW_CNT_RETRANSMITS) + fn_counter(&p->a, EEL_FW_CNT_TIMEOUTS), 0);
	fn_pair_free(p);
}

/* A put is alone in flight when the ACK of everything before it has come,
 * applied or not: a ping-pong's put goes out in the same pass that took in
 * the reply carrying that ACK, before it is applied (fw_acks_apply), and
 * asks for its own ACK (FW_PKT_ACKREQ), as the first put did. */
static void test_ack_request_alone(void)
{
	struct world w = world(1024);
	struct fn_pair *p = w.p;
	uint32_t lkey_b = fn_mr(&p->b, 1, src, BUF + 2 * GUARD, EEL_FW_MR_LOCAL_READ);
	uint32_t rkey_a = fn_mr(&p->a, 2, dst, BUF + 2 * GUARD, EEL_FW_MR_REMOTE_WRITE);
	struct eel_fw_sqe d;

	fill(src, 64, 9);
	d = fn_put_desc(w.lkey, src, 8, w.rkey, dst + GUARD, 0, 1, 0);
	fn_post(&p->a, &d);
	fw_step(&p->a.fw); /* the ping */
	CHECK(p->ab.n == 1 && (fn_hdr(&p->ab, 0).flags & FW_PKT_ACKREQ), "the first put, alone: no ACK request");
	fw_step(&p->b.fw); /* takes it in */
	d = fn_put_desc(lkey_b, src + 8, 8, rkey_a, dst + GUARD + 64, 0, 2, 0);
	fn_post(&p->b, &d);
	fw_step(&p->b.fw); /* the reply, carrying the ACK */
	CHECK(p->ba.n == 1 && fn_hdr(&p->ba, 0).op == FW_PKT_PUT && fn_hdr(&p->ba, 0).ack == 1,
	      "b's reply: %u frames, op %u, ack %u", p->ba.n, p->ba.n ? fn_hdr(&p->ba, 0).op : 0,
	      p->ba.n ? fn_hdr(&p->ba, 0).ack : 0);
	d = fn_put_desc(w.lkey, src + 16, 8, w.rkey, dst + GUARD + 8, 0, 3, 0);
	fn_post(&p->a, &d);
	fw_step(&p->a.fw); /* takes the reply in, sends the next ping */
	CHECK(p->ab.n == 1 && fn_hdr(&p->ab, 0).psn == 1 && (fn_hdr(&p->ab, 0).flags & FW_PKT_ACKREQ),
	      "the next put, alone once the reply's ACK is counted: %u frames, flags 0x%x", p->ab.n,
	      p->ab.n ? fn_hdr(&p->ab, 0).flags : 0);
	fn_settle(p, 1000);
	CHECK_EQ_U(p->a.status.sq_cons, 2);
	CHECK_EQ_U(p->b.status.sq_cons, 1);
	fn_pair_free(p);
}

/* A NIC not enabled does nothing; a bad layout fails it with BAD_DESC. */
static void test_bring_up(void)
{
	struct fn_config c = fn_defaults();
	struct fn_pair *p = fn_pair_new(&c);

	CHECK_EQ_U(p->a.bar.abi, EEL_FW_ABI_VERSION);
	p->a.bar.ctrl = 0;
	CHECK(!fw_step(&p->a.fw), "a disabled NIC worked");
	p->a.bar.sq_size = 48; /* not a power of two */
	p->a.bar.ctrl = EEL_FW_CTRL_ENABLE | EEL_FW_CTRL_LINK;
	fw_step(&p->a.fw);
	CHECK_EQ_U(p->a.status.error, EEL_FW_ERR_BAD_DESC);
	fn_pair_free(p);

	p = fn_pair_new(&c);
	p->b.bar.mtu = EEL_FW_MTU_MAX + 1;
	fw_step(&p->b.fw);
	CHECK_EQ_U(p->b.status.error, EEL_FW_ERR_BAD_DESC);
	fn_pair_free(p);
}

/* Reads in flight across a message boundary: with reads that take time
 * (rd_ticks), the doorbell's pass does not hold an inline host until its
 * put of many packets has gone (fw_send.c: a payload not in yet is not
 * waited for), so the host rings its next put while the first streams, and
 * the next message's first payload read is issued before the first
 * message's last packet is sent, as a NIC's DMA engine keeps reading
 * across messages. */
static void test_reads_across_messages(void)
{
	struct world w = world(256);
	struct fn_nic *a = &w.p->a;
	struct eel_fw_sqe d1 = fn_put_desc(w.lkey, src, 4096, w.rkey, dst, 0, 1, 0);
	struct eel_fw_sqe d2 = fn_put_desc(w.lkey, src + 8192, 4096, w.rkey, dst + 8192, EEL_FW_SQE_SIGNALED, 2, 0);
	struct eel_fw_cqe e = { 0 };
	int got = 0;

	fill(src, BUF + 2 * GUARD, 9);
	a->rd_ticks = 4;
	a->rd_watch = (uintptr_t)src + 8192;
	CHECK(fn_post(a, &d1) == 0, "post");
	fw_doorbell(&a->fw);
	CHECK(fn_counter(a, EEL_FW_CNT_TX_PKTS) < 16, "the doorbell's pass sent all %llu packets of the first put",
	      (unsigned long long)fn_counter(a, EEL_FW_CNT_TX_PKTS));
	CHECK(fn_post(a, &d2) == 0, "post");
	fw_doorbell(&a->fw);
	for (int i = 0; i < 20000 && !got; i++) {
		fn_step(w.p);
		got = fn_poll(a, &e);
	}
	CHECK(got && e.status == EEL_FW_OK && e.wr_id == 2, "no completion of the second put");
	CHECK(a->rd_watch_tx && a->rd_watch_tx - 1 < 16,
	      "the second put's first payload read went after %llu packets: not before the first put's last",
	      (unsigned long long)(a->rd_watch_tx ? a->rd_watch_tx - 1 : 0));
	CHECK(memcmp(dst, src, 4096) == 0 && memcmp(dst + 8192, src + 8192, 4096) == 0, "payload differs");
	CHECK_EQ_U(fn_counter(a, EEL_FW_CNT_TX_PKTS), 32);
	CHECK_EQ_U(a->dma_violations, 0);
	CHECK_EQ_U(a->rd_out, 0);
	fn_pair_free(w.p);
}

int main(void)
{
	src = malloc(BUF + 2 * GUARD);
	dst = malloc(BUF + 2 * GUARD);
	if (!src || !dst)
		return 2;
	test_sizes();
	test_inline();
	test_cq_wrap();
	test_notify();
	test_trace();
	test_both_ways();
	test_bring_up();
	test_ack_coalescing();
	test_ack_request_alone();
	test_reads_across_messages();
	free(src);
	free(dst);
	CHECK_DONE();
}
