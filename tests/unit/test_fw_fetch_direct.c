/* SPDX-License-Identifier: MIT */
/* tests/unit/test_fw_fetch_direct.c — the fetch on a host whose DMA is a
 * copy on the firmware's own addresses (hal.h, dma_direct: the software NIC
 * without a bus model): a lone descriptor is taken where it lies in the send
 * queue, not copied first (fw_fetch.c, fw_fetch_sq). It is the same put as
 * on any host: its payload (read, or inline) lands where it names, in the
 * slot the doorbell gave it, and a bad key or descriptor is refused, the
 * sender failed with the descriptor's index. Two firmwares on a fake HAL
 * (fakenic.h), the sender's DMA direct. */
#include "check.h"
#include "fakenic.h"
#include "fn_puts.h"

#define WIN 16384u /* 2 * FN_SQ puts, 64 bytes apart */

static uint8_t src[WIN], mem[WIN];
static struct fn_pair *p;
static uint32_t lkey, rkey;

/* A pair whose sender's DMA is direct: bus addresses are the test's own
 * pointers (fn_put_desc). src registered at a, mem at b (fn_puts.h). */
static void pair_new(void)
{
	struct fn_config c = fn_defaults();

	p = fn_pair_new(&c);
	p->a.fw.hal.dma_direct = 1;
	fn_puts_regions(p, src, sizeof(src), mem, sizeof(mem), &lkey, &rkey);
}

/* Put d alone (the doorbell moves by one: the lone descriptor's fetch), then
 * let both NICs settle; its CQE into e. */
static int put_alone(const struct eel_fw_sqe *d, struct eel_fw_cqe *e)
{
	fn_post(&p->a, d);
	fn_settle(p, 2000);
	return fn_poll(&p->a, e);
}

/* Puts one at a time, each from its own source offset to its own target
 * slot, read and inline, through every slot of the send queue and past its
 * wrap: each lands whole, where it says, and completes with its wr_id. */
static void test_puts(void)
{
	struct eel_fw_cqe e = { 0 };

	pair_new();
	for (uint32_t k = 0; k < 2 * FN_SQ; k++) {
		uint32_t len = 8 + ((k >> 1) % 2) * 8, off = 64 * k; /* 8 and 16 bytes, each read and inline */
		uint8_t flags = EEL_FW_SQE_SIGNALED | (k % 2 ? EEL_FW_SQE_INLINE : 0);
		struct eel_fw_sqe d = fn_put_desc(lkey, src + off, len, rkey, mem + off, flags, 100 + k, 0);

		CHECK(put_alone(&d, &e), "put %u: no CQE", k);
		CHECK(e.wr_id == 100 + k && e.status == EEL_FW_OK, "put %u: CQE wr_id %llu status %u", k,
		      (unsigned long long)e.wr_id, e.status);
		CHECK(memcmp(mem + off, src + off, len) == 0, "put %u: the payload at its target differs", k);
		CHECK(mem[off + len] == 0, "put %u: written past its %u bytes", k, len);
	}
	CHECK_EQ_U(p->a.status.sq_cons, 2 * FN_SQ);
	CHECK_EQ_U(p->a.status.error, 0);
	CHECK_EQ_U(fn_counter(&p->b, EEL_FW_CNT_RX_MSGS), 2 * FN_SQ);
	fn_pair_free(p);
}

/* A refused descriptor (with the region's own lkey when own_lkey) after
 * three good puts: its status, the sender failed with its index
 * (error_info), nothing of it delivered. */
static void refused(const char *what, struct eel_fw_sqe bad, int own_lkey, uint32_t code)
{
	struct eel_fw_sqe ok;
	struct eel_fw_cqe e = { 0 };

	pair_new();
	ok = fn_put_desc(lkey, src, 8, rkey, mem, EEL_FW_SQE_SIGNALED, 7, 0);
	if (own_lkey)
		bad.lkey = lkey;
	bad.rkey = rkey;
	bad.raddr = (uintptr_t)(mem + 64);
	for (int i = 0; i < 3; i++)
		CHECK(put_alone(&ok, &e) && e.status == EEL_FW_OK, "%s: good put %d: status %u", what, i, e.status);
	CHECK(put_alone(&bad, &e) && e.wr_id == 1 && e.status == code, "%s: CQE wr_id %llu status %u, want %u",
	      what, (unsigned long long)e.wr_id, e.status, code);
	CHECK_EQ_U(p->a.status.error, code);
	CHECK_EQ_U(p->a.status.error_info, 3); /* the descriptor's index */
	CHECK(mem[64] == 0, "%s: the refused put was delivered", what);
	CHECK_EQ_U(fn_counter(&p->b, EEL_FW_CNT_RX_MSGS), 3);
	fn_pair_free(p);
}

static void test_refused(void)
{
	struct eel_fw_sqe d = fn_put_desc(EEL_FW_KEY(1, 99), src, 8, 0, NULL, 0, 1, 0);

	refused("bad lkey", d, 0, EEL_FW_ERR_LOCAL_ACCESS);
	d = fn_put_desc(0, src, WIN + 1, 0, NULL, 0, 1, 0);
	refused("source past the region", d, 1, EEL_FW_ERR_LOCAL_ACCESS);
	d = fn_put_desc(0, src, EEL_FW_MAX_INLINE + 1, 0, NULL, EEL_FW_SQE_INLINE, 1, 0);
	refused("inline too long", d, 0, EEL_FW_ERR_BAD_DESC);
	d = fn_put_desc(0, src, 8, 0, NULL, 0, 1, 0);
	d.opcode = 9;
	refused("unknown opcode", d, 1, EEL_FW_ERR_BAD_DESC);
}

int main(void)
{
	test_puts();
	test_refused();
	CHECK_DONE();
}
