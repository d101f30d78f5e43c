/* SPDX-License-Identifier: MIT */
/* firmware/fw_mr.c — memory protection: the memory-region entry of a key
 * not cached on chip, fetched from the host's table (the check: fw_mr.h). */
#include "fw_mr.h"

/* Fetch key's entry (index EEL_FW_KEY_INDEX(key) < mr_size) into slot c,
 * as of table generation gen. */
void fw_mr_fetch(struct fw *fw, struct fw_mr_slot *c, uint32_t key, uint32_t gen)
{
	uint32_t idx = EEL_FW_KEY_INDEX(key);

	hal_dma_read(&fw->hal, &c->mr, fw->mr_base + (uint64_t)idx * sizeof(c->mr), sizeof(c->mr));
	c->key = key;
	c->gen = gen;
}
