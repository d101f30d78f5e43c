/* SPDX-License-Identifier: MIT */
/* firmware/fw_ahead.h — the ring of payload reads issued ahead of their
 * packets (fw_send.c, "Payloads read ahead"): its oldest entry taken, and
 * every entry dropped when the NIC fails (fw_host.c's fw_fail: their
 * messages are flushed). Inline here so that the failure path needs nothing
 * of the transmit's code. */
#ifndef EEL_FW_AHEAD_H
#define EEL_FW_AHEAD_H

#include "fw.h"

/* The oldest read ahead waited for, its data into dst (or dropped: 0). */
static inline void fw_ahead_take(struct fw *fw, void *dst)
{
	const struct fw_ahead *a = &fw->ahead[fw->ahead_head++ % FW_AHEAD];

	fw->ahead_bytes -= a->len;
	hal_dma_read_wait(&fw->hal, a->tag, dst);
}

/* Every read ahead dropped (the NIC failed: nothing more goes out). */
static inline void fw_ahead_drop(struct fw *fw)
{
	while (fw->ahead_head != fw->ahead_tail)
		fw_ahead_take(fw, 0);
}

#endif
