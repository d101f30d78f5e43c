/* SPDX-License-Identifier: MIT */
/* include/eel/fw_abi.h — the contract between a host driver and eel's NIC firmware.
 *
 * This is the software NIC's "datasheet": what the host writes, where, and what
 * the firmware answers. It is shared by firmware/ (which implements the NIC)
 * and by every host driver that hosts that firmware (userlib/softnic/backend_softnic.c,
 * and the DPDK and raw backends that run the same protocol engine).
 *
 * The NIC has:
 *   - BAR0 (struct eel_fw_bar): configuration registers, the send-queue
 *     doorbell, the E-register window, and statistics counters;
 *   - in host memory, set up by the host and reached by the NIC only by DMA:
 *     a send queue of 64-byte descriptors (struct eel_fw_sqe), a completion
 *     queue of 32-byte entries (struct eel_fw_cqe), a memory-region table
 *     (struct eel_fw_mr), a status block (struct eel_fw_status) and trace
 *     records (struct eel_trace, eel/stamps.h).
 *
 * Bring-up (fw_reset, then): the host writes the base and size registers and
 * the tunables, then sets EEL_FW_CTRL_ENABLE in ctrl. It posts by writing SQEs
 * at sq_prod % sq_size and then storing the new sq_prod into sq_doorbell.
 * Addresses are bus addresses (for the software NIC: the host's virtual
 * addresses). All fields are little-endian.
 */
#ifndef EEL_FW_ABI_H
#define EEL_FW_ABI_H

#include <stddef.h>
#include <stdint.h>

#include "stamps.h"

#define EEL_FW_ABI_VERSION 4u /* 2: the recovery register, out_of_order_kept; 3: a traced put chooses
			       * its stamps (the SQE's and E-register's stamps, struct eel_trace's want,
			       * EEL_FW_LAST_RX_DETECT); 4: rto_min, the adaptive timer's floor */
#define EEL_FW_EREGS 16u           /* E-registers in BAR0 */
#define EEL_FW_MAX_INLINE 16u      /* payload bytes carried in a descriptor */
#define EEL_FW_MTU_MIN 256u        /* payload bytes per wire packet, bounds */
#define EEL_FW_MTU_MAX 8192u

/* ---- send queue descriptor (host memory, host writes, NIC reads) ---- */
enum eel_fw_opcode {
	EEL_FW_OP_PUT = 1,        /* RDMA write of len bytes to raddr */
};

enum eel_fw_sqe_flags {
	EEL_FW_SQE_SIGNALED = 1u << 0, /* write a CQE when the put is delivered */
	EEL_FW_SQE_INLINE = 1u << 1,   /* payload is in inline_data, not at laddr */
	EEL_FW_SQE_NOTIFY = 1u << 2,   /* receiver gets a CQE carrying imm */
	EEL_FW_SQE_TRACE = 1u << 3,    /* stamp this message into trace record `trace` */
};

struct eel_fw_sqe {
	uint8_t opcode;
	uint8_t flags;
	uint16_t stamps;   /* TRACE: the stamps to take (struct eel_trace's want; 0 = all) */
	uint32_t len;      /* payload bytes */
	uint64_t wr_id;    /* returned in the CQE */
	uint64_t laddr;    /* payload bus address (unless INLINE) */
	uint32_t lkey;     /* memory region of laddr */
	uint32_t rkey;     /* remote memory region */
	uint64_t raddr;    /* remote address */
	uint32_t imm;      /* NOTIFY: delivered to the receiver */
	uint32_t trace;    /* TRACE: TX trace record index */
	uint8_t inline_data[EEL_FW_MAX_INLINE];
};
_Static_assert(sizeof(struct eel_fw_sqe) == 64, "SQE is one cache line");

/* ---- completion queue entry (host memory, NIC writes, host reads) ---- */
enum eel_fw_cqe_opcode {
	EEL_FW_CQE_PUT = 1,    /* a local put is delivered (or failed) */
	EEL_FW_CQE_NOTIFY = 2, /* a peer's put with NOTIFY landed here */
};

enum eel_fw_status_code {
	EEL_FW_OK = 0,
	EEL_FW_ERR_LOCAL_ACCESS = 1,  /* lkey/laddr/len outside a local region */
	EEL_FW_ERR_REMOTE_ACCESS = 2, /* the peer refused: bad rkey or out of range */
	EEL_FW_ERR_FLUSHED = 3,       /* not executed: the connection failed earlier */
	EEL_FW_ERR_BAD_DESC = 4,      /* malformed descriptor */
	EEL_FW_ERR_RETRY = 5,         /* retransmission limit reached: peer gone */
};

struct eel_fw_cqe {
	uint64_t wr_id;
	uint32_t len;
	uint32_t imm;
	uint8_t opcode;
	uint8_t status;     /* enum eel_fw_status_code */
	uint16_t rsvd;
	uint32_t msg_id;    /* message number (sender's, for NOTIFY) */
	uint32_t trace;     /* PUT: TX trace record index + 1, 0 if not traced */
	uint32_t owner;     /* written last: (pass over the ring) & 1, starting at 1 */
};
_Static_assert(sizeof(struct eel_fw_cqe) == 32, "CQE is 32 bytes");

/* ---- memory region table entry (host memory, host writes, NIC reads) ---- */
enum eel_fw_mr_access {
	EEL_FW_MR_VALID = 1u << 0,
	EEL_FW_MR_LOCAL_READ = 1u << 1,
	EEL_FW_MR_REMOTE_WRITE = 1u << 2,
	EEL_FW_MR_REMOTE_READ = 1u << 3,
};

/* A key is (table index << 24) | tag: 256 entries at most, and a 24-bit tag
 * checked against the entry, so a stale or forged key fails even when its
 * index is in range (the host draws the tag at random: a peer guesses a
 * key of another region or run one time in 16 million). */
#define EEL_FW_KEY_TAG_BITS 24
#define EEL_FW_KEY(index, tag) (((uint32_t)(index) << EEL_FW_KEY_TAG_BITS) | ((tag)&0xffffffu))
#define EEL_FW_KEY_INDEX(key) ((key) >> EEL_FW_KEY_TAG_BITS)
#define EEL_FW_KEY_TAG(key) ((key)&0xffffffu)

/* [addr, addr + len): a region that reaches the top of the address space
 * (addr + len >= 2^64) is refused every access. The NIC keeps entries it
 * fetched until mr_gen changes: the host bumps it after changing one. */
struct eel_fw_mr {
	uint64_t addr;
	uint64_t len;
	uint32_t access;    /* enum eel_fw_mr_access */
	uint32_t tag;
	uint64_t rsvd;
};
_Static_assert(sizeof(struct eel_fw_mr) == 32, "MR entry is 32 bytes");

/* ---- status block (host memory, NIC writes, host reads) ---- */
#define EEL_FW_LAST_RX_TRACED (1ull << 63)
#define EEL_FW_LAST_RX_DETECT (1ull << 62) /* traced, and the host is to stamp DETECT */

struct eel_fw_status {
	uint64_t sq_cons;   /* descriptors the NIC is done with; slots below are free */
	uint64_t last_rx;   /* last message delivered here: peer msg_id | rx trace slot << 32 | TRACED
			     * | DETECT (the host stamps it) */
	uint32_t error;     /* sticky connection error, enum eel_fw_status_code */
	uint32_t error_info;/* PSN or key involved */
	uint8_t rsvd[40];
};
_Static_assert(sizeof(struct eel_fw_status) == 64, "status block is one cache line");

/* ---- BAR0 ---- */
enum eel_fw_ctrl {
	EEL_FW_CTRL_ENABLE = 1u << 0, /* host: configuration done, run */
	EEL_FW_CTRL_LINK = 1u << 1,   /* host: the wire is attached */
};

/* How the receiver recovers from a lost packet (firmware/pkt.h, loss recovery). */
enum eel_fw_recovery {
	EEL_FW_RECOVERY_GBN = 0, /* go-back-N: take only the next PSN, NAK(SEQ) a gap */
	EEL_FW_RECOVERY_SR = 1,  /* selective repeat: keep what came out of order, NAK(MISSING) the holes */
};

enum eel_fw_ereg_op {
	EEL_FW_EREG_PUT = 1, /* store `value` (8 bytes) at raddr */
	EEL_FW_EREG_GET = 2, /* load 8 bytes from raddr into `value` */
};
#define EEL_FW_EREG_DONE 0x80u

/* One E-register (Cray T3E style, Bell et al. 2003 §2): the host stores the operands
 * and then `cmd` = seq << 8 | op, then bumps ereg_doorbell; the NIC executes
 * it without any descriptor DMA and answers in `status` =
 * seq << 8 | 0x80 | enum eel_fw_status_code, written after `value` for a GET
 * (0x80 marks "done", so a fresh register reads as not done). */
struct eel_fw_ereg {
	uint64_t value;
	uint64_t raddr;
	uint32_t rkey;
	uint32_t cmd;
	uint32_t status;
	uint32_t trace;     /* host: the TX trace record's slot + 1 for a traced store, else 0 */
	uint32_t stamps;    /* traced: the stamps to take (struct eel_trace's want; 0 = all) */
	uint8_t pad[28];
};
_Static_assert(sizeof(struct eel_fw_ereg) == 64, "E-register is one cache line");

/* Statistics counters (NIC writes, host reads). */
enum eel_fw_counter {
	EEL_FW_CNT_TX_PKTS,
	EEL_FW_CNT_RX_PKTS,
	EEL_FW_CNT_TX_MSGS,
	EEL_FW_CNT_RX_MSGS,     /* messages delivered into host memory */
	EEL_FW_CNT_RETRANSMITS, /* packets sent again */
	EEL_FW_CNT_TIMEOUTS,    /* retransmission timer expiries */
	EEL_FW_CNT_NAKS_TX,
	EEL_FW_CNT_NAKS_RX,
	EEL_FW_CNT_DUPS,        /* duplicate packets received (not delivered again) */
	EEL_FW_CNT_OOO,         /* out-of-order packets received and dropped (NAKed) */
	EEL_FW_CNT_BAD,         /* malformed packets dropped */
	EEL_FW_CNT_ACCESS_ERRS, /* puts/gets refused for key or bounds */
	EEL_FW_CNT_ACKS_TX,     /* explicit ACK packets */
	EEL_FW_CNT_RNR,         /* NOTIFY puts refused for a full CQ (resent later) */
	EEL_FW_CNT_OOO_KEPT,    /* out-of-order packets kept (selective repeat), delivered later */
	EEL_FW_COUNTERS
};

struct eel_fw_bar {
	/* 0x000: identification and control */
	uint32_t abi;            /* RO: EEL_FW_ABI_VERSION */
	uint32_t ctrl;           /* enum eel_fw_ctrl */
	uint64_t rsvd0;
	/* 0x010: host memory layout */
	uint64_t sq_base;
	uint32_t sq_size;        /* entries, power of two */
	uint32_t cq_size;        /* entries, power of two */
	uint64_t cq_base;
	uint64_t mr_base;
	uint32_t mr_size;        /* entries */
	uint32_t mr_gen;         /* host bumps it after changing the MR table */
	uint64_t status_base;
	uint64_t trace_base;     /* trace_size TX records, then trace_size RX records */
	uint32_t trace_size;     /* records per direction, power of two */
	uint32_t mtu;            /* payload bytes per wire packet */
	/* 0x050: tunables, in firmware clock ticks */
	uint64_t rto;            /* retransmission timeout before the first RTT sample */
	uint32_t retry_limit;    /* timeouts in a row before the peer is declared gone */
	uint32_t recovery;       /* enum eel_fw_recovery: this end as a receiver */
	uint64_t delay_fetch;    /* emulated stage costs (softnic "slower NIC" options) */
	uint64_t delay_tx;
	uint64_t delay_rx;
	uint64_t delay_dma;
	uint64_t delay_payload;  /* a DMA read of a put's payload (not inline) */
	uint64_t rto_min;        /* the retransmission timeout's floor (RFC 6298 §2.4); rto is its
				  * initial value (§2.1), rto << 3 its ceiling (§2.5) */
	uint8_t pad0[0x100 - 0x090];
	/* 0x100: doorbells, a cache line of their own */
	uint64_t sq_doorbell;    /* host: new SQ producer index */
	uint64_t ereg_doorbell;  /* host: bumped by one after each E-register cmd store (the NIC
				  * looks for as many new commands as it moved) */
	uint64_t cq_doorbell;    /* host: CQ entries consumed */
	uint8_t pad1[0x180 - 0x118];
	/* 0x180: statistics */
	uint64_t counters[EEL_FW_COUNTERS];
	uint8_t pad2[0x400 - 0x180 - 8 * EEL_FW_COUNTERS];
	/* 0x400: E-register window */
	struct eel_fw_ereg ereg[EEL_FW_EREGS];
};
_Static_assert(offsetof(struct eel_fw_bar, rto) == 0x50, "BAR0 layout");
_Static_assert(offsetof(struct eel_fw_bar, sq_doorbell) == 0x100, "BAR0 layout");
_Static_assert(offsetof(struct eel_fw_bar, counters) == 0x180, "BAR0 layout");
_Static_assert(offsetof(struct eel_fw_bar, ereg) == 0x400, "BAR0 layout");
_Static_assert(sizeof(struct eel_fw_bar) == 0x800, "BAR0 is 2 KiB");

#endif
