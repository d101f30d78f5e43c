/* SPDX-License-Identifier: MIT */
/* firmware/fw_recv.c — the receive side: frames off the wire.
 * Protocol: firmware/pkt.h. */
#include "fw_recv.h"
#include "fw_send.h"
#include "fw_ack.h"
#include "fw_host.h"
#include "fw_mr.h"
#include "fw_sr.h"

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
	fw_ack_carried(fw);
}

static int access_ok(struct fw *fw, const struct fw_pkt *p)
{
	if (p->op == FW_PKT_EGET_REQ)
		return fw_mr_check(fw, p->rkey, p->raddr, 8, EEL_FW_MR_REMOTE_READ);
	/* A put's first packet answers for the whole message: refused, it
	 * writes nothing, not even the packets that would fit. */
	if (p->op == FW_PKT_PUT && (p->flags & FW_PKT_FIRST))
		return fw_mr_check(fw, p->rkey, p->raddr, p->mlen, EEL_FW_MR_REMOTE_WRITE) &&
		       /* the packet's own bytes lie inside the message's */
		       (p->len <= p->mlen ||
			fw_mr_check(fw, p->rkey, p->raddr, p->len, EEL_FW_MR_REMOTE_WRITE));
	return fw_mr_check(fw, p->rkey, p->raddr, p->len, EEL_FW_MR_REMOTE_WRITE);
}

/* NAK the gap that packet p revealed: PSNs psn .. psn + count - 1 are
 * missing (fw_send_nak says what the sender does with it). It goes again
 * when the wire goes quiet with the gap still open (fw_recv). */
static void nak_gap(struct fw *fw, uint8_t syndrome, uint32_t psn, uint32_t count, uint16_t tx_seq)
{
	if (fw_send_nak(fw, syndrome, psn, count, tx_seq))
		fw_count(fw, EEL_FW_CNT_NAKS_TX, 1);
	fw->nak_sent = 1;
	fw->nak_quiet = FW_REPEATS;
}

/* Is rcv_nxt missing with something after it received (a gap open)? The
 * last packet at rcv_nxt itself was the one expected, refused (receiver not
 * ready, an access error): no gap. */
static int gap_open(const struct fw *fw)
{
	return fw->recovery == EEL_FW_RECOVERY_SR ? fw_psn_before(fw->rcv_nxt, fw->rcv_high)
						  : fw_psn_before(fw->rcv_nxt, fw->rx_last_psn);
}

/* NAK the gap at rcv_nxt again, as the last data packet received showed it. */
static void nak_first_gap(struct fw *fw)
{
	if (fw->recovery == EEL_FW_RECOVERY_SR)
		nak_gap(fw, FW_NAK_MISSING, fw->rcv_nxt, fw_sr_hole(fw), fw->rx_last_tx);
	else
		nak_gap(fw, FW_NAK_SEQ, fw->rcv_nxt, fw->rx_last_psn - fw->rcv_nxt, fw->rx_last_tx); /* as on_gap */
}

/* Go-back-N: is a NAK due (again) for the gap at rcv_nxt? At the 1st, 2nd,
 * 4th, 8th .. out-of-order packet past it, then every FW_NAK_EVERY: a lost NAK is
 * repeated within a few packets, at a cost of a few NAKs a gap. */
static int nak_again(struct fw *fw)
{
	uint32_t n = ++fw->ooo_past_gap;

	return n % FW_NAK_EVERY == 0 || !(n & (n - 1));
}

/* A packet beyond rcv_nxt: something before it was lost (or is late).
 *
 * Go-back-N keeps nothing and NAKs(SEQ) from rcv_nxt at once, as an IB
 * responder does (IBTA Vol. 1 §9.7.5.2). Unlike one, it NAKs again where it
 * can tell that its NAK or the resend may have been lost: when the sender has
 * gone back (a new round, on_data) and rcv_nxt is missing from it again, at
 * a probe (FW_PKT_PROBE: sent after the resends, fw_send.c), and as more
 * packets come past the gap (nak_again). The sender ignores a NAK its
 * resends already answer (pkt.h, tx_seq), so a NAK too many costs one
 * control packet.
 *
 * Selective repeat keeps the packet (fw_sr.c) and NAKs(MISSING) each new
 * hole as it appears, and the first hole again every FW_NAK_EVERY packets
 * past it (a lost NAK; sooner, the resend could not have come yet), at a
 * probe, and when a packet it already keeps comes again (a timer's
 * round). Of a run of probes, the first that arrives NAKs (`first`): a run
 * is consecutive transmissions (tx_seq), so a probe after a lost resend
 * starts a run of its own even when the probes before the resend arrived. */
static void on_gap(struct fw *fw, const struct fw_pkt *p, const uint8_t *payload, uint64_t t_rx, int first)
{
	int probe = first && (p->flags & FW_PKT_PROBE);

	if (fw->recovery == EEL_FW_RECOVERY_SR) {
		int kept = fw_sr_keep(fw, p, payload, t_rx);
		uint32_t from = fw->rcv_high;

		if (kept == 0) {
			/* kept already: a probe, or a timer's round */
			fw_count(fw, EEL_FW_CNT_DUPS, 1);
			if (first)
				nak_gap(fw, FW_NAK_MISSING, fw->rcv_nxt, fw_sr_hole(fw), p->tx_seq);
			fw->rx_probe_run = 1u + (uint16_t)(p->tx_seq + 1);
			return;
		}
		fw_count(fw, kept > 0 ? EEL_FW_CNT_OOO_KEPT : EEL_FW_CNT_OOO, 1);
		if (!fw_psn_before(p->psn, fw->rcv_high)) {
			/* beyond everything seen: a new hole, and p itself when
			 * there was no room for it */
			fw->rcv_high = p->psn + 1;
			if (p->psn != from || kept < 0) {
				nak_gap(fw, FW_NAK_MISSING, from, p->psn - from + (kept < 0), p->tx_seq);
				if (!probe || from == fw->rcv_nxt)
					return;
			}
		}
		if (++fw->ooo_past_gap % FW_NAK_EVERY == 0 || probe)
			nak_gap(fw, FW_NAK_MISSING, fw->rcv_nxt, fw_sr_hole(fw), p->tx_seq);
		return;
	}
	fw_count(fw, EEL_FW_CNT_OOO, 1);
	if (nak_again(fw) || !fw->nak_sent || probe)
		nak_gap(fw, FW_NAK_SEQ, fw->rcv_nxt, p->psn - fw->rcv_nxt, p->tx_seq);
}

/* A traced message's first packet: its RX record, kept in fw->rx_tr until
 * written (a record still unwritten goes out first: a packet kept past a
 * gap, selective repeat, is delivered after others); none for a message
 * that asked for no stamp at this end. Inline, as rx_trace_done: on a
 * traced put's path, between its stamps, a call is work an untraced put
 * does not do. */
static inline __attribute__((always_inline)) void rx_trace_begin(struct fw *fw, uint8_t syndrome, uint32_t msg_id,
								 uint64_t t_rx)
{
	uint32_t want = fw_sel_from_wire(syndrome);

	fw_trace_rx_flush(fw);
	if (!fw->trace_size || (want && !(want & EEL_TRACE_STAMPS)))
		return;
	fw->rx_tr.on = 1;
	fw->rx_tr.slot = fw->rx_trace_next++ & (fw->trace_size - 1);
	fw->rx_tr.msg_id = msg_id;
	fw->rx_tr.want = want;
	fw->rx_tr.t[0] = t_rx != FW_RX_TRACED ? t_rx : 0;
	fw->rx_tr.t[1] = fw->rx_tr.t[2] = 0;
}

/* DMA_START of a traced message's first packet, if it asks for it: the
 * payload's DMA begins. */
static inline void rx_trace_dma_start(struct fw *fw)
{
	if (fw->rx_tr.on && fw_wants(fw->rx_tr.want, EEL_ST_DMA_START))
		fw->rx_tr.t[EEL_ST_DMA_START - EEL_ST_NIC_RX] = hal_now(&fw->hal);
}

/* A traced message's last packet delivered (fw->rx_tr.on): DMA_DONE if it
 * asks for it, its record owed (written later: fw_trace_rx_flush), and
 * what last_rx adds for it (the record's slot, traced, DETECT wanted). */
static inline __attribute__((always_inline)) uint64_t rx_trace_done(struct fw *fw)
{
	if (fw_wants(fw->rx_tr.want, EEL_ST_DMA_DONE))
		fw->rx_tr.t[EEL_ST_DMA_DONE - EEL_ST_NIC_RX] = hal_now(&fw->hal);
	fw->rx_tr.pending = 1;
	return (uint64_t)fw->rx_tr.slot << 32 | EEL_FW_LAST_RX_TRACED |
	       (fw_wants(fw->rx_tr.want, EEL_ST_DETECT) ? EEL_FW_LAST_RX_DETECT : 0);
}

/* Deliver data packet p, the next expected PSN: checks, then host memory.
 * Returns 1 when it was taken (rcv_nxt moved on), 0 when it was refused. */
static int deliver(struct fw *fw, const struct fw_pkt *p, const uint8_t *payload, uint64_t t_rx)
{
	const struct fw_hal *h = &fw->hal;

	if (fw->error) {
		fw_send_ctrl(fw, FW_PKT_NAK, FW_NAK_ACCESS, fw->error_info);
		return 0;
	}
	if (!access_ok(fw, p)) {
		/* A refused access writes nothing and fails the connection on
		 * both ends (InfiniBand RC: remote access error). */
		fw_count(fw, EEL_FW_CNT_ACCESS_ERRS, 1);
		fw_acks_apply(fw); /* what was acknowledged finished well, before the failure */
		fw_fail(fw, EEL_FW_ERR_REMOTE_ACCESS, p->psn);
		if (fw_send_ctrl(fw, FW_PKT_NAK, FW_NAK_ACCESS, p->psn))
			fw_count(fw, EEL_FW_CNT_NAKS_TX, 1);
		return 0;
	}
	if ((p->flags & FW_PKT_NOTIFY) &&
	    fw->cq_prod - hal_reg_read64(h, FW_REG(cq_doorbell)) >= (fw->cq_mask + 1) / 2) {
		/* Receiver not ready: half the CQ is unread. Take nothing; the
		 * sender's timer resends the packet. */
		fw_count(fw, EEL_FW_CNT_RNR, 1);
		return 0;
	}
	fw->rcv_nxt++;
	if (p->flags & FW_PKT_ACKREQ)
		fw->ack_req = 1;
	if (fw_psn_before(fw->rcv_high, fw->rcv_nxt))
		fw->rcv_high = fw->rcv_nxt;
	fw->nak_sent = 0;
	fw->ooo_past_gap = 0;

	if (p->op == FW_PKT_EGET_REQ) {
		answer_eget(fw, p, EEL_FW_OK);
		return 1;
	}

	if (p->flags & FW_PKT_FIRST) {
		fw->rx_bytes = 0;
		fw->rx_tr.on = 0;
		if (t_rx)
			rx_trace_begin(fw, p->syndrome, p->msg_id, t_rx);
	}
	if (fw->delay_rx)
		fw_delay(fw, fw->delay_rx);
	if (p->flags & FW_PKT_FIRST)
		rx_trace_dma_start(fw);
	if (fw->delay_dma)
		fw_delay(fw, fw->delay_dma);
	if (p->len)
		hal_dma_write(h, p->raddr, payload, p->len);
	fw->rx_bytes += p->len;

	if (p->flags & FW_PKT_LAST) {
		uint64_t last = p->msg_id;

		if (fw->rx_tr.on)
			last |= rx_trace_done(fw);
		if (p->flags & FW_PKT_NOTIFY)
			fw_cqe(fw, EEL_FW_CQE_NOTIFY, EEL_FW_OK, 0, fw->rx_bytes, p->imm,
			       p->msg_id, 0);
		fw_status_write(fw, offsetof(struct eel_fw_status, last_rx), &last, 8);
		fw_count(fw, EEL_FW_CNT_RX_MSGS, 1);
	}
	return 1;
}

/* Selective repeat: deliver what was kept after rcv_nxt, in order, up to the
 * next hole; a kept packet that is refused is dropped (the sender resends it,
 * as it would have to had it not been kept). A hole left with packets kept
 * beyond it is NAKed again at once: its resend may have been lost, and if it
 * is on its way, the sender can tell (tx_seq of the packet just arrived). */
static void drain_kept(struct fw *fw, uint16_t tx_seq)
{
	struct fw_sr_slot *s;
	int moved = 0;

	while ((s = fw_sr_kept(fw, fw->rcv_nxt))) {
		uint32_t psn = fw->rcv_nxt;
		int taken = deliver(fw, &s->hdr, fw_sr_payload(fw, s), s->t_rx);

		fw_sr_release(fw, psn);
		if (!taken)
			return;
		moved = 1;
	}
	if (moved && fw->rcv_nxt != fw->rcv_high)
		nak_gap(fw, FW_NAK_MISSING, fw->rcv_nxt, fw_sr_hole(fw), tx_seq);
}

/* A data packet (PUT, EPUT, EGET_REQ). Only the next expected PSN is
 * delivered: that is what makes delivery exactly once and in order. */
static void on_data(struct fw *fw, const struct fw_pkt *p, const uint8_t *payload, uint64_t t_rx)
{
	uint32_t run = fw->rx_probe_run;

	/* A PSN at or before the last one seen: the sender went back, a new
	 * round; if rcv_nxt is missing from it too, NAK again (on_gap). */
	if (!fw_psn_before(fw->rx_last_psn, p->psn))
		fw->nak_sent = 0;
	fw->rx_last_psn = p->psn;
	fw->rx_last_tx = p->tx_seq;
	if (run | (p->flags & FW_PKT_PROBE)) /* a run of probes goes on, or ends */
		fw->rx_probe_run = p->flags & FW_PKT_PROBE ? 1u + (uint16_t)(p->tx_seq + 1) : 0;

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
			on_gap(fw, p, payload, t_rx, run != 1u + p->tx_seq);
		}
		return;
	}
	if (deliver(fw, p, payload, t_rx) && fw->recovery == EEL_FW_RECOVERY_SR)
		drain_kept(fw, p->tx_seq);
}

/* A field of a received frame's header, read where it lies (the frame may
 * be unaligned; little-endian, as pkt.h says): one load, where parsing the
 * whole header first copied its 40 bytes. */
static inline uint16_t rx_get16(const uint8_t *frame, size_t off)
{
	uint16_t v;

	fw_copy(&v, frame + off, 2);
	return v;
}

static inline uint32_t rx_get32(const uint8_t *frame, size_t off)
{
	uint32_t v;

	fw_copy(&v, frame + off, 4);
	return v;
}

static inline uint64_t rx_get64(const uint8_t *frame, size_t off)
{
	uint64_t v;

	fw_copy(&v, frame + off, 8);
	return v;
}

#define RX_AT(field) offsetof(struct fw_pkt, field)

/* The header's first word, magic, op and flags, of a packet rx_take takes:
 * a PUT or an EPUT, FIRST and LAST (one packet) with no other flag but
 * ACKREQ, and TRACE in the traced instance (rx_traced: t_rx set); the
 * syndrome (byte 3) is a traced data packet's stamp choice (rx_stamp) and says
 * nothing about an untraced one. */
#define RX_WORD(op) (FW_WIRE_MAGIC | (uint32_t)(op) << 8 | (uint32_t)(FW_PKT_FIRST | FW_PKT_LAST) << 16)
#define RX_WORD_MASK(traced) \
	(~((uint32_t)(FW_PKT_ACKREQ | ((traced) ? FW_PKT_TRACE : 0)) << 16 | 0xffu << 24))
_Static_assert(offsetof(struct fw_pkt, magic) == 0 && offsetof(struct fw_pkt, op) == 1 &&
	       offsetof(struct fw_pkt, syndrome) == 3, "rx_take reads magic, op, flags as one word");

/* A counter moved (fw_count), on a host whose registers are plain memory. */
static inline void rx_count(struct fw *fw, void *regs, int counter)
{
	hal_regs_write64(regs, FW_REG(counters[counter]), ++fw->cnt[counter]);
}

/* The receive fast path (rx_fast: rx_take, a traced frame through
 * rx_traced): the common case (firmware/README.md, "The fast
 * path"; the protocol: pkt.h, "Reliability"), a one-packet PUT or an
 * E-register store (EPUT), the next expected PSN, no gap behind it (nothing
 * received beyond rcv_nxt, so selective repeat keeps nothing to drain), the
 * connection up, its key cached, on a host whose registers are plain memory
 * and whose DMA is a copy (hal.h: regs, dma_direct) with no emulated delay
 * (fw->rx_plain, set at fw_start; with one, its delayed instance,
 * rx_take_delayed, by rx_slow), read from the frame
 * itself (no copy of its header). It keeps every check fw_pkt_parse,
 * on_data and deliver make for it: the frame well formed (the header's
 * magic, op and length agree with the frame, within EEL_FW_MTU_MAX, an
 * EPUT's 8 bytes), the sequence, the key and bounds (the whole message is
 * this packet: mlen == len), and it writes what they write, in their
 * order: the RX_PKTS counter, the ACK it carries noted, the payload,
 * last_rx, the RX_MSGS counter, the ACK owed; a traced message (t_rx, its
 * NIC_RX stamp taken by rx_traced before the frame was looked at; 0 in the
 * untraced instance) its record and stamps as deliver's, so that the
 * breakdown times the path an untraced put takes. Anything else goes to
 * rx_slow, before anything is written: a probe or NOTIFY (its CQE
 * and the receiver-not-ready check) flag, more than one packet, a gap or a
 * duplicate, an emulated delay, an error, a malformed frame, a key not
 * cached (rx_slow fetches it), a host with a bus to charge, or a refused
 * access (rx_slow checks it again and fails the connection). With nothing
 * to call on its way (a payload of other than 8 or 64 bytes aside:
 * memcpy), it needs no saved register. Returns 1 when it took the frame. */
static inline __attribute__((always_inline)) int rx_take(struct fw *fw, const uint8_t *frame, uint32_t len,
							 uint64_t t_rx, int delayed)
{
	void *regs = fw->hal.regs;
	uint32_t word, psn, hlen;
	uint64_t raddr, last;

	if (len < FW_PKT_HDR || !(delayed ? fw->rx_delayed : fw->rx_plain))
		return 0;
	word = rx_get32(frame, 0) & RX_WORD_MASK(t_rx != 0);
	psn = rx_get32(frame, RX_AT(psn));
	hlen = rx_get16(frame, RX_AT(len));
	if (hlen != len - FW_PKT_HDR || hlen > EEL_FW_MTU_MAX || psn != fw->rcv_nxt ||
	    fw->rcv_high != psn || (fw->error | fw->rx_probe_run))
		return 0;
	if (word == RX_WORD(FW_PKT_PUT) ? hlen != rx_get32(frame, RX_AT(mlen))
					 : word != RX_WORD(FW_PKT_EPUT) || hlen != 8)
		return 0;
	raddr = rx_get64(frame, RX_AT(raddr));
	if (!fw_mr_check_gen(fw, rx_get32(frame, RX_AT(rkey)), hal_regs_read32(regs, FW_REG(mr_gen)), raddr,
			     hlen, EEL_FW_MR_REMOTE_WRITE, 0))
		return 0;
	/* rx_slow's, on_data's and deliver's bookkeeping for this packet */
	rx_count(fw, regs, EEL_FW_CNT_RX_PKTS);
	fw_ack_in(fw, rx_get32(frame, RX_AT(ack)));
	fw->rx_last_psn = psn;
	fw->rx_last_tx = rx_get16(frame, RX_AT(tx_seq));
	fw->rcv_nxt = fw->rcv_high = psn + 1;
	if (frame[RX_AT(flags)] & FW_PKT_ACKREQ)
		fw->ack_req = 1;
	fw->nak_sent = 0;
	fw->ooo_past_gap = 0;
	fw->rx_tr.on = 0;
	fw->rx_bytes = hlen;
	last = rx_get32(frame, RX_AT(msg_id));
	if (t_rx)
		rx_trace_begin(fw, frame[RX_AT(syndrome)], (uint32_t)last, t_rx);
	if (delayed && fw->delay_rx) /* deliver's order: delay_rx, DMA_START, delay_dma */
		fw_delay(fw, fw->delay_rx);
	if (t_rx)
		rx_trace_dma_start(fw);
	if (delayed && fw->delay_dma)
		fw_delay(fw, fw->delay_dma);
	if (hlen)
		hal_dma_direct_write(raddr, frame + FW_PKT_HDR, hlen);
	if (t_rx && fw->rx_tr.on)
		last |= rx_trace_done(fw);
	hal_dma_direct_write(fw->status_base + offsetof(struct eel_fw_status, last_rx), &last, 8);
	rx_count(fw, regs, EEL_FW_CNT_RX_MSGS);
	return 1;
}

/* The answer to one of our EGETs. */
static void on_eget_resp(struct fw *fw, const struct fw_pkt *p, const uint8_t *payload)
{
	fw_acks_apply(fw);
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
	fw_acks_apply(fw); /* the NAK is read against what the ACKs left */
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
	fw_on_nak_seq(fw, p);
}

/* NIC_RX of a traced message's first packet, read as the frame comes off
 * the wire, if the message asks for it (its syndrome, pkt.h); else
 * FW_RX_TRACED: traced, not stamped here. The record before it, if still
 * unwritten, goes out first: before this one's stamp. */
static __attribute__((noinline)) uint64_t rx_stamp(struct fw *fw, uint8_t syndrome)
{
	uint32_t want = fw_sel_from_wire(syndrome);
	uint64_t t;

	fw_trace_rx_flush(fw);
	if (want && !(want & (1u << EEL_ST_NIC_RX)))
		return FW_RX_TRACED;
	t = hal_now(&fw->hal);
	return t > FW_RX_TRACED ? t : FW_RX_TRACED + 1; /* 0 and 1 mean something else */
}

/* The fast path with an emulated receive delay (fw->rx_delayed): rx_take's
 * instance that spins delay_rx and delay_dma where deliver spins them, so
 * that a slower NIC's rx and dma are the fast path's plus the delay, not
 * the general path's (rx_ns=30 came back as 57-83 ns on it); taken by
 * rx_slow, off the undelayed fast path's way. */
static __attribute__((noinline)) int rx_take_delayed(struct fw *fw, const uint8_t *frame, uint32_t len,
						     uint64_t t_rx)
{
	return rx_take(fw, frame, len, t_rx, 1);
}

/* One frame the fast path did not take (t_rx: rx_traced's): parsed, checked,
 * and handed to the packet's handler. Its own function, with the parsed
 * header on its stack: a frame the fast path takes does not pay for them. */
static __attribute__((noinline)) void rx_slow(struct fw *fw, const uint8_t *frame, uint32_t len, uint64_t t_rx)
{
	struct fw_pkt p;

	if (fw->rx_delayed && rx_take_delayed(fw, frame, len, t_rx))
		return;
	if (fw_pkt_parse(frame, len, &p) < 0) {
		fw_count(fw, EEL_FW_CNT_BAD, 1);
		return;
	}
	fw_count(fw, EEL_FW_CNT_RX_PKTS, 1);
	if (!fw->error)
		fw_ack_in(fw, p.ack); /* applied after the next send pass (fw_send.c) */
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
}

/* A traced frame (FW_PKT_TRACE; rx_fast has seen its header's length): a
 * message's first packet stamped NIC_RX as it comes off the wire (t_rx for
 * deliver), before anything is done with it (parse, acknowledgements,
 * checks: the rx stage; its flags byte read raw, checked with the rest),
 * then taken as an untraced one is, by rx_take (the fast path) or else
 * rx_slow, in the same order; rx_take's own instance, so that an untraced
 * frame carries none of the stamps' work. */
static __attribute__((noinline)) void rx_traced(struct fw *fw, const uint8_t *frame, uint32_t len)
{
	uint64_t t_rx = frame[2] & FW_PKT_FIRST ? rx_stamp(fw, frame[3]) : 0;

	/* delayed or not, the same instance: a stamped rx with a delay is the
	 * undelayed one's plus the spin (by rx_slow's rx_take_delayed it was ~10
	 * ns more: two calls and a failed take) */
	if (!rx_take(fw, frame, len, t_rx, fw->rx_delayed))
		rx_slow(fw, frame, len, t_rx);
}

/* The receive fast path (rx_take) for frame; a traced one by rx_traced.
 * Returns 1 when it took the frame, 0 when rx_slow must. */
static inline __attribute__((always_inline)) int rx_fast(struct fw *fw, const uint8_t *frame, uint32_t len)
{
	if (len >= FW_PKT_HDR && (frame[2] & FW_PKT_TRACE)) {
		rx_traced(fw, frame, len);
		return 1;
	}
	return rx_take(fw, frame, len, 0, 0);
}

/* Take frame (len bytes) and those behind it off the wire, n frames of
 * this pass taken already, up to FW_RX_BUDGET: each by the fast path, else
 * rx_slow. Its own function (not inlined into fw_recv): a pass whose
 * frame the fast path took, the one frame of a ping-pong, does not pay for
 * the registers and stack this one needs. */
static __attribute__((noinline)) void rx_frames(struct fw *fw, const uint8_t *frame, uint32_t len, uint32_t n)
{
	const struct fw_hal *h = &fw->hal;

	for (;;) {
		if (!rx_fast(fw, frame, len))
			rx_slow(fw, frame, len, 0);
		/* the next frame only while within the budget: a frame
		 * looked at is held until rx_done (firmware/hal.h) */
		if (++n == FW_RX_BUDGET) {
			hal_wire_rx_done(h);
			return;
		}
		if (!hal_wire_rx_done(h) || !(frame = hal_wire_rx(h, &len)))
			return;
	}
}

/* Is a lone ACK's repeat due? The wire has been quiet for rto >>
 * FW_ACK_AGAIN_SHIFT since the ACK (or its last repeat) went. The clock is read
 * once in FW_TIMER_PASSES quiet passes, as the timer's: the first read starts
 * the wait. Not at the next pass: a sender at queue depth 1 answers an ACK
 * with its next put, a round trip later, and repeats a pass apart made every
 * message of it cost three ACK frames on a clean wire, each a cache line to
 * carry and a frame for the sender to take in (1.3-1.8 million ACKs for 0.6
 * million puts in the CPU-overlap test). */
static int ack_repeat_due(struct fw *fw)
{
	uint64_t now;

	if (++fw->ack_quiet < FW_TIMER_PASSES)
		return 0;
	fw->ack_quiet = 0;
	now = hal_now(&fw->hal);
	if (fw->ack_again_at && now >= fw->ack_again_at) {
		fw->ack_again_at = 0;
		return 1;
	}
	if (!fw->ack_again_at)
		fw->ack_again_at = now + (fw->rto >> FW_ACK_AGAIN_SHIFT);
	return 0;
}

/* A quiet wire: what went out alone goes again. Its own function, as
 * rx_frames: the pass that finds the wire empty with nothing to repeat pays
 * one test for it.
 *
 * A NAK goes again (FW_REPEATS times) when the wire has been quiet for
 * FW_QUIET_PASSES passes with its gap still open, whatever came between:
 * lost, and with no packet after it to NAK again (those past a gap NAK only
 * now and then), it would leave the sender to its timer. Quiet for a few
 * passes only is the wire between two packets of a flood, when a repeat
 * would be stale nearly always. A NAK the sender has answered already
 * changes nothing there (tx_seq, pkt.h).
 *
 * An ACK that went out alone goes again (FW_REPEATS times, ack_repeat_due
 * apart) when nothing came after it: lost, it would leave a sender with
 * nothing more to send to its timer, since no later packet would carry the
 * news. */
static __attribute__((noinline)) void repeat_quiet(struct fw *fw)
{
	if (fw->nak_quiet && ++fw->quiet_passes >= FW_QUIET_PASSES) {
		uint32_t left = fw->nak_quiet - 1;

		fw->quiet_passes = 0;
		if (!gap_open(fw)) {
			fw->nak_quiet = 0;
		} else {
			nak_first_gap(fw);
			fw->nak_quiet = left;
			return;
		}
	}
	if (fw->ack_again && fw->rcv_acked == fw->rcv_nxt && ack_repeat_due(fw)) {
		fw->ack_again--;
		if (fw_send_ctrl(fw, FW_PKT_ACK, 0, 0))
			fw_count(fw, EEL_FW_CNT_ACKS_TX, 1);
	}
}

int fw_recv(struct fw *fw)
{
	uint32_t len;
	const uint8_t *frame = hal_wire_rx(&fw->hal, &len);

	if (frame) {
		/* the first by the fast path here, the rest (or this one) by rx_frames */
		if (!rx_fast(fw, frame, len))
			rx_frames(fw, frame, len, 0);
		else if (hal_wire_rx_done(&fw->hal) && (frame = hal_wire_rx(&fw->hal, &len)))
			rx_frames(fw, frame, len, 1);
		fw->ack_again = 0;
		fw->ack_again_at = 0;
		fw->ack_quiet = 0;
		fw->quiet_passes = 0;
		fw->ack_idle = 0;
		return 1;
	}
	fw_acks_apply(fw); /* a quiet wire: the ACKs received are applied now */
	if (fw->rcv_acked != fw->rcv_nxt)
		fw->ack_idle++; /* an owed ACK goes after FW_QUIET_PASSES of these (fw_send) */
	if (fw->ack_again | fw->nak_quiet)
		repeat_quiet(fw);
	return 0;
}
