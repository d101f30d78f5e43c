/* SPDX-License-Identifier: MIT */
/* tests/unit/test_fw_fastpath.c — the firmware's fast path (firmware/README.md,
 * "The fast path") takes only what it may: a one-packet put or E-register
 * store in order is delivered as the general path delivers it, and a packet
 * that only looks like one goes to the general path's checks. A PUT whose
 * first and last packet claims a message (mlen) larger than itself is checked
 * for the whole message, as pkt.h says, and refused when that runs past the
 * region: a fast path that checked the packet's own bytes alone would write
 * them. Two firmwares on a fake HAL (fakenic.h); the frame is changed on the
 * wire between them. */
#include "check.h"
#include "fakenic.h"

#define WIN 4096u
#define GUARD 256u

static uint8_t src[WIN], mem[GUARD + WIN + GUARD];

static int untouched(void)
{
	for (size_t i = 0; i < sizeof(mem); i++)
		if (mem[i] != 0xEE)
			return 0;
	return 1;
}

/* Post an 8-byte put (or E-register store) from a to b at off, let a send
 * it, set its frame's mlen to `mlen` (0: leave it), then let both run. */
static struct fn_pair *one_put(int ereg, uint32_t off, uint32_t mlen)
{
	struct fn_config c = fn_defaults();
	struct fn_pair *p = fn_pair_new(&c);
	uint32_t lkey = fn_mr(&p->a, 1, src, sizeof(src), EEL_FW_MR_LOCAL_READ);
	uint32_t rkey = fn_mr(&p->b, 3, mem + GUARD, WIN, EEL_FW_MR_REMOTE_WRITE);
	struct eel_fw_sqe d = fn_put_desc(lkey, src, 8, rkey, mem + GUARD + off, EEL_FW_SQE_SIGNALED, 1, 0);

	memset(mem, 0xEE, sizeof(mem));
	memset(src, 0x5A, sizeof(src));
	if (ereg)
		fn_ereg(&p->a, 0, EEL_FW_EREG_PUT, rkey, mem + GUARD + off, 0x5A5A5A5A5A5A5A5Aull);
	else
		fn_post(&p->a, &d);
	fw_step(&p->a.fw); /* a sends; b has not looked yet */
	CHECK_EQ_U(p->ab.n, 1);
	if (mlen && p->ab.n == 1) {
		struct fw_pkt h = fn_hdr(&p->ab, 0);

		CHECK_EQ_U(h.flags & (FW_PKT_FIRST | FW_PKT_LAST), FW_PKT_FIRST | FW_PKT_LAST);
		h.mlen = mlen;
		memcpy(p->ab.q[0].buf, &h, sizeof(h));
	}
	fn_settle(p, 2000);
	return p;
}

static int landed(uint32_t off)
{
	for (size_t i = 0; i < sizeof(mem); i++)
		if (mem[i] != (i >= GUARD + off && i < GUARD + off + 8 ? 0x5A : 0xEE))
			return 0;
	return 1;
}

/* Delivered: the 8 bytes and nothing else, once, both ends well. */
static void delivered(const char *what, int ereg, uint32_t off, uint32_t mlen)
{
	struct fn_pair *p = one_put(ereg, off, mlen);

	CHECK(landed(off), "%s: the target's memory is not the 8 bytes at %u alone", what, off);
	CHECK_EQ_U(fn_counter(&p->b, EEL_FW_CNT_RX_MSGS), 1);
	CHECK_EQ_U(p->a.status.error + p->b.status.error, 0);
	CHECK_EQ_U(p->b.status.last_rx, 0); /* the message number of a's first message */
	CHECK_EQ_U(p->a.dma_violations + p->b.dma_violations, 0);
	if (ereg)
		CHECK(fn_ereg_status(&p->a, 0) == EEL_FW_OK, "%s: E-register status %d", what,
		      fn_ereg_status(&p->a, 0));
	fn_pair_free(p);
}

/* Refused: nothing written, both ends failed with REMOTE_ACCESS. */
static void refused(const char *what, int ereg, uint32_t off, uint32_t mlen)
{
	struct fn_pair *p = one_put(ereg, off, mlen);

	CHECK(untouched(), "%s: the target's memory was written", what);
	CHECK_EQ_U(fn_counter(&p->b, EEL_FW_CNT_RX_MSGS), 0);
	CHECK_EQ_U(fn_counter(&p->b, EEL_FW_CNT_ACCESS_ERRS), 1);
	CHECK_EQ_U(p->a.status.error, EEL_FW_ERR_REMOTE_ACCESS);
	CHECK_EQ_U(p->b.status.error, EEL_FW_ERR_REMOTE_ACCESS);
	CHECK_EQ_U(p->a.dma_violations + p->b.dma_violations, 0);
	fn_pair_free(p);
}

int main(void)
{
	delivered("put", 0, 0, 0);
	delivered("put at the region's last 8 bytes", 0, WIN - 8, 0);
	delivered("E-register store", 1, 16, 0);
	delivered("E-register store at the region's last 8 bytes", 1, WIN - 8, 0);
	/* a one-packet PUT claiming a larger message that still fits: the
	 * general path checks the whole and writes the packet's bytes */
	delivered("put claiming 16 bytes, inside", 0, 0, 16);
	refused("put one byte past the end", 0, WIN - 7, 0);
	refused("E-register store one byte past the end", 1, WIN - 7, 0);
	/* the packet's own bytes fit; the message it claims does not */
	refused("put claiming a message past the end", 0, 0, WIN + 1);
	refused("put claiming a message past the end, at its last bytes", 0, WIN - 8, 9);
	CHECK_DONE();
}
