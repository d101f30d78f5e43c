/* SPDX-License-Identifier: MIT */
/* firmware/fw_main.h — the NIC's life: reset and its main loop (fw_main.c); what
 * a host engine calls. */
#ifndef EEL_FW_MAIN_H
#define EEL_FW_MAIN_H

#include "fw.h"
#include "fw_recv.h"

void fw_reset(struct fw *fw, const struct fw_hal *hal);
int fw_step(struct fw *fw);
int fw_doorbell(struct fw *fw);

/* Is the NIC running with its link up? (Else fw_step does what is due.) */
static inline int fw_ready(struct fw *fw)
{
	const uint32_t on = EEL_FW_CTRL_ENABLE | EEL_FW_CTRL_LINK;

	return (hal_reg_read32(&fw->hal, FW_REG(ctrl)) & on) == on && fw->running;
}

int fw_receive_step(struct fw *fw);

/* The receive half of a pass (fw_doorbell's comment, fw_main.c): fw_recv
 * when the NIC is ready, else fw_step. Inline, its common case (registers
 * as plain memory, enabled, link up, running) with no call of its own: the
 * host's wait calls fw_recv itself, one level of call fewer on an 8-byte
 * put's receive path; any other case is fw_receive_step's, out of line,
 * so the caller saves no more registers for it. */
static inline int fw_receive(struct fw *fw)
{
	if (fw->hal.regs && fw_ready(fw)) /* its register read then the direct one */
		return fw_recv(fw);
	return fw_receive_step(fw);
}

#endif
