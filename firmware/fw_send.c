/* SPDX-License-Identifier: MIT */
/* firmware/fw_send.c — the send side: descriptor fetch, packets onto the wire,
 * acknowledgements, resends on a NAK (go-back-N, or only the missing PSNs)
 * and the retransmission timer. Protocol: firmware/pkt.h. */
#include "fw_send.h"
#include "fw_host.h"
#include "fw_mr.h"
#include "fw_rto.h"

static struct fw_msg *msg_at(struct fw *fw, uint32_t i)
{
	return &fw->msg[i & (FW_MSGS - 1)];
}

/* Room for one more message in flight? An ACK received and not yet applied
 * may free a slot. */
static int msg_room(struct fw *fw)
{
	if (fw->msg_tail - fw->msg_head == FW_MSGS)
		fw_acks_apply(fw);
	return fw->msg_tail - fw->msg_head < FW_MSGS;
}

/* A slot for a new message of npkts packets, its PSNs assigned; 0 when full. */
struct fw_msg *fw_msg_alloc(struct fw *fw, uint32_t npkts)
{
	struct fw_msg *m;

	if (!msg_room(fw))
		return 0;
	m = msg_at(fw, fw->msg_tail++);
	m->first_psn = fw->psn_next;
	m->npkts = npkts;
	m->msg_id = fw->next_msg_id++;
	m->answered = 0;
	m->trace = 0;
	m->stamps = 0;
	m->t_fetch = 0;
	fw->psn_next += npkts;
	return m;
}

/* Take new descriptors from the send queue (DMA read of each 64-byte SQE)
 * while there is room for them in flight. */
int fw_fetch_sq(struct fw *fw)
{
	const struct fw_hal *h = &fw->hal;
	uint64_t db = hal_reg_read64(h, FW_REG(sq_doorbell));
	int work = 0;

	while (fw->sq_fetched != db && msg_room(fw)) {
		struct eel_fw_sqe d;
		struct fw_msg *m;
		uint32_t npkts, trace;
		int ok;

		if (fw->delay_fetch)
			fw_delay(fw, fw->delay_fetch);
		hal_dma_read(h, &d, fw->sq_base + (fw->sq_fetched & fw->sq_mask) * sizeof(d),
			     sizeof(d));
		fw->sq_fetched++;
		work = 1;

		npkts = d.len <= fw->mtu ? 1 : (d.len + fw->mtu - 1) / fw->mtu; /* no divide for one packet */
		m = fw_msg_alloc(fw, npkts);
		m->kind = FW_MSG_SQE;
		m->flags = d.flags;
		m->wr_id = d.wr_id;
		m->laddr = d.laddr;
		m->raddr = d.raddr;
		m->len = d.len;
		m->lkey = d.lkey;
		m->rkey = d.rkey;
		m->imm = d.imm;
		trace = (d.flags & EEL_FW_SQE_TRACE) && fw->trace_size ? d.trace + 1 : 0;
		m->trace = trace;
		m->stamps = d.stamps;
		m->t_fetch = trace && fw_wants(m->stamps, EEL_ST_NIC_FETCH) ? hal_now(h) : 0;

		if (d.flags & EEL_FW_SQE_INLINE) {
			ok = d.len <= EEL_FW_MAX_INLINE;
			fw_copy(m->data, d.inline_data, EEL_FW_MAX_INLINE);
		} else {
			ok = fw_mr_check(fw, d.lkey, d.laddr, d.len, EEL_FW_MR_LOCAL_READ);
		}
		if (d.opcode != EEL_FW_OP_PUT || !ok || fw->error) {
			/* Nothing of it goes on the wire: give its PSNs back. */
			uint32_t status = fw->error ? EEL_FW_ERR_FLUSHED :
					  d.opcode != EEL_FW_OP_PUT ? EEL_FW_ERR_BAD_DESC :
					  (d.flags & EEL_FW_SQE_INLINE) ? EEL_FW_ERR_BAD_DESC :
					  EEL_FW_ERR_LOCAL_ACCESS;

			fw->msg_tail--;
			fw->psn_next -= npkts;
			fw->next_msg_id--;
			/* In order with everything before it: wait until those are done. */
			if (fw->msg_head == fw->msg_tail) {
				fw_complete(fw, m, status);
				if (status != EEL_FW_ERR_FLUSHED)
					fw_fail(fw, status, (uint32_t)fw->sq_fetched - 1);
			} else {
				fw->sq_fetched--;
				break;
			}
		}
	}
	return work;
}

/* Is message m's ACK wanted at the receiver's next send pass, not coalesced
 * (FW_PKT_ACKREQ on its last packet)? When the host waits on it: a
 * signalled put's completion, an E-register's result, the send queue's room
 * when half of it (or of the message table) is in flight. And when m is
 * alone in flight, everything before it acknowledged (by an ACK applied, or
 * received and not yet applied: fw_ack_in), as a ping-pong's put: nothing
 * after it would carry the receiver's ACK, which would otherwise wait for
 * FW_QUIET_PASSES passes. (A receiving host that leaves the NIC's calls
 * before its next send pass, inline, takes the ACK with it either way: the
 * timer is for that.) The packets of a flood, many in flight, are
 * acknowledged as the receiver coalesces them (fw_send). */
static int ack_wanted(const struct fw *fw, const struct fw_msg *m)
{
	uint32_t una = fw->ack_in_new && fw_psn_before(fw->snd_una, fw->ack_in) ? fw->ack_in : fw->snd_una;
	uint32_t room = fw->sq_mask + 1 < FW_MSGS ? fw->sq_mask + 1 : FW_MSGS;

	return m->kind != FW_MSG_SQE || (m->flags & EEL_FW_SQE_SIGNALED) ||
	       (m->first_psn == una && m->first_psn + m->npkts == fw->psn_next) ||
	       fw->msg_tail - fw->msg_head >= room / 2;
}

/* Build packet `psn` of message m into a wire frame and send it. Returns 0
 * when the wire has no room. */
static int send_packet(struct fw *fw, struct fw_msg *m, uint32_t psn)
{
	const struct fw_hal *h = &fw->hal;
	uint32_t k = psn - m->first_psn;
	uint32_t off = k * fw->mtu;
	uint32_t plen = m->kind == FW_MSG_EGET ? 0 : m->kind == FW_MSG_EPUT ? 8 :
			m->len - off < fw->mtu ? m->len - off : fw->mtu;
	int last = k + 1 == m->npkts;
	struct fw_pkt p = {
		.magic = FW_WIRE_MAGIC,
		.op = m->kind == FW_MSG_SQE ? FW_PKT_PUT :
		      m->kind == FW_MSG_EPUT ? FW_PKT_EPUT : FW_PKT_EGET_REQ,
		.flags = (uint8_t)((k == 0 ? FW_PKT_FIRST : 0) | (last ? FW_PKT_LAST : 0) |
				   (last && (m->flags & EEL_FW_SQE_NOTIFY) ? FW_PKT_NOTIFY : 0) |
				   (last && ack_wanted(fw, m) ? FW_PKT_ACKREQ : 0) |
				   (m->trace ? FW_PKT_TRACE : 0) | fw->tx_probe),
		.psn = psn,
		.ack = fw->rcv_nxt,
		.msg_id = m->msg_id,
		.raddr = m->raddr + off,
		.rkey = m->rkey,
		.syndrome = m->trace ? fw_sel_to_wire(m->stamps) : 0, /* the receiver's stamps */
		.len = (uint16_t)plen,
		.imm = m->imm,
		.mlen = m->len,
		.tx_seq = fw->tx_seq,
	};
	uint8_t *frame = hal_wire_tx_alloc(h, FW_PKT_HDR + plen);
	int first_tx = !fw_psn_before(psn, fw->snd_max);
	uint64_t t_tx = 0;

	if (!frame)
		return 0;
	if (fw->delay_tx)
		fw_delay(fw, fw->delay_tx);
	fw_pkt_write(frame, &p);
	if (m->kind == FW_MSG_EPUT || (m->flags & EEL_FW_SQE_INLINE))
		fw_copy(frame + FW_PKT_HDR, m->data, plen);
	else if (plen) {
		if (fw->delay_payload)
			fw_delay(fw, fw->delay_payload);
		hal_dma_read(h, frame + FW_PKT_HDR, m->laddr + off, plen);
	}
	/* NIC_TX: the frame handed to the wire. What the wire does with it from
	 * here (its MAC's FCS, an emulated wire's faults and delay, a PMD's or
	 * the e1000's tail-register doorbell) is the wire's time, not this NIC's. */
	if (first_tx && last && m->trace && fw_wants(m->stamps, EEL_ST_NIC_TX))
		t_tx = hal_now(h);
	hal_wire_tx_send(h, frame, FW_PKT_HDR + plen);
	fw->tx_seq_of[psn & (FW_WINDOW - 1)] = fw->tx_seq++;

	fw_ack_carried(fw);
	fw_count(fw, EEL_FW_CNT_TX_PKTS, 1);
	if (!first_tx) {
		fw_count(fw, EEL_FW_CNT_RETRANSMITS, 1);
	} else {
		fw->snd_max = psn + 1;
		if (last && m->trace)
			fw_trace_tx(fw, m, t_tx); /* the frame is out: off its path */
	}
	fw_rto_sent(fw, psn, first_tx);
	if (!fw->rto_deadline)
		fw->rto_deadline = hal_now(h) + fw->rto_cur;
	return 1;
}

/* Send a header-only packet (ACK, NAK); it carries our cumulative ACK. */
static int send_hdr(struct fw *fw, struct fw_pkt *p)
{
	uint8_t *frame = hal_wire_tx_alloc(&fw->hal, FW_PKT_HDR);

	if (!frame)
		return 0;
	p->magic = FW_WIRE_MAGIC;
	p->ack = fw->rcv_nxt;
	fw_pkt_write(frame, p);
	hal_wire_tx_send(&fw->hal, frame, FW_PKT_HDR);
	fw_ack_carried(fw);
	return 1;
}

/* An ACK or NAK(ACCESS). */
int fw_send_ctrl(struct fw *fw, uint8_t op, uint8_t syndrome, uint32_t psn)
{
	struct fw_pkt p = { .op = op, .syndrome = syndrome, .psn = psn };

	return send_hdr(fw, &p);
}

/* NAK(SEQ) or NAK(MISSING): PSNs psn .. psn + count - 1 are missing, as the
 * packet that went out as transmission tx_seq showed. */
int fw_send_nak(struct fw *fw, uint8_t syndrome, uint32_t psn, uint32_t count, uint16_t tx_seq)
{
	struct fw_pkt p = {
		.op = FW_PKT_NAK, .syndrome = syndrome, .psn = psn, .mlen = count, .tx_seq = tx_seq,
	};

	return send_hdr(fw, &p);
}

static void resend_clear(struct fw *fw)
{
	for (uint32_t i = 0; i < FW_WINDOW / 64; i++)
		fw->resend[i] = 0;
	fw->resends = 0;
}

static int resend_bit(const struct fw *fw, uint32_t psn)
{
	uint32_t i = psn & (FW_WINDOW - 1);

	return (int)(fw->resend[i / 64] >> (i % 64) & 1);
}

static void resend_flip(struct fw *fw, uint32_t psn)
{
	uint32_t i = psn & (FW_WINDOW - 1);

	fw->resend[i / 64] ^= 1ull << (i % 64);
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
		    !resend_bit(fw, psn) && lost_before(fw, psn, p->tx_seq)) {
			resend_flip(fw, psn);
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
		struct fw_msg *m = msg_at(fw, fw->msg_head);
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
		if (resend_bit(fw, psn)) {
			resend_flip(fw, psn); /* acknowledged: no need to resend */
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

/* A cumulative ACK received (on any packet): remembered, applied by
 * fw_acks_apply before anything that reads what it changes (a NAK, an
 * EGET's answer, a full window or message table, resends, the timer, a
 * failure), else after the send pass has put its new packets on the wire.
 * Finishing the messages an ACK covers (their completions, the host's
 * send-queue count) is the requester's bookkeeping; done after the packets
 * the host is waiting to send, it is off the path of the next message, as a
 * NIC's completion engine runs beside its send engine. An ACK for more than
 * was sent is ignored here, as fw_on_ack would. */
void fw_ack_in(struct fw *fw, uint32_t ack)
{
	if (fw_psn_before(fw->snd_max, ack))
		return;
	if (!fw->ack_in_new || fw_psn_before(fw->ack_in, ack)) {
		fw->ack_in = ack;
		fw->ack_in_new = 1;
	}
}

void fw_acks_apply(struct fw *fw)
{
	if (!fw->ack_in_new)
		return;
	fw->ack_in_new = 0;
	if (!fw->error)
		fw_on_ack(fw, fw->ack_in);
}

/* Has the retransmission timer run out? Its clock is read once in
 * FW_TIMER_PASSES passes: a read costs about as much as the rest of an idle
 * pass (on the host, rdtsc), and a timeout is microseconds to milliseconds. */
static int timer_expired(struct fw *fw)
{
	if (!fw->rto_deadline || ++fw->timer_pass < FW_TIMER_PASSES)
		return 0;
	fw->timer_pass = 0;
	return hal_now(&fw->hal) >= fw->rto_deadline;
}

/* The message that holds psn (in flight: at or after msg_head). */
static struct fw_msg *msg_of(struct fw *fw, uint32_t psn, uint32_t *i)
{
	struct fw_msg *m = msg_at(fw, *i);

	while (!fw_psn_before(psn, m->first_psn + m->npkts))
		m = msg_at(fw, ++*i);
	return m;
}

/* Resend the PSNs a NAK(MISSING) asked for, oldest first. Returns 1 when it
 * sent any. */
static int send_resends(struct fw *fw)
{
	uint32_t i = fw->msg_head;
	int work = 0;

	for (uint32_t psn = fw->snd_una; fw->resends && fw_psn_before(psn, fw->snd_nxt); psn++) {
		struct fw_msg *m;

		if (!resend_bit(fw, psn))
			continue;
		m = msg_of(fw, psn, &i);
		if (!(m->kind == FW_MSG_EGET && m->answered) && !send_packet(fw, m, psn))
			break;
		resend_flip(fw, psn);
		fw->resends--;
		work = 1;
	}
	return work;
}

/* After a NAK's resends, the next FW_REPEATS packets sent carry FW_PKT_PROBE:
 * new data when there is some, else the last PSN sent again (a probe, as the
 * tail loss probe of TCP's RACK-TLP, RFC 8985). Were a resend, or the end of
 * a go-back round, lost, a receiver still missing a PSN NAKs it again at the
 * first probe that arrives (fw_recv.c), so the loss is repaired without the
 * timer whether or not new data follows the resends. (New data alone does
 * not do it: past a gap the receiver NAKs only now and then, fw_recv.c, and
 * a few new packets between those NAKs left the timer.) */
static void probe_arm(struct fw *fw)
{
	if (fw->probe_due && !fw->resends && fw->snd_nxt == fw->snd_max) {
		fw->probe_due = 0; /* the NAK's resends are out */
		fw->probe_left = FW_REPEATS;
	}
	fw->tx_probe = fw->probe_left && fw->snd_nxt == fw->snd_max ? FW_PKT_PROBE : 0;
}

/* Send packet snd_nxt of m, a probe when it is new data after a NAK's
 * resends. Off the path of a send with no NAK to follow up. */
static __attribute__((noinline)) int send_probed(struct fw *fw, struct fw_msg *m)
{
	int sent;

	probe_arm(fw);
	sent = send_packet(fw, m, fw->snd_nxt);
	if (sent && fw->tx_probe)
		fw->probe_left--;
	fw->tx_probe = 0;
	return sent;
}

/* The probes new data did not carry: the last PSN sent, again, while nothing
 * new can be sent (a full wire keeps them for the next pass). */
static void send_probe(struct fw *fw)
{
	uint32_t i = fw->msg_head, psn = fw->snd_max - 1;
	struct fw_msg *m;

	probe_arm(fw);
	if (!fw->tx_probe)
		return;
	if (fw->snd_una == fw->snd_max) {
		fw->probe_left = fw->tx_probe = 0; /* everything acknowledged: nothing to probe for */
		return;
	}
	m = msg_of(fw, psn, &i);
	if (m->kind == FW_MSG_EGET && m->answered)
		fw->probe_left = 0;
	while (fw->probe_left && send_packet(fw, m, psn))
		fw->probe_left--;
	fw->tx_probe = 0;
}

/* Transmit within the window (what a NAK asked for first), then look after
 * the timer and owed ACKs. */
int fw_send(struct fw *fw)
{
	int work;

	if (fw->resends || fw->probe_due)
		fw_acks_apply(fw); /* no resend of what the peer has */
	work = fw->resends ? send_resends(fw) : 0;
	for (;;) {
		if (fw->snd_nxt == fw->psn_next)
			break;
		if (fw->snd_nxt - fw->snd_una >= FW_WINDOW) {
			if (!fw->ack_in_new)
				break;
			fw_acks_apply(fw); /* the window may open */
			continue;
		}
		struct fw_msg *m = msg_at(fw, fw->msg_tx);

		while (!fw_psn_before(fw->snd_nxt, m->first_psn + m->npkts))
			m = msg_at(fw, ++fw->msg_tx);
		if (m->kind == FW_MSG_EGET && m->answered) {
			fw->snd_nxt++; /* answered already: no need to ask again */
			continue;
		}
		if (!(fw->probe_due | fw->probe_left ? send_probed(fw, m) : send_packet(fw, m, fw->snd_nxt)))
			break;
		fw->snd_nxt++;
		work = 1;
	}
	fw_acks_apply(fw);
	if (fw->probe_due | fw->probe_left)
		send_probe(fw);

	if (timer_expired(fw)) {
		fw_count(fw, EEL_FW_CNT_TIMEOUTS, 1);
		if (fw->retry_limit && ++fw->timeouts > fw->retry_limit) {
			fw_fail(fw, EEL_FW_ERR_RETRY, fw->snd_una);
			return 1;
		}
		fw_rto_backoff(fw); /* RFC 6298 §5.5: RTO doubles; §3: no sample from a resend */
		if (!fw->frto && fw->snd_max - fw->snd_una > 1 && fw_psn_before(fw->snd_una, fw->snd_nxt)) {
			/* F-RTO (RFC 5682): the oldest PSN alone, and the next
			 * ACK tells a loss from a slow peer (fw_on_ack). A peer
			 * process descheduled past the timeout (4 ms; a busy
			 * machine's time slice) took the window again, up to 128
			 * packets, each a duplicate */
			if (!resend_bit(fw, fw->snd_una)) {
				resend_flip(fw, fw->snd_una);
				fw->resends++;
			}
			fw->frto = 1;
			fw->frto_psn = fw->snd_una;
		} else {
			/* one PSN out, a go-back under way already, or a timeout
			 * again before an ACK: go back, as until an ACK moves
			 * snd_una on */
			if (fw->frto)
				fw->frto = 2;
			fw_go_back(fw, fw->snd_una);
		}
		fw->probe_due = 0; /* the timer's round ends with the timer */
		fw->probe_left = 0;
		fw->rto_deadline = hal_now(&fw->hal) + fw->rto_cur;
		work = 1;
	}

	/* ACKs are coalesced, as an InfiniBand responder may (IBTA Vol. 1
	 * 9.7.6.1): one goes alone when a packet asked for it (FW_PKT_ACKREQ:
	 * the sender's host waits on it) after waiting one step for a data
	 * packet to carry it, when FW_ACK_EVERY packets are owed, when the
	 * wire has been quiet for FW_QUIET_PASSES receive passes with one
	 * owed, or at once for a duplicate (the peer missed our ACK). Each ACK
	 * sent alone is a frame for the sender to take in and a cache line to
	 * carry back: in a flood at queue depth 64 there was one for every 4-5
	 * packets (73-93 thousand for 351 thousand). */
	if (fw->rcv_acked != fw->rcv_nxt || fw->ack_force) {
		if (fw->ack_force || fw->rcv_nxt - fw->rcv_acked >= FW_ACK_EVERY ||
		    ((fw->ack_req || fw->ack_idle >= FW_QUIET_PASSES) && fw->ack_wait >= 1)) {
			if (fw_send_ctrl(fw, FW_PKT_ACK, 0, 0)) {
				fw_count(fw, EEL_FW_CNT_ACKS_TX, 1);
				fw->ack_again = FW_REPEATS;
				fw->ack_again_at = 0;
				fw->ack_quiet = 0;
			}
		} else {
			fw->ack_wait++;
		}
		work = 1;
	}
	return work;
}
