/* firmware/fw_send.c — the send side: descriptor fetch, packets onto the wire,
 * acknowledgements, go-back-N resends and the retransmission timer.
 * Protocol: firmware/wire.h. */
#include "fw_send.h"
#include "fw_host.h"
#include "fw_mr.h"

static struct fw_msg *msg_at(struct fw *fw, uint32_t i)
{
	return &fw->msg[i & (FW_MSGS - 1)];
}

/* A slot for a new message of npkts packets, its PSNs assigned; 0 when full. */
struct fw_msg *fw_msg_alloc(struct fw *fw, uint32_t npkts)
{
	struct fw_msg *m;

	if (fw->msg_tail - fw->msg_head == FW_MSGS)
		return 0;
	m = msg_at(fw, fw->msg_tail++);
	m->first_psn = fw->psn_next;
	m->npkts = npkts;
	m->msg_id = fw->next_msg_id++;
	m->answered = 0;
	m->trace = 0;
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

	while (fw->sq_fetched != db && fw->msg_tail - fw->msg_head < FW_MSGS) {
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

		npkts = d.len ? (d.len + fw->mtu - 1) / fw->mtu : 1;
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
		if (trace) {
			fw_trace_begin(fw, 0, trace - 1, m->msg_id);
			fw_stamp(fw, 0, trace - 1, EEL_ST_NIC_FETCH, hal_now(h));
		}

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
				   (m->trace ? FW_PKT_TRACE : 0)),
		.psn = psn,
		.ack = fw->rcv_nxt,
		.msg_id = m->msg_id,
		.raddr = m->raddr + off,
		.rkey = m->rkey,
		.len = (uint16_t)plen,
		.imm = m->imm,
		.mlen = m->len,
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
	if (first_tx && last && m->trace)
		t_tx = hal_now(h);
	hal_wire_tx_send(h, frame, FW_PKT_HDR + plen);

	fw->rcv_acked = fw->rcv_nxt;
	fw->ack_wait = 0;
	fw->ack_force = 0;
	fw_count(fw, EEL_FW_CNT_TX_PKTS, 1);
	if (!first_tx) {
		fw_count(fw, EEL_FW_CNT_RETRANSMITS, 1);
	} else {
		fw->snd_max = psn + 1;
		if (last && m->trace) {
			fw_stamp(fw, 0, m->trace - 1, EEL_ST_NIC_TX, t_tx);
			fw_trace_end(fw, 0, m->trace - 1);
		}
	}
	if (!fw->rto_deadline)
		fw->rto_deadline = hal_now(h) + (fw->rto << fw->rto_shift);
	return 1;
}

/* An ACK, NAK or EGET response: a header-only packet (EGET_RESP carries the
 * 8-byte value, written by the caller through fw_send_eget_resp). */
int fw_send_ctrl(struct fw *fw, uint8_t op, uint8_t syndrome, uint32_t psn)
{
	struct fw_pkt p = {
		.magic = FW_WIRE_MAGIC, .op = op, .syndrome = syndrome,
		.psn = psn, .ack = fw->rcv_nxt,
	};
	uint8_t *frame = hal_wire_tx_alloc(&fw->hal, FW_PKT_HDR);

	if (!frame)
		return 0;
	fw_pkt_write(frame, &p);
	hal_wire_tx_send(&fw->hal, frame, FW_PKT_HDR);
	fw->rcv_acked = fw->rcv_nxt;
	fw->ack_wait = 0;
	fw->ack_force = 0;
	return 1;
}

/* Resend from psn on (go-back-N). */
void fw_go_back(struct fw *fw, uint32_t psn)
{
	fw->snd_nxt = psn;
	fw->msg_tx = fw->msg_head;
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
	fw->snd_una = ack;
	if (fw_psn_before(fw->snd_nxt, ack))
		fw_go_back(fw, ack);
	if (fw_psn_before(fw->msg_tx, fw->msg_head))
		fw->msg_tx = fw->msg_head;
	fw->timeouts = 0;
	fw->rto_shift = 0;
	fw->rto_deadline = fw->snd_una == fw->snd_max ? 0 : hal_now(h) + fw->rto;
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

/* Transmit within the window, then look after the timer and owed ACKs. */
int fw_send(struct fw *fw)
{
	int work = 0;

	while (fw->snd_nxt != fw->psn_next && fw->snd_nxt - fw->snd_una < FW_WINDOW) {
		struct fw_msg *m = msg_at(fw, fw->msg_tx);

		while (!fw_psn_before(fw->snd_nxt, m->first_psn + m->npkts))
			m = msg_at(fw, ++fw->msg_tx);
		if (m->kind == FW_MSG_EGET && m->answered) {
			fw->snd_nxt++; /* answered already: no need to ask again */
			continue;
		}
		if (!send_packet(fw, m, fw->snd_nxt))
			break;
		fw->snd_nxt++;
		work = 1;
	}

	if (timer_expired(fw)) {
		fw_count(fw, EEL_FW_CNT_TIMEOUTS, 1);
		if (fw->retry_limit && ++fw->timeouts > fw->retry_limit) {
			fw_fail(fw, EEL_FW_ERR_RETRY, fw->snd_una);
			return 1;
		}
		if (fw->rto_shift < FW_RTO_BACKOFF)
			fw->rto_shift++;
		fw_go_back(fw, fw->snd_una);
		fw->rto_deadline = hal_now(&fw->hal) + (fw->rto << fw->rto_shift);
		work = 1;
	}

	/* An ACK waits one step for a data packet to carry it; a half-full
	 * window or a duplicate (the peer missed our ACK) sends it at once. */
	if (fw->rcv_acked != fw->rcv_nxt || fw->ack_force) {
		if (fw->ack_force || fw->ack_wait >= 1 ||
		    fw->rcv_nxt - fw->rcv_acked >= FW_WINDOW / 2) {
			if (fw_send_ctrl(fw, FW_PKT_ACK, 0, 0))
				fw_count(fw, EEL_FW_CNT_ACKS_TX, 1);
		} else {
			fw->ack_wait++;
		}
		work = 1;
	}
	return work;
}
