/* SPDX-License-Identifier: MIT */
/* tests/unit/test_parse.c — fw_pkt_parse (firmware/pkt.h): every well-formed
 * shape accepted, every malformed one refused with the code naming its
 * defect, and never a byte read beyond the frame. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "firmware/fw.h"

static struct fw_pkt hdr(uint8_t op, uint16_t len)
{
	struct fw_pkt p = {
		.magic = FW_WIRE_MAGIC, .op = op, .flags = FW_PKT_FIRST | FW_PKT_LAST, .psn = 7, .ack = 3,
		.msg_id = 9, .raddr = 0x1000, .rkey = 0x105, .len = len, .imm = 42, .mlen = len,
	};

	return p;
}

/* Parse hdr followed by `payload` bytes, from a heap block of exactly that
 * size at an odd address, so ASan sees any read past the end. */
static int parse(const struct fw_pkt *h, uint32_t payload, uint32_t frame_len, struct fw_pkt *out)
{
	uint32_t n = FW_PKT_HDR + payload;
	uint8_t *block = malloc(n + 1), *frame = block + 1;
	int rc;

	if (!block)
		abort();
	fw_pkt_write(frame, h);
	for (uint32_t i = 0; i < payload; i++)
		frame[FW_PKT_HDR + i] = (uint8_t)i;
	rc = fw_pkt_parse(frame, frame_len, out);
	free(block);
	return rc;
}

static void test_good(void)
{
	static const struct { uint8_t op; uint16_t len; } ok[] = {
		{ FW_PKT_PUT, 0 }, { FW_PKT_PUT, 1 }, { FW_PKT_PUT, 4096 }, { FW_PKT_PUT, EEL_FW_MTU_MAX },
		{ FW_PKT_EPUT, 8 }, { FW_PKT_EGET_REQ, 0 }, { FW_PKT_EGET_RESP, 8 }, { FW_PKT_ACK, 0 },
		{ FW_PKT_NAK, 0 },
	};

	for (unsigned i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		struct fw_pkt h = hdr(ok[i].op, ok[i].len), out;
		int rc = parse(&h, ok[i].len, FW_PKT_HDR + ok[i].len, &out);

		CHECK(rc == 0, "op %u len %u: rc %d", ok[i].op, ok[i].len, rc);
		CHECK(rc || memcmp(&out, &h, sizeof(h)) == 0, "op %u len %u: header not copied as sent", ok[i].op,
		      ok[i].len);
	}
}

static void test_runt(void)
{
	struct fw_pkt h = hdr(FW_PKT_ACK, 0), out;

	for (uint32_t n = 0; n < FW_PKT_HDR; n++)
		CHECK(parse(&h, 0, n, &out) == -1, "a %u-byte frame is not a runt", n);
}

static void test_magic(void)
{
	for (unsigned m = 0; m < 256; m++) {
		struct fw_pkt h = hdr(FW_PKT_ACK, 0), out;

		h.magic = (uint8_t)m;
		CHECK(parse(&h, 0, FW_PKT_HDR, &out) == (m == FW_WIRE_MAGIC ? 0 : -2), "magic 0x%02x", m);
	}
}

static void test_op(void)
{
	for (unsigned op = 0; op < 256; op++) {
		struct fw_pkt h = hdr((uint8_t)op, 0), out;
		int rc = parse(&h, 0, FW_PKT_HDR, &out);

		if (op == 0 || op > FW_PKT_OP_MAX)
			CHECK(rc == -3, "op %u: rc %d", op, rc);
		else
			CHECK(rc != -3, "op %u refused as unknown", op);
	}
}

/* The header's len must be exactly what follows it, and at most the MTU. */
static void test_length(void)
{
	struct fw_pkt h = hdr(FW_PKT_PUT, 100), out;

	CHECK(parse(&h, 100, FW_PKT_HDR + 99, &out) == -4, "frame shorter than len");
	CHECK(parse(&h, 101, FW_PKT_HDR + 101, &out) == -4, "frame longer than len");
	CHECK(parse(&h, 0, FW_PKT_HDR, &out) == -4, "header only, len 100");
	h = hdr(FW_PKT_PUT, EEL_FW_MTU_MAX + 1);
	CHECK(parse(&h, EEL_FW_MTU_MAX + 1, FW_PKT_HDR + EEL_FW_MTU_MAX + 1, &out) == -4, "len above the MTU bound");
	h = hdr(FW_PKT_PUT, 0xffff);
	CHECK(parse(&h, 0xffff, FW_PKT_HDR + 0xffff, &out) == -4, "len 0xffff");
	/* a frame_len that would wrap a careless subtraction */
	h = hdr(FW_PKT_PUT, 0);
	CHECK(parse(&h, 0, FW_PKT_HDR - 1, &out) == -1, "runt by one");
}

/* Op-specific lengths: EPUT and EGET_RESP carry 8 bytes, the rest none. */
static void test_op_lengths(void)
{
	static const uint16_t lens[] = { 0, 1, 7, 8, 9, 16 };

	for (uint8_t op = FW_PKT_EPUT; op <= FW_PKT_OP_MAX; op++)
		for (unsigned i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
			struct fw_pkt h = hdr(op, lens[i]), out;
			int want = (op == FW_PKT_EPUT || op == FW_PKT_EGET_RESP) ? (lens[i] == 8 ? 0 : -5)
										  : (lens[i] == 0 ? 0 : -5);
			int rc = parse(&h, lens[i], FW_PKT_HDR + lens[i], &out);

			CHECK(rc == want, "op %u len %u: rc %d, want %d", op, lens[i], rc, want);
		}
}

/* The checks come in order: a runt is a runt whatever it holds, and so on. */
static void test_order(void)
{
	struct fw_pkt h = hdr(0, 3), out;

	h.magic = 0;
	CHECK(parse(&h, 0, FW_PKT_HDR - 1, &out) == -1, "runt first");
	CHECK(parse(&h, 0, FW_PKT_HDR, &out) == -2, "then magic");
	h.magic = FW_WIRE_MAGIC;
	CHECK(parse(&h, 0, FW_PKT_HDR, &out) == -3, "then op");
	h.op = FW_PKT_ACK;
	CHECK(parse(&h, 0, FW_PKT_HDR, &out) == -4, "then length");
	CHECK(parse(&h, 3, FW_PKT_HDR + 3, &out) == -5, "then the op's length");
}

/* PSN arithmetic wraps. */
static void test_psn(void)
{
	CHECK(fw_psn_before(1, 2) && !fw_psn_before(2, 1) && !fw_psn_before(5, 5), "small PSNs");
	CHECK(fw_psn_before(0xfffffff0u, 3) && !fw_psn_before(3, 0xfffffff0u), "across the wrap");
}

int main(void)
{
	test_good();
	test_runt();
	test_magic();
	test_op();
	test_length();
	test_op_lengths();
	test_order();
	test_psn();
	CHECK_DONE();
}
