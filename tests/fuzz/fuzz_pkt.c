/* SPDX-License-Identifier: MIT */
/* tests/fuzz/fuzz_pkt.c — libFuzzer target: the wire packet parser and a
 * running firmware fed arbitrary frames (firmware/, on the fake HAL of
 * tests/unit/fakenic.h).
 *
 * Input: one byte of setup, then records. Setup bit 0: three puts are in
 * flight (so ACKs, NAKs and resends have work); bit 1: an E-register store
 * and load are in flight (so EGET responses have an owner); bit 2: a small
 * CQ (receiver-not-ready); bit 3: traces on. Each record is one byte of kind
 * and two of length:
 *   kind % 4 == 0   a frame of `length` bytes off the wire (the bytes follow;
 *                   its raddr is relative to FUZZ_BASE)
 *   kind % 4 == 1   the clock jumps `length` ticks (RTO is 64)
 *   kind % 4 == 2   the host polls its CQ
 *   kind % 4 == 3   the host posts a put of `length % 2048` bytes
 * and the firmware runs one step after each (at most MAX_RECORDS records).
 *
 * What must hold: fw_pkt_parse never reads past a frame (ASan); the NIC
 * never touches host memory outside its rings, status block, traces and
 * registered regions (the fake HAL aborts), nor a BAR offset outside BAR0;
 * every frame it sends parses; no undefined behaviour (UBSan). */
#define FN_TRAP_VIOLATIONS
#include "fakenic.h"

#define ASSERT(c) do { if (!(c)) __builtin_trap(); } while (0)
#define MAX_RECORDS 64 /* steps per input: long inputs explore no more, only slower */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Frames name host addresses relative to FUZZ_BASE, so a corpus means the
 * same in every process: the target's receive window is at FUZZ_BASE, its
 * E-register words at FUZZ_BASE + 4096. */
#define FUZZ_BASE 0x10000000ull

static struct fn_nic *nic;
static struct fn_link *in, *out;
static uint64_t now;
static uint8_t src[4096];
static struct {
	uint8_t dst[4096];
	uint64_t words[4];
} mem;

/* Power-on once; each input starts from a copy of the firmware as reset
 * left it (fw_reset's byte-by-byte clear is most of the time otherwise). */
static struct fw *pristine;

static void setup(uint8_t flags)
{
	struct fn_config c = fn_defaults();

	if (!pristine) {
		struct fw_hal hal = { .ops = &fn_hal_ops, .ctx = nic, .wire = &nic->wire };

		pristine = malloc(sizeof(*pristine));
		if (!pristine)
			abort();
		fw_reset(pristine, &hal);
	}
	memset(nic, 0, sizeof(*nic));
	memcpy(&nic->fw, pristine, sizeof(*pristine));
	nic->bar.abi = EEL_FW_ABI_VERSION;
	fn_link_clear(in);
	fn_link_clear(out);
	fn_link_init(in, &now, 1);
	fn_link_init(out, &now, 2);
	memset(&mem, 0, sizeof(mem));
	now = 1000;
	c.cq_size = flags & 4 ? 4 : 64;
	c.rto = 64;
	c.retry_limit = 4;
	fn_nic_config(nic, "fuzzed", &now, out, in, &c);
	if (!(flags & 8))
		nic->bar.trace_size = 0;
	/* the regions, keys and addresses the corpus assumes */
	fn_mr(nic, 1, src, sizeof(src), EEL_FW_MR_LOCAL_READ);
	fn_mr(nic, 2, mem.dst, sizeof(mem.dst), EEL_FW_MR_REMOTE_WRITE);
	fn_mr(nic, 3, mem.words, sizeof(mem.words), EEL_FW_MR_REMOTE_WRITE | EEL_FW_MR_REMOTE_READ);
}

static void post(uint32_t len, uint8_t flags, uint32_t imm)
{
	struct eel_fw_sqe d = fn_put_desc(EEL_FW_KEY(1, 1 * 37 + 5), src, len, EEL_FW_KEY(2, 2 * 37 + 5),
					   (void *)(uintptr_t)0x100000, flags, imm, imm);

	if (flags & EEL_FW_SQE_TRACE)
		d.trace = imm;
	fn_post(nic, &d);
}

/* One firmware step; every frame it sent must parse, then leaves. */
static void step(void)
{
	fw_step(&nic->fw);
	for (uint32_t i = 0; i < out->n; i++) {
		struct fw_pkt p;

		ASSERT(fw_pkt_parse(out->q[i].buf, out->q[i].len, &p) == 0);
	}
	fn_link_clear(out);
	now++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t i = 1;

	if (!nic) {
		nic = calloc(1, sizeof(*nic));
		in = calloc(1, sizeof(*in));
		out = calloc(1, sizeof(*out));
		for (size_t k = 0; k < sizeof(src); k++)
			src[k] = (uint8_t)k;
	}
	/* the parser alone, on the whole input (libFuzzer's copy is exactly
	 * size bytes: ASan sees a read past it) */
	{
		struct fw_pkt p;

		if (fw_pkt_parse(data, (uint32_t)size, &p) == 0)
			ASSERT(size >= FW_PKT_HDR && p.len == size - FW_PKT_HDR);
	}
	if (size < 1)
		return 0;
	setup(data[0]);
	if (data[0] & 1) {
		post(8, EEL_FW_SQE_SIGNALED | (data[0] & 8 ? EEL_FW_SQE_TRACE : 0), 1);
		post(600, EEL_FW_SQE_NOTIFY, 2);
		post(5, EEL_FW_SQE_INLINE | EEL_FW_SQE_SIGNALED, 3);
	}
	if (data[0] & 2) {
		fn_ereg(nic, 0, EEL_FW_EREG_PUT, EEL_FW_KEY(3, 3 * 37 + 5), (void *)(uintptr_t)0x200000, 42);
		fn_ereg(nic, 1, EEL_FW_EREG_GET, EEL_FW_KEY(3, 3 * 37 + 5), (void *)(uintptr_t)0x200008, 0);
	}
	step();
	for (int r = 0; r < MAX_RECORDS && i + 3 <= size; r++) {
		uint8_t kind = data[i];
		uint32_t len = (uint32_t)(data[i + 1] | data[i + 2] << 8);
		struct eel_fw_cqe e;

		i += 3;
		switch (kind % 4) {
		case 0:
			if (len > size - i)
				len = (uint32_t)(size - i);
			if (in->n < 64) {
				fn_link_insert(in, in->n, data + i, len, now);
				if (len >= FW_PKT_HDR) {
					uint8_t *f = in->q[in->n - 1].buf;
					uint64_t raddr;

					memcpy(&raddr, f + offsetof(struct fw_pkt, raddr), 8);
					raddr += (uintptr_t)&mem - FUZZ_BASE;
					memcpy(f + offsetof(struct fw_pkt, raddr), &raddr, 8);
				}
			}
			i += len;
			break;
		case 1:
			now += len;
			break;
		case 2:
			while (fn_poll(nic, &e))
				;
			break;
		case 3:
			post(len % 2048, (uint8_t)(kind >> 2), kind);
			break;
		}
		step();
	}
	for (int k = 0; k < 4; k++)
		step();
	return 0;
}
