/* SPDX-License-Identifier: MIT */
/* tests/unit/fn_puts.h — what the fault and recovery tests share on a fake
 * NIC pair (fakenic.h): a's NOTIFY puts into b, put k carrying imm k from
 * src + k * len to dst + k * len. fn_puts_regions registers src at a and dst
 * at b and fills src with a pattern; fn_puts_post posts n puts; fn_delivered
 * checks that each arrived at b exactly once, in order and whole, that a saw
 * n good completions in order, and that neither end failed or strayed
 * outside its memory. Include check.h first. */
#ifndef EEL_TESTS_FN_PUTS_H
#define EEL_TESTS_FN_PUTS_H

#include "fakenic.h"

static inline void fn_puts_regions(struct fn_pair *p, uint8_t *src, size_t slen, uint8_t *dst, size_t dlen,
				   uint32_t *lkey, uint32_t *rkey)
{
	*lkey = fn_mr(&p->a, 1, src, slen, EEL_FW_MR_LOCAL_READ);
	*rkey = fn_mr(&p->b, 1, dst, dlen, EEL_FW_MR_REMOTE_WRITE);
	for (size_t i = 0; i < slen; i++)
		src[i] = (uint8_t)(i * 7 + i / 251);
	memset(dst, 0, dlen);
}

static inline void fn_puts_post(struct fn_pair *p, uint32_t lkey, const uint8_t *src, uint32_t rkey,
				const uint8_t *dst, uint32_t n, uint32_t len)
{
	for (uint32_t k = 0; k < n; k++) {
		struct eel_fw_sqe d = fn_put_desc(lkey, src + k * len, len, rkey, dst + k * len,
						  EEL_FW_SQE_NOTIFY | EEL_FW_SQE_SIGNALED, k, k);

		fn_post(&p->a, &d);
	}
}

static inline void fn_delivered(struct fn_pair *p, const uint8_t *src, const uint8_t *dst, uint32_t n, uint32_t len,
				const char *what)
{
	struct eel_fw_cqe e = { 0 };
	uint32_t got = 0, ok = 0;

	while (fn_poll(&p->b, &e)) {
		CHECK(e.opcode == EEL_FW_CQE_NOTIFY && e.imm == got && e.len == len,
		      "%s: NOTIFY %u: op %u imm %u len %u", what, got, e.opcode, e.imm, e.len);
		got++;
	}
	CHECK(got == n, "%s: %u NOTIFY completions, want %u", what, got, n);
	while (fn_poll(&p->a, &e))
		ok += e.status == EEL_FW_OK && e.wr_id == ok;
	CHECK(ok == n, "%s: %u good completions in order at the sender, want %u", what, ok, n);
	CHECK(memcmp(dst, src, (size_t)n * len) == 0, "%s: payload", what);
	CHECK_EQ_U(fn_counter(&p->b, EEL_FW_CNT_RX_MSGS), n);
	CHECK_EQ_U(p->a.status.error + p->b.status.error, 0);
	CHECK_EQ_U(p->a.dma_violations + p->b.dma_violations, 0);
}

#endif
