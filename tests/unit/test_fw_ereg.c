/* SPDX-License-Identifier: MIT */
/* tests/unit/test_fw_ereg.c — E-registers (Bell et al. 2003 §2, Cray T3E): a store
 * and a load of 8 bytes started from BAR0 with no descriptor; the answer
 * (value, then status = seq << 8 | DONE | code) in the same register; a lost
 * answer asked again; a refused load failing the connection; a bad command.
 * Two firmwares on a fake HAL (fakenic.h). */
#include "check.h"
#include "fakenic.h"

static uint64_t mem[64];

struct world {
	struct fn_pair *p;
	uint32_t rw, ro;    /* keys of b's memory: read-write, read-only */
};

static struct world world(void)
{
	struct fn_config c = fn_defaults();
	struct world w;

	w.p = fn_pair_new(&c);
	w.rw = fn_mr(&w.p->b, 1, mem, 32 * 8, EEL_FW_MR_REMOTE_WRITE | EEL_FW_MR_REMOTE_READ);
	w.ro = fn_mr(&w.p->b, 2, mem + 32, 32 * 8, EEL_FW_MR_REMOTE_READ);
	for (int i = 0; i < 64; i++)
		mem[i] = 0x1000 + (uint64_t)i;
	return w;
}

static int settle_ereg(struct fn_pair *p, struct fn_nic *n, uint32_t i)
{
	for (int k = 0; k < 5000; k++) {
		if (fn_ereg_status(n, i) >= 0)
			return fn_ereg_status(n, i);
		fn_step(p);
	}
	return -1;
}

static void test_put_get(void)
{
	struct world w = world();
	uint32_t seq;

	CHECK(fn_ereg_status(&w.p->a, 0) < 0 && !(w.p->a.bar.ereg[0].status & EEL_FW_EREG_DONE),
	      "a fresh register reads as done");
	seq = fn_ereg(&w.p->a, 0, EEL_FW_EREG_PUT, w.rw, &mem[3], 0xfeedface12345678ull);
	CHECK(settle_ereg(w.p, &w.p->a, 0) == EEL_FW_OK, "put: status %d", fn_ereg_status(&w.p->a, 0));
	CHECK_EQ_U(w.p->a.bar.ereg[0].status, seq << 8 | EEL_FW_EREG_DONE | EEL_FW_OK);
	CHECK_EQ_U(mem[3], 0xfeedface12345678ull);
	CHECK_EQ_U(mem[2], 0x1002);
	CHECK_EQ_U(mem[4], 0x1004);

	/* a load from a read-only region, on another register */
	seq = fn_ereg(&w.p->a, 5, EEL_FW_EREG_GET, w.ro, &mem[40], 0);
	CHECK(settle_ereg(w.p, &w.p->a, 5) == EEL_FW_OK, "get: status %d", fn_ereg_status(&w.p->a, 5));
	CHECK_EQ_U(w.p->a.bar.ereg[5].value, 0x1000 + 40);
	CHECK_EQ_U(w.p->a.bar.ereg[5].status, seq << 8 | EEL_FW_EREG_DONE);

	/* the same register again: a new sequence number, a new answer */
	mem[41] = 77;
	seq = fn_ereg(&w.p->a, 5, EEL_FW_EREG_GET, w.ro, &mem[41], 0);
	CHECK(fn_ereg_status(&w.p->a, 5) < 0, "the old answer reads as the new one");
	CHECK(settle_ereg(w.p, &w.p->a, 5) == EEL_FW_OK && w.p->a.bar.ereg[5].value == 77, "second get: %llu",
	      (unsigned long long)w.p->a.bar.ereg[5].value);
	CHECK_EQ_U(seq, 2);

	/* A put the NIC has taken has its PSN: a load issued after it travels
	 * behind it and sees it. (Both doorbells rung before the NIC's next
	 * step are taken E-registers first: the load would pass the put.) */
	{
		uint64_t v = 0xabcdef, src = 0;
		uint32_t lkey = fn_mr(&w.p->a, 1, &src, 8, EEL_FW_MR_LOCAL_READ);
		struct eel_fw_sqe d = fn_put_desc(lkey, &v, 8, w.rw, &mem[7], EEL_FW_SQE_INLINE, 1, 0);

		fn_post(&w.p->a, &d);
		fw_step(&w.p->a.fw);
		fn_ereg(&w.p->a, 6, EEL_FW_EREG_GET, w.rw, &mem[7], 0);
		CHECK(settle_ereg(w.p, &w.p->a, 6) == EEL_FW_OK && w.p->a.bar.ereg[6].value == 0xabcdef,
		      "get after put: %llx", (unsigned long long)w.p->a.bar.ereg[6].value);
	}
	CHECK_EQ_U(fn_counter(&w.p->a, EEL_FW_CNT_TX_MSGS), 5);
	CHECK_EQ_U(fn_counter(&w.p->b, EEL_FW_CNT_RX_MSGS), 2); /* the put and the E-put */
	CHECK_EQ_U(w.p->a.dma_violations + w.p->b.dma_violations, 0);
	fn_pair_free(w.p);
}

/* All sixteen at once, one doorbell: stores and loads interleaved. */
static void test_all_registers(void)
{
	struct world w = world();

	for (uint32_t i = 0; i < EEL_FW_EREGS; i++) {
		struct eel_fw_ereg *r = &w.p->a.bar.ereg[i];
		uint32_t seq = ++w.p->a.ereg_seq[i];

		r->raddr = (uintptr_t)&mem[i];
		r->rkey = w.rw;
		r->value = 0xE000 + i;
		r->cmd = seq << 8 | (i % 2 ? EEL_FW_EREG_GET : EEL_FW_EREG_PUT);
	}
	w.p->a.bar.ereg_doorbell = EEL_FW_EREGS; /* one count per command, rung once */
	fn_settle(w.p, 1000);
	for (uint32_t i = 0; i < EEL_FW_EREGS; i++) {
		CHECK(fn_ereg_status(&w.p->a, i) == EEL_FW_OK, "register %u: status 0x%x", i, w.p->a.bar.ereg[i].status);
		if (i % 2)
			CHECK(w.p->a.bar.ereg[i].value == 0x1000 + i && mem[i] == 0x1000 + i,
			      "register %u: loaded %llx, memory %llx", i, (unsigned long long)w.p->a.bar.ereg[i].value,
			      (unsigned long long)mem[i]);
		else
			CHECK_EQ_U(mem[i], 0xE000 + i);
	}
	fn_pair_free(w.p);
}

/* The doorbell's count bounds the scan (fw_ereg.c): stores on the registers
 * in turn (as eel's host takes them) read one cmd each, stores on one
 * register two, not all EEL_FW_EREGS; two registers rung are both found,
 * wherever they lie. */
static void test_scan(void)
{
	struct world w = world();
	uint64_t before;

	fn_ereg(&w.p->a, 9, EEL_FW_EREG_PUT, w.rw, &mem[9], 0x99);
	CHECK(settle_ereg(w.p, &w.p->a, 9) == EEL_FW_OK, "register 9: status %d", fn_ereg_status(&w.p->a, 9));
	for (uint32_t k = 0; k < EEL_FW_EREGS + 2; k++) {
		uint32_t i = (10 + k) % EEL_FW_EREGS;

		before = w.p->a.ereg_cmd_reads;
		fn_ereg(&w.p->a, i, EEL_FW_EREG_PUT, w.rw, &mem[i], 0x100u + k);
		CHECK(settle_ereg(w.p, &w.p->a, i) == EEL_FW_OK, "register %u in turn: status %d", i,
		      fn_ereg_status(&w.p->a, i));
		CHECK(w.p->a.ereg_cmd_reads - before == 1, "store %u on register %u, in turn: %llu cmd registers read",
		      k, i, (unsigned long long)(w.p->a.ereg_cmd_reads - before));
		CHECK_EQ_U(mem[i], 0x100u + k);
	}
	for (int k = 0; k < 3; k++) {
		before = w.p->a.ereg_cmd_reads;
		fn_ereg(&w.p->a, 11, EEL_FW_EREG_PUT, w.rw, &mem[11], 0x200u + (uint64_t)k);
		CHECK(settle_ereg(w.p, &w.p->a, 11) == EEL_FW_OK, "register 11 again: status %d",
		      fn_ereg_status(&w.p->a, 11));
		CHECK(w.p->a.ereg_cmd_reads - before == 2, "store %d on register 11 again: %llu cmd registers read",
		      k, (unsigned long long)(w.p->a.ereg_cmd_reads - before));
		CHECK_EQ_U(mem[11], 0x200u + (uint64_t)k);
	}
	fn_ereg(&w.p->a, 2, EEL_FW_EREG_PUT, w.rw, &mem[2], 0x22);
	fn_ereg(&w.p->a, 14, EEL_FW_EREG_PUT, w.rw, &mem[14], 0xee);
	CHECK(settle_ereg(w.p, &w.p->a, 2) == EEL_FW_OK && settle_ereg(w.p, &w.p->a, 14) == EEL_FW_OK,
	      "registers 2 and 14: status %d, %d", fn_ereg_status(&w.p->a, 2), fn_ereg_status(&w.p->a, 14));
	CHECK(mem[2] == 0x22 && mem[14] == 0xee, "registers 2 and 14 stored %llx, %llx", (unsigned long long)mem[2],
	      (unsigned long long)mem[14]);
	fn_pair_free(w.p);
}

/* A lost answer: the requester's timer asks again, the target answers the
 * duplicate again (without delivering anything twice), the value comes back
 * once. A lost request is simply resent. */
static void test_lost(void)
{
	struct world w = world();
	uint32_t seq;

	seq = fn_ereg(&w.p->a, 1, EEL_FW_EREG_GET, w.rw, &mem[9], 0);
	fw_step(&w.p->a.fw);
	CHECK_EQ_U(w.p->ab.n, 1);
	fw_step(&w.p->b.fw);
	CHECK(w.p->ba.n == 1 && fn_hdr(&w.p->ba, 0).op == FW_PKT_EGET_RESP, "no EGET response on the wire");
	fn_drop(&w.p->ba, 0);
	mem[9] = 0x9999;       /* the second answer reads the memory again */
	w.p->now += 1000;      /* past the RTO */
	CHECK(settle_ereg(w.p, &w.p->a, 1) == EEL_FW_OK, "status %d", fn_ereg_status(&w.p->a, 1));
	CHECK_EQ_U(w.p->a.bar.ereg[1].value, 0x9999);
	CHECK_EQ_U(w.p->a.bar.ereg[1].status >> 8, seq);
	CHECK_EQ_U(fn_counter(&w.p->b, EEL_FW_CNT_DUPS), 1);
	CHECK_EQ_U(fn_counter(&w.p->a, EEL_FW_CNT_TIMEOUTS), 1);
	fn_settle(w.p, 100);

	/* a lost E-put: resent, stored once */
	fn_ereg(&w.p->a, 2, EEL_FW_EREG_PUT, w.rw, &mem[10], 0x55);
	fw_step(&w.p->a.fw);
	CHECK_EQ_U(w.p->ab.n, 1);
	fn_drop(&w.p->ab, 0);
	w.p->now += 1000;
	CHECK(settle_ereg(w.p, &w.p->a, 2) == EEL_FW_OK && mem[10] == 0x55, "lost E-put: status %d, memory %llx",
	      fn_ereg_status(&w.p->a, 2), (unsigned long long)mem[10]);
	fn_settle(w.p, 100);
	/* a duplicated answer is counted and ignored */
	fn_ereg(&w.p->a, 3, EEL_FW_EREG_GET, w.rw, &mem[11], 0);
	fw_step(&w.p->a.fw);
	fw_step(&w.p->b.fw);
	fn_dup(&w.p->ba, 0);
	CHECK(settle_ereg(w.p, &w.p->a, 3) == EEL_FW_OK && w.p->a.bar.ereg[3].value == 0x1000 + 11, "dup answer");
	fn_settle(w.p, 100);
	CHECK_EQ_U(fn_counter(&w.p->a, EEL_FW_CNT_DUPS), 1);
	CHECK_EQ_U(w.p->a.status.error + w.p->b.status.error, 0);
	fn_pair_free(w.p);
}

/* Refused: a load from outside the region, a store to a read-only one. */
static void test_refused(void)
{
	struct world w = world();

	fn_ereg(&w.p->a, 4, EEL_FW_EREG_GET, w.rw, &mem[32], 0); /* one word past rw's end */
	CHECK(settle_ereg(w.p, &w.p->a, 4) == EEL_FW_ERR_REMOTE_ACCESS, "get out of range: status %d",
	      fn_ereg_status(&w.p->a, 4));
	CHECK_EQ_U(w.p->a.status.error, EEL_FW_ERR_REMOTE_ACCESS);
	CHECK_EQ_U(w.p->b.status.error, EEL_FW_ERR_REMOTE_ACCESS);
	fn_pair_free(w.p);

	w = world();
	fn_ereg(&w.p->a, 4, EEL_FW_EREG_PUT, w.ro, &mem[40], 1);
	CHECK(settle_ereg(w.p, &w.p->a, 4) == EEL_FW_ERR_REMOTE_ACCESS, "put to read-only: status %d",
	      fn_ereg_status(&w.p->a, 4));
	CHECK_EQ_U(mem[40], 0x1000 + 40);
	CHECK_EQ_U(w.p->b.status.error, EEL_FW_ERR_REMOTE_ACCESS);
	fn_pair_free(w.p);

	/* an unknown command is answered BAD_DESC and harms nothing */
	w = world();
	fn_ereg(&w.p->a, 7, 0x33, w.rw, &mem[0], 1);
	CHECK(settle_ereg(w.p, &w.p->a, 7) == EEL_FW_ERR_BAD_DESC, "bad command: status %d",
	      fn_ereg_status(&w.p->a, 7));
	CHECK_EQ_U(w.p->a.status.error, 0);
	fn_ereg(&w.p->a, 7, EEL_FW_EREG_PUT, w.rw, &mem[0], 1);
	CHECK(settle_ereg(w.p, &w.p->a, 7) == EEL_FW_OK && mem[0] == 1, "put after a bad command");
	fn_settle(w.p, 100);
	CHECK_EQ_U(w.p->ab.n + w.p->ba.n, 0);
	fn_pair_free(w.p);
}

int main(void)
{
	test_put_get();
	test_all_registers();
	test_scan();
	test_lost();
	test_refused();
	CHECK_DONE();
}
