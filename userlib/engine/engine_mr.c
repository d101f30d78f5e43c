/* SPDX-License-Identifier: MIT */
/* userlib/engine/engine_mr.c — memory regions: the host driver's entries in
 * the NIC's memory-region table (struct eel_fw_mr, include/eel/fw_abi.h),
 * and their keys. */
#include <errno.h>
#include <sys/random.h>

#include "userlib/engine/engine.h"

/* A region's key tag: random (getrandom), so keys differ from run to run and
 * a peer cannot derive one region's key from another's; never the tag this
 * entry had before, so a stale key of a re-registered entry still fails. */
static uint32_t mr_tag_new(uint32_t old)
{
	uint32_t r = 0;

	if (getrandom(&r, sizeof(r), 0) != sizeof(r))
		r = (uint32_t)eel_stamp() * 2654435761u; /* no entropy yet: the cycle counter, mixed */
	r = EEL_FW_KEY_TAG(r);
	return r == old ? EEL_FW_KEY_TAG(r + 1) : r;
}

int engine_mr_reg(struct eel_dev *dev, struct eel_mr *mr, unsigned access)
{
	struct engine *e = ENGINE(dev);
	/* the firmware copies a put's source from the region and, with
	 * REMOTE_WRITE, the peer's puts into it, in this process: memory it
	 * does not have is refused now, not a SIGSEGV in a later put (a NIC
	 * driver pins it: ibv_reg_mr checks as much for verbs) */
	int rc = eel_mem_check(mr->addr, mr->len, (access & EEL_ACCESS_REMOTE_WRITE) != 0, "eel_mr_reg");

	if (rc)
		return rc;

	for (uint32_t i = 1; i < ENGINE_MR_ENTRIES; i++) {
		struct eel_fw_mr *m = &e->mrt[i];
		uint32_t tag;

		if (m->access & EEL_FW_MR_VALID)
			continue;
		tag = mr_tag_new(m->tag);
		m->addr = (uintptr_t)mr->addr;
		m->len = mr->len;
		m->tag = tag;
		__atomic_store_n(&m->access, EEL_FW_MR_VALID | EEL_FW_MR_LOCAL_READ |
			(access & EEL_ACCESS_REMOTE_WRITE ? EEL_FW_MR_REMOTE_WRITE : 0) |
			(access & EEL_ACCESS_REMOTE_READ ? EEL_FW_MR_REMOTE_READ : 0), __ATOMIC_RELEASE);
		__atomic_add_fetch(&e->bar->mr_gen, 1, __ATOMIC_RELEASE);
		mr->lkey = EEL_FW_KEY(i, tag);
		mr->win.addr = (uintptr_t)mr->addr;
		mr->win.len = mr->len;
		mr->win.rkey = mr->lkey;
		mr->priv = e; /* its owner: engine_mr_dereg refuses it elsewhere */
		return 0;
	}
	return eel_err(-ENOSPC, "all %u memory regions of this NIC are in use: deregister some", ENGINE_MR_ENTRIES - 1);
}

int engine_mr_dereg(struct eel_dev *dev, struct eel_mr *mr)
{
	struct engine *e = ENGINE(dev);
	uint32_t i = EEL_FW_KEY_INDEX(mr->lkey);

	/* the region this device registered under that key, still registered:
	 * its entry's index alone would free another device's entry i */
	if (mr->priv != e || i == 0 || i >= ENGINE_MR_ENTRIES || !(e->mrt[i].access & EEL_FW_MR_VALID) ||
	    EEL_FW_KEY(i, e->mrt[i].tag) != mr->lkey)
		return eel_err(-EINVAL, "eel_mr_dereg: not a region of this NIC: deregister it on the device "
			       "that registered it");
	__atomic_store_n(&e->mrt[i].access, 0, __ATOMIC_RELEASE);
	__atomic_add_fetch(&e->bar->mr_gen, 1, __ATOMIC_RELEASE);
	return 0;
}
