/* SPDX-License-Identifier: MIT */
/* firmware/fw.h — the software NIC's firmware: its state and its parts.
 *
 * The firmware is the program of a NIC's embedded core. Its main loop,
 * fw_step(), is one pass over everything the NIC watches:
 *
 *   fw_recv    frames off the wire: acknowledgements, puts into host memory,
 *              E-register loads and their answers            (fw_recv.c)
 *   fw_fetch   new descriptors from the send queue into the message table,
 *              new E-register commands                       (fw_fetch.c, fw_ereg.c)
 *   fw_send    packets onto the wire within the window, resends and probes
 *              after a NAK, the retransmission timer, owed ACKs (fw_send.c)
 *
 * An ACK is taken in by fw_recv.c, applied by fw_ack.c (the sender's ACK and
 * NAK handling: the messages it finishes, what a NAK or a timeout leaves to
 * resend, go-back-N or selective repeat) and completed by fw_host.c, which
 * also writes the status block, trace stamps, counters (fw_count, inline in
 * fw_host.h), E-register answers and the error state. Key and bounds checks
 * live in fw_mr.c; selective repeat's receive buffer is fw_sr.c; the
 * retransmission timer's value (RFC 6298) is fw_rto.c; the packet format is
 * pkt.h. Each part declares its functions in its own header
 * (fw_main.h, fw_recv.h, fw_fetch.h, fw_ereg.h, fw_send.h, fw_ack.h, fw_mr.h,
 * fw_sr.h, fw_rto.h, fw_host.h); calls point one way (tools/check-layers
 * checks that no two files call each other, round any circle):
 *   fw_main -> fw_recv, fw_ereg, fw_fetch, fw_send
 *   fw_recv -> fw_send (ACKs and NAKs sent), fw_ack, fw_mr, fw_sr
 *   fw_ereg -> fw_fetch -> fw_ack, fw_mr;  fw_send -> fw_ack
 *   fw_ack, fw_send, fw_main -> fw_rto;  fw_recv, fw_send -> pkt
 *   fw_main, fw_recv, fw_ereg, fw_fetch, fw_send, fw_ack -> fw_host
 * The firmware touches the outside only through its HAL (hal.h) and
 * includes nothing but <stdint.h>, <stddef.h> and the shared ABI headers, so
 * it builds freestanding (tests/firmware_freestanding.sh).
 */
#ifndef EEL_FW_H
#define EEL_FW_H

#include <stddef.h>
#include <stdint.h>

#include <eel/fw_abi.h>

#include "hal.h"
#include "pkt.h"

#define FW_MSGS 256u      /* messages in flight, power of two */
#define FW_WINDOW 128u    /* packets sent and not yet acknowledged */
#define FW_RX_BUDGET 32u  /* frames handled per step */
#define FW_MR_CACHE 4u    /* memory-region entries kept on chip */
#define FW_RTO_BACKOFF 3u /* the timeout's ceiling: the initial timeout doubled this many times */
#define FW_TIMER_PASSES 16u /* fw_send reads the clock for the timer once in this many */
#define FW_NAK_EVERY 8u   /* past a gap, the receiver NAKs it again every this many packets */
#define FW_QUIET_PASSES 16u /* the wire is quiet after this many empty receive passes in a row */
#define FW_REPEATS 2u     /* probes after a NAK's resends, repeats of a lone ACK and of a NAK on
			     a quiet wire (at 3% loss, both lost 1 time in 10^3: each time
			     the timer, ~10^4 messages' time) */
#define FW_ACK_EVERY 32u  /* an owed ACK goes alone at the latest this many packets on (FW_WINDOW / 4) */
#define FW_ACK_AGAIN_SHIFT 8u /* a lone ACK goes again after rto / 2^this of quiet (16 us of 4 ms) */
#define FW_AHEAD 32u       /* payload reads issued ahead of their packets (fw_send.c), power of two */
#define FW_AHEAD_BYTES (16u << 10) /* ... and their bytes, at most: what gen3's 32 tags keep in flight
			    * (MRRS 512); more would only queue, and a descriptor's read behind them */
#define FW_FETCH_AHEAD 16u /* descriptor reads issued at once (fw_fetch.c); with FW_AHEAD and the
			    * reads waited for at once, within the HAL's FW_HAL_READS */
#define FW_SR_BYTES (128u << 10) /* selective repeat: bytes of out-of-order packets kept */

enum fw_msg_kind { FW_MSG_SQE = 1, FW_MSG_EPUT = 2, FW_MSG_EGET = 3 };

/* A message taken from the send queue or an E-register, until it is acknowledged. */
struct fw_msg {
	uint64_t wr_id;
	uint64_t laddr;
	uint64_t raddr;
	uint32_t len;
	uint32_t lkey;
	uint32_t rkey;
	uint32_t imm;
	uint32_t first_psn;
	uint32_t npkts;
	uint32_t msg_id;
	uint32_t trace;     /* TX trace record index + 1, 0 = not traced */
	uint32_t stamps;    /* traced: the stamps to take (struct eel_trace's want; 0 = all) */
	uint64_t t_fetch;   /* traced: its NIC_FETCH stamp, written with the record once it is sent */
	uint32_t ereg_seq;  /* E-register command sequence */
	uint8_t kind;       /* enum fw_msg_kind */
	uint8_t flags;      /* enum eel_fw_sqe_flags */
	uint8_t ereg;       /* E-register index */
	uint8_t answered;   /* EGET: the response arrived */
	uint8_t data[EEL_FW_MAX_INLINE]; /* INLINE payload, EPUT value */
};

/* A received packet's t_rx: 0 not traced, FW_RX_TRACED traced but NIC_RX
 * not asked for, else the NIC_RX stamp. */
#define FW_RX_TRACED 1u

/* Selective repeat: a packet kept out of order until the PSNs before it come
 * (fw_sr.c); its payload is in the keep ring at `at`. */
struct fw_sr_slot {
	struct fw_pkt hdr;
	uint64_t t_rx;      /* its t_rx (above) */
	uint32_t at;        /* ring offset of its entry */
};

/* A memory-region entry kept on chip (fw_mr.h): what the check needs of
 * the host's entry (struct eel_fw_mr), in one place, with the key and the
 * table generation it was fetched for. */
struct fw_mr_slot {
	uint32_t key;
	uint32_t gen;
	/* the entry's access bits when it is valid and its tag is the key's;
	 * EEL_FW_MR_VALID alone when valid with another tag (refused, not
	 * fetched again); 0 when not valid (fetched again at each check) */
	uint32_t access;
	uint32_t rsvd;
	uint64_t addr;
	uint64_t len;
};

struct fw {
	struct fw_hal hal;
	int running;            /* configuration taken after ENABLE */

	/* configuration, taken from BAR0 at enable */
	uint64_t sq_base, cq_base, mr_base, status_base, trace_base;
	uint32_t sq_mask, cq_mask, mr_size, trace_size, mtu, retry_limit;
	uint64_t rto, rto_min, delay_fetch, delay_tx, delay_rx, delay_dma, delay_payload;
	int tx_plain;           /* the lone put's path may run (fw_send.c, fw_send_lone): registers and
				 * DMA direct (hal.h), no emulated fetch, transmit or payload delay
				 * (fw_start) */

	/* send side: PSNs are assigned when a message is taken */
	uint64_t sq_fetched;    /* descriptors taken from the SQ */
	uint64_t sq_cons;       /* descriptors finished (told to the host) */
	struct fw_msg msg[FW_MSGS];
	uint32_t msg_head;      /* oldest message in flight */
	uint32_t msg_tail;      /* next free slot */
	uint32_t msg_tx;        /* message holding snd_nxt */
	uint32_t next_msg_id;
	uint32_t psn_next;      /* next PSN to assign */
	uint32_t snd_nxt;       /* next PSN to transmit */
	uint32_t snd_una;       /* oldest PSN not acknowledged */
	uint32_t snd_max;       /* one past the highest PSN ever transmitted */
	uint16_t tx_seq;        /* transmissions so far (mod 2^16), carried by data packets */
	uint16_t tx_seq_of[FW_WINDOW]; /* tx_seq of each PSN's last transmission, by psn % FW_WINDOW */
	uint64_t resend[FW_WINDOW / 64]; /* NAK(MISSING): PSNs to resend, by psn % FW_WINDOW */
	uint32_t resends;       /* bits set in resend */
	int probe_due;          /* a NAK's resends are under way: probe after them */
	uint32_t probe_left;    /* transmissions still to carry FW_PKT_PROBE after the resends */
	int frto;               /* 1: a timeout resent frto_psn alone, the next ACK says whether it was
				 * spurious; 2: a timeout came during that, go back until an ACK */
	uint32_t frto_psn;
	uint8_t tx_probe;       /* FW_PKT_PROBE on the packet being sent, or 0 */
	struct fw_ahead { uint32_t psn, tag, len; } ahead[FW_AHEAD]; /* payload reads in flight,
				 * oldest first (fw_send.c, send_ahead) */
	uint32_t ahead_head, ahead_tail; /* the ring's oldest and next entry */
	uint32_t ahead_bytes;   /* their bytes */
	uint32_t fetch_tag[FW_FETCH_AHEAD]; /* descriptor reads in flight (fw_fetch.c, fetch_pending) */
	uint32_t fetch_i, fetch_n; /* the next to take, and how many */
	uint32_t ahead_psn;     /* the next PSN whose payload read may be issued ahead */
	uint32_t ahead_msg;     /* the message holding it */
	uint64_t rto_deadline;  /* 0: timer off */
	uint32_t timer_pass;    /* passes since the timer's clock was last read */
	uint64_t rto_cur;       /* the timeout now: RTO of RFC 6298, backed off after expiries (fw_rto.c) */
	int rto_backed;         /* rto_cur backed off since it was last computed: an ACK recomputes it */
	uint64_t srtt8;         /* SRTT << 3 (RFC 6298 §2; Jacobson 1988's scaled integers) */
	uint64_t rttvar4;       /* RTTVAR << 2 */
	int rtt_on;             /* a PSN is being timed: rtt_psn, sent at rtt_t0 */
	uint32_t rtt_psn;
	uint64_t rtt_t0;
	uint32_t timeouts;      /* in a row, without progress */
	uint32_t ack_in;        /* the newest cumulative ACK received, not yet applied (fw_ack_in) */
	int ack_in_new;         /* ack_in waits to be applied */

	/* receive side */
	uint32_t rcv_nxt;       /* next PSN expected */
	uint32_t rcv_acked;     /* rcv_nxt as last told to the peer */
	uint32_t ack_wait;      /* steps an owed ACK has waited */
	int ack_force;          /* a duplicate arrived: the peer missed an ACK */
	int ack_req;            /* a packet delivered asked for its ACK (FW_PKT_ACKREQ) */
	uint32_t ack_idle;      /* empty receive passes in a row with an ACK owed */
	uint32_t ack_again;     /* an ACK went out alone: send it again this many times when the wire is quiet */
	uint32_t ack_quiet;     /* quiet passes since the clock was last read for ack_again */
	uint32_t quiet_passes;  /* receive passes in a row that found the wire empty (while nak_quiet) */
	uint64_t ack_again_at;  /* when the next repeat of a lone ACK is due; 0 = not timed yet */
	int nak_sent;           /* a NAK sent since rcv_nxt last moved */
	uint32_t ooo_past_gap;  /* out-of-order packets since rcv_nxt last moved */
	uint32_t nak_quiet;     /* send the last NAK again this many times when the wire is quiet */
	uint32_t rcv_high;      /* one past the highest PSN received (>= rcv_nxt) */
	uint32_t rx_last_psn;   /* the last data packet's PSN */
	uint16_t rx_last_tx;    /* and its tx_seq */
	uint32_t rx_probe_run;  /* 1 + the tx_seq that continues a run of probes (FW_PKT_PROBE, or
				 * packets kept already) with no other packet between; 0: none */
	uint32_t recovery;      /* enum eel_fw_recovery */
	int rx_plain;           /* the receive fast path may run: registers and DMA direct (hal.h), no
				 * emulated receive delay (fw_start) */
	int rx_delayed;         /* as rx_plain, but with an emulated receive delay: the fast path's
				 * delayed instance (fw_recv.c, rx_take_delayed) */
	uint64_t sr_have[FW_WINDOW / 64]; /* PSNs kept, by psn % FW_WINDOW */
	struct fw_sr_slot sr_slot[FW_WINDOW];
	uint32_t sr_head, sr_tail; /* the keep ring, free-running byte offsets */
	_Alignas(8) uint8_t sr_ring[FW_SR_BYTES];
	uint64_t cq_prod;
	uint32_t rx_bytes;      /* bytes of the message being received */
	/* the RX trace record of the message being received (or last received,
	 * until written: fw_trace_rx_flush), kept here off the data's path */
	struct {
		int on, pending;
		uint32_t slot, msg_id, want;
		uint64_t t[EEL_ST_DMA_DONE - EEL_ST_NIC_RX + 1]; /* NIC_RX, DMA_START, DMA_DONE */
	} rx_tr;
	uint32_t rx_trace_next;

	/* E-registers */
	uint64_t ereg_db_seen;
	uint32_t ereg_seq[EEL_FW_EREGS];
	uint32_t ereg_next;     /* the E-register found last: the scan looks after it first, then at it */

	struct fw_mr_slot mr_cache[FW_MR_CACHE];

	uint32_t error;         /* sticky connection error, enum eel_fw_status_code */
	uint32_t error_info;
	uint64_t cnt[EEL_FW_COUNTERS];
};

/* Slot i of the message table (free-running indices, msg_head .. msg_tail). */
static inline struct fw_msg *fw_msg_at(struct fw *fw, uint32_t i)
{
	return &fw->msg[i & (FW_MSGS - 1)];
}

#define FW_REG(field) ((uint32_t)offsetof(struct eel_fw_bar, field))
#define EREG(i, field) FW_REG(ereg[0].field) + (uint32_t)(i) * (uint32_t)sizeof(struct eel_fw_ereg)

/* A packet that carries our cumulative ACK went out: nothing is owed. */
static inline void fw_ack_carried(struct fw *fw)
{
	fw->rcv_acked = fw->rcv_nxt;
	fw->ack_wait = 0;
	fw->ack_force = 0;
	fw->ack_req = 0;
	fw->ack_idle = 0;
}

/* Copy n bytes on the NIC's own memory. The compiler's memcpy (one of the
 * four symbols a freestanding C environment provides): a header of a known
 * size becomes a few wide moves. A byte loop cost 160 instructions per
 * 40-byte header, written and parsed once each per packet: a third of an
 * 8-byte put's instructions on the software NIC, and its EEL fell from
 * ~390 to ~250 ns (interleaved runs) without it. */
static inline void fw_copy(void *dst, const void *src, uint32_t n)
{
	__builtin_memcpy(dst, src, n);
}

/* Busy-wait on the NIC clock: the emulated cost of a slower stage. */
static inline void fw_delay(struct fw *fw, uint64_t ticks)
{
	uint64_t t0 = hal_now(&fw->hal);

	while (hal_now(&fw->hal) - t0 < ticks)
		;
}

#endif
