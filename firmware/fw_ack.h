/* SPDX-License-Identifier: MIT */
/* firmware/fw_ack.h — the sender's ACK and NAK handling (fw_ack.c): ACKs
 * taken in and applied, NAKs turned into resends, and the resend set that
 * fw_send.c sends from. */
#ifndef EEL_FW_ACK_H
#define EEL_FW_ACK_H

#include "fw.h"

void fw_ack_in(struct fw *fw, uint32_t ack);
void fw_acks_apply(struct fw *fw);
void fw_on_ack(struct fw *fw, uint32_t ack);
void fw_on_nak_seq(struct fw *fw, const struct fw_pkt *p);
void fw_go_back(struct fw *fw, uint32_t psn);

/* The resend set (NAK(MISSING), a timeout's oldest PSN): is psn in it? */
static inline int fw_resend_bit(const struct fw *fw, uint32_t psn)
{
	uint32_t i = psn & (FW_WINDOW - 1);

	return (int)(fw->resend[i / 64] >> (i % 64) & 1);
}

/* Put psn in the resend set, or take it out (the caller counts fw->resends). */
static inline void fw_resend_flip(struct fw *fw, uint32_t psn)
{
	uint32_t i = psn & (FW_WINDOW - 1);

	fw->resend[i / 64] ^= 1ull << (i % 64);
}

#endif
