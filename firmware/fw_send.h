/* SPDX-License-Identifier: MIT */
/* firmware/fw_send.h — the transmit (fw_send.c): packets out within the
 * window, resends and probes, ACKs and NAKs sent, the retransmission timer. */
#ifndef EEL_FW_SEND_H
#define EEL_FW_SEND_H

#include "fw.h"

int fw_send(struct fw *fw);
int fw_send_lone(struct fw *fw);
int fw_send_ctrl(struct fw *fw, uint8_t op, uint8_t syndrome, uint32_t psn);
int fw_send_nak(struct fw *fw, uint8_t syndrome, uint32_t psn, uint32_t count, uint16_t tx_seq);

#endif
