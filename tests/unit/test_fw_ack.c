/* SPDX-License-Identifier: MIT */
/* tests/unit/test_fw_ack.c — the sender's ACKs: the light path for an ACK
 * that retires exactly the oldest message, of one packet (firmware/fw_ack.h,
 * fw_ack_oldest), and the ACKs it must leave to the general path (fw_on_ack),
 * which still retire what they cover, no more and no less: an ACK of two
 * messages at once, an ACK of a multi-packet message's first packet only, an
 * ACK while a resend is marked, during a timeout's F-RTO round, or after a
 * timeout went back. Two firmwares on a fake HAL (fakenic.h). */
#include "check.h"
#include "fakenic.h"
#include "firmware/fw_ack.h"
#include "firmware/fw_send.h"

#define LEN 4096u

static uint8_t src[LEN], dst[LEN];

struct world {
	struct fn_pair *p;
	uint32_t lkey, rkey;
};

static struct world world(void)
{
	struct fn_config c = fn_defaults(); /* mtu 256 */
	struct world w;

	w.p = fn_pair_new(&c);
	w.lkey = fn_mr(&w.p->a, 1, src, LEN, EEL_FW_MR_LOCAL_READ);
	w.rkey = fn_mr(&w.p->b, 2, dst, LEN, EEL_FW_MR_REMOTE_WRITE);
	for (uint32_t i = 0; i < LEN; i++)
		src[i] = (uint8_t)(i * 7 + 1);
	memset(dst, 0, LEN);
	return w;
}

static void put(struct world *w, uint32_t off, uint32_t len)
{
	struct eel_fw_sqe d = fn_put_desc(w->lkey, src + off, len, w->rkey, dst + off, 0, off, 0);

	CHECK(fn_post(&w->p->a, &d) == 0, "the send queue is full");
}

/* Everything a sent was retired once: its SQ slots back, its messages
 * counted, nothing left in flight or timed. */
static void all_retired(const char *what, struct world *w, uint64_t msgs)
{
	const struct fw *f = &w->p->a.fw;

	CHECK_EQ_U(w->p->a.status.sq_cons, msgs);
	CHECK_EQ_U(fn_counter(&w->p->a, EEL_FW_CNT_TX_MSGS), msgs);
	CHECK(f->msg_head == f->msg_tail, "%s: %u messages still in flight", what, f->msg_tail - f->msg_head);
	CHECK(f->snd_una == f->snd_max && f->snd_max == f->psn_next,
	      "%s: snd_una %u, snd_max %u, psn_next %u", what, f->snd_una, f->snd_max, f->psn_next);
	CHECK(!f->rto_deadline, "%s: the timer still runs with nothing in flight", what);
}

/* A ping-pong's ACKs, each of one put alone in flight: the light path. */
static void test_one_at_a_time(void)
{
	struct world w = world();

	for (uint32_t i = 0; i < 8; i++) {
		put(&w, i * 8, 8);
		fn_settle(w.p, 2000);
		CHECK_EQ_U(w.p->a.status.sq_cons, i + 1);
		CHECK(!memcmp(dst + i * 8, src + i * 8, 8), "put %u did not land", i);
	}
	all_retired("one at a time", &w, 8);
	fn_pair_free(w.p);
}

/* A ping-pong put's ACK received, then a send pass: it ends by applying it
 * on the light path (fw_send.c send_after, fw_acks_apply_light), the put
 * retired and the ACK no longer marked new (else the next pass would take it
 * again, to fw_on_ack). */
static void test_applied_at_send_pass(void)
{
	struct world w = world();
	struct fw *f = &w.p->a.fw;

	put(&w, 0, 8);
	fw_doorbell(f);
	fw_step(&w.p->b.fw);
	fw_step(&w.p->b.fw); /* the ACK it asked for, a pass later */
	fw_receive(f);
	CHECK(f->ack_in_new && f->msg_head != f->msg_tail, "no ACK waiting");
	fw_send(f);
	CHECK(!f->ack_in_new, "the ACK applied, still marked new");
	CHECK(f->msg_head == f->msg_tail && f->snd_una == f->snd_max, "the put not retired: %u in flight",
	      f->msg_tail - f->msg_head);
	fn_pair_free(w.p);
}

/* One ACK for two one-packet messages (the receiver coalesces them): not
 * the oldest alone; the general path retires both. */
static void test_two_at_once(void)
{
	struct world w = world();
	uint32_t first = w.p->a.fw.psn_next;

	put(&w, 0, 8);
	put(&w, 8, 8);
	fw_step(&w.p->a.fw); /* both fetched and sent in one pass */
	CHECK_EQ_U(w.p->ab.n, 2);
	fw_ack_in(&w.p->a.fw, first + 2);
	fw_acks_apply(&w.p->a.fw);
	CHECK_EQ_U(w.p->a.status.sq_cons, 2);
	CHECK_EQ_U(w.p->a.fw.snd_una, first + 2);
	fn_settle(w.p, 5000);
	all_retired("two at once", &w, 2);
	CHECK(!memcmp(dst, src, 16), "the two puts did not land");
	fn_pair_free(w.p);
}

/* An ACK of the first packet of a three-packet message moves snd_una on
 * and retires nothing; the rest of the message's ACK retires it. */
static void test_part_of_one(void)
{
	struct world w = world();
	uint32_t first = w.p->a.fw.psn_next;

	put(&w, 0, 600); /* 256 + 256 + 88 */
	fw_step(&w.p->a.fw);
	CHECK_EQ_U(w.p->ab.n, 3);
	fw_ack_in(&w.p->a.fw, first + 1);
	fw_acks_apply(&w.p->a.fw);
	CHECK_EQ_U(w.p->a.status.sq_cons, 0);
	CHECK_EQ_U(w.p->a.fw.snd_una, first + 1);
	CHECK_EQ_U(w.p->a.fw.msg_tail - w.p->a.fw.msg_head, 1);
	fn_settle(w.p, 5000);
	all_retired("part of one", &w, 1);
	CHECK(!memcmp(dst, src, 600), "the 600-byte put did not land");
	fn_pair_free(w.p);
}

/* An ACK of the oldest message while it is marked for resending (a
 * NAK(MISSING) came first): the general path takes the mark off. */
static void test_marked_for_resend(void)
{
	struct world w = world();
	struct fw *f = &w.p->a.fw;
	uint32_t first = f->psn_next;
	struct fw_pkt nak = { .op = FW_PKT_NAK, .syndrome = FW_NAK_MISSING, .psn = first, .mlen = 1 };

	put(&w, 0, 8);
	put(&w, 8, 8);
	fw_step(f);
	nak.tx_seq = f->tx_seq_of[first & (FW_WINDOW - 1)];
	fw_on_nak_seq(f, &nak);
	REQUIRE(f->resends == 1 && fw_resend_bit(f, first), "the NAK marked nothing to resend");
	fw_ack_in(f, first + 1);
	fw_acks_apply(f);
	CHECK_EQ_U(f->resends, 0);
	CHECK(!fw_resend_bit(f, first), "PSN %u is acknowledged and still marked to resend", first);
	CHECK_EQ_U(w.p->a.status.sq_cons, 1);
	fn_settle(w.p, 5000);
	all_retired("marked for resend", &w, 2);
	CHECK(!memcmp(dst, src, 16), "the two puts did not land");
	fn_pair_free(w.p);
}

/* Step a alone until its retransmission timer has run out once more. */
static void a_until_timeout(struct world *w)
{
	uint64_t t = fn_counter(&w->p->a, EEL_FW_CNT_TIMEOUTS);

	w->p->now += 1000; /* past the timeout */
	for (int i = 0; i < 100 && fn_counter(&w->p->a, EEL_FW_CNT_TIMEOUTS) == t; i++)
		fw_step(&w->p->a.fw);
	CHECK_EQ_U(fn_counter(&w->p->a, EEL_FW_CNT_TIMEOUTS), t + 1);
}

/* Both packets of two puts lost; the timeout resends the oldest alone
 * (F-RTO, RFC 5682) and its ACK, of it alone, says the other was lost too:
 * the general path goes back and resends it at once, not at a second
 * timeout. */
static void test_frto_round(void)
{
	struct world w = world();

	put(&w, 0, 8);
	put(&w, 8, 8);
	fw_step(&w.p->a.fw);
	REQUIRE(w.p->ab.n == 2, "%u frames sent, not 2", w.p->ab.n);
	fn_drop(&w.p->ab, 0);
	fn_drop(&w.p->ab, 0);
	a_until_timeout(&w);
	REQUIRE(w.p->a.fw.frto == 1, "the timeout started no F-RTO round");
	fn_settle(w.p, 60); /* less than a second timeout (rto 100 ticks, backed off) */
	CHECK_EQ_U(fn_counter(&w.p->a, EEL_FW_CNT_TIMEOUTS), 1);
	fn_settle(w.p, 5000);
	all_retired("F-RTO round", &w, 2);
	CHECK_EQ_U(fn_counter(&w.p->a, EEL_FW_CNT_TIMEOUTS), 1);
	CHECK(!memcmp(dst, src, 16), "the two puts did not land");
	fn_pair_free(w.p);
}

/* A put's ACK arriving after a timeout went back to it, before the resend
 * went: the general path moves snd_nxt past it, and nothing is sent from
 * a retired message. */
static void test_after_go_back(void)
{
	struct world w = world();
	struct fw *f = &w.p->a.fw;
	uint32_t first = f->psn_next;

	put(&w, 0, 8);
	fw_step(f);
	a_until_timeout(&w);
	REQUIRE(f->snd_nxt == first, "the timeout did not go back to PSN %u (snd_nxt %u)", first, f->snd_nxt);
	fw_ack_in(f, first + 1);
	fw_acks_apply(f);
	CHECK_EQ_U(f->snd_nxt, first + 1);
	all_retired("after a go-back", &w, 1);
	fn_settle(w.p, 5000);
	all_retired("after a go-back, settled", &w, 1);
	CHECK_EQ_U(fn_counter(&w.p->b, EEL_FW_CNT_BAD), 0);
	fn_pair_free(w.p);
}

int main(void)
{
	test_one_at_a_time();
	test_applied_at_send_pass();
	test_two_at_once();
	test_part_of_one();
	test_marked_for_resend();
	test_frto_round();
	test_after_go_back();
	CHECK_DONE();
}
