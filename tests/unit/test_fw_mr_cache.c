/* SPDX-License-Identifier: MIT */
/* tests/unit/test_fw_mr_cache.c — the key and bounds check on the entries
 * the NIC keeps on chip (firmware/fw_mr.h, fw_mr.c: struct fw_mr_slot holds
 * what the check needs, the tag compared once at the fetch): a cached key
 * answers as the host's table does, and a slot stops answering for its key
 * when the table changes (mr_gen) and only then for a valid entry (an
 * access refused is not fetched again), when the entry it holds was not valid
 * (fetched again at each check), when its key's tag is not the entry's
 * (refused, not taken for the right key), and when the NIC is configured
 * again with a smaller table (fw_start empties the cache). One firmware on
 * a fake HAL (fakenic.h), the check called as fw_recv and the fetch call it. */
#include "check.h"
#include "fakenic.h"
#include "firmware/fw_mr.h"

static uint8_t mem[256];

#define W EEL_FW_MR_REMOTE_WRITE
#define R EEL_FW_MR_REMOTE_READ

/* A started NIC (fw_start has taken the configuration). */
static struct fn_pair *nic(void)
{
	struct fn_config c = fn_defaults();
	struct fn_pair *p;

	c.direct = 1;
	p = fn_pair_new(&c);
	fw_step(&p->b.fw);
	return p;
}

static int check(struct fn_pair *p, uint32_t key, const uint8_t *at, uint64_t len, uint32_t need)
{
	return fw_mr_check(&p->b.fw, key, (uintptr_t)at, len, need);
}

/* fw_mr_check_gen without a fetch, as rx_fast calls it: a cached key only. */
static int cached(struct fn_pair *p, uint32_t key, const uint8_t *at, uint64_t len, uint32_t need)
{
	return fw_mr_check_gen(&p->b.fw, key, p->b.bar.mr_gen, (uintptr_t)at, len, need, 0);
}

/* A cached key: its bounds and access bits, as the table says. */
static void test_hit(void)
{
	struct fn_pair *p = nic();
	uint32_t key = fn_mr(&p->b, 2, mem + 64, 64, W);

	CHECK(!cached(p, key, mem + 64, 8, W), "a key never fetched answered without a fetch");
	CHECK(check(p, key, mem + 64, 8, W), "the region's first 8 bytes refused");
	CHECK(cached(p, key, mem + 64, 64, W), "the whole region refused on a cached key");
	CHECK(cached(p, key, mem + 120, 8, W), "the region's last 8 bytes refused");
	CHECK(!cached(p, key, mem + 121, 8, W), "a byte past the end accepted");
	CHECK(!cached(p, key, mem + 63, 8, W), "a byte before the start accepted");
	CHECK(!cached(p, key, mem + 64, 65, W), "a length beyond the region accepted");
	CHECK(!cached(p, key, mem + 64, 8, R), "a read on a write-only region accepted");
	CHECK(!check(p, key, mem + 64, 8, W | R), "an access bit the region lacks accepted");
	fn_pair_free(p);
}

/* Deregistered, or registered again elsewhere (mr_gen bumped): the slot
 * misses, and the table's new entry answers. */
static void test_table_changed(void)
{
	struct fn_pair *p = nic();
	uint32_t key = fn_mr(&p->b, 2, mem + 64, 64, W);

	CHECK(check(p, key, mem + 64, 8, W), "the key refused");
	fn_mr_invalidate(&p->b, 2);
	CHECK(!cached(p, key, mem + 64, 8, W), "a deregistered key hit the cache");
	CHECK(!check(p, key, mem + 64, 8, W), "a deregistered key accepted");
	key = fn_mr(&p->b, 2, mem + 128, 64, W);
	CHECK(!cached(p, key, mem + 64, 8, W), "the slot hit after the table changed");
	CHECK(!check(p, key, mem + 64, 8, W), "the region's old bounds accepted");
	CHECK(check(p, key, mem + 128, 64, W), "the region's new bounds refused");
	CHECK(cached(p, key, mem + 128, 64, W), "the new entry was not cached");
	fn_pair_free(p);
}

/* Bounds near the top of the address space (the check reads no memory): a
 * region ending just below 2^64 answers as any; one reaching 2^64 or past
 * it is refused every access, so no address below a region's start can
 * pass for an offset inside it (fw_mr.h). */
static void test_top_of_memory(void)
{
	struct fn_pair *p = nic();
	const uint8_t *top = (const uint8_t *)(uintptr_t)(UINT64_MAX - 64);
	uint32_t key = fn_mr(&p->b, 1, top, 64, W);
	uint32_t wraps = fn_mr(&p->b, 2, (const uint8_t *)(uintptr_t)(UINT64_MAX - 15), 64, W);
	uint32_t ends = fn_mr(&p->b, 3, top + 1, 64, W);

	CHECK(check(p, key, top, 64, W), "a region ending below 2^64 refused");
	CHECK(!check(p, key, top - 8, 8, W), "below the start of a region near the top accepted");
	CHECK(!check(p, key, top + 1, 64, W), "past 2^64 accepted");
	CHECK(!check(p, wraps, (const uint8_t *)0, 8, W), "address 0 accepted in a region that wraps past 2^64");
	CHECK(!check(p, wraps, (const uint8_t *)(uintptr_t)(UINT64_MAX - 15), 8, W),
	      "a region that wraps past 2^64 accepted");
	CHECK(!check(p, ends, (const uint8_t *)0, 0, W), "a region ending at 2^64 accepted an empty access at 0");
	fn_pair_free(p);
}

/* A valid entry that refuses the access answers from its slot until the
 * table's generation changes: not fetched again at each refusal. */
static void test_refused_from_slot(void)
{
	struct fn_pair *p = nic();
	uint32_t key = fn_mr(&p->b, 2, mem + 64, 64, R);

	CHECK(!check(p, key, mem + 64, 8, W), "a write on a read-only region accepted");
	p->b.mrt[2].access |= W; /* the same generation */
	CHECK(!check(p, key, mem + 64, 8, W), "a refused access fetched the entry again");
	p->b.bar.mr_gen++;
	CHECK(check(p, key, mem + 64, 8, W), "the entry's new access not seen at a new generation");
	fn_pair_free(p);
}

/* An entry not valid when fetched is fetched again at the next check (the
 * host may fill it without a new generation), not refused from the slot. */
static void test_invalid_fetched_again(void)
{
	struct fn_pair *p = nic();
	uint32_t key = fn_mr(&p->b, 3, mem + 64, 64, W);

	p->b.mrt[3].access = 0;
	CHECK(!check(p, key, mem + 64, 8, W), "a key whose entry is not valid accepted");
	p->b.mrt[3].access = EEL_FW_MR_VALID | W; /* the same generation */
	CHECK(!cached(p, key, mem + 64, 8, W), "a slot holding an entry not valid hit");
	CHECK(check(p, key, mem + 64, 8, W), "the entry made valid was not fetched again");
	fn_pair_free(p);
}

/* A key whose tag is not its entry's: refused, from the slot too, and the
 * right key of that index is fetched, not answered by the wrong one's slot. */
static void test_wrong_tag(void)
{
	struct fn_pair *p = nic();
	uint32_t key = fn_mr(&p->b, 1, mem + 64, 64, W | R);
	uint32_t wrong = key ^ 1;

	CHECK(!check(p, wrong, mem + 64, 8, W), "a wrong tag accepted");
	CHECK(!check(p, wrong, mem + 64, 8, W), "a wrong tag accepted from its slot");
	CHECK(!cached(p, wrong, mem + 64, 8, R), "a wrong tag's slot answered a read");
	CHECK(!cached(p, key, mem + 64, 8, W), "the right key hit the wrong one's slot");
	CHECK(check(p, key, mem + 64, 8, W), "the right key refused after a wrong one");
	fn_pair_free(p);
}

/* A key index past the table, and a key cached under a larger table than
 * the one the NIC is configured with again: refused (same generation). */
static void test_index_beyond(void)
{
	struct fn_pair *p = nic();
	uint32_t key = fn_mr(&p->b, 5, mem + 64, 64, W);

	CHECK(check(p, key, mem + 64, 8, W), "index 5 of 8 refused");
	p->b.bar.ctrl = 0;
	fw_step(&p->b.fw); /* disabled: fw_start again at the next enable */
	p->b.bar.mr_size = 4;
	p->b.bar.ctrl = EEL_FW_CTRL_ENABLE | EEL_FW_CTRL_LINK;
	fw_step(&p->b.fw);
	CHECK(!cached(p, key, mem + 64, 8, W), "a key past the new table hit its old slot");
	CHECK(!check(p, key, mem + 64, 8, W), "a key past the table accepted");
	fn_pair_free(p);
}

int main(void)
{
	test_hit();
	test_table_changed();
	test_refused_from_slot();
	test_top_of_memory();
	test_invalid_fetched_again();
	test_wrong_tag();
	test_index_beyond();
	CHECK_DONE();
}
