/* SPDX-License-Identifier: MIT */
/* tests/unit/test_fw_rnr.c — receiver not ready: a NOTIFY put that finds half
 * the receiver's CQ unread is refused (nothing written, RNR counted) and
 * resent by the sender's timer; once the host polls, it lands exactly once.
 * Puts without NOTIFY need no CQ entry and are never refused.
 * Two firmwares on a fake HAL (fakenic.h). */
#include "check.h"
#include "fakenic.h"

#define CQ 16u
#define MSGS 12u
#ifndef RECOVERY
#define RECOVERY EEL_FW_RECOVERY_GBN /* test_fw_rnr_sr.c: selective repeat */
#endif

static uint8_t src[MSGS * 64], dst[MSGS * 64];

int main(void)
{
	struct fn_config c = fn_defaults();
	struct fn_pair *p;
	struct eel_fw_cqe e = { 0 };
	uint32_t lkey, rkey, got = 0;
	uint64_t rnr;

	c.cq_size = CQ;
	c.recovery = RECOVERY;
	p = fn_pair_new(&c);
	lkey = fn_mr(&p->a, 1, src, sizeof(src), EEL_FW_MR_LOCAL_READ);
	rkey = fn_mr(&p->b, 1, dst, sizeof(dst), EEL_FW_MR_REMOTE_WRITE);
	for (uint32_t i = 0; i < sizeof(src); i++)
		src[i] = (uint8_t)(i + 1);
	for (uint32_t k = 0; k < MSGS; k++) {
		struct eel_fw_sqe d = fn_put_desc(lkey, src + 64 * k, 64, rkey, dst + 64 * k, EEL_FW_SQE_NOTIFY, k, k);

		fn_post(&p->a, &d);
	}
	/* b's host does not poll: CQ/2 NOTIFY puts land, the next is refused */
	for (int i = 0; i < 1000; i++)
		fn_step(p);
	rnr = fn_counter(&p->b, EEL_FW_CNT_RNR);
	CHECK(rnr >= 1, "no put refused");
	CHECK_EQ_U(p->b.fw.cq_prod, CQ / 2);
	CHECK_EQ_U(fn_counter(&p->b, EEL_FW_CNT_RX_MSGS), CQ / 2);
	CHECK_EQ_U(p->a.status.sq_cons, CQ / 2);
	CHECK(memcmp(dst, src, 64 * (CQ / 2)) == 0, "the accepted puts' payload");
	for (uint32_t i = 64 * (CQ / 2); i < sizeof(dst); i++)
		if (dst[i]) {
			CHECK(0, "a refused put wrote byte %u", i);
			break;
		}
	CHECK(fn_counter(&p->a, EEL_FW_CNT_TIMEOUTS) >= 1, "the sender's timer did not retry");
	CHECK_EQ_U(p->a.status.error + p->b.status.error, 0);

	/* a put without NOTIFY is not refused while the CQ is half full */
	{
		uint64_t one = 0x0101010101010101ull, target = 0;
		uint32_t k2 = fn_mr(&p->b, 2, &target, 8, EEL_FW_MR_REMOTE_WRITE);
		struct eel_fw_sqe d = fn_put_desc(0, &one, 8, k2, &target, EEL_FW_SQE_INLINE, 99, 0);

		/* behind the refused ones on the same connection: it waits its turn */
		fn_post(&p->a, &d);
		for (int i = 0; i < 1000; i++)
			fn_step(p);
		CHECK_EQ_U(target, 0);

		/* b's host reads its CQ: everything lands, once, in order */
		for (int i = 0; i < 5000 && p->a.status.sq_cons < MSGS + 1; i++) {
			while (fn_poll(&p->b, &e)) {
				CHECK(e.opcode == EEL_FW_CQE_NOTIFY && e.imm == got && e.len == 64,
				      "NOTIFY %u: imm %u len %u", got, e.imm, e.len);
				got++;
			}
			fn_step(p);
		}
		fn_settle(p, 1000);
		while (fn_poll(&p->b, &e))
			got++;
		CHECK_EQ_U(got, MSGS);
		CHECK_EQ_U(target, one);
	}
	CHECK(memcmp(dst, src, sizeof(dst)) == 0, "payloads");
	CHECK_EQ_U(fn_counter(&p->b, EEL_FW_CNT_RX_MSGS), MSGS + 1);
	CHECK_EQ_U(p->a.status.sq_cons, MSGS + 1);
	CHECK(fn_counter(&p->b, EEL_FW_CNT_RNR) > rnr, "RNR while the CQ stayed half full: %llu",
	      (unsigned long long)fn_counter(&p->b, EEL_FW_CNT_RNR));
	CHECK_EQ_U(p->a.status.error + p->b.status.error, 0);
	CHECK_EQ_U(p->a.dma_violations + p->b.dma_violations, 0);
	if (RECOVERY == EEL_FW_RECOVERY_SR)
		CHECK(fn_counter(&p->b, EEL_FW_CNT_OOO_KEPT) > 0, "nothing was kept out of order");
	fn_pair_free(p);
	CHECK_DONE();
}
