/* SPDX-License-Identifier: MIT */
/* firmware/fw_sr.h — selective repeat's receive buffer (fw_sr.c): packets kept
 * out of order until the PSNs before them arrive. */
#ifndef EEL_FW_SR_H
#define EEL_FW_SR_H

#include "fw.h"

int fw_sr_keep(struct fw *fw, const struct fw_pkt *p, const uint8_t *payload, uint64_t t_rx);
struct fw_sr_slot *fw_sr_kept(struct fw *fw, uint32_t psn);
const uint8_t *fw_sr_payload(struct fw *fw, const struct fw_sr_slot *s);
void fw_sr_release(struct fw *fw, uint32_t psn);
uint32_t fw_sr_hole(const struct fw *fw);

#endif
