/* SPDX-License-Identifier: MIT */
/* firmware/fw_send.h — the send side (fw_send.c): descriptors in, packets out,
 * acknowledgements, resends on a NAK and the retransmission timer. */
#ifndef EEL_FW_SEND_H
#define EEL_FW_SEND_H

#include "fw.h"

int fw_fetch_sq(struct fw *fw);
int fw_send(struct fw *fw);
void fw_on_ack(struct fw *fw, uint32_t ack);
void fw_ack_in(struct fw *fw, uint32_t ack);
void fw_acks_apply(struct fw *fw);
void fw_go_back(struct fw *fw, uint32_t psn);
struct fw_msg *fw_msg_alloc(struct fw *fw, uint32_t npkts);
int fw_send_ctrl(struct fw *fw, uint8_t op, uint8_t syndrome, uint32_t psn);
int fw_send_nak(struct fw *fw, uint8_t syndrome, uint32_t psn, uint32_t count, uint16_t tx_seq);
void fw_on_nak_seq(struct fw *fw, const struct fw_pkt *p);

#endif
