/* SPDX-License-Identifier: MIT */
/* tests/unit/test_fw_recovery.c — loss recovery that does not wait for the
 * timer (firmware/pkt.h, IBTA Vol. 1 §9.7.5.2), in go-back-N and in
 * selective repeat, on a wire the test controls frame by frame (fakenic.h).
 *
 *   go-back-N: a lost resend of the gap's first PSN, and a lost NAK, are
 *   repaired by a NAK again, well inside the RTO, with no timeout;
 *   selective repeat: only the missing PSNs are resent (and FW_REPEATS
 *   probes after them), a lost resend is repaired by the probe's NAK, also when new data
 *   follows the resend and when the previous round's probes arrived just
 *   before, a lost NAK with packets after it and then nothing is repeated
 *   when the wire goes quiet, the receive buffer overflowing drops and
 *   recovers what did not fit;
 *   a flood of 8-byte puts at 3% drop both ways: exactly once and in order
 *   in both modes, the timer almost never needed, selective repeat resending
 *   a fraction of what go-back-N resends.
 */
#include "check.h"
#include "fn_puts.h"

#define MSG 100u
#define BIG 4096u
#define BIGS 48u
#define FLOOD 20000u

static uint8_t src[BIGS * BIG], dst[BIGS * BIG + 256];

struct world {
	struct fn_pair *p;
	uint32_t lkey, rkey;
	/* drop the n-th transmission (1 = the first) of data PSN drop_psn[i] */
	uint32_t drop_psn[4], drop_nth[4], ndrop;
	uint32_t tx_count[BIGS];
	uint32_t naks_to_drop;       /* drop this many of b's first NAKs */
	uint32_t resent[64], nresent; /* a's data transmissions after the first, by PSN */
};

static struct world world(uint32_t recovery, uint32_t mtu)
{
	struct fn_config c = fn_defaults();
	struct world w;

	memset(&w, 0, sizeof(w));
	c.recovery = recovery;
	c.mtu = mtu;
	w.p = fn_pair_new(&c);
	fn_puts_regions(w.p, src, sizeof(src), dst, sizeof(dst), &w.lkey, &w.rkey);
	return w;
}

/* n NOTIFY puts of len bytes, put k carrying imm k to its own place. */
static void post(struct world *w, uint32_t n, uint32_t len)
{
	fn_puts_post(w->p, w->lkey, src, w->rkey, dst, n, len);
}

/* One step of the pair, the test's drops applied to what each end just sent. */
static void step(struct world *w)
{
	struct fn_link *ab = &w->p->ab, *ba = &w->p->ba;
	uint32_t n0 = ab->n;

	fw_step(&w->p->a.fw);
	for (uint32_t i = n0; i < ab->n; i++) {
		struct fw_pkt h = fn_hdr(ab, i);
		uint32_t nth;

		if (h.op != FW_PKT_PUT || h.psn >= BIGS)
			continue;
		nth = ++w->tx_count[h.psn];
		if (nth > 1 && w->nresent < 64)
			w->resent[w->nresent++] = h.psn;
		for (uint32_t r = 0; r < w->ndrop; r++)
			if (w->drop_psn[r] == h.psn && w->drop_nth[r] == nth) {
				fn_drop(ab, i--);
				break;
			}
	}
	n0 = ba->n;
	fw_step(&w->p->b.fw);
	for (uint32_t i = n0; i < ba->n; i++)
		if (fn_hdr(ba, i).op == FW_PKT_NAK && w->naks_to_drop) {
			w->naks_to_drop--;
			fn_drop(ba, i--);
		}
	w->p->now++;
}

/* Step until a's puts are all acknowledged, at most max steps; the steps taken. */
static uint32_t run(struct world *w, uint32_t max)
{
	uint32_t i;

	for (i = 0; i < max && w->p->a.status.sq_cons != w->p->a.sq_prod; i++)
		step(w);
	return i;
}

static void drop(struct world *w, uint32_t psn, uint32_t nth)
{
	w->drop_psn[w->ndrop] = psn;
	w->drop_nth[w->ndrop++] = nth;
}

/* Step until a's puts are all acknowledged: well inside the RTO, and
 * without the timer. */
static void recovered(struct world *w, const char *what)
{
	uint32_t steps = run(w, 1000);

	CHECK(steps < w->p->a.fw.rto / 2, "%s: recovered in %u steps, RTO %llu", what, steps,
	      (unsigned long long)w->p->a.fw.rto);
	CHECK_EQ_U(fn_counter(&w->p->a, EEL_FW_CNT_TIMEOUTS), 0);
}

/* Let everything settle; every put arrived exactly once, in order, whole. */
static void finish(struct world *w, uint32_t n, uint32_t len, const char *what)
{
	fn_settle(w->p, 1000);
	fn_delivered(w->p, src, dst, n, len, what);
	fn_pair_free(w->p);
}

/* Go-back-N: PSN 0 is lost, and so is its resend. The resend round's next
 * packet shows the receiver that the sender went back without it: it NAKs
 * again, and the second resend lands before the timer could fire. (A
 * receiver that NAKs once per gap leaves this to the timer.) */
static void test_gbn_lost_resend(void)
{
	struct world w = world(EEL_FW_RECOVERY_GBN, 256);

	post(&w, 4, MSG);
	drop(&w, 0, 1);
	drop(&w, 0, 2);
	recovered(&w, "gbn, resend lost");
	CHECK_EQ_U(w.tx_count[0], 3);
	CHECK(fn_counter(&w.p->b, EEL_FW_CNT_NAKS_TX) >= 2, "NAKs %llu",
	      (unsigned long long)fn_counter(&w.p->b, EEL_FW_CNT_NAKS_TX));
	finish(&w, 4, MSG, "gbn, resend lost");
}

/* PSN 0 of 4 is lost, and so is the NAK that PSN 1 raised. Go-back-N: the
 * packet after that NAKs again. Selective repeat: PSNs 2 and 3 come past
 * the gap and NAK nothing (the first hole is NAKed again every
 * FW_NAK_EVERY packets), then the wire goes quiet, and the NAK goes again
 * after FW_QUIET_PASSES empty passes. Either way well inside the RTO, no
 * timeout, PSN 0 sent twice. */
static void test_lost_nak(uint32_t recovery, const char *what)
{
	struct world w = world(recovery, 256);

	post(&w, 4, MSG);
	drop(&w, 0, 1);
	w.naks_to_drop = 1;
	recovered(&w, what);
	CHECK_EQ_U(w.naks_to_drop, 0);
	CHECK_EQ_U(w.tx_count[0], 2);
	finish(&w, 4, MSG, what);
}

/* Selective repeat: PSNs 2 and 5 of 8 are lost. The receiver keeps the
 * others and NAKs each hole; the sender resends 2 and 5 and nothing else
 * but the probe: the last PSN, FW_REPEATS times. */
static void test_sr_only_missing(void)
{
	struct world w = world(EEL_FW_RECOVERY_SR, 256);

	post(&w, 8, MSG);
	drop(&w, 2, 1);
	drop(&w, 5, 1);
	recovered(&w, "sr, two holes");
	CHECK_EQ_U(w.nresent, 2 + FW_REPEATS);
	CHECK(w.resent[0] == 2 && w.resent[1] == 5, "resent %u and %u first, want 2 and 5", w.resent[0], w.resent[1]);
	for (uint32_t i = 2; i < w.nresent; i++)
		CHECK_EQ_U(w.resent[i], 7); /* the probe */
	CHECK_EQ_U(fn_counter(&w.p->b, EEL_FW_CNT_OOO_KEPT), 4); /* 3, 4, 6, 7 */
	CHECK_EQ_U(fn_counter(&w.p->b, EEL_FW_CNT_OOO), 0);
	finish(&w, 8, MSG, "sr, two holes");
}

/* Selective repeat: PSN 2 is lost, and so is its resend. The probe that
 * follows the resend (PSN 7 again, FW_REPEATS times) arrives as a packet the receiver keeps
 * already, with a later tx_seq: it NAKs the hole again and the sender
 * resends it once more; nothing else is sent twice. */
static void test_sr_lost_resend(void)
{
	struct world w = world(EEL_FW_RECOVERY_SR, 256);

	post(&w, 8, MSG);
	drop(&w, 2, 1);
	drop(&w, 2, 2);
	recovered(&w, "sr, resend lost");
	CHECK_EQ_U(w.tx_count[2], 3);
	CHECK_EQ_U(w.tx_count[7], 1 + 2 * FW_REPEATS); /* and a probe after each resend */
	for (uint32_t k = 0; k < 8; k++)
		CHECK(k == 2 || k == 7 || w.tx_count[k] == 1, "PSN %u sent %u times", k, w.tx_count[k]);
	finish(&w, 8, MSG, "sr, resend lost");
}

/* Selective repeat: PSN 2 of 8 is lost, and its resend, which goes out with
 * three new puts behind it (posted as the NAK arrives). The first new put
 * carries FW_PKT_PROBE: the receiver NAKs the hole again at it and the
 * third transmission of 2 (then a probe: PSN 10 again) lands well inside
 * the RTO. (Unflagged, the new
 * puts came between the receiver's every-8th NAKs, and only the timer
 * repaired the hole.) */
static void test_sr_lost_resend_new_data(void)
{
	struct world w = world(EEL_FW_RECOVERY_SR, 256);

	post(&w, 8, MSG);
	drop(&w, 2, 1);
	drop(&w, 2, 2);
	step(&w); /* a sends 0..7, b NAKs 2 */
	CHECK(fn_counter(&w.p->b, EEL_FW_CNT_NAKS_TX) > 0, "no NAK after the first step");
	fn_puts_post(w.p, w.lkey, src + 8 * MSG, w.rkey, dst + 8 * MSG, 3, MSG); /* puts 8..10 */
	recovered(&w, "sr, resend lost, new data behind it");
	CHECK_EQ_U(w.tx_count[2], 3);
	CHECK_EQ_U(w.tx_count[10], 1 + FW_REPEATS); /* the probe after the third transmission */
	for (uint32_t k = 0; k < 10; k++)
		CHECK(k == 2 || w.tx_count[k] == 1, "PSN %u sent %u times", k, w.tx_count[k]);
	fn_settle(w.p, 1000);
	CHECK_EQ_U(fn_counter(&w.p->b, EEL_FW_CNT_RX_MSGS), 11);
	CHECK_EQ_U(w.p->a.status.error + w.p->b.status.error, 0);
	CHECK(memcmp(dst, src, 11 * MSG) == 0, "sr, resend lost, new data behind it: payload");
	fn_pair_free(w.p);
}

/* Selective repeat: PSN 2 is lost three times. After the second loss the
 * previous round's probes (PSN 7 again) were the last packets to arrive, so
 * the next round's probes follow them with only the lost resend between:
 * a run of probes is consecutive transmissions (tx_seq), so the first of
 * the new round NAKs and the fourth transmission repairs the hole, without
 * the timer. */
static void test_sr_resend_lost_twice(void)
{
	struct world w = world(EEL_FW_RECOVERY_SR, 256);

	post(&w, 8, MSG);
	drop(&w, 2, 1);
	drop(&w, 2, 2);
	drop(&w, 2, 3);
	recovered(&w, "sr, resend lost twice");
	CHECK_EQ_U(w.tx_count[2], 4);
	finish(&w, 8, MSG, "sr, resend lost twice");
}

/* Selective repeat with more past the hole than the receive buffer holds
 * (FW_SR_BYTES of 4 KiB packets): what does not fit is dropped and NAKed,
 * resent, and everything lands exactly once. */
static void test_sr_buffer_full(void)
{
	struct world w = world(EEL_FW_RECOVERY_SR, BIG);

	post(&w, BIGS, BIG);
	drop(&w, 0, 1);
	run(&w, 5000);
	CHECK(fn_counter(&w.p->b, EEL_FW_CNT_OOO_KEPT) > 0 &&
	      fn_counter(&w.p->b, EEL_FW_CNT_OOO_KEPT) <= FW_SR_BYTES / BIG,
	      "kept %llu packets of %u B in %u B", (unsigned long long)fn_counter(&w.p->b, EEL_FW_CNT_OOO_KEPT), BIG,
	      FW_SR_BYTES);
	CHECK(fn_counter(&w.p->b, EEL_FW_CNT_OOO) > 0, "nothing was dropped for want of room");
	finish(&w, BIGS, BIG, "sr, buffer full");
}

/* A flood of 8-byte inline puts, the send queue kept full, at 3% drop both
 * ways (seeded): exactly once and in order; the timer is needed at most a
 * few times (a NAK or resend lost with nothing after it to show it); returns
 * the retransmissions. */
static uint64_t flood(uint32_t recovery, uint64_t seed, const char *what)
{
	static uint8_t fsrc[FLOOD * 8], fdst[FLOOD * 8];
	struct fn_config c = fn_defaults();
	struct fn_pair *p;
	struct eel_fw_cqe e;
	uint32_t lkey, rkey, posted = 0, done = 0, notified = 0, order = 0;
	uint64_t r;

	c.recovery = recovery;
	p = fn_pair_new(&c);
	p->ab.drop = p->ba.drop = 0.03;
	p->ab.rng += seed;
	p->ba.rng += seed;
	lkey = fn_mr(&p->a, 1, fsrc, sizeof(fsrc), EEL_FW_MR_LOCAL_READ);
	rkey = fn_mr(&p->b, 1, fdst, sizeof(fdst), EEL_FW_MR_REMOTE_WRITE);
	for (uint32_t i = 0; i < sizeof(fsrc); i++)
		fsrc[i] = (uint8_t)(i * 13 + 5);
	memset(fdst, 0, sizeof(fdst));
	for (long steps = 0; done < FLOOD && steps < 10000000; steps++) {
		while (posted < FLOOD && !fn_sq_full(&p->a)) {
			struct eel_fw_sqe d = fn_put_desc(lkey, fsrc + posted * 8, 8, rkey, fdst + posted * 8,
							  EEL_FW_SQE_INLINE | EEL_FW_SQE_SIGNALED | EEL_FW_SQE_NOTIFY,
							  posted, posted);

			fn_post(&p->a, &d);
			posted++;
		}
		fn_step(p);
		while (fn_poll(&p->a, &e))
			done += e.status == EEL_FW_OK;
		while (fn_poll(&p->b, &e))
			order += e.imm != notified++;
	}
	fn_settle(p, 1000);
	CHECK(done == FLOOD && notified == FLOOD && order == 0, "%s: %u completions, %u delivered, %u out of order",
	      what, done, notified, order);
	CHECK(memcmp(fsrc, fdst, sizeof(fdst)) == 0, "%s: payload", what);
	CHECK_EQ_U(fn_counter(&p->b, EEL_FW_CNT_RX_MSGS), FLOOD);
	CHECK(p->ab.dropped > FLOOD / 100, "%s: only %llu drops", what, (unsigned long long)p->ab.dropped);
	CHECK(fn_counter(&p->a, EEL_FW_CNT_TIMEOUTS) * 2000 < FLOOD, "%s: %llu timeouts in %u puts", what,
	      (unsigned long long)fn_counter(&p->a, EEL_FW_CNT_TIMEOUTS), FLOOD);
	CHECK_EQ_U(p->a.status.error + p->b.status.error, 0);
	CHECK_EQ_U(p->a.dma_violations + p->b.dma_violations, 0);
	r = fn_counter(&p->a, EEL_FW_CNT_RETRANSMITS);
	printf("%s: %llu drops, %llu retransmissions, %llu timeouts, %llu NAKs\n", what,
	       (unsigned long long)(p->ab.dropped + p->ba.dropped), (unsigned long long)r,
	       (unsigned long long)fn_counter(&p->a, EEL_FW_CNT_TIMEOUTS),
	       (unsigned long long)fn_counter(&p->b, EEL_FW_CNT_NAKS_TX));
	fn_pair_free(p);
	return r;
}

static void test_flood(void)
{
	for (uint64_t seed = 0; seed < 2; seed++) {
		uint64_t gbn = flood(EEL_FW_RECOVERY_GBN, seed, "flood, go-back-N, 3% drop");
		uint64_t sr = flood(EEL_FW_RECOVERY_SR, seed, "flood, selective repeat, 3% drop");

		CHECK(sr * 5 < gbn, "selective repeat resent %llu, go-back-N %llu", (unsigned long long)sr,
		      (unsigned long long)gbn);
	}
}

int main(void)
{
	test_gbn_lost_resend();
	test_lost_nak(EEL_FW_RECOVERY_GBN, "gbn, NAK lost");
	test_sr_only_missing();
	test_sr_lost_resend();
	test_sr_lost_resend_new_data();
	test_sr_resend_lost_twice();
	test_lost_nak(EEL_FW_RECOVERY_SR, "sr, NAK lost, then quiet");
	test_sr_buffer_full();
	test_flood();
	CHECK_DONE();
}
