/* firmware/fw_recv.c — the receive side: frames off the wire.
 * Protocol: firmware/wire.h. */
#include "fw_recv.h"
#include "fw_send.h"
#include "fw_host.h"
#include "fw_mr.h"

_Static_assert(offsetof(struct fw_pkt, flags) == 2, "fw_recv reads the flags at byte 2");

/* Answer an EGET request: load 8 bytes from our host memory (key and bounds
 * already checked) and send them back with the request's PSN. */
static void answer_eget(struct fw *fw, const struct fw_pkt *req, uint8_t status)
{
	struct fw_pkt p = {
		.magic = FW_WIRE_MAGIC, .op = FW_PKT_EGET_RESP, .flags = FW_PKT_FIRST | FW_PKT_LAST,
		.syndrome = status, .psn = req->psn, .ack = fw->rcv_nxt, .msg_id = req->msg_id,
		.len = 8,
	};
	uint8_t *frame = hal_wire_tx_alloc(&fw->hal, FW_PKT_HDR + 8);
	uint64_t v = 0;

	if (!frame)
		return; /* the requester's timer asks again */
	if (status == EEL_FW_OK)
		hal_dma_read(&fw->hal, &v, req->raddr, 8);
	fw_pkt_write(frame, &p);
	fw_copy(frame + FW_PKT_HDR, &v, 8);
	hal_wire_tx_send(&fw->hal, frame, FW_PKT_HDR + 8);
	fw->rcv_acked = fw->rcv_nxt;
	fw->ack_wait = 0;
	fw->ack_force = 0;
}

static int access_ok(struct fw *fw, const struct fw_pkt *p)
{
	if (p->op == FW_PKT_EGET_REQ)
		return fw_mr_check(fw, p->rkey, p->raddr, 8, EEL_FW_MR_REMOTE_READ);
	/* A put's first packet answers for the whole message: refused, it
	 * writes nothing, not even the packets that would fit. */
	if (p->op == FW_PKT_PUT && (p->flags & FW_PKT_FIRST) &&
	    !fw_mr_check(fw, p->rkey, p->raddr, p->mlen, EEL_FW_MR_REMOTE_WRITE))
		return 0;
	return fw_mr_check(fw, p->rkey, p->raddr, p->len, EEL_FW_MR_REMOTE_WRITE);
}

/* A data packet (PUT, EPUT, EGET_REQ). Only the next expected PSN is taken:
 * that is what makes delivery exactly once and in order. */
static void on_data(struct fw *fw, const struct fw_pkt *p, const uint8_t *payload, uint64_t t_rx)
{
	const struct fw_hal *h = &fw->hal;

	if (p->psn != fw->rcv_nxt) {
		if (fw_psn_before(p->psn, fw->rcv_nxt)) {
			/* Already delivered: a resend or a duplicate. Never write
			 * it again; answer again, since our answer may be lost. */
			fw_count(fw, EEL_FW_CNT_DUPS, 1);
			if (p->op == FW_PKT_EGET_REQ)
				answer_eget(fw, p, access_ok(fw, p) ? EEL_FW_OK
								    : EEL_FW_ERR_REMOTE_ACCESS);
			else
				fw->ack_force = 1;
		} else {
			/* A gap: something before it was lost. Ask once. */
			fw_count(fw, EEL_FW_CNT_OOO, 1);
			if (!fw->nak_sent && fw_send_ctrl(fw, FW_PKT_NAK, FW_NAK_SEQ, fw->rcv_nxt)) {
				fw->nak_sent = 1;
				fw_count(fw, EEL_FW_CNT_NAKS_TX, 1);
			}
		}
		return;
	}
	if (fw->error) {
		fw_send_ctrl(fw, FW_PKT_NAK, FW_NAK_ACCESS, fw->error_info);
		return;
	}
	if (!access_ok(fw, p)) {
		/* A refused access writes nothing and fails the connection on
		 * both ends (InfiniBand RC: remote access error). */
		fw_count(fw, EEL_FW_CNT_ACCESS_ERRS, 1);
		fw_fail(fw, EEL_FW_ERR_REMOTE_ACCESS, p->psn);
		if (fw_send_ctrl(fw, FW_PKT_NAK, FW_NAK_ACCESS, p->psn))
			fw_count(fw, EEL_FW_CNT_NAKS_TX, 1);
		return;
	}
	if ((p->flags & FW_PKT_NOTIFY) &&
	    fw->cq_prod - hal_reg_read64(h, FW_REG(cq_doorbell)) >= (fw->cq_mask + 1) / 2) {
		/* Receiver not ready: half the CQ is unread. Take nothing; the
		 * sender's timer resends the packet. */
		fw_count(fw, EEL_FW_CNT_RNR, 1);
		return;
	}
	fw->rcv_nxt++;
	fw->nak_sent = 0;

	if (p->op == FW_PKT_EGET_REQ) {
		answer_eget(fw, p, EEL_FW_OK);
		return;
	}

	if (p->flags & FW_PKT_FIRST) {
		fw->rx_bytes = 0;
		fw->rx_trace = 0;
		if (t_rx && fw->trace_size) {
			fw->rx_trace = (fw->rx_trace_next++ & (fw->trace_size - 1)) + 1;
			fw_trace_begin(fw, 1, fw->rx_trace - 1, p->msg_id);
			fw_stamp(fw, 1, fw->rx_trace - 1, EEL_ST_NIC_RX, t_rx);
		}
	}
	if (fw->delay_rx)
		fw_delay(fw, fw->delay_rx);
	if (fw->rx_trace && (p->flags & FW_PKT_FIRST))
		fw_stamp(fw, 1, fw->rx_trace - 1, EEL_ST_DMA_START, hal_now(h));
	if (fw->delay_dma)
		fw_delay(fw, fw->delay_dma);
	if (p->len)
		hal_dma_write(h, p->raddr, payload, p->len);
	fw->rx_bytes += p->len;

	if (p->flags & FW_PKT_LAST) {
		uint64_t last = p->msg_id;

		if (fw->rx_trace) {
			fw_stamp(fw, 1, fw->rx_trace - 1, EEL_ST_DMA_DONE, hal_now(h));
			fw_trace_end(fw, 1, fw->rx_trace - 1);
			last |= (uint64_t)(fw->rx_trace - 1) << 32 | EEL_FW_LAST_RX_TRACED;
		}
		if (p->flags & FW_PKT_NOTIFY)
			fw_cqe(fw, EEL_FW_CQE_NOTIFY, EEL_FW_OK, 0, fw->rx_bytes, p->imm,
			       p->msg_id, 0);
		fw_status_write(fw, offsetof(struct eel_fw_status, last_rx), &last, 8);
		fw_count(fw, EEL_FW_CNT_RX_MSGS, 1);
	}
}

/* The answer to one of our EGETs. */
static void on_eget_resp(struct fw *fw, const struct fw_pkt *p, const uint8_t *payload)
{
	for (uint32_t i = fw->msg_head; i != fw->msg_tail; i++) {
		struct fw_msg *m = &fw->msg[i & (FW_MSGS - 1)];
		uint64_t v;

		if (m->kind != FW_MSG_EGET || m->first_psn != p->psn || m->answered)
			continue;
		if (p->syndrome != EEL_FW_OK) {
			fw_count(fw, EEL_FW_CNT_NAKS_RX, 1);
			fw_ereg_done(fw, m, p->syndrome, 0);
			m->answered = 1;
			fw_fail(fw, p->syndrome, p->psn);
			return;
		}
		fw_copy(&v, payload, 8);
		fw_ereg_done(fw, m, EEL_FW_OK, &v);
		m->answered = 1;
		fw_on_ack(fw, p->psn + 1);
		return;
	}
	fw_count(fw, EEL_FW_CNT_DUPS, 1); /* an answer we no longer wait for */
}

static void on_nak(struct fw *fw, const struct fw_pkt *p)
{
	fw_count(fw, EEL_FW_CNT_NAKS_RX, 1);
	if (p->syndrome == FW_NAK_ACCESS) {
		/* Fail the message that was refused, then everything else. */
		for (uint32_t i = fw->msg_head; i != fw->msg_tail; i++) {
			struct fw_msg *m = &fw->msg[i & (FW_MSGS - 1)];

			if (!fw_psn_before(p->psn, m->first_psn) &&
			    fw_psn_before(p->psn, m->first_psn + m->npkts)) {
				fw_complete(fw, m, EEL_FW_ERR_REMOTE_ACCESS);
				m->kind = 0; /* completed: fw_fail must not flush it again */
				break;
			}
		}
		fw_fail(fw, EEL_FW_ERR_REMOTE_ACCESS, p->psn);
		return;
	}
	/* NAK(SEQ): the peer has everything before p->ack (already applied as an
	 * ACK); resend from there unless we are already doing so. */
	if (p->ack == fw->snd_una && fw->snd_una != fw->snd_max)
		fw_go_back(fw, p->ack);
}

int fw_recv(struct fw *fw)
{
	const struct fw_hal *h = &fw->hal;
	uint32_t n;

	for (n = 0; n < FW_RX_BUDGET; n++) {
		struct fw_pkt p;
		uint32_t len;
		const uint8_t *frame = hal_wire_rx(h, &len);
		uint64_t t_rx;

		if (!frame)
			break;
		/* NIC_RX of a traced message's first packet: the frame is off
		 * the wire, before anything is done with it (parse,
		 * acknowledgements, checks: the rx stage). The flags byte is
		 * read raw; parse checks it with the rest. */
		t_rx = len >= FW_PKT_HDR && (frame[2] & (FW_PKT_TRACE | FW_PKT_FIRST)) ==
				(FW_PKT_TRACE | FW_PKT_FIRST) ? hal_now(h) : 0;
		if (fw_pkt_parse(frame, len, &p) < 0) {
			fw_count(fw, EEL_FW_CNT_BAD, 1);
			hal_wire_rx_done(h);
			continue;
		}
		fw_count(fw, EEL_FW_CNT_RX_PKTS, 1);
		if (!fw->error)
			fw_on_ack(fw, p.ack);
		switch (p.op) {
		case FW_PKT_ACK:
			break;
		case FW_PKT_NAK:
			on_nak(fw, &p);
			break;
		case FW_PKT_EGET_RESP:
			on_eget_resp(fw, &p, frame + FW_PKT_HDR);
			break;
		default:
			on_data(fw, &p, frame + FW_PKT_HDR, t_rx);
			break;
		}
		hal_wire_rx_done(h);
	}
	return n != 0;
}
