/* SPDX-License-Identifier: MIT */
/* firmware/fw_ack.c — the sender's side of acknowledgements: an ACK taken
 * in (fw_recv.c) is remembered and applied here, finishing the messages it
 * covers (their completions: fw_host.c); a NAK marks what to resend (go-back-N,
 * or only the missing PSNs, the resend set) and fw_send.c sends it. Protocol:
 * firmware/pkt.h. */
#include "fw_ack.h"
#include "fw_host.h"
#include "fw_rto.h"

/* Empty the resend set. */
static void resend_clear(struct fw *fw)
{
	for (uint32_t i = 0; i < FW_WINDOW / 64; i++)
		fw->resend[i] = 0;
	fw->resends = 0;
}

/* Resend from psn on (go-back-N). */
void fw_go_back(struct fw *fw, uint32_t psn)
{
	fw->snd_nxt = psn;
	fw->msg_tx = fw->msg_head;
	if (fw->resends)
		resend_clear(fw); /* all of them go again */
}

/* Was psn's last transmission lost, as a NAK revealed by transmission tx_seq?
 * It was when it went out no later than that one: the wire keeps order, and
 * tx_seq is either psn's own transmission (received and dropped) or a later
 * one that arrived. A NAK that our resends already answer is stale. */
static int lost_before(const struct fw *fw, uint32_t psn, uint16_t tx_seq)
{
	return !fw_tx_before(tx_seq, fw->tx_seq_of[psn & (FW_WINDOW - 1)]);
}

/* A NAK(SEQ) or NAK(MISSING) (firmware/pkt.h; IBTA Vol. 1 §9.7.5.2): the
 * peer has everything before p->ack (already applied as an ACK). SEQ: resend
 * from p->psn on (go-back-N, the requester's side of the PSN sequence error
 * NAK); MISSING: resend just those PSNs. Each only if the NAK is news. */
void fw_on_nak_seq(struct fw *fw, const struct fw_pkt *p)
{
	uint32_t n = p->mlen < FW_WINDOW ? p->mlen : FW_WINDOW;

	/* a NAK acted on says what is missing: a timeout's F-RTO round, if
	 * one is on, is over (a stale NAK changes nothing) */
	if (p->syndrome == FW_NAK_SEQ) {
		if (p->psn == fw->snd_una && fw->snd_una != fw->snd_max &&
		    fw_psn_before(p->psn, fw->snd_nxt) && lost_before(fw, p->psn, p->tx_seq)) {
			fw_go_back(fw, p->psn);
			fw->probe_due = 1;
			fw->frto = 0;
		}
		return;
	}
	if (p->syndrome != FW_NAK_MISSING)
		return;
	for (uint32_t psn = p->psn; psn != p->psn + n; psn++)
		if (!fw_psn_before(psn, fw->snd_una) && fw_psn_before(psn, fw->snd_nxt) &&
		    !fw_resend_bit(fw, psn) && lost_before(fw, psn, p->tx_seq)) {
			fw_resend_flip(fw, psn);
			fw->resends++;
			fw->probe_due = 1;
			fw->frto = 0;
		}
}

/* The peer has everything before `ack`. Finish the messages it covers, in
 * order. An EGET is finished only by its response, so snd_una stops at an
 * unanswered one: if the response was lost, the timer resends the request. */
void fw_on_ack(struct fw *fw, uint32_t ack)
{
	const struct fw_hal *h = &fw->hal;

	if (!fw_psn_before(fw->snd_una, ack) || fw_psn_before(fw->snd_max, ack))
		return; /* nothing new, or from beyond what we sent */

	while (fw->msg_head != fw->msg_tail) {
		struct fw_msg *m = fw_msg_at(fw, fw->msg_head);
		uint32_t end = m->first_psn + m->npkts;

		if (fw_psn_before(ack, end))
			break;
		if (m->kind == FW_MSG_EGET && !m->answered) {
			ack = m->first_psn;
			break;
		}
		fw_complete(fw, m, EEL_FW_OK);
		fw->msg_head++;
	}
	if (!fw_psn_before(fw->snd_una, ack))
		return;
	for (uint32_t psn = fw->snd_una; fw->resends && psn != ack; psn++)
		if (fw_resend_bit(fw, psn)) {
			fw_resend_flip(fw, psn); /* acknowledged: no need to resend */
			fw->resends--;
		}
	fw->snd_una = ack;
	if (fw->frto == 1 && ack == fw->frto_psn + 1 && fw_psn_before(ack, fw->snd_max)) {
		/* after a timeout that resent the oldest PSN alone (F-RTO, RFC
		 * 5682), an ACK of that one only: what followed it may be lost
		 * as well: go back */
		fw_go_back(fw, ack);
		fw->frto = 0;
	} else if (fw->frto == 1 && fw_psn_before(ack, fw->snd_max)) {
		/* more, which went once, before the timeout: that much arrived.
		 * A slow peer (its process descheduled past the timeout) answers
		 * its ring a pass at a time: wait for the next ACK; if none
		 * comes, the timer again goes back */
		fw->frto_psn = ack - 1;
	} else {
		/* all that was sent: the peer was slow, not the wire; nothing
		 * is resent. Or no round on (2: goes back until now) */
		fw->frto = 0;
	}
	if (fw_psn_before(fw->snd_nxt, ack))
		fw_go_back(fw, ack);
	if (fw_psn_before(fw->msg_tx, fw->msg_head))
		fw->msg_tx = fw->msg_head;
	fw->timeouts = 0;
	fw_rto_acked(fw, ack); /* a sample (RFC 6298 §2.3), the backoff ends (§5.7) */
	fw->rto_deadline = fw->snd_una == fw->snd_max ? 0 : hal_now(h) + fw->rto_cur;
}

void fw_acks_apply(struct fw *fw)
{
	if (!fw->ack_in_new)
		return;
	fw->ack_in_new = 0;
	if (fw->error)
		return;
	if (fw_ack_is_oldest(fw, fw->ack_in))
		fw_ack_oldest(fw, fw->ack_in);
	else
		fw_on_ack(fw, fw->ack_in);
}
