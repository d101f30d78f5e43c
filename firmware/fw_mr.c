/* SPDX-License-Identifier: MIT */
/* firmware/fw_mr.c — memory protection: the memory-region entry of a key
 * not cached on chip, fetched from the host's table (the check: fw_mr.h). */
#include "fw_mr.h"

/* Fetch key's entry (index EEL_FW_KEY_INDEX(key) < mr_size) into slot c,
 * as of table generation gen. */
void fw_mr_fetch(struct fw *fw, struct fw_mr_slot *c, uint32_t key, uint32_t gen)
{
	uint32_t idx = EEL_FW_KEY_INDEX(key);
	struct eel_fw_mr e;

	hal_dma_read(&fw->hal, &e, fw->mr_base + (uint64_t)idx * sizeof(e), sizeof(e));
	c->key = key;
	c->gen = gen;
	/* the tag is the key's for as long as the slot holds this key: compared
	 * once, here, not at each check. A region that reaches the top of the
	 * address space (addr + len >= 2^64; none a host registers) is refused
	 * every access: so a cached one ends below it, and the check's bounds
	 * need no test of addr against the start (fw_mr.h) */
	c->access = !(e.access & EEL_FW_MR_VALID) ? 0
		    : e.tag == EEL_FW_KEY_TAG(key) && e.len <= UINT64_MAX - e.addr ? e.access
										  : EEL_FW_MR_VALID;
	c->addr = e.addr;
	c->len = e.len;
}
