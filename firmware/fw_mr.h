/* SPDX-License-Identifier: MIT */
/* firmware/fw_mr.h — memory-region key and bounds checks.
 *
 * The host keeps the memory-region table in its memory (struct eel_fw_mr);
 * the NIC fetches entries by DMA (fw_mr_fetch, fw_mr.c) and keeps a few on
 * chip, direct-mapped by key index, refetched when the host bumps mr_gen
 * after a change (struct fw_mr_slot: what the check needs of an entry,
 * its tag compared once at the fetch). The check itself is inline: every
 * put is checked twice (its source at the fetch, its target at the
 * receiver), and on a cached key the call and return were a third of the
 * check's instructions.
 */
#ifndef EEL_FW_MR_H
#define EEL_FW_MR_H

#include "fw.h"

void fw_mr_fetch(struct fw *fw, struct fw_mr_slot *c, uint32_t key, uint32_t gen);

/* fw_mr_check, given the table's generation (the mr_gen register). With
 * fetch 0 a key not cached is refused here, without a call: for a fast
 * path whose general path then checks again, fetching it. A slot holds a
 * key only if its index was inside the table (< mr_size) when fetched
 * (fw_start empties the cache), and its tag compared then (fw_mr_fetch):
 * a cached key with the access asked for is a few loads and compares. */
static inline int fw_mr_check_gen(struct fw *fw, uint32_t key, uint32_t gen, uint64_t addr, uint64_t len,
				  uint32_t need, int fetch)
{
	struct fw_mr_slot *c = &fw->mr_cache[EEL_FW_KEY_INDEX(key) & (FW_MR_CACHE - 1)];
	const uint32_t want = need | EEL_FW_MR_VALID;

	if (c->key != key || c->gen != gen || (c->access & want) != want) {
		/* refused from the slot when it holds this key's valid entry;
		 * fetched when not cached, the table changed, or the entry
		 * cached was not valid */
		if (!fetch || (c->key == key && c->gen == gen && c->access) ||
		    EEL_FW_KEY_INDEX(key) >= fw->mr_size)
			return 0;
		fw_mr_fetch(fw, c, key, gen);
		if ((c->access & want) != want)
			return 0;
	}
	/* [addr, addr + len) inside [c->addr, c->addr + c->len), without
	 * overflow. An addr below c->addr is refused too: addr - c->addr wraps
	 * to 2^64 - (c->addr - addr) or more, above c->len - len, since a
	 * cached region ends below 2^64 (c->addr + c->len < 2^64: fw_mr_fetch) */
	return len <= c->len && addr - c->addr <= c->len - len;
}

/* May `key` touch [addr, addr + len) with the access bits `need`? */
static inline int fw_mr_check(struct fw *fw, uint32_t key, uint64_t addr, uint64_t len, uint32_t need)
{
	return fw_mr_check_gen(fw, key, hal_reg_read32(&fw->hal, FW_REG(mr_gen)), addr, len, need, 1);
}

#endif
