/* SPDX-License-Identifier: MIT */
/* firmware/fw_mr.h — memory-region key and bounds checks.
 *
 * The host keeps the memory-region table in its memory (struct eel_fw_mr);
 * the NIC fetches entries by DMA (fw_mr_fetch, fw_mr.c) and keeps a few on
 * chip, direct-mapped by key index, refetched when the host bumps mr_gen
 * after a change. The check itself is inline: every put is checked twice
 * (its source at the fetch, its target at the receiver), and on a cached
 * key the call and return were a third of the check's instructions.
 */
#ifndef EEL_FW_MR_H
#define EEL_FW_MR_H

#include "fw.h"

void fw_mr_fetch(struct fw *fw, struct fw_mr_slot *c, uint32_t key, uint32_t gen);

/* fw_mr_check, given the table's generation (the mr_gen register). With
 * fetch 0 a key not cached is refused here, without a call: for a fast
 * path whose general path then checks again, fetching it. */
static inline int fw_mr_check_gen(struct fw *fw, uint32_t key, uint32_t gen, uint64_t addr, uint64_t len,
				  uint32_t need, int fetch)
{
	uint32_t idx = EEL_FW_KEY_INDEX(key);
	struct fw_mr_slot *c = &fw->mr_cache[idx & (FW_MR_CACHE - 1)];
	const struct eel_fw_mr *e = &c->mr;

	if (idx >= fw->mr_size)
		return 0;
	if (c->key != key || c->gen != gen || !(e->access & EEL_FW_MR_VALID)) {
		if (!fetch)
			return 0;
		fw_mr_fetch(fw, c, key, gen); /* not cached, or the table changed */
	}
	if (!(e->access & EEL_FW_MR_VALID) || e->tag != EEL_FW_KEY_TAG(key) ||
	    (e->access & need) != need)
		return 0;
	/* [addr, addr + len) inside [e->addr, e->addr + e->len), without overflow */
	return addr >= e->addr && len <= e->len && addr - e->addr <= e->len - len;
}

/* May `key` touch [addr, addr + len) with the access bits `need`? */
static inline int fw_mr_check(struct fw *fw, uint32_t key, uint64_t addr, uint64_t len, uint32_t need)
{
	return fw_mr_check_gen(fw, key, hal_reg_read32(&fw->hal, FW_REG(mr_gen)), addr, len, need, 1);
}

#endif
