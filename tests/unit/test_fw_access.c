/* SPDX-License-Identifier: MIT */
/* tests/unit/test_fw_access.c — refused work: a bad key or an out-of-range
 * put writes nothing at the target, completes with REMOTE_ACCESS at the
 * sender (signalled or not), sets both ends' status-block error, and flushes
 * everything after it; local errors (bad lkey, bad descriptor) fail the
 * sender alone; the retransmission limit fails a connection to a dead peer;
 * the fast path refuses what the general path refuses. Two firmwares on a
 * fake HAL (fakenic.h). */
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

struct world {
	struct fn_pair *p;
	uint32_t lkey, rkey;
};

static struct world world(void)
{
	struct fn_config c = fn_defaults();
	struct world w;

	w.p = fn_pair_new(&c);
	w.lkey = fn_mr(&w.p->a, 1, src, sizeof(src), EEL_FW_MR_LOCAL_READ);
	w.rkey = fn_mr(&w.p->b, 3, mem + GUARD, WIN, EEL_FW_MR_REMOTE_WRITE);
	memset(mem, 0xEE, sizeof(mem));
	memset(src, 0x5A, sizeof(src));
	return w;
}

/* The first put is refused by the target; then a put posted behind it and one
 * posted after the failure. */
static void refused(const char *what, uint32_t rkey, uint64_t raddr, uint32_t len, uint8_t flags)
{
	struct world w = world();
	struct eel_fw_sqe d = fn_put_desc(w.lkey, src, len, rkey, (void *)(uintptr_t)raddr, flags, 1, 0);
	struct eel_fw_cqe e = { 0 };

	fn_post(&w.p->a, &d);
	d = fn_put_desc(w.lkey, src, 8, w.rkey, mem + GUARD, EEL_FW_SQE_SIGNALED, 2, 0);
	fn_post(&w.p->a, &d);
	fn_settle(w.p, 2000);

	CHECK(untouched(), "%s: the target's memory was written", what);
	CHECK(fn_poll(&w.p->a, &e) && e.wr_id == 1 && e.status == EEL_FW_ERR_REMOTE_ACCESS,
	      "%s: first CQE wr_id %llu status %u, want 1 and REMOTE_ACCESS", what, (unsigned long long)e.wr_id,
	      e.status);
	CHECK(fn_poll(&w.p->a, &e) && e.wr_id == 2 && e.status == EEL_FW_ERR_FLUSHED,
	      "%s: second CQE wr_id %llu status %u, want 2 and FLUSHED", what, (unsigned long long)e.wr_id, e.status);
	CHECK_EQ_U(w.p->a.status.error, EEL_FW_ERR_REMOTE_ACCESS);
	CHECK_EQ_U(w.p->b.status.error, EEL_FW_ERR_REMOTE_ACCESS);
	CHECK_EQ_U(w.p->a.status.error_info, 0); /* the refused packet's PSN */
	CHECK_EQ_U(w.p->a.status.sq_cons, 2);
	CHECK_EQ_U(fn_counter(&w.p->b, EEL_FW_CNT_ACCESS_ERRS), 1);
	CHECK_EQ_U(fn_counter(&w.p->b, EEL_FW_CNT_RX_MSGS), 0);
	CHECK(fn_counter(&w.p->a, EEL_FW_CNT_NAKS_RX) >= 1, "%s: no NAK received", what);

	/* later work is flushed at once, and nothing more reaches the target */
	d = fn_put_desc(w.lkey, src, 8, w.rkey, mem + GUARD, 0, 3, 0);
	fn_post(&w.p->a, &d);
	fn_ereg(&w.p->a, 4, EEL_FW_EREG_PUT, w.rkey, mem + GUARD, 42);
	fn_settle(w.p, 2000);
	CHECK(fn_poll(&w.p->a, &e) && e.wr_id == 3 && e.status == EEL_FW_ERR_FLUSHED,
	      "%s: later put: CQE wr_id %llu status %u, want FLUSHED", what, (unsigned long long)e.wr_id, e.status);
	CHECK(fn_ereg_status(&w.p->a, 4) == EEL_FW_ERR_FLUSHED, "%s: later E-register put: status %d", what,
	      fn_ereg_status(&w.p->a, 4));
	CHECK(!fn_poll(&w.p->a, &e), "%s: an extra CQE (wr_id %llu)", what, (unsigned long long)e.wr_id);
	CHECK(!fn_poll(&w.p->b, &e), "%s: a CQE at the target", what);
	CHECK(untouched(), "%s: the target's memory was written after the failure", what);
	CHECK_EQ_U(w.p->a.status.sq_cons, 3);
	CHECK_EQ_U(w.p->a.dma_violations + w.p->b.dma_violations, 0);
	fn_pair_free(w.p);
}

static void test_remote(void)
{
	struct world w = world();
	uint64_t base = (uintptr_t)(mem + GUARD);
	uint32_t idx = EEL_FW_KEY_INDEX(w.rkey), tag = EEL_FW_KEY_TAG(w.rkey);

	fn_pair_free(w.p);
	refused("wrong tag", EEL_FW_KEY(idx, tag ^ 1), base, 8, 0);
	refused("wrong tag, signalled", EEL_FW_KEY(idx, tag ^ 0x80), base, 8, EEL_FW_SQE_SIGNALED);
	refused("index beyond the table", EEL_FW_KEY(FN_MR + 5, tag), base, 8, 0);
	refused("index of an empty entry", EEL_FW_KEY(6, tag), base, 8, 0);
	refused("one byte past the end", w.rkey, base + 1, WIN, 0);
	refused("one byte before the start", w.rkey, base - 1, 8, 0);
	refused("far beyond", w.rkey, base + WIN * 16, 8, 0);
	refused("address wraps", w.rkey, UINT64_MAX - 3, 8, 0);
	refused("NOTIFY put out of range", w.rkey, base + WIN - 4, 8, EEL_FW_SQE_NOTIFY);
	refused("inline put out of range", w.rkey, base + WIN, 1, EEL_FW_SQE_INLINE);
	/* A multi-packet put that starts inside the window and runs past its
	 * end must be refused before any of it is written, as an InfiniBand
	 * responder checks the whole RDMA WRITE range at its first packet. */
	refused("multi-packet, last packet out of range", w.rkey, base + 16, WIN, 0);
	refused("multi-packet, 1 byte over", w.rkey, base + 1, WIN, EEL_FW_SQE_SIGNALED);
}

/* A region without REMOTE_WRITE, and one deregistered after use. */
static void test_permissions(void)
{
	struct world w = world();
	uint32_t ro = fn_mr(&w.p->b, 4, mem + GUARD, WIN, EEL_FW_MR_REMOTE_READ);
	struct eel_fw_sqe d = fn_put_desc(w.lkey, src, 8, ro, mem + GUARD, 0, 1, 0);
	struct eel_fw_cqe e = { 0 };

	fn_post(&w.p->a, &d);
	fn_settle(w.p, 2000);
	CHECK(fn_poll(&w.p->a, &e) && e.status == EEL_FW_ERR_REMOTE_ACCESS, "read-only region: status %u", e.status);
	CHECK(untouched(), "read-only region written");
	fn_pair_free(w.p);

	w = world();
	d = fn_put_desc(w.lkey, src, 8, w.rkey, mem + GUARD, EEL_FW_SQE_SIGNALED, 1, 0);
	fn_post(&w.p->a, &d);
	fn_settle(w.p, 2000);
	CHECK(fn_poll(&w.p->a, &e) && e.status == EEL_FW_OK, "first put: status %u", e.status);
	memset(mem, 0xEE, sizeof(mem));
	fn_mr_invalidate(&w.p->b, EEL_FW_KEY_INDEX(w.rkey)); /* the NIC's cached copy must go */
	fn_post(&w.p->a, &d);
	fn_settle(w.p, 2000);
	CHECK(fn_poll(&w.p->a, &e) && e.status == EEL_FW_ERR_REMOTE_ACCESS, "deregistered region: status %u",
	      e.status);
	CHECK(untouched(), "deregistered region written");
	fn_pair_free(w.p);
}

/* Errors found at the sender: nothing goes on the wire, the sender fails. */
static void local_error(const char *what, struct eel_fw_sqe bad, uint32_t code)
{
	struct world w = world();
	struct eel_fw_sqe ok = fn_put_desc(w.lkey, src, 8, w.rkey, mem + GUARD, EEL_FW_SQE_SIGNALED, 7, 0);
	struct eel_fw_cqe e = { 0 };

	if (bad.lkey == 1)
		bad.lkey = w.lkey;
	bad.rkey = w.rkey;
	bad.raddr = (uintptr_t)(mem + GUARD);
	/* one good put ahead of it: the bad one completes after it, in order */
	fn_post(&w.p->a, &ok);
	fn_post(&w.p->a, &bad);
	fn_post(&w.p->a, &ok);
	fn_settle(w.p, 2000);
	CHECK(fn_poll(&w.p->a, &e) && e.wr_id == 7 && e.status == EEL_FW_OK, "%s: first CQE %llu status %u", what,
	      (unsigned long long)e.wr_id, e.status);
	CHECK(fn_poll(&w.p->a, &e) && e.wr_id == 1 && e.status == code, "%s: CQE wr_id %llu status %u, want %u",
	      what, (unsigned long long)e.wr_id, e.status, code);
	CHECK(fn_poll(&w.p->a, &e) && e.wr_id == 7 && e.status == EEL_FW_ERR_FLUSHED, "%s: third CQE %llu status %u",
	      what, (unsigned long long)e.wr_id, e.status);
	CHECK_EQ_U(w.p->a.status.error, code);
	CHECK_EQ_U(w.p->a.status.error_info, 1); /* the descriptor's index */
	CHECK_EQ_U(w.p->b.status.error, 0);
	CHECK_EQ_U(fn_counter(&w.p->b, EEL_FW_CNT_RX_MSGS), 1);
	CHECK_EQ_U(w.p->a.status.sq_cons, 3);
	CHECK_EQ_U(w.p->a.dma_violations + w.p->b.dma_violations, 0);
	fn_pair_free(w.p);
}

static void test_local(void)
{
	struct eel_fw_sqe d = fn_put_desc(1, src, 8, 0, NULL, 0, 1, 0);

	d.lkey = EEL_FW_KEY(1, 99);
	local_error("bad lkey", d, EEL_FW_ERR_LOCAL_ACCESS);
	d = fn_put_desc(1, src, sizeof(src) + 1, 0, NULL, 0, 1, 0);
	local_error("source past the region", d, EEL_FW_ERR_LOCAL_ACCESS);
	d = fn_put_desc(1, src, 8, 0, NULL, 0, 1, 0);
	d.laddr = (uintptr_t)mem; /* not in the region the key names */
	local_error("source outside the region", d, EEL_FW_ERR_LOCAL_ACCESS);
	d = fn_put_desc(0, src, EEL_FW_MAX_INLINE + 1, 0, NULL, EEL_FW_SQE_INLINE, 1, 0);
	local_error("inline too long", d, EEL_FW_ERR_BAD_DESC);
	d = fn_put_desc(1, src, 8, 0, NULL, 0, 1, 0);
	d.opcode = 9;
	local_error("unknown opcode", d, EEL_FW_ERR_BAD_DESC);
}

/* A peer that never answers: after retry_limit timeouts the connection fails
 * with RETRY and the puts in flight are flushed. */
static void test_retry_limit(void)
{
	struct fn_config c = fn_defaults();
	struct fn_pair *p;
	struct eel_fw_cqe e = { 0 };
	struct eel_fw_sqe d;
	uint32_t lkey, rkey;

	c.retry_limit = 3;
	c.rto = 50;
	p = fn_pair_new(&c);
	lkey = fn_mr(&p->a, 1, src, sizeof(src), EEL_FW_MR_LOCAL_READ);
	rkey = fn_mr(&p->b, 3, mem + GUARD, WIN, EEL_FW_MR_REMOTE_WRITE);
	p->ab.drop = 1.0;
	d = fn_put_desc(lkey, src, 8, rkey, mem + GUARD, EEL_FW_SQE_SIGNALED, 1, 0);
	fn_post(&p->a, &d);
	fn_post(&p->a, &d);
	/* the timeout doubles: 50, 100, 200, 400 ticks, then the 4th expiry fails it;
	 * the first resends the oldest alone (F-RTO: the next ACK would tell a slow
	 * peer from a loss), the next two both: 1 + 2 + 2 */
	for (int i = 0; i < 2000 && !p->a.status.error; i++)
		fn_step(p);
	CHECK_EQ_U(p->a.status.error, EEL_FW_ERR_RETRY);
	CHECK_EQ_U(fn_counter(&p->a, EEL_FW_CNT_TIMEOUTS), 4);
	CHECK_EQ_U(fn_counter(&p->a, EEL_FW_CNT_RETRANSMITS), 5);
	CHECK(fn_poll(&p->a, &e) && e.status == EEL_FW_ERR_FLUSHED && fn_poll(&p->a, &e) &&
	      e.status == EEL_FW_ERR_FLUSHED, "CQE status %u", e.status);
	CHECK_EQ_U(p->a.status.sq_cons, 2);
	fn_pair_free(p);
}

/* The firmware's fast path (firmware/README.md, "The fast path") takes only
 * what it may: a one-packet put or E-register store in order is delivered as
 * the general path delivers it, and a packet that only looks like one goes to
 * the general path's checks. A PUT whose first and last packet claims a
 * message (mlen) larger than itself is checked for the whole message, as
 * pkt.h says, and refused when that runs past the region: a fast path that
 * checked the packet's own bytes alone would write them. The frame is
 * changed on the wire between the two NICs.
 *
 * fast_put: post an 8-byte put (or E-register store) from a to b at off, let
 * a send it, set its frame's mlen to `mlen` (0: leave it), then let both run. */
static struct fn_pair *fast_put(int ereg, uint32_t off, uint32_t mlen)
{
	struct world w = world();
	struct fn_pair *p = w.p;
	struct eel_fw_sqe d = fn_put_desc(w.lkey, src, 8, w.rkey, mem + GUARD + off, EEL_FW_SQE_SIGNALED, 1, 0);

	if (ereg)
		fn_ereg(&p->a, 0, EEL_FW_EREG_PUT, w.rkey, mem + GUARD + off, 0x5A5A5A5A5A5A5A5Aull);
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

static int fast_landed(uint32_t off)
{
	for (size_t i = 0; i < sizeof(mem); i++)
		if (mem[i] != (i >= GUARD + off && i < GUARD + off + 8 ? 0x5A : 0xEE))
			return 0;
	return 1;
}

/* Delivered: the 8 bytes and nothing else, once, both ends well. */
static void fast_delivered(const char *what, int ereg, uint32_t off, uint32_t mlen)
{
	struct fn_pair *p = fast_put(ereg, off, mlen);

	CHECK(fast_landed(off), "%s: the target's memory is not the 8 bytes at %u alone", what, off);
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
static void fast_refused(const char *what, int ereg, uint32_t off, uint32_t mlen)
{
	struct fn_pair *p = fast_put(ereg, off, mlen);

	CHECK(untouched(), "%s: the target's memory was written", what);
	CHECK_EQ_U(fn_counter(&p->b, EEL_FW_CNT_RX_MSGS), 0);
	CHECK_EQ_U(fn_counter(&p->b, EEL_FW_CNT_ACCESS_ERRS), 1);
	CHECK_EQ_U(p->a.status.error, EEL_FW_ERR_REMOTE_ACCESS);
	CHECK_EQ_U(p->b.status.error, EEL_FW_ERR_REMOTE_ACCESS);
	CHECK_EQ_U(p->a.dma_violations + p->b.dma_violations, 0);
	fn_pair_free(p);
}

static void test_fast_path(void)
{
	fast_delivered("put", 0, 0, 0);
	fast_delivered("put at the region's last 8 bytes", 0, WIN - 8, 0);
	fast_delivered("E-register store", 1, 16, 0);
	fast_delivered("E-register store at the region's last 8 bytes", 1, WIN - 8, 0);
	/* a one-packet PUT claiming a larger message that still fits: the
	 * general path checks the whole and writes the packet's bytes */
	fast_delivered("put claiming 16 bytes, inside", 0, 0, 16);
	fast_refused("put one byte past the end", 0, WIN - 7, 0);
	fast_refused("E-register store one byte past the end", 1, WIN - 7, 0);
	/* the packet's own bytes fit; the message it claims does not */
	fast_refused("put claiming a message past the end", 0, 0, WIN + 1);
	fast_refused("put claiming a message past the end, at its last bytes", 0, WIN - 8, 9);
}

int main(void)
{
	test_remote();
	test_permissions();
	test_local();
	test_retry_limit();
	test_fast_path();
	CHECK_DONE();
}
