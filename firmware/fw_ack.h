/* SPDX-License-Identifier: MIT */
/* firmware/fw_ack.h — the sender's ACK and NAK handling (fw_ack.c): ACKs
 * taken in and applied, NAKs turned into resends, and the resend set that
 * fw_send.c sends from. */
#ifndef EEL_FW_ACK_H
#define EEL_FW_ACK_H

#include "fw.h"
#include "fw_host.h"
#include "fw_rto.h"

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

/* Does `ack` retire exactly the oldest message in flight, of one packet, with
 * nothing else for fw_on_ack to do: not an EGET (finished by its answer), no
 * resend marked, no F-RTO round on, nothing to go back for (snd_nxt past
 * it)? Every ACK of a ping-pong does: the light path (fw_ack_oldest). Each
 * condition has its case in tests/unit/test_fw_ack.c (the EGET's:
 * test_fw_ereg.c). */
static inline __attribute__((always_inline)) int fw_ack_is_oldest(const struct fw *fw, uint32_t ack)
{
	const struct fw_msg *m = &fw->msg[fw->msg_head & (FW_MSGS - 1)];

	return ack == fw->snd_una + 1 && fw->msg_head != fw->msg_tail && m->first_psn == fw->snd_una &&
	       m->npkts == 1 && m->kind != FW_MSG_EGET && !(fw->resends | (uint32_t)fw->frto) &&
	       fw->snd_nxt != fw->snd_una; /* then snd_max too is past snd_una: ack <= snd_max */
}

/* The ACK light path (firmware/README.md, "The fast path"): what fw_on_ack
 * does for such an ACK, one turn of its loop and none of its recovery. */
static inline __attribute__((always_inline)) void fw_ack_oldest(struct fw *fw, uint32_t ack)
{
	fw_complete(fw, fw_msg_at(fw, fw->msg_head), EEL_FW_OK);
	fw->msg_head++;
	fw->snd_una = ack;
	if (fw_psn_before(fw->msg_tx, fw->msg_head))
		fw->msg_tx = fw->msg_head;
	fw->timeouts = 0;
	fw_rto_acked(fw, ack);
	fw->rto_deadline = ack == fw->snd_max ? 0 : hal_now(&fw->hal) + fw->rto_cur;
}

/* fw_acks_apply with its light path inline (fw_ack_oldest), for the end of
 * a send pass (fw_send.c, send_after), where each ACK of a ping-pong is
 * applied: the call and the registers it saved were ~12 instructions a put
 * (tools/eel-cost). Any other ACK, or none, goes to fw_acks_apply. */
static inline __attribute__((always_inline)) void fw_acks_apply_light(struct fw *fw)
{
	if (fw->ack_in_new && !fw->error && fw_ack_is_oldest(fw, fw->ack_in)) {
		fw->ack_in_new = 0;
		fw_ack_oldest(fw, fw->ack_in);
	} else {
		fw_acks_apply(fw);
	}
}

#endif
