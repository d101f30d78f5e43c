/* SPDX-License-Identifier: MIT */
/* tests/unit/test_fw_faults.c — the reliability protocol, one fault at a time,
 * on a wire the test controls frame by frame (fakenic.h): a dropped data
 * frame (recovered by NAK when a later one arrives, by the timer when none
 * does), a timeout with nothing lost (a receiver that did not run), a
 * dropped ACK and when its repeat goes, a duplicate, two frames swapped, a
 * frame delayed past its successors, and a flipped bit in every header
 * position.
 *
 * Go-back-N as firmware/pkt.h states it: the receiver takes only the next
 * PSN, so every put lands exactly once and in order, whatever the wire did.
 */
#include "check.h"
#include "fn_puts.h"

#define MSG 100u

static uint8_t src[64 * MSG], dst[64 * MSG + 256];

struct world {
	struct fn_pair *p;
	uint32_t lkey, rkey;
};

static struct world world(void)
{
	struct fn_config c = fn_defaults();
	struct world w;

	w.p = fn_pair_new(&c);
	fn_puts_regions(w.p, src, sizeof(src), dst, sizeof(dst), &w.lkey, &w.rkey);
	return w;
}

/* n NOTIFY puts of MSG bytes, put k carrying imm k to its own place. */
static void post(struct world *w, uint32_t n)
{
	fn_puts_post(w->p, w->lkey, src, w->rkey, dst, n, MSG);
}

/* Let everything settle, letting timers fire: returns when both ends are
 * idle and a's puts are all acknowledged. */
static void settle(struct world *w)
{
	for (int round = 0; round < 20; round++) {
		fn_settle(w->p, 5000);
		if (w->p->a.status.sq_cons == w->p->a.sq_prod)
			return;
		w->p->now += w->p->a.fw.rto << FW_RTO_BACKOFF;
	}
}

/* The first of three is lost: the second arrives out of order, the receiver
 * NAKs, the sender goes back — no timer needed. The third, past the same
 * gap, NAKs again (in case the first NAK was lost); that NAK came from a
 * transmission older than the resend, so the sender ignores it. After the
 * resends the last PSN goes FW_REPEATS times more (the probe), duplicates. */
static void test_drop_nak(void)
{
	struct world w = world();

	post(&w, 3);
	fw_step(&w.p->a.fw);
	CHECK_EQ_U(w.p->ab.n, 3);
	fn_drop(&w.p->ab, 0);
	fn_settle(w.p, 50); /* well inside the RTO (100 ticks) */
	fn_delivered(w.p, src, dst, 3, MSG, "drop + NAK");
	CHECK_EQ_U(fn_counter(&w.p->b, EEL_FW_CNT_OOO), 2);
	CHECK_EQ_U(fn_counter(&w.p->b, EEL_FW_CNT_NAKS_TX), 2);
	CHECK_EQ_U(fn_counter(&w.p->a, EEL_FW_CNT_NAKS_RX), 2);
	CHECK_EQ_U(fn_counter(&w.p->a, EEL_FW_CNT_RETRANSMITS), 3 + FW_REPEATS);
	CHECK_EQ_U(fn_counter(&w.p->a, EEL_FW_CNT_TIMEOUTS), 0);
	CHECK_EQ_U(fn_counter(&w.p->b, EEL_FW_CNT_DUPS), FW_REPEATS);
	fn_pair_free(w.p);
}

/* The only frame is lost: nothing follows it, so only the timer helps. */
static void test_drop_timeout(void)
{
	struct world w = world();
	uint64_t t0 = w.p->now;

	post(&w, 1);
	fw_step(&w.p->a.fw);
	fn_drop(&w.p->ab, 0);
	while (w.p->now < t0 + w.p->a.fw.rto - 1)
		fn_step(w.p);
	CHECK_EQ_U(fn_counter(&w.p->b, EEL_FW_CNT_RX_PKTS), 0);
	CHECK_EQ_U(fn_counter(&w.p->a, EEL_FW_CNT_TIMEOUTS), 0);
	/* the timer's clock is read once in FW_TIMER_PASSES passes */
	for (uint32_t i = 0; i < FW_TIMER_PASSES + 1; i++)
		fn_step(w.p);
	CHECK_EQ_U(fn_counter(&w.p->a, EEL_FW_CNT_TIMEOUTS), 1);
	fn_settle(w.p, 50);
	fn_delivered(w.p, src, dst, 1, MSG, "drop + timeout");
	CHECK_EQ_U(fn_counter(&w.p->a, EEL_FW_CNT_RETRANSMITS), 1);
	fn_pair_free(w.p);
}

/* Nothing is lost, but the receiver does not run for longer than the
 * timeout (its process descheduled): the sender's timer resends the oldest
 * PSN alone, and the next ACK, which covers all four, shows the timeout was
 * spurious: nothing more goes again (F-RTO, RFC 5682; it went back over the
 * four before). Then a real loss of the last two of four, past the
 * timeout: the resend of the oldest is acknowledged alone, and the sender
 * goes back for the rest. */
static void test_spurious_timeout(void)
{
	struct world w = world();
	uint64_t t0 = w.p->now;

	post(&w, 4);
	while (w.p->now < t0 + w.p->a.fw.rto + 2 * FW_TIMER_PASSES) {
		fw_step(&w.p->a.fw); /* b asleep */
		w.p->now++;
	}
	CHECK_EQ_U(fn_counter(&w.p->a, EEL_FW_CNT_TIMEOUTS), 1);
	CHECK_EQ_U(fn_counter(&w.p->a, EEL_FW_CNT_RETRANSMITS), 1);
	settle(&w);
	fn_delivered(w.p, src, dst, 4, MSG, "a spurious timeout");
	CHECK_EQ_U(fn_counter(&w.p->a, EEL_FW_CNT_RETRANSMITS), 1);
	CHECK_EQ_U(fn_counter(&w.p->b, EEL_FW_CNT_DUPS), 1);
	CHECK_EQ_U(fn_counter(&w.p->a, EEL_FW_CNT_TIMEOUTS), 1);
	fn_pair_free(w.p);

	w = world();
	t0 = w.p->now;
	post(&w, 4);
	fw_step(&w.p->a.fw);
	CHECK_EQ_U(w.p->ab.n, 4);
	fn_drop(&w.p->ab, 3);
	fn_drop(&w.p->ab, 2);
	fn_settle(w.p, 50); /* the first two arrive; nothing shows the tail lost */
	CHECK_EQ_U(fn_counter(&w.p->b, EEL_FW_CNT_RX_MSGS), 2);
	settle(&w);
	fn_delivered(w.p, src, dst, 4, MSG, "a lost tail of two");
	CHECK_EQ_U(fn_counter(&w.p->a, EEL_FW_CNT_TIMEOUTS), 1);
	CHECK(fn_counter(&w.p->a, EEL_FW_CNT_RETRANSMITS) >= 2, "the tail of two resent: %llu",
	      (unsigned long long)fn_counter(&w.p->a, EEL_FW_CNT_RETRANSMITS));
	fn_pair_free(w.p);
}

/* The receiver's ACK, sent alone, is lost (copies = 1): it goes again when
 * the wire stays quiet (at the second read of the clock after it, rto >>
 * FW_ACK_AGAIN_SHIFT later at the least: fw_recv.c), and the sender needs no timer. Every copy lost
 * (copies = 1 + FW_REPEATS): the sender's timer resends, the receiver sees a
 * duplicate, takes nothing, and ACKs at once. */
static void test_drop_ack(int copies)
{
	struct world w = world();
	int dropped = 0;

	post(&w, 1);
	for (int i = 0; i < 40 + 2 * (int)(FW_REPEATS * FW_TIMER_PASSES) && dropped < copies; i++) {
		fn_step(w.p);
		if (w.p->ba.n) {
			CHECK(fn_hdr(&w.p->ba, 0).op == FW_PKT_ACK && fn_hdr(&w.p->ba, 0).ack == 1, "not an ACK of 1");
			fn_drop(&w.p->ba, 0);
			dropped++;
		}
	}
	int all = copies > (int)FW_REPEATS;

	CHECK_EQ_U(dropped, copies);
	fn_settle(w.p, 50); /* well inside the RTO (100 ticks) */
	CHECK_EQ_U(w.p->a.status.sq_cons, !all);
	settle(&w);
	fn_delivered(w.p, src, dst, 1, MSG, all ? "every copy of the ACK lost" : "lost ACK");
	CHECK_EQ_U(fn_counter(&w.p->b, EEL_FW_CNT_DUPS), all);
	CHECK_EQ_U(fn_counter(&w.p->a, EEL_FW_CNT_TIMEOUTS), all);
	fn_pair_free(w.p);
}

/* A lone ACK's repeat waits for the wire to stay quiet rto >>
 * FW_ACK_AGAIN_SHIFT (here 100 ticks of 25600): not a pass later, when a
 * sender at queue depth 1 would still be sending its next put. Lost once,
 * it comes then, well inside the timeout. */
static void test_ack_repeat_spacing(void)
{
	struct fn_config c = fn_defaults();
	struct world w;
	int dropped = 0, i;

	c.rto = 25600;
	w.p = fn_pair_new(&c);
	fn_puts_regions(w.p, src, sizeof(src), dst, sizeof(dst), &w.lkey, &w.rkey);
	post(&w, 1);
	for (i = 0; i < 40 && !dropped; i++) {
		fn_step(w.p);
		if (w.p->ba.n) {
			CHECK(fn_hdr(&w.p->ba, 0).op == FW_PKT_ACK, "not an ACK");
			fn_drop(&w.p->ba, 0);
			dropped = 1;
		}
	}
	CHECK(dropped, "no lone ACK");
	for (i = 0; i < (int)(c.rto >> FW_ACK_AGAIN_SHIFT) - 2 * (int)FW_TIMER_PASSES; i++) {
		fn_step(w.p);
		CHECK(w.p->ba.n == 0, "a repeat %d passes after the ACK, before rto >> %u", i, FW_ACK_AGAIN_SHIFT);
	}
	CHECK_EQ_U(w.p->a.status.sq_cons, 0);
	for (i = 0; i < (int)(c.rto >> FW_ACK_AGAIN_SHIFT) + 4 * (int)FW_TIMER_PASSES && !w.p->a.status.sq_cons; i++)
		fn_step(w.p);
	CHECK_EQ_U(w.p->a.status.sq_cons, 1);
	CHECK_EQ_U(fn_counter(&w.p->a, EEL_FW_CNT_TIMEOUTS), 0);
	fn_pair_free(w.p);
}

/* A duplicated data frame is counted and dropped. */
static void test_dup(void)
{
	struct world w = world();

	post(&w, 2);
	fw_step(&w.p->a.fw);
	fn_dup(&w.p->ab, 0);
	fn_dup(&w.p->ab, 2);
	CHECK_EQ_U(w.p->ab.n, 4);
	settle(&w);
	fn_delivered(w.p, src, dst, 2, MSG, "duplicates");
	CHECK_EQ_U(fn_counter(&w.p->b, EEL_FW_CNT_DUPS), 2);
	CHECK_EQ_U(fn_counter(&w.p->a, EEL_FW_CNT_RETRANSMITS), 0);
	fn_pair_free(w.p);
}

/* Two frames swapped: the later one is dropped as out of order and NAKed,
 * then both land in order. */
static void test_swap(void)
{
	struct world w = world();

	post(&w, 2);
	fw_step(&w.p->a.fw);
	fn_swap(&w.p->ab, 0, 1);
	CHECK_EQ_U(fn_hdr(&w.p->ab, 0).psn, 1);
	settle(&w);
	fn_delivered(w.p, src, dst, 2, MSG, "swapped");
	CHECK_EQ_U(fn_counter(&w.p->b, EEL_FW_CNT_OOO), 1);
	CHECK_EQ_U(fn_counter(&w.p->b, EEL_FW_CNT_NAKS_TX), 1);
	fn_pair_free(w.p);
}

/* One frame held back past its successors and past the resend they cause:
 * when it finally arrives it is a duplicate. */
static void test_delay(void)
{
	struct world w = world();

	post(&w, 4);
	fw_step(&w.p->a.fw);
	fn_delay(&w.p->ab, 1, w.p->now + 30);
	settle(&w);
	while (w.p->ab.n)
		fn_step(w.p);
	fn_settle(w.p, 50);
	fn_delivered(w.p, src, dst, 4, MSG, "delayed");
	CHECK(fn_counter(&w.p->b, EEL_FW_CNT_OOO) >= 2, "OOO %llu",
	      (unsigned long long)fn_counter(&w.p->b, EEL_FW_CNT_OOO));
	CHECK(fn_counter(&w.p->b, EEL_FW_CNT_DUPS) >= 1, "the late frame was not a duplicate");
	fn_pair_free(w.p);
}

/* A data frame with one bit flipped, for every bit of the header. There is
 * no CRC at this level (the carrier's FCS or wire_faults.c's CRC drops a
 * damaged frame before the firmware sees it, firmware/hal.h), so this shows
 * which damage the firmware itself catches:
 *   magic, op, len         fw_pkt_parse rejects the frame (BAD); resent, exactly once;
 *   psn                    taken as out of order: NAK, resent, exactly once;
 *   everything else        not detectable here — the frame is believed: a
 *                          changed rkey, raddr or mlen is refused (the
 *                          connection fails), a changed imm, msg_id or flag
 *                          is delivered as such.
 * What must hold for every bit: no DMA outside registered memory, and never
 * a second delivery. */
static void test_corrupt_header(void)
{
	unsigned rejected = 0, resent = 0, failed = 0, believed = 0;

	for (uint32_t bit = 0; bit < 8 * FW_PKT_HDR; bit++) {
		uint32_t byte = bit / 8;
		int parsed_field = byte < 2 || byte == 28 || byte == 29; /* magic, op, len */
		int psn_field = byte >= 4 && byte < 8;
		struct world w = world();
		struct eel_fw_cqe e = { 0 };
		uint32_t notes = 0;

		post(&w, 1);
		fw_step(&w.p->a.fw);
		fn_flip(&w.p->ab, 0, bit);
		settle(&w);
		while (fn_poll(&w.p->b, &e))
			notes++;
		CHECK(notes <= 1 && fn_counter(&w.p->b, EEL_FW_CNT_RX_MSGS) <= 1,
		      "bit %u: delivered twice (%u NOTIFY, %llu messages)", bit, notes,
		      (unsigned long long)fn_counter(&w.p->b, EEL_FW_CNT_RX_MSGS));
		CHECK_EQ_U(w.p->a.dma_violations + w.p->b.dma_violations, 0);
		if (fn_counter(&w.p->b, EEL_FW_CNT_BAD))
			rejected++;
		else if (w.p->a.status.error)
			failed++;
		if (parsed_field || psn_field) {
			int once = notes == 1 && e.imm == 0 && memcmp(dst, src, MSG) == 0 &&
				   fn_counter(&w.p->a, EEL_FW_CNT_RETRANSMITS) >= 1;

			CHECK(once, "bit %u: not recovered (NOTIFY %u imm %u, retransmits %llu)", bit, notes, e.imm,
			      (unsigned long long)fn_counter(&w.p->a, EEL_FW_CNT_RETRANSMITS));
			if (parsed_field)
				CHECK(fn_counter(&w.p->b, EEL_FW_CNT_BAD) == 1, "bit %u (byte %u) not rejected", bit, byte);
			resent += once;
		} else if (!fn_counter(&w.p->b, EEL_FW_CNT_BAD) && !w.p->a.status.error) {
			believed++;
		}
		fn_pair_free(w.p);
	}
	printf("header bit flips: %u rejected by fw_pkt_parse, %u recovered by a resend, %u failed the "
	       "connection, %u believed\n", rejected, resent, failed, believed);
}

int main(void)
{
	test_drop_nak();
	test_drop_timeout();
	test_spurious_timeout();
	test_drop_ack(1);
	test_drop_ack(1 + FW_REPEATS);
	test_ack_repeat_spacing();
	test_dup();
	test_swap();
	test_delay();
	test_corrupt_header();
	CHECK_DONE();
}
