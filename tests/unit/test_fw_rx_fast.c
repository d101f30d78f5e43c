/* SPDX-License-Identifier: MIT */
/* tests/unit/test_fw_rx_fast.c — the receive fast path (firmware/fw_recv.c,
 * rx_fast) takes only what it may: frames written by hand onto the wire of
 * a receiving firmware whose HAL is direct (registers and DMA as plain
 * memory, where the fast path runs), one case each that it must hand to
 * the general path: a PSN ahead or behind, a gap just filled (selective
 * repeat), a key not cached or changed in the table, out of bounds, a
 * message longer than its packet, NOTIFY, two packets, a first
 * packet not the last, a malformed frame, a failed connection. Each case
 * checks what the general path does with it (written or not, counters,
 * the NAK, the CQE, the error), which a fast path that took it would not.
 * A traced put it takes, and writes the record the general path writes;
 * an emulated receive delay it spins where the general path does.
 * (A runt is refused before a byte past it is read: ASan's to see.)
 * Two firmwares on a fake HAL (fakenic.h); only the receiver steps. */
#include "check.h"
#include "fakenic.h"

#define WIN 64u  /* the window: dst[WIN .. 2 WIN), guarded on both sides */

static uint8_t dst[3 * WIN];

struct rx {
	struct fn_pair *p;
	struct fn_nic *b;  /* the receiver */
	uint32_t rkey;
	uint32_t psn;      /* the next PSN it expects */
};

/* A frame onto the wire to b: header fields as given, len payload bytes of
 * value v, frame_len bytes in all (0: header and payload). */
static void frame(struct rx *r, uint8_t op, uint8_t flags, uint32_t psn, uint32_t rkey, uint32_t off,
		  uint16_t len, uint32_t mlen, uint8_t v, uint32_t frame_len)
{
	uint8_t buf[FW_PKT_HDR + 2 * WIN];
	struct fw_pkt h = {
		.magic = FW_WIRE_MAGIC, .op = op, .flags = flags, .psn = psn, .msg_id = 500 + psn,
		.raddr = (uintptr_t)dst + off, .rkey = rkey, .len = len, .tx_seq = (uint16_t)psn,
		.imm = 77, .mlen = mlen,
	};

	fw_pkt_write(buf, &h);
	memset(buf + FW_PKT_HDR, v, len);
	fn_link_insert(&r->p->ab, r->p->ab.n, buf, frame_len ? frame_len : FW_PKT_HDR + len, r->p->now);
}

/* One 8-byte put of value v at the window's offset off, PSN psn, taken in. */
static void put8(struct rx *r, uint8_t flags, uint32_t psn, uint32_t off, uint8_t v)
{
	frame(r, FW_PKT_PUT, flags, psn, r->rkey, off, 8, 8, v, 0);
	fw_step(&r->b->fw);
	r->p->now++;
}

static int filled(uint32_t off, uint32_t n, uint8_t v)
{
	for (uint32_t i = 0; i < n; i++)
		if (dst[off + i] != v)
			return 0;
	return 1;
}

static uint64_t cnt(const struct rx *r, int c)
{
	return fn_counter(r->b, c);
}

/* A receiver with a direct HAL and a window, its key cached by a first put
 * (PSN 0), which the general path takes: the key was not cached yet. */
static struct rx rx_new_dir(uint32_t recovery, int direct)
{
	struct fn_config c = fn_defaults();
	struct rx r;

	c.direct = direct;
	c.recovery = recovery;
	r.p = fn_pair_new(&c);
	r.b = &r.p->b;
	memset(dst, 0xEE, sizeof(dst));
	r.rkey = fn_mr(r.b, 2, dst + WIN, WIN, EEL_FW_MR_REMOTE_WRITE);
	put8(&r, FW_PKT_FIRST | FW_PKT_LAST, 0, WIN, 0x10);
	r.psn = 1;
	CHECK(filled(WIN, 8, 0x10) && cnt(&r, EEL_FW_CNT_RX_MSGS) == 1,
	      "the first put (key not cached) was not delivered");
	return r;
}

static struct rx rx_new_with(uint32_t recovery)
{
	return rx_new_dir(recovery, 1);
}

static struct rx rx_new(void)
{
	return rx_new_with(EEL_FW_RECOVERY_GBN);
}

static void rx_free(struct rx *r)
{
	CHECK(filled(0, WIN, 0xEE) && filled(2 * WIN, WIN, 0xEE), "a write outside the window");
	fn_pair_free(r->p);
}

/* In order, in bounds, key cached: taken, with what deliver writes. */
static void test_in_order(void)
{
	struct rx r = rx_new();

	put8(&r, FW_PKT_FIRST | FW_PKT_LAST | FW_PKT_ACKREQ, 1, WIN + 8, 0x11);
	CHECK(filled(WIN + 8, 8, 0x11), "an in-order put was not written");
	CHECK_EQ_U(cnt(&r, EEL_FW_CNT_RX_MSGS), 2);
	CHECK_EQ_U(cnt(&r, EEL_FW_CNT_RX_PKTS), 2);
	CHECK_EQ_U((uint32_t)r.b->status.last_rx, 501);
	CHECK_EQ_U(r.b->fw.rcv_nxt, 2);
	/* ACKREQ: answered in the same pass's send half */
	CHECK(r.p->ba.n && fn_hdr(&r.p->ba, r.p->ba.n - 1).ack == 2, "no ACK of PSN 1 (%u frames back)", r.p->ba.n);
	rx_free(&r);
}

/* A PSN ahead: nothing written, out of order, NAKed at once. */
static void test_psn_ahead(void)
{
	struct rx r = rx_new();

	put8(&r, FW_PKT_FIRST | FW_PKT_LAST, 2, WIN + 8, 0x12);
	CHECK(filled(WIN + 8, 8, 0xEE), "a put past a gap was written");
	CHECK_EQ_U(cnt(&r, EEL_FW_CNT_RX_MSGS), 1);
	CHECK_EQ_U(cnt(&r, EEL_FW_CNT_OOO), 1);
	CHECK(r.p->ba.n == 1 && fn_hdr(&r.p->ba, 0).op == FW_PKT_NAK, "no NAK for the gap (%u frames back)",
	      r.p->ba.n);
	rx_free(&r);
}

/* A PSN behind (a duplicate): never written again, the ACK owed again. */
static void test_psn_behind(void)
{
	struct rx r = rx_new();

	put8(&r, FW_PKT_FIRST | FW_PKT_LAST, 0, WIN, 0x13);
	CHECK(filled(WIN, 8, 0x10), "a duplicate was written again");
	CHECK_EQ_U(cnt(&r, EEL_FW_CNT_DUPS), 1);
	CHECK_EQ_U(cnt(&r, EEL_FW_CNT_RX_MSGS), 1);
	rx_free(&r);
}

/* The put's checks fail the connection: nothing written, the access error,
 * and no later put delivered. */
static void refused(struct rx *r, const char *what)
{
	CHECK(filled(WIN + 8, WIN - 8, 0xEE), "%s: written", what);
	CHECK_EQ_U(cnt(r, EEL_FW_CNT_ACCESS_ERRS), 1);
	CHECK(r->b->fw.error == EEL_FW_ERR_REMOTE_ACCESS, "%s: error %u", what, r->b->fw.error);
	put8(r, FW_PKT_FIRST | FW_PKT_LAST, r->psn, WIN + 8, 0x1f);
	CHECK(filled(WIN + 8, 8, 0xEE), "%s: a put after the failure was written", what);
}

/* The key's entry changed in the table (mr_gen): the cached one is not used. */
static void test_key_changed(void)
{
	struct rx r = rx_new();

	fn_mr_invalidate(r.b, 2);
	put8(&r, FW_PKT_FIRST | FW_PKT_LAST, 1, WIN + 8, 0x14);
	refused(&r, "an invalidated key");
	rx_free(&r);
}

/* A key the region table never gave: refused. */
static void test_key_wrong(void)
{
	struct rx r = rx_new();

	frame(&r, FW_PKT_PUT, FW_PKT_FIRST | FW_PKT_LAST, 1, r.rkey ^ 1, WIN + 8, 8, 8, 0x15, 0);
	fw_step(&r.b->fw);
	refused(&r, "a wrong tag");
	rx_free(&r);
}

/* Out of bounds: the last 4 bytes past the window's end. */
static void test_out_of_bounds(void)
{
	struct rx r = rx_new();

	put8(&r, FW_PKT_FIRST | FW_PKT_LAST, 1, 2 * WIN - 4, 0x16);
	refused(&r, "out of bounds");
	rx_free(&r);
}

/* One packet of a longer message (mlen > len, FIRST and LAST both set, as no
 * sender does): the whole message is checked, and it does not fit. */
static void test_message_longer(void)
{
	struct rx r = rx_new();

	frame(&r, FW_PKT_PUT, FW_PKT_FIRST | FW_PKT_LAST, 1, r.rkey, WIN + 8, 8, WIN, 0x17, 0);
	fw_step(&r.b->fw);
	refused(&r, "mlen past the window");
	rx_free(&r);
}

/* NOTIFY: its CQE, with imm and the message's length. */
static void test_notify(void)
{
	struct rx r = rx_new();
	struct eel_fw_cqe e = { 0 };

	put8(&r, FW_PKT_FIRST | FW_PKT_LAST | FW_PKT_NOTIFY, 1, WIN + 8, 0x18);
	CHECK(filled(WIN + 8, 8, 0x18), "a NOTIFY put was not written");
	CHECK(fn_poll(r.b, &e) && e.opcode == EEL_FW_CQE_NOTIFY && e.imm == 77 && e.len == 8,
	      "no NOTIFY CQE (opcode %u imm %u len %u)", e.opcode, e.imm, e.len);
	rx_free(&r);
}

/* The receiver's clock: a tick at each read. */
static uint64_t tick_now(void *ctx)
{
	return (*(uint64_t *)(uintptr_t)((struct fn_nic *)ctx)->now)++;
}

/* TRACE: the message's RX record, marked in last_rx, its stamps (NIC_RX,
 * DMA_START, DMA_DONE: every stamp, syndrome 0) read off a clock that ticks
 * at each read, and the same record, read off the same ticks, as a
 * receiver whose HAL is not direct, where only the general path runs: a
 * traced put is timed on the path an untraced one takes (the breakdown). */
static void test_trace(void)
{
	static struct fw_hal_ops ticking;
	struct eel_trace rec[2];
	uint64_t last_rx[2];

	ticking = fn_hal_ops;
	ticking.now = tick_now;
	for (int direct = 1; direct >= 0; direct--) {
		struct rx r = rx_new_dir(EEL_FW_RECOVERY_GBN, direct);
		const struct eel_trace *t = &r.b->trace[FN_TR + 0];

		r.b->fw.hal.ops = &ticking;
		r.p->now = 1000;
		put8(&r, FW_PKT_FIRST | FW_PKT_LAST | FW_PKT_TRACE, 1, WIN + 8, 0x19);
		fw_step(&r.b->fw); /* the record, owed, written */
		CHECK(filled(WIN + 8, 8, 0x19), "direct %d: a traced put was not written", direct);
		CHECK(r.b->status.last_rx & EEL_FW_LAST_RX_TRACED, "direct %d: last_rx 0x%llx: not traced", direct,
		      (unsigned long long)r.b->status.last_rx);
		CHECK(t->valid && t->msg_id == 501 && t->t[EEL_ST_NIC_RX] >= 1000 &&
		      t->t[EEL_ST_NIC_RX] < t->t[EEL_ST_DMA_START] && t->t[EEL_ST_DMA_START] < t->t[EEL_ST_DMA_DONE],
		      "direct %d: RX record valid %u msg %u, NIC_RX %llu DMA_START %llu DMA_DONE %llu", direct,
		      t->valid, t->msg_id, (unsigned long long)t->t[EEL_ST_NIC_RX],
		      (unsigned long long)t->t[EEL_ST_DMA_START], (unsigned long long)t->t[EEL_ST_DMA_DONE]);
		rec[direct] = *t;
		last_rx[direct] = r.b->status.last_rx;
		rx_free(&r);
	}
	CHECK(memcmp(&rec[0], &rec[1], sizeof(rec[0])) == 0 && last_rx[0] == last_rx[1],
	      "the RX record or last_rx differ between the fast path's host and the general path's");
}

/* An emulated receive delay (rx_ns, dma_ns): spun where deliver spins it,
 * on the fast path's delayed instance (rx_take_delayed; rx_traced's own for
 * a traced frame) with a direct HAL, on the general path without: each put
 * written once, counted once, the clock (a tick at each read) moved on by
 * at least both delays, and a traced one's stamps apart by at least each
 * delay, NIC_RX to DMA_START and DMA_START to DMA_DONE. The delays set as
 * fw_start sets them from the delay registers. */
static void test_delayed(void)
{
	static struct fw_hal_ops ticking;

	ticking = fn_hal_ops;
	ticking.now = tick_now;
	for (int direct = 1; direct >= 0; direct--) {
		struct rx r = rx_new_dir(EEL_FW_RECOVERY_GBN, direct);
		const struct eel_trace *t = &r.b->trace[FN_TR + 0];
		uint64_t t0;

		r.b->fw.hal.ops = &ticking;
		r.b->fw.delay_rx = 50;
		r.b->fw.delay_dma = 70;
		r.b->fw.rx_delayed = r.b->fw.rx_plain;
		r.b->fw.rx_plain = 0;
		r.p->now = t0 = 1000;
		put8(&r, FW_PKT_FIRST | FW_PKT_LAST, 1, WIN + 8, 0x21);
		CHECK(filled(WIN + 8, 8, 0x21) && cnt(&r, EEL_FW_CNT_RX_MSGS) == 2 && cnt(&r, EEL_FW_CNT_RX_PKTS) == 2 &&
		      r.b->fw.rcv_nxt == 2, "direct %d: a delayed put not taken once: %llu messages, rcv_nxt %u", direct,
		      (unsigned long long)cnt(&r, EEL_FW_CNT_RX_MSGS), r.b->fw.rcv_nxt);
		CHECK(r.p->now - t0 >= 120, "direct %d: the delays were not spun: %llu ticks", direct,
		      (unsigned long long)(r.p->now - t0));
		put8(&r, FW_PKT_FIRST | FW_PKT_LAST | FW_PKT_TRACE, 2, WIN + 16, 0x22);
		fw_step(&r.b->fw); /* the record, owed, written */
		CHECK(filled(WIN + 16, 8, 0x22) && cnt(&r, EEL_FW_CNT_RX_MSGS) == 3 && r.b->fw.rcv_nxt == 3,
		      "direct %d: a delayed traced put not taken once", direct);
		CHECK(t->valid && t->msg_id == 502 && t->t[EEL_ST_DMA_START] - t->t[EEL_ST_NIC_RX] >= 50 &&
		      t->t[EEL_ST_DMA_DONE] - t->t[EEL_ST_DMA_START] >= 70,
		      "direct %d: RX record valid %u msg %u, NIC_RX %llu DMA_START %llu DMA_DONE %llu", direct, t->valid,
		      t->msg_id, (unsigned long long)t->t[EEL_ST_NIC_RX], (unsigned long long)t->t[EEL_ST_DMA_START],
		      (unsigned long long)t->t[EEL_ST_DMA_DONE]);
		rx_free(&r);
	}
}

/* Selective repeat, a packet kept past a gap: the one that fills the gap is
 * delivered and the kept one after it (drained), not the first alone. */
static void test_gap_filled(void)
{
	struct rx r = rx_new_with(EEL_FW_RECOVERY_SR);

	put8(&r, FW_PKT_FIRST | FW_PKT_LAST, 2, WIN + 16, 0x22);
	CHECK(filled(WIN + 16, 8, 0xEE), "a packet past the gap was written before it");
	put8(&r, FW_PKT_FIRST | FW_PKT_LAST, 1, WIN + 8, 0x23);
	CHECK(filled(WIN + 8, 8, 0x23) && filled(WIN + 16, 8, 0x22), "the gap's packet and the kept one: %s",
	      filled(WIN + 8, 8, 0x23) ? "the kept one not drained" : "the gap's not written");
	CHECK_EQ_U(r.b->fw.rcv_nxt, 3);
	CHECK_EQ_U(cnt(&r, EEL_FW_CNT_RX_MSGS), 3);
	rx_free(&r);
}

/* A first packet that is not the last, of its message's length (no sender
 * does that): written, but no message counted and last_rx not moved. */
static void test_first_not_last(void)
{
	struct rx r = rx_new();

	put8(&r, FW_PKT_FIRST, 1, WIN + 8, 0x24);
	CHECK(filled(WIN + 8, 8, 0x24), "a first packet was not written");
	CHECK_EQ_U(cnt(&r, EEL_FW_CNT_RX_MSGS), 1);
	CHECK_EQ_U((uint32_t)r.b->status.last_rx, 500);
	rx_free(&r);
}

/* Two packets: a message counted once, at its last. */
static void test_two_packets(void)
{
	struct rx r = rx_new();

	frame(&r, FW_PKT_PUT, FW_PKT_FIRST, 1, r.rkey, WIN + 8, 8, 16, 0x1a, 0);
	fw_step(&r.b->fw);
	CHECK(filled(WIN + 8, 8, 0x1a), "a first packet was not written");
	CHECK_EQ_U(cnt(&r, EEL_FW_CNT_RX_MSGS), 1);
	frame(&r, FW_PKT_PUT, FW_PKT_LAST, 2, r.rkey, WIN + 16, 8, 0, 0x1b, 0);
	fw_step(&r.b->fw);
	CHECK(filled(WIN + 16, 8, 0x1b), "a last packet was not written");
	CHECK_EQ_U(cnt(&r, EEL_FW_CNT_RX_MSGS), 2);
	CHECK_EQ_U(r.b->fw.rx_bytes, 16);
	rx_free(&r);
}

/* Malformed frames: counted BAD, nothing written, rcv_nxt where it was. */
static void test_malformed(void)
{
	struct rx r = rx_new();

	/* an EPUT of other than 8 bytes */
	frame(&r, FW_PKT_EPUT, FW_PKT_FIRST | FW_PKT_LAST, 1, r.rkey, WIN + 8, 16, 16, 0x1c, 0);
	/* a header whose length disagrees with the frame's */
	frame(&r, FW_PKT_PUT, FW_PKT_FIRST | FW_PKT_LAST, 1, r.rkey, WIN + 8, 8, 8, 0x1d, FW_PKT_HDR + 12);
	/* a runt: shorter than a header */
	frame(&r, FW_PKT_PUT, FW_PKT_FIRST | FW_PKT_LAST, 1, r.rkey, WIN + 8, 0, 0, 0x1e, FW_PKT_HDR - 16);
	/* another wire version's packet */
	frame(&r, FW_PKT_PUT, FW_PKT_FIRST | FW_PKT_LAST, 1, r.rkey, WIN + 8, 8, 8, 0x1f, 0);
	r.p->ab.q[r.p->ab.n - 1].buf[0] = FW_WIRE_MAGIC - 1;
	fw_step(&r.b->fw);
	CHECK_EQ_U(cnt(&r, EEL_FW_CNT_BAD), 4);
	CHECK(filled(WIN + 8, WIN - 8, 0xEE), "a malformed frame was written");
	CHECK_EQ_U(r.b->fw.rcv_nxt, 1);
	rx_free(&r);
}

/* A packet longer than any MTU (EEL_FW_MTU_MAX), into a region it fits:
 * malformed, counted BAD, not written. */
static void test_oversize(void)
{
	static uint8_t big[2 * EEL_FW_MTU_MAX], f[FW_PKT_HDR + EEL_FW_MTU_MAX + 8];
	struct rx r = rx_new();
	uint32_t key = fn_mr(r.b, 3, big, sizeof(big), EEL_FW_MR_REMOTE_WRITE);
	struct fw_pkt h = {
		.magic = FW_WIRE_MAGIC, .op = FW_PKT_PUT, .flags = FW_PKT_FIRST | FW_PKT_LAST, .psn = 1,
		.msg_id = 501, .raddr = (uintptr_t)big, .rkey = key, .len = EEL_FW_MTU_MAX + 8,
		.mlen = EEL_FW_MTU_MAX + 8,
	};

	/* the key cached first, by a put in bounds */
	frame(&r, FW_PKT_PUT, FW_PKT_FIRST | FW_PKT_LAST, 1, key, 0, 8, 8, 0x25, 0);
	memcpy(r.p->ab.q[r.p->ab.n - 1].buf + offsetof(struct fw_pkt, raddr), &h.raddr, 8); /* into big */
	fw_step(&r.b->fw);
	REQUIRE(big[0] == 0x25, "the put in bounds of the big region was not written");
	h.psn = 2;
	fw_pkt_write(f, &h);
	memset(f + FW_PKT_HDR, 0x26, EEL_FW_MTU_MAX + 8);
	fn_link_insert(&r.p->ab, r.p->ab.n, f, sizeof(f), r.p->now);
	fw_step(&r.b->fw);
	CHECK_EQ_U(cnt(&r, EEL_FW_CNT_BAD), 1);
	CHECK(big[8] == 0 && big[EEL_FW_MTU_MAX] == 0, "a packet over the MTU was written");
	rx_free(&r);
}

/* An E-register store of 8 bytes in order: taken; at a PSN behind: not. */
static void test_eput(void)
{
	struct rx r = rx_new();

	frame(&r, FW_PKT_EPUT, FW_PKT_FIRST | FW_PKT_LAST, 1, r.rkey, WIN + 8, 8, 0, 0x20, 0);
	frame(&r, FW_PKT_EPUT, FW_PKT_FIRST | FW_PKT_LAST, 1, r.rkey, WIN + 16, 8, 0, 0x21, 0);
	fw_step(&r.b->fw);
	CHECK(filled(WIN + 8, 8, 0x20), "an EPUT in order was not written");
	CHECK(filled(WIN + 16, 8, 0xEE), "an EPUT duplicate was written");
	CHECK_EQ_U(cnt(&r, EEL_FW_CNT_DUPS), 1);
	rx_free(&r);
}

int main(void)
{
	test_in_order();
	test_psn_ahead();
	test_psn_behind();
	test_key_changed();
	test_key_wrong();
	test_out_of_bounds();
	test_message_longer();
	test_notify();
	test_trace();
	test_delayed();
	test_two_packets();
	test_gap_filled();
	test_first_not_last();
	test_malformed();
	test_eput();
	test_oversize();
	CHECK_DONE();
}
