/* SPDX-License-Identifier: MIT */
/* firmware/fw_fetch.h — the fetch (fw_fetch.c): descriptors from the send
 * queue into the message table, and a slot in it for an E-register's command. */
#ifndef EEL_FW_FETCH_H
#define EEL_FW_FETCH_H

#include "fw.h"
#include "fw_ack.h"
#include "fw_host.h"
#include "fw_mr.h"

int fw_fetch_sq(struct fw *fw);

/* Room for one more message in flight? An ACK received and not yet applied
 * may free a slot. */
static inline int fw_msg_room(struct fw *fw)
{
	if (fw->msg_tail - fw->msg_head == FW_MSGS)
		fw_acks_apply(fw);
	return fw->msg_tail - fw->msg_head < FW_MSGS;
}

/* The next slot of the message table for a new message of npkts packets,
 * its PSNs assigned: the caller has seen room for it (fw_msg_room). */
static inline struct fw_msg *fw_msg_take(struct fw *fw, uint32_t npkts)
{
	struct fw_msg *m = fw_msg_at(fw, fw->msg_tail++);

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

/* The bus address of send queue descriptor i (a count of descriptors since
 * the queue began: wraps at its size). */
static inline uint64_t fw_sqe_addr(const struct fw *fw, uint64_t i)
{
	return fw->sq_base + (i & fw->sq_mask) * sizeof(struct eel_fw_sqe);
}

/* Descriptor d's trace record index + 1, or 0 when it is not traced (no
 * TRACE flag, or no trace ring). */
static inline uint32_t fw_sqe_trace(const struct fw *fw, const struct eel_fw_sqe *d)
{
	return (d->flags & EEL_FW_SQE_TRACE) && fw->trace_size ? d->trace + 1 : 0;
}

/* Message m, just taken (fw_msg_take), made a put of descriptor d: its
 * kind and flags (what ack_wanted reads of it). */
static inline void fw_msg_kind(struct fw_msg *m, const struct eel_fw_sqe *d)
{
	m->kind = FW_MSG_SQE;
	m->flags = d->flags;
}

/* Message m, just taken (fw_msg_take), filled from descriptor d: what it
 * sends and completes with, its trace (trace: fw_sqe_trace's; a traced
 * message's NIC_FETCH stamp taken here), and its inline data. The fetch
 * (fw_fetch.c, fetch_one) and the lone put's path (fw_send.c, fw_send_lone)
 * take a descriptor through here. */
static inline __attribute__((always_inline)) void fw_msg_fill(struct fw *fw, struct fw_msg *m,
							     const struct eel_fw_sqe *d, uint32_t trace)
{
	fw_msg_kind(m, d);
	m->wr_id = d->wr_id;
	m->laddr = d->laddr;
	m->raddr = d->raddr;
	m->len = d->len;
	m->lkey = d->lkey;
	m->rkey = d->rkey;
	m->imm = d->imm;
	m->trace = trace;
	m->stamps = d->stamps;
	if (m->trace && fw_wants(m->stamps, EEL_ST_NIC_FETCH))
		m->t_fetch = hal_now(&fw->hal); /* else 0, from fw_msg_take */
	if (d->flags & EEL_FW_SQE_INLINE)
		fw_copy(m->data, d->inline_data, EEL_FW_MAX_INLINE);
}

/* May descriptor d's payload be sent: inline data that fits, or a source
 * its local key may read (key and bounds, fw_mr_check)? */
static inline int fw_sqe_source_ok(struct fw *fw, const struct eel_fw_sqe *d)
{
	if (d->flags & EEL_FW_SQE_INLINE)
		return d->len <= EEL_FW_MAX_INLINE;
	return fw_mr_check(fw, d->lkey, d->laddr, d->len, EEL_FW_MR_LOCAL_READ);
}

/* A slot for a new message of npkts packets, its PSNs assigned; 0 when full.
 * Inline: once a message, and the call was a third of its instructions. */
static inline struct fw_msg *fw_msg_alloc(struct fw *fw, uint32_t npkts)
{
	return fw_msg_room(fw) ? fw_msg_take(fw, npkts) : 0;
}

#endif
