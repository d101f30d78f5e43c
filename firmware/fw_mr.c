/* SPDX-License-Identifier: MIT */
/* firmware/fw_mr.c — memory protection: may this key touch these bytes?
 *
 * The host keeps the memory-region table in its memory (struct eel_fw_mr);
 * the NIC fetches entries by DMA and keeps a few on chip, direct-mapped by
 * key index, refetched when the host bumps mr_gen after a change.
 */
#include "fw_mr.h"
#include "fw_host.h"

int fw_mr_check(struct fw *fw, uint32_t key, uint64_t addr, uint64_t len, uint32_t need)
{
	uint32_t idx = EEL_FW_KEY_INDEX(key);
	uint32_t gen = hal_reg_read32(&fw->hal, FW_REG(mr_gen));
	struct fw_mr_slot *c = &fw->mr_cache[idx & (FW_MR_CACHE - 1)];
	const struct eel_fw_mr *e = &c->mr;

	if (idx >= fw->mr_size)
		return 0;
	if (c->key != key || c->gen != gen || !(e->access & EEL_FW_MR_VALID)) {
		hal_dma_read(&fw->hal, &c->mr, fw->mr_base + (uint64_t)idx * sizeof(c->mr),
			     sizeof(c->mr));
		c->key = key;
		c->gen = gen;
	}
	if (!(e->access & EEL_FW_MR_VALID) || e->tag != EEL_FW_KEY_TAG(key) ||
	    (e->access & need) != need)
		return 0;
	/* [addr, addr + len) inside [e->addr, e->addr + e->len), without overflow */
	return addr >= e->addr && len <= e->len && addr - e->addr <= e->len - len;
}
