/* SPDX-License-Identifier: MIT */
/* firmware/pkt.h — the packet format: the packet every eel NIC sends (eel's wire protocol).
 *
 * One implementation, here: the software NIC, the DPDK backend and the raw
 * backend all run this firmware, so all speak exactly this protocol. A frame
 * is a 40-byte header followed by `len` payload bytes; the carrier (shared-
 * memory wire, Ethernet) adds its own framing and FCS around it.
 *
 * Reliability (Bell et al. 2003 Table 1 "reliability in hardware"): data packets
 * (PUT, EPUT, EGET_REQ) carry consecutive PSNs; the receiver delivers only the
 * next expected PSN, so delivery is exactly once and in order.
 * Every packet piggybacks `ack` = the sender's next expected PSN (cumulative);
 * ACK carries nothing else. A receiver coalesces the ACKs it sends alone,
 * except for a packet with FW_PKT_ACKREQ (fw_send.c).
 *
 * Loss recovery, as an InfiniBand RC responder and requester do it (IBTA
 * Vol. 1 §9.7.5.2, the PSN sequence error NAK): a receiver that sees a PSN beyond
 * the one it expects NAKs at once, and the sender resends from there; the
 * retransmission timer is left for a lost tail (nothing after it arrives).
 * Every data packet carries `tx_seq`, the sender's count of transmissions, so
 * that a NAK can say which transmission revealed the gap: the sender resends
 * a PSN only if its own last transmission of it went out before that one
 * (on an in-order wire it is then lost for certain); a NAK that its resends
 * already answer changes nothing. That lets the receiver NAK again, without
 * waiting for the timer, when it can tell that a NAK or a resend was lost
 * (an IB responder sends one NAK per gap and leaves a lost NAK or resend to
 * the requester's timer): the next FW_REPEATS packets a sender sends after a
 * NAK's resends carry FW_PKT_PROBE, and a receiver still missing a PSN NAKs
 * at them. Two
 * kinds, chosen by the
 * receiver (its `recovery` option, fw_abi.h):
 *   NAK(SEQ)      go-back-N: the receiver keeps nothing out of order; resend
 *                 from `psn` (= `ack`) on.
 *   NAK(MISSING)  selective repeat: the receiver keeps what came out of order
 *                 (a bounded buffer); resend only PSNs psn .. psn + mlen - 1.
 * NAK(ACCESS) reports a refused put or get at `psn` and fails the connection,
 * as a remote access error does on an InfiniBand RC queue pair; a put's whole
 * range (raddr, mlen) is checked at its FIRST packet, so a refused put writes
 * nothing (as an InfiniBand responder checks an RDMA WRITE's RETH).
 * EGET_RESP answers EGET_REQ `psn` and also acknowledges it.
 * All fields are little-endian.
 */
#ifndef EEL_FW_PKT_H
#define EEL_FW_PKT_H

#include <stdint.h>

#include <eel/fw_abi.h>
#include <eel/stamps.h>

#define FW_WIRE_MAGIC 0xE2u /* high nibble: eel; low nibble: wire version 2 (tx_seq, NAK(MISSING)) */

enum fw_pkt_op {
	FW_PKT_PUT = 1,       /* payload to raddr */
	FW_PKT_EPUT = 2,      /* 8-byte E-register store to raddr */
	FW_PKT_EGET_REQ = 3,  /* 8-byte E-register load from raddr */
	FW_PKT_EGET_RESP = 4, /* the loaded value, for request `psn` */
	FW_PKT_ACK = 5,
	FW_PKT_NAK = 6,
	FW_PKT_OP_MAX = 6
};

enum fw_pkt_flags {
	FW_PKT_FIRST = 1u << 0,  /* first packet of a message */
	FW_PKT_LAST = 1u << 1,   /* last packet of a message */
	FW_PKT_NOTIFY = 1u << 2, /* LAST: write a NOTIFY CQE carrying imm */
	FW_PKT_TRACE = 1u << 3,  /* stamp this message on the receiving side */
	FW_PKT_PROBE = 1u << 4,  /* data sent after a NAK's resends: a receiver still missing a PSN
				  * NAKs it again (fw_send.c, fw_recv.c) */
	FW_PKT_ACKREQ = 1u << 5, /* LAST: acknowledge at the next send pass, not coalesced: the
				  * sender's host waits on it, or nothing after it would carry the
				  * ACK (fw_send.c ack_wanted; the AckReq bit of an InfiniBand BTH) */
};

enum fw_nak_syndrome {
	FW_NAK_SEQ = 1,     /* out of sequence: resend from psn (go-back-N) */
	FW_NAK_ACCESS = 2,  /* bad key or bounds at psn: connection failed */
	FW_NAK_MISSING = 3, /* out of sequence: resend only psn .. psn + mlen - 1 (selective repeat) */
};

struct fw_pkt {
	uint8_t magic;
	uint8_t op;
	uint8_t flags;
	uint8_t syndrome;  /* NAK reason; EGET_RESP: enum eel_fw_status_code; traced data: the
			    * receiver's stamps (FW_SEL_*, below) */
	uint32_t psn;
	uint32_t ack;      /* next PSN expected from the peer */
	uint32_t msg_id;   /* sender's message number */
	uint64_t raddr;    /* where this packet's payload goes (or is loaded from) */
	uint32_t rkey;
	uint16_t len;      /* payload bytes that follow */
	uint16_t tx_seq;   /* data: the sender's transmission count (mod 2^16); NAK(SEQ, MISSING):
			    * that of the packet that revealed the gap */
	uint32_t imm;      /* NOTIFY immediate data */
	uint32_t mlen;     /* PUT: the whole message's bytes, checked at its FIRST packet;
			    * NAK(MISSING): how many PSNs from psn are missing */
};
_Static_assert(sizeof(struct fw_pkt) == 40, "wire header is 40 bytes");

#define FW_PKT_HDR ((uint32_t)sizeof(struct fw_pkt))

/* Check a received frame: returns 0 and fills *hdr when the frame is a
 * well-formed eel packet, a negative value naming the defect otherwise.
 * Everything received is checked here before any of it is believed. Never
 * reads beyond frame_len. Inline, as fw_pkt_write: once a packet each, and
 * their calls were a fifth of their instructions. */
static inline int fw_pkt_parse(const void *frame, uint32_t frame_len, struct fw_pkt *hdr)
{
	if (frame_len < FW_PKT_HDR)
		return -1;                           /* runt */
	__builtin_memcpy(hdr, frame, FW_PKT_HDR);   /* the frame may be unaligned */
	if (hdr->magic != FW_WIRE_MAGIC)
		return -2;                           /* not eel, or another wire version */
	if (hdr->op == 0 || hdr->op > FW_PKT_OP_MAX)
		return -3;
	if (hdr->len != frame_len - FW_PKT_HDR || hdr->len > EEL_FW_MTU_MAX)
		return -4;                           /* length disagrees with the frame */
	switch (hdr->op) {
	case FW_PKT_EPUT:
	case FW_PKT_EGET_RESP:
		return hdr->len == 8 ? 0 : -5;
	case FW_PKT_EGET_REQ:
	case FW_PKT_ACK:
	case FW_PKT_NAK:
		return hdr->len == 0 ? 0 : -5;
	default:
		return 0;
	}
}

/* Write hdr at the start of a frame buffer (which need not be aligned),
 * field by field at its offset in struct fw_pkt (the same bytes as a copy
 * of the struct): a header whose fields are at hand (fw_send.c, send_fast:
 * the frame taken first, the fields from the message just filled) is
 * stored straight into the frame, not built on the stack and copied (on
 * x86-64 gcc -O2 a 40-byte `rep movs`: 5 instructions a put more, tools/eel-cost). */
_Static_assert(__builtin_offsetof(struct fw_pkt, psn) == 4 && __builtin_offsetof(struct fw_pkt, raddr) == 16 &&
		       __builtin_offsetof(struct fw_pkt, rkey) == 24 && __builtin_offsetof(struct fw_pkt, tx_seq) == 30 &&
		       __builtin_offsetof(struct fw_pkt, mlen) == 36,
	       "fw_pkt_write's offsets");
static inline void fw_pkt_write(void *frame, const struct fw_pkt *hdr)
{
	uint8_t *f = frame;

	f[0] = hdr->magic;
	f[1] = hdr->op;
	f[2] = hdr->flags;
	f[3] = hdr->syndrome;
	__builtin_memcpy(f + 4, &hdr->psn, 4);
	__builtin_memcpy(f + 8, &hdr->ack, 4);
	__builtin_memcpy(f + 12, &hdr->msg_id, 4);
	__builtin_memcpy(f + 16, &hdr->raddr, 8);
	__builtin_memcpy(f + 24, &hdr->rkey, 4);
	__builtin_memcpy(f + 28, &hdr->len, 2);
	__builtin_memcpy(f + 30, &hdr->tx_seq, 2);
	__builtin_memcpy(f + 32, &hdr->imm, 4);
	__builtin_memcpy(f + 36, &hdr->mlen, 4);
}

/* PSN arithmetic modulo 2^32: a is before b. */
static inline int fw_psn_before(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b) < 0;
}

/* A traced data packet (FW_PKT_TRACE) says in its syndrome byte which of the
 * receiving side's stamps the message takes (struct eel_trace's want, its
 * NIC_RX..DETECT bits): FW_SEL_ON and those four bits from bit 0. A
 * syndrome of 0 (a sender before this) asks for all of them. */
#define FW_SEL_ON 0x40u
#define FW_SEL_RX_STAMPS 4u /* NIC_RX, DMA_START, DMA_DONE, DETECT */

static inline uint8_t fw_sel_to_wire(uint32_t want)
{
	if (!want)
		return 0;
	return (uint8_t)(FW_SEL_ON | ((want >> EEL_ST_NIC_RX) & ((1u << FW_SEL_RX_STAMPS) - 1)));
}

/* The receiving side's want from a traced packet's syndrome (0: all). */
static inline uint32_t fw_sel_from_wire(uint8_t syndrome)
{
	if (!(syndrome & FW_SEL_ON))
		return 0;
	return (uint32_t)(syndrome & ((1u << FW_SEL_RX_STAMPS) - 1)) << EEL_ST_NIC_RX | EEL_TRACE_CHOSEN;
}

/* Transmission counts modulo 2^16: a went out before b. */
static inline int fw_tx_before(uint16_t a, uint16_t b)
{
	return (int16_t)(uint16_t)(a - b) < 0;
}

#endif
