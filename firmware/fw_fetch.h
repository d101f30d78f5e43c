/* SPDX-License-Identifier: MIT */
/* firmware/fw_fetch.h — the fetch (fw_fetch.c): descriptors from the send
 * queue into the message table, and a slot in it for an E-register's command. */
#ifndef EEL_FW_FETCH_H
#define EEL_FW_FETCH_H

#include "fw.h"
#include "fw_ack.h"

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

/* A slot for a new message of npkts packets, its PSNs assigned; 0 when full.
 * Inline: once a message, and the call was a third of its instructions. */
static inline struct fw_msg *fw_msg_alloc(struct fw *fw, uint32_t npkts)
{
	return fw_msg_room(fw) ? fw_msg_take(fw, npkts) : 0;
}

#endif
