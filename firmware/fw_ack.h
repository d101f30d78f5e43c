/* SPDX-License-Identifier: MIT */
/* firmware/fw_ack.h — the sender's ACK and NAK handling (fw_ack.c): ACKs
 * taken in and applied, NAKs turned into resends, and the resend set that
 * fw_send.c sends from. */
#ifndef EEL_FW_ACK_H
#define EEL_FW_ACK_H

#include "fw.h"

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

/* A cumulative ACK received (on any packet): remembered, applied by
 * fw_acks_apply before anything that reads what it changes (a NAK, an
 * EGET's answer, a full window or message table, resends, the timer, a
 * failure), else after the send pass has put its new packets on the wire.
 * Finishing the messages an ACK covers (their completions, the host's
 * send-queue count) is the requester's bookkeeping; done after the packets
 * the host is waiting to send, it is off the path of the next message, as a
 * NIC's completion engine runs beside its send engine. An ACK for more than
 * was sent is ignored here, as fw_on_ack would. Inline: once a packet
 * received. */
static inline void fw_ack_in(struct fw *fw, uint32_t ack)
{
	if (fw_psn_before(fw->snd_max, ack))
		return;
	if (!fw->ack_in_new || fw_psn_before(fw->ack_in, ack)) {
		fw->ack_in = ack;
		fw->ack_in_new = 1;
	}
}

#endif
