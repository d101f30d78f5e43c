/* SPDX-License-Identifier: MIT */
/* tests/unit/test_fw_rto.c — the adaptive retransmission timer
 * (firmware/fw_rto.c): RFC 6298's rules in the firmware's integer
 * arithmetic, and on a fake pair of NICs a timer that follows the path's RTT
 * down to its floor, where the old fixed timer stayed at the initial value. */
#include <string.h>

#include "check.h"
#include "fakenic.h"
#include "fn_puts.h"
#include "firmware/fw_rto.h"

#define MSG 64u
static uint8_t src[4 * MSG], dst[4 * MSG];
static struct fw f;

static void fresh(uint64_t rto, uint64_t rto_min)
{
	memset(&f, 0, sizeof(f));
	f.rto = rto;
	f.rto_min = rto_min;
	fw_rto_init(&f);
}

/* §2.1: before any sample, the initial value; §2.2: the first sample R gives
 * SRTT = R, RTTVAR = R/2, RTO = SRTT + 4 RTTVAR = 3R. */
static void test_first_sample(void)
{
	fresh(4000, 1);
	CHECK_EQ_U(f.rto_cur, 4000);
	fw_rto_sample(&f, 100);
	CHECK_EQ_U(f.srtt8 >> 3, 100);
	CHECK_EQ_U(f.rttvar4 >> 2, 50);
	CHECK_EQ_U(f.rto_cur, 300);
}

/* §2.3: RTTVAR = 3/4 RTTVAR + 1/4 |SRTT - R'| with the old SRTT, then
 * SRTT = 7/8 SRTT + 1/8 R'. From SRTT 100, RTTVAR 50, R' = 180: RTTVAR
 * 37.5 + 20 = 57.5, SRTT 87.5 + 22.5 = 110, RTO 110 + 230 = 340. Then a
 * steady R' = SRTT: RTTVAR decays by 3/4 a sample, RTO towards SRTT + G. */
static void test_later_samples(void)
{
	fresh(4000, 1);
	fw_rto_sample(&f, 100);
	fw_rto_sample(&f, 180);
	CHECK_EQ_U(f.srtt8, 880);   /* 110 x 8 */
	CHECK_EQ_U(f.rttvar4, 230); /* 57.5 x 4 */
	CHECK_EQ_U(f.rto_cur, 340);
	for (int i = 0; i < 60; i++)
		fw_rto_sample(&f, 110);
	CHECK(f.rto_cur >= 110 && f.rto_cur <= 114, "steady RTT 110: RTO %llu, SRTT + G", (unsigned long long)f.rto_cur);
}

/* §2.4: the floor; §2.5: the ceiling (the initial value x 2^FW_RTO_BACKOFF). */
static void test_floor_ceiling(void)
{
	fresh(4000, 1000);
	fw_rto_sample(&f, 10);
	CHECK_EQ_U(f.rto_cur, 1000);
	fresh(4000, 1);
	fw_rto_sample(&f, 1000000);
	CHECK_EQ_U(f.rto_cur, 4000u << FW_RTO_BACKOFF);
}

/* §5.5: each expiry doubles RTO, up to the ceiling; an ACK of new data ends
 * the backoff (the RTO from SRTT and RTTVAR again). */
static void test_backoff(void)
{
	fresh(4000, 1);
	fw_rto_sample(&f, 100);
	fw_rto_backoff(&f);
	CHECK_EQ_U(f.rto_cur, 600);
	fw_rto_backoff(&f);
	CHECK_EQ_U(f.rto_cur, 1200);
	for (int i = 0; i < 10; i++)
		fw_rto_backoff(&f);
	CHECK_EQ_U(f.rto_cur, 4000u << FW_RTO_BACKOFF);
	f.rtt_on = 0;
	fw_rto_acked(&f, 1);
	CHECK_EQ_U(f.rto_cur, 300);
}

/* §3, Karn's rule: the ACK of a PSN sent again gives no sample. */
static void test_karn(void)
{
	struct fn_config c = fn_defaults();
	struct fn_pair *p;
	uint32_t lkey, rkey;

	c.rto = 1000;
	c.rto_min = 1;
	p = fn_pair_new(&c);
	fn_puts_regions(p, src, sizeof(src), dst, sizeof(dst), &lkey, &rkey);
	fn_puts_post(p, lkey, src, rkey, dst, 1, MSG);
	fw_step(&p->a.fw);
	CHECK(p->a.fw.rtt_on, "the first transmission is timed");
	fn_drop(&p->ab, 0);
	for (int i = 0; i < 3000 && !fn_counter(&p->a, EEL_FW_CNT_TIMEOUTS); i++)
		fn_step(p); /* the timer resends it; its ACK is ambiguous */
	fn_settle(p, 200);
	fn_delivered(p, src, dst, 1, MSG, "a timeout's resend");
	CHECK_EQ_U(fn_counter(&p->a, EEL_FW_CNT_TIMEOUTS), 1);
	CHECK_EQ_U(p->a.fw.srtt8, 0); /* no sample */
	CHECK_EQ_U(p->a.fw.rto_cur, 1000); /* the backoff ended, back to the initial value (§2.1) */
	fn_pair_free(p);
}

/* On a fake wire whose RTT is a few ticks, after a clean put a lost one is
 * resent by the timer well before the initial RTO: the old fixed timer
 * waited the whole initial value. */
static void test_follows_path(void)
{
	struct fn_config c = fn_defaults();
	struct fn_pair *p;
	uint32_t lkey, rkey;
	uint64_t t0;

	c.rto = 1000;
	c.rto_min = 1;
	p = fn_pair_new(&c);
	fn_puts_regions(p, src, sizeof(src), dst, sizeof(dst), &lkey, &rkey);
	fn_puts_post(p, lkey, src, rkey, dst, 1, MSG);
	fn_settle(p, 200);
	CHECK(p->a.fw.srtt8 != 0, "a clean put gave an RTT sample");
	CHECK(p->a.fw.rto_cur < 100, "RTO %llu after an RTT of %llu ticks", (unsigned long long)p->a.fw.rto_cur,
	      (unsigned long long)(p->a.fw.srtt8 >> 3));
	fn_puts_post(p, lkey, src + MSG, rkey, dst + MSG, 1, MSG);
	fw_step(&p->a.fw);
	fn_drop(&p->ab, 0);
	t0 = p->now;
	while (!fn_counter(&p->a, EEL_FW_CNT_TIMEOUTS) && p->now < t0 + 1000)
		fn_step(p);
	CHECK(p->now - t0 < 200, "the timer fired %llu ticks after the loss, initial RTO 1000",
	      (unsigned long long)(p->now - t0));
	fn_pair_free(p);
}

/* A host that ran its NIC's receive half, then lost its core past the
 * deadline (a pass of the send half alone, fw_doorbell, as the inline
 * engine's put and wait make): the peer's ACK of everything came in the
 * meantime and waits on the wire. The timer does not decide before it is
 * taken in: no timeout, nothing sent again (the bus flood's timeouts with
 * no loss, docs/bus.md). A frame waiting that acknowledges nothing new
 * does not hold the timer off: a lost put is still resent. */
static void test_ack_waiting(void)
{
	struct fn_config c = fn_defaults();
	struct fn_pair *p;
	uint32_t lkey, rkey;
	struct fw_pkt old;
	uint8_t frame[FW_PKT_HDR];
	uint64_t before;

	c.rto = c.rto_min = 1000;
	p = fn_pair_new(&c);
	fn_puts_regions(p, src, sizeof(src), dst, sizeof(dst), &lkey, &rkey);
	fn_puts_post(p, lkey, src, rkey, dst, 2, MSG);
	fw_step(&p->a.fw);
	for (int i = 0; i < 100 && !p->ba.n; i++)
		fw_step(&p->b.fw); /* b takes both in and acknowledges them */
	CHECK(p->ba.n && fn_hdr(&p->ba, 0).ack == p->a.fw.snd_max, "b's ACK of both is on the wire");
	p->now += 2 * c.rto;
	for (uint32_t i = 0; i < 2 * FW_TIMER_PASSES; i++)
		fw_doorbell(&p->a.fw);
	CHECK_EQ_U(fn_counter(&p->a, EEL_FW_CNT_TIMEOUTS), 0);
	CHECK_EQ_U(fn_counter(&p->a, EEL_FW_CNT_RETRANSMITS), 0);
	fn_settle(p, 200);
	fn_delivered(p, src, dst, 2, MSG, "an ACK waiting at the deadline");
	CHECK_EQ_U(fn_counter(&p->a, EEL_FW_CNT_TIMEOUTS), 0);

	/* a third put lost, and waiting only a frame that is no news */
	fn_puts_post(p, lkey, src + 2 * MSG, rkey, dst + 2 * MSG, 1, MSG);
	fw_step(&p->a.fw);
	fn_drop(&p->ab, 0);
	old = (struct fw_pkt){ .magic = FW_WIRE_MAGIC, .op = FW_PKT_ACK, .ack = p->a.fw.snd_una };
	fw_pkt_write(frame, &old);
	fn_link_insert(&p->ba, 0, frame, FW_PKT_HDR, p->now);
	before = fn_counter(&p->a, EEL_FW_CNT_TIMEOUTS);
	p->now = p->a.fw.rto_deadline; /* the late ACK's sample raised RTO */
	for (uint32_t i = 0; i < 2 * FW_TIMER_PASSES; i++)
		fw_doorbell(&p->a.fw);
	CHECK_EQ_U(fn_counter(&p->a, EEL_FW_CNT_TIMEOUTS) - before, 1);
	fn_pair_free(p);
}

int main(void)
{
	test_first_sample();
	test_later_samples();
	test_floor_ceiling();
	test_backoff();
	test_karn();
	test_follows_path();
	test_ack_waiting();
	CHECK_DONE();
}
