/* SPDX-License-Identifier: MIT */
/* firmware/fw_fetch.h — the fetch (fw_fetch.c): descriptors from the send
 * queue into the message table, and a slot in it for an E-register's command. */
#ifndef EEL_FW_FETCH_H
#define EEL_FW_FETCH_H

#include "fw.h"

int fw_fetch_sq(struct fw *fw);
struct fw_msg *fw_msg_alloc(struct fw *fw, uint32_t npkts);

#endif
