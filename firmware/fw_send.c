/* SPDX-License-Identifier: MIT */
/* firmware/fw_send.c — the transmit: packets onto the wire within the
 * window (resends first, as fw_ack.c marked them), probes after a NAK's
 * resends, ACKs and NAKs sent, and the retransmission timer (its value:
 * fw_rto.c). Protocol: firmware/pkt.h. */
#include "fw_send.h"
#include "fw_ahead.h"
#include "fw_ack.h"
#include "fw_fetch.h"
#include "fw_host.h"
#include "fw_rto.h"

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
static inline int ack_wanted(const struct fw *fw, const struct fw_msg *m)
{
	uint32_t una = fw->ack_in_new && fw_psn_before(fw->snd_una, fw->ack_in) ? fw->ack_in : fw->snd_una;
	uint32_t room = fw->sq_mask + 1 < FW_MSGS ? fw->sq_mask + 1 : FW_MSGS;

	return m->kind != FW_MSG_SQE || (m->flags & EEL_FW_SQE_SIGNALED) ||
	       (m->first_psn == una && m->first_psn + m->npkts == fw->psn_next) ||
	       fw->msg_tail - fw->msg_head >= room / 2;
}

static struct fw_msg *msg_of(struct fw *fw, uint32_t psn, uint32_t *i);

/* ---- Payloads read ahead ----
 * A message of many packets streams: the payload reads of the packets after
 * snd_nxt are issued ahead, up to FW_AHEAD and within the window
 * (send_ahead), and each packet waits for its own read only when it is built
 * (payload_read), so the reads fly while the packets before them go out
 * (hal.h: dma_read_issue, as a NIC's DMA engine keeps its tags busy). The
 * packets, their order and their checks are the same: only when a payload
 * is read changes. A message of one packet, inline data, a resend, a probe:
 * read when built, as before. */
static int ahead_wanted(const struct fw_msg *m)
{
	return m->npkts > 1 && m->kind == FW_MSG_SQE && !(m->flags & EEL_FW_SQE_INLINE);
}

/* The reads ahead of PSNs before psn dropped: packets that will not be sent
 * as read (an ACK moved snd_nxt on past them after a go-back, fw_ack.c; a
 * new packet passed over them). */
static void ahead_drop_before(struct fw *fw, uint32_t psn)
{
	while (fw->ahead_head != fw->ahead_tail && fw_psn_before(fw->ahead[fw->ahead_head % FW_AHEAD].psn, psn))
		fw_ahead_take(fw, 0);
}

static void send_ahead(struct fw *fw)
{
	const struct fw_hal *h = &fw->hal;
	uint32_t psn;

	ahead_drop_before(fw, fw->snd_nxt);
	if (fw_psn_before(fw->ahead_psn, fw->snd_nxt)) {
		fw->ahead_psn = fw->snd_nxt;
		fw->ahead_msg = fw->msg_tx;
	}
	if ((int32_t)(fw->ahead_msg - fw->msg_head) < 0)
		fw->ahead_msg = fw->msg_head; /* its message is acknowledged and gone */
	for (psn = fw->ahead_psn; fw_psn_before(psn, fw->psn_next) && psn - fw->snd_una < FW_WINDOW &&
				  fw->ahead_tail - fw->ahead_head < FW_AHEAD && fw->ahead_bytes < FW_AHEAD_BYTES;
	     psn++) {
		struct fw_msg *m = msg_of(fw, psn, &fw->ahead_msg);
		uint32_t off = (psn - m->first_psn) * fw->mtu;
		uint32_t plen = m->len - off < fw->mtu ? m->len - off : fw->mtu;

		if (!ahead_wanted(m))
			break;
		fw->ahead[fw->ahead_tail++ % FW_AHEAD] = (struct fw_ahead){
			.psn = psn, .tag = hal_dma_read_issue(h, m->laddr + off, plen), .len = plen,
		};
		fw->ahead_bytes += plen;
	}
	fw->ahead_psn = psn;
}

/* Packet psn's payload into dst: its read issued ahead, waited for now, or
 * read now. Reads ahead for PSNs before a new packet's (passed over) are
 * dropped; a resend's PSN is before every read ahead. */
static void payload_read(struct fw *fw, uint32_t psn, void *dst, uint64_t bus, uint32_t len)
{
	const struct fw_hal *h = &fw->hal;

	if (psn == fw->snd_nxt)
		ahead_drop_before(fw, psn);
	if (fw->ahead_head != fw->ahead_tail && fw->ahead[fw->ahead_head % FW_AHEAD].psn == psn) {
		fw_ahead_take(fw, dst);
		return;
	}
	hal_dma_read(h, dst, bus, len);
}

/* Is packet snd_nxt's payload in (or not read ahead)? dma_read_done: the
 * DMA engine's completion status, looked at without waiting (hal.h). */
static int ahead_in(const struct fw *fw)
{
	const struct fw_ahead *a = &fw->ahead[fw->ahead_head % FW_AHEAD];

	return fw->ahead_head == fw->ahead_tail || a->psn != fw->snd_nxt || hal_dma_read_done(&fw->hal, a->tag);
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
		payload_read(fw, psn, frame + FW_PKT_HDR, m->laddr + off, plen);
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

/* What one packet of a one-packet message carries beyond the connection's
 * state (PSN, ACK, tx_seq): read from a message in the table (send_fast)
 * or, on the lone path, from its descriptor before the message is written
 * (lone_send). data: the payload in hand (inline, an E-register's value),
 * else NULL: read from laddr. */
struct one_pkt {
	uint64_t raddr;
	uint64_t laddr;
	const uint8_t *data;
	uint32_t len;
	uint32_t rkey;
	uint32_t imm;
	uint32_t msg_id;
	uint32_t stamps; /* traced: the stamps asked for */
	uint8_t op;
	uint8_t flags;   /* FW_PKT_* */
};

/* The packet's frame written and on the wire, as packet snd_nxt (t_tx: its
 * NIC_TX stamp when traced and asked for, else 0). Returns 0 when the wire
 * has no room. */
static inline __attribute__((always_inline)) int one_out(struct fw *fw, const struct one_pkt *o, int traced,
							 uint64_t *t_tx)
{
	const struct fw_hal *h = &fw->hal;
	uint8_t *frame = hal_wire_tx_alloc(h, FW_PKT_HDR + o->len);

	if (!frame)
		return 0;
	struct fw_pkt p = {
		.magic = FW_WIRE_MAGIC,
		.op = o->op,
		.flags = o->flags,
		.psn = fw->snd_nxt,
		.ack = fw->rcv_nxt,
		.msg_id = o->msg_id,
		.raddr = o->raddr,
		.rkey = o->rkey,
		.syndrome = traced ? fw_sel_to_wire(o->stamps) : 0, /* the receiver's stamps */
		.len = (uint16_t)o->len,
		.imm = o->imm,
		.mlen = o->len,
		.tx_seq = fw->tx_seq,
	};

	fw_pkt_write(frame, &p);
	if (o->data)
		fw_copy(frame + FW_PKT_HDR, o->data, o->len);
	else if (o->len)
		hal_dma_read(h, frame + FW_PKT_HDR, o->laddr, o->len);
	*t_tx = 0;
	if (traced && fw_wants(o->stamps, EEL_ST_NIC_TX))
		*t_tx = hal_now(h); /* NIC_TX, as send_packet's */
	hal_wire_tx_send(h, frame, FW_PKT_HDR + o->len);
	return 1;
}

/* The books of packet snd_nxt of m, one_out's frame on the wire: its
 * transmission count, the ACK it carried, the window's edge, its TX
 * record (traced), the RTT sample and the timer. */
static inline __attribute__((always_inline)) void one_sent(struct fw *fw, struct fw_msg *m, int traced,
							   uint64_t t_tx)
{
	uint32_t psn = fw->snd_nxt;

	fw->tx_seq_of[psn & (FW_WINDOW - 1)] = fw->tx_seq++;
	fw->msg_tx++; /* m (msg_tx's, fw_send) is sent: snd_nxt + 1 is the next message's */

	fw_ack_carried(fw);
	fw_count(fw, EEL_FW_CNT_TX_PKTS, 1);
	fw->snd_max = psn + 1;
	if (traced)
		fw_trace_tx(fw, m, t_tx); /* the frame is out: off its path */
	/* fw_rto_sent's timing and the timer, from one read of the clock:
	 * a ping-pong's put, alone in flight, starts both */
	if (!fw->rtt_on || !fw->rto_deadline) {
		uint64_t now = hal_now(&fw->hal);

		if (!fw->rtt_on)
			fw_rto_time(fw, psn, now);
		if (!fw->rto_deadline)
			fw->rto_deadline = now + fw->rto_cur;
	}
}

/* The packet's FW_PKT_* flags: a whole message, its NOTIFY, its ACK request
 * (ack_wanted: m's kind, flags and PSNs are what it reads), its TRACE. */
static inline uint8_t one_flags(const struct fw *fw, const struct fw_msg *m, uint8_t sqe_flags, int traced)
{
	return (uint8_t)(FW_PKT_FIRST | FW_PKT_LAST | (sqe_flags & EEL_FW_SQE_NOTIFY ? FW_PKT_NOTIFY : 0) |
			 (ack_wanted(fw, m) ? FW_PKT_ACKREQ : 0) | (traced ? FW_PKT_TRACE : 0));
}

/* The send fast path: the common case (firmware/README.md, "The fast path";
 * the protocol: pkt.h, "Reliability"), message m's one packet, a put or an
 * E-register store, going out for the first time (snd_nxt == snd_max),
 * with no probe due and no emulated delay. What send_packet computes for a
 * packet of a message of many (its offset, its length, first and last, a
 * resend) is known here: the packet is the message. It sends the same
 * header with the same PSN, ACK, tx_seq and ACK request, and keeps the same
 * books (window, timer, RTT sample). A traced message (traced: m->trace
 * set; a constant 0 where the caller knows it is not, so that an untraced
 * put pays nothing for it) takes this path too, its NIC_TX stamp and TX
 * record as send_packet's: the breakdown
 * (docs/methods.md) must time the path the unstamped messages take, not a
 * slower one beside it (the stamped parts once added up to 20 ns more
 * than EEL on a 120-ns ping-pong, when traced puts went the general way).
 * Everything else goes to send_packet (fw_send). Returns 0 when the wire
 * has no room.
 * The header's opcode and flags are worked out before the wire's frame is
 * taken (one_flags); its other fields after, written straight into the
 * frame (one_out, fw_pkt_write), and the books kept once it is out
 * (one_sent): the lone put's path (lone_send) does the same from its
 * descriptor, its message filled after the frame. No per-connection template of
 * it is kept, as a NIC keeps one of a queue pair's headers: of an
 * InfiniBand BTH and RETH (IBTA Vol. 1 §9.2, §9.3) the destination QP and
 * partition key are the connection's and the rest (opcode, AckReq, PSN,
 * virtual address, R_Key, length) the packet's, and eel's header has no
 * connection fields (the carrier frames it): all but its magic byte are
 * the packet's. */
static inline __attribute__((always_inline)) int send_fast(struct fw *fw, struct fw_msg *m, int traced)
{
	struct one_pkt o = {
		.raddr = m->raddr,
		.laddr = m->laddr,
		.data = m->kind == FW_MSG_EPUT || (m->flags & EEL_FW_SQE_INLINE) ? m->data : 0,
		.len = m->len,
		.rkey = m->rkey,
		.imm = m->imm,
		.msg_id = m->msg_id,
		.stamps = m->stamps,
		.op = m->kind == FW_MSG_SQE ? FW_PKT_PUT : FW_PKT_EPUT,
		.flags = one_flags(fw, m, m->flags, traced),
	};
	uint64_t t_tx;

	if (!one_out(fw, &o, traced, &t_tx))
		return 0;
	one_sent(fw, m, traced, t_tx);
	return 1;
}

/* Can packet snd_nxt of m take the send fast path (send_fast)? */
static int send_is_fast(const struct fw *fw, const struct fw_msg *m)
{
	return m->npkts == 1 && m->kind != FW_MSG_EGET && fw->snd_nxt == fw->snd_max &&
	       !(fw->delay_tx | fw->delay_payload);
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

/* Does the first frame waiting on the wire acknowledge something new, beyond
 * snd_una and the last ACK taken in? It is looked at, not taken: the next
 * receive pass takes it (fw_recv.c), and its ACK moves snd_una on and
 * restarts the timer (fw_on_ack). An ACK taken in that could not move
 * snd_una (an EGET unanswered) is no news the second time. */
static __attribute__((noinline)) int ack_waiting(const struct fw *fw)
{
	uint32_t len;
	const void *frame = hal_wire_rx(&fw->hal, &len);
	struct fw_pkt p;

	return frame && fw_pkt_parse(frame, len, &p) == 0 && fw_psn_before(fw->snd_una, p.ack) &&
	       fw_psn_before(fw->ack_in, p.ack) && !fw_psn_before(fw->snd_max, p.ack);
}

/* Has the retransmission timer run out? Its clock is read once in
 * FW_TIMER_PASSES passes: a read costs about as much as the rest of an idle
 * pass (on the host, rdtsc), and a timeout is microseconds to milliseconds.
 * A NIC takes in what has arrived before its timer decides: where it has
 * run out, the send pass asks ack_waiting, and an ACK of new data already
 * waiting on the wire holds the timeout off until the receive pass takes
 * it in. A send pass runs after the receive pass (fw_step) or
 * without one (fw_doorbell), and a host that runs the firmware can lose its
 * core between the two: past the deadline, the peer's ACK came meanwhile
 * (docs/bus.md, "On a slower link"). A frame with no news does not: a
 * loss is still timed out while the other direction is busy. */
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
	struct fw_msg *m = fw_msg_at(fw, *i);

	while (!fw_psn_before(psn, m->first_psn + m->npkts))
		m = fw_msg_at(fw, ++*i);
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

		if (!fw_resend_bit(fw, psn))
			continue;
		m = msg_of(fw, psn, &i);
		if (!(m->kind == FW_MSG_EGET && m->answered) && !send_packet(fw, m, psn))
			break;
		fw_resend_flip(fw, psn);
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

/* The retransmission timer ran out: resend the oldest PSN alone (F-RTO) or
 * go back, and back the timeout off. Returns 0 when that was one timeout
 * too many in a row: the connection has failed, nothing more goes out. */
static int on_timeout(struct fw *fw)
{
	fw_count(fw, EEL_FW_CNT_TIMEOUTS, 1);
	if (fw->retry_limit && ++fw->timeouts > fw->retry_limit) {
		fw_fail(fw, EEL_FW_ERR_RETRY, fw->snd_una);
		return 0;
	}
	fw_rto_backoff(fw); /* RFC 6298 §5.5: RTO doubles; §3: no sample from a resend */
	if (!fw->frto && fw->snd_max - fw->snd_una > 1 && fw_psn_before(fw->snd_una, fw->snd_nxt)) {
		/* F-RTO (RFC 5682): the oldest PSN alone, and the next
		 * ACK tells a loss from a slow peer (fw_on_ack). A peer
		 * process descheduled past the timeout (4 ms; a busy
		 * machine's time slice) took the window again, up to 128
		 * packets, each a duplicate */
		if (!fw_resend_bit(fw, fw->snd_una)) {
			fw_resend_flip(fw, fw->snd_una);
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
	return 1;
}

/* ACKs are coalesced, as an InfiniBand responder may (IBTA Vol. 1
 * 9.7.6.1): one goes alone when a packet asked for it (FW_PKT_ACKREQ:
 * the sender's host waits on it) after waiting one step for a data
 * packet to carry it, when FW_ACK_EVERY packets are owed, when the
 * wire has been quiet for FW_QUIET_PASSES receive passes with one
 * owed, or at once for a duplicate (the peer missed our ACK). Each ACK
 * sent alone is a frame for the sender to take in and a cache line to
 * carry back: in a flood at queue depth 64 there was one for every 4-5
 * packets (73-93 thousand for 351 thousand). Called when one is owed
 * (send_after); returns 1. */
static __attribute__((noinline)) int send_owed_ack(struct fw *fw)
{
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
	return 1;
}

/* The end of a send pass, once its packets are out: the ACKs received
 * applied (their completions: off the path of the packets), the probes
 * new data did not carry, the timer, an owed ACK. */
static inline __attribute__((always_inline)) int send_after(struct fw *fw, int work)
{
	fw_acks_apply_light(fw);
	if (fw->probe_due | fw->probe_left)
		send_probe(fw);

	if (timer_expired(fw) && !ack_waiting(fw)) {
		if (!on_timeout(fw))
			return 1;
		work = 1;
	}
	/* nothing owed, as after any data packet (it carried the ACK): the
	 * test inline, not a call (8 instructions a put, tools/eel-cost) */
	if (fw->rcv_acked != fw->rcv_nxt || fw->ack_force)
		work |= send_owed_ack(fw);
	return work;
}

/* Transmit within the window (what a NAK asked for first), then look after
 * the timer and owed ACKs (send_after). */
int fw_send(struct fw *fw)
{
	int work = 0;

	if (fw->resends || fw->probe_due) {
		fw_acks_apply(fw); /* no resend of what the peer has */
		if (fw->resends)
			work = send_resends(fw);
	}
	for (;;) {
		if (fw->snd_nxt == fw->psn_next)
			break;
		if (fw->snd_nxt - fw->snd_una >= FW_WINDOW) {
			if (!fw->ack_in_new)
				break;
			fw_acks_apply(fw); /* the window may open */
			continue;
		}
		struct fw_msg *m = fw_msg_at(fw, fw->msg_tx);

		while (!fw_psn_before(fw->snd_nxt, m->first_psn + m->npkts))
			m = fw_msg_at(fw, ++fw->msg_tx);
		if (m->kind == FW_MSG_EGET && m->answered) {
			fw->snd_nxt++; /* answered already: no need to ask again */
			continue;
		}
		if (ahead_wanted(m)) {
			send_ahead(fw);
			/* a payload not in yet is not waited for here: the pass
			 * ends, and a later one sends it. The NIC goes on with
			 * the rest of its loop meanwhile (a host running it
			 * inline, fw_doorbell, rings its next put, whose
			 * descriptor and payload reads then fly beside these, as
			 * a NIC's DMA engine keeps fetching while the host
			 * posts: else each message's descriptor was read only
			 * once the message before it had gone) */
			if (!ahead_in(fw)) {
				work = 1;
				break;
			}
		}
		if (!(fw->probe_due | fw->probe_left ? send_probed(fw, m) :
		      send_is_fast(fw, m) ? send_fast(fw, m, m->trace != 0) : send_packet(fw, m, fw->snd_nxt)))
			break;
		fw->snd_nxt++;
		work = 1;
	}
	return send_after(fw, work);
}

/* fw_send_lone's put d, checked, into the message table and onto the wire
 * (traced: a traced put, fw_sqe_trace's index + 1; a constant 0 in the
 * untraced put's instance). Untraced, the frame is built from the
 * descriptor and sent before the message's slot is filled from it (the
 * slot taken first: its PSN, message number and the ACK request are the
 * frame's): the fill is off the put's way to the wire (tools/eel-cost: the
 * send path 16 instructions shorter, the whole eel_put 12.5 longer, its
 * values held across the wire's call). Traced, the slot is filled first, its NIC_FETCH stamp
 * before the frame's NIC_TX. When the wire has no room, the message waits
 * in the table, filled, for fw_send. */
static inline __attribute__((always_inline)) int lone_send(struct fw *fw, const struct eel_fw_sqe *d,
							   uint32_t traced)
{
	struct fw_msg *m;

	fw->sq_fetched++;
	m = fw_msg_take(fw, 1);
	fw->msg_tx = fw->msg_tail - 1; /* m holds snd_nxt */
	if (traced) {
		fw_msg_fill(fw, m, d, traced);
		if (send_fast(fw, m, 1))
			fw->snd_nxt++;
		return send_after(fw, 1);
	}
	fw_msg_kind(m, d);
	struct one_pkt o = {
		.raddr = d->raddr,
		.laddr = d->laddr,
		.data = d->flags & EEL_FW_SQE_INLINE ? d->inline_data : 0,
		.len = d->len,
		.rkey = d->rkey,
		.imm = d->imm,
		.msg_id = m->msg_id,
		.op = FW_PKT_PUT,
		.flags = one_flags(fw, m, d->flags, 0),
	};
	uint64_t t_tx;
	int sent = one_out(fw, &o, 0, &t_tx);

	fw_msg_fill(fw, m, d, 0);
	if (sent) {
		one_sent(fw, m, 0, t_tx);
		fw->snd_nxt++;
	}
	return send_after(fw, 1);
}

/* A traced lone put: lone_send's own instance, so that the untraced one
 * carries none of the stamps' work. */
static __attribute__((noinline)) int lone_traced(struct fw *fw, const struct eel_fw_sqe *d, uint32_t trace)
{
	return lone_send(fw, d, trace);
}

/* The lone put (firmware/README.md, "The fast path"): the host rang for one
 * new descriptor, a one-packet put (traced or not), and the NIC has nothing else
 * to send (no packet waiting, no resend or probe, no descriptor or payload
 * read in flight, no emulated delay), the window and the message table
 * open, no error. It is taken where it lies in the send queue (hal.h,
 * dma_direct; a host whose DMA goes through a bus does not take this path;
 * the host's registers plain memory and no delay: one flag, fw->tx_plain,
 * taken at fw_start, as fw_recv's rx_plain),
 * checked as the fetch checks it (opcode, one packet, key and bounds;
 * the source's key before a traced message's NIC_FETCH stamp, where the
 * fetch checks it after), put in the message table and sent (send_fast),
 * and the pass ends as
 * fw_send's does (send_after): the fetch (fw_fetch_sq, fetch_one) and a
 * send pass (fw_send) would do the same, in the same order, but through
 * their loops. Returns 0, having changed nothing, when the put is not such
 * a one: the fetch and fw_send take it. The helpers on its way after the
 * frame (the completion, the RTT sample and RTO, the counters, the status
 * writes) are always inline: once the frame went out before the message
 * was filled, gcc's size limits stopped inlining them here (+12.5 instructions
 * a put, tools/eel-cost; flattening the function instead cost 2 more and
 * 2 KB of the riscv64 build, 5 KB more with the traced instance). */
int fw_send_lone(struct fw *fw)
{
	const struct eel_fw_sqe *d;
	uint32_t trace;

	/* (the message table's room tested as is, not by fw_msg_room, which
	 * applies the ACKs received when it is full: here nothing may change
	 * before the put is known to be a lone one) */
	if (!fw->tx_plain || hal_regs_read64(fw->hal.regs, FW_REG(sq_doorbell)) != fw->sq_fetched + 1 ||
	    fw->fetch_i != fw->fetch_n || fw->ahead_head != fw->ahead_tail || fw->snd_nxt != fw->psn_next ||
	    (fw->resends | (uint32_t)fw->probe_due | fw->probe_left) ||
	    fw->snd_nxt - fw->snd_una >= FW_WINDOW || fw->msg_tail - fw->msg_head >= FW_MSGS || fw->error)
		return 0;
	d = (const struct eel_fw_sqe *)(uintptr_t)fw_sqe_addr(fw, fw->sq_fetched);
	if (d->opcode != EEL_FW_OP_PUT || d->len > fw->mtu || !fw_sqe_source_ok(fw, d))
		return 0;
	trace = fw_sqe_trace(fw, d);
	return trace ? lone_traced(fw, d, trace) : lone_send(fw, d, 0);
}
