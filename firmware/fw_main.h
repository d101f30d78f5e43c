/* SPDX-License-Identifier: MIT */
/* firmware/fw_main.h — the NIC's life: reset and its main loop (fw_main.c); what
 * a host engine calls. */
#ifndef EEL_FW_MAIN_H
#define EEL_FW_MAIN_H

#include "fw.h"

void fw_reset(struct fw *fw, const struct fw_hal *hal);
int fw_step(struct fw *fw);
int fw_doorbell(struct fw *fw);
int fw_receive(struct fw *fw);

#endif
