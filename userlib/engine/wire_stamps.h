/* SPDX-License-Identifier: MIT */
/* userlib/engine/wire_stamps.h — stamps a real NIC's wire takes for traced messages
 * (the DPDK port's, the e1000's), matched to the engine's trace records when
 * they are drained (backend_dpdk.c, backend_raw_e1000.c).
 *
 * A queue of (message number, up to three cycle counts), in the order the
 * wire saw them: the firmware sends and delivers messages in order, and the
 * engine drains its records in order, so a merge on the message number joins
 * them. One producer (the thread running the firmware) and one consumer (the
 * host's thread draining the records): a full queue drops the new stamp, and
 * its record goes without the wire's stamps.
 */
#ifndef EEL_USERLIB_WIRE_STAMPS_H
#define EEL_USERLIB_WIRE_STAMPS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "firmware/pkt.h"

#define WIRE_STAMPS 1024u   /* as many as the engine keeps trace records */

struct wire_stamp {
	uint32_t msg_id;
	uint64_t t[3];
};

struct wire_stamps {
	uint32_t head;      /* the consumer's */
	uint32_t tail;      /* the producer's */
	uint32_t last;      /* the last message number pushed (+1, 0 = none) */
	struct wire_stamp e[WIRE_STAMPS];
};

static inline void wire_stamps_push(struct wire_stamps *s, uint32_t msg_id, uint64_t t0, uint64_t t1,
				    uint64_t t2)
{
	uint32_t tail = s->tail;

	if (tail - __atomic_load_n(&s->head, __ATOMIC_ACQUIRE) == WIRE_STAMPS)
		return;
	s->e[tail % WIRE_STAMPS] = (struct wire_stamp){ msg_id, { t0, t1, t2 } };
	s->last = msg_id + 1;
	__atomic_store_n(&s->tail, tail + 1, __ATOMIC_RELEASE);
}

/* Is msg_id after every message pushed so far (modulo 2^32)? A resent
 * frame's message was stamped when it first went out. */
static inline int wire_stamps_new(const struct wire_stamps *s, uint32_t msg_id)
{
	return !s->last || (int32_t)(msg_id - (s->last - 1)) > 0;
}

/* Is this firmware frame (firmware/pkt.h) a traced message's packet with
 * all of the given flags (FW_PKT_FIRST, FW_PKT_LAST)? Its message number into *msg_id. */
static inline int wire_frame_traced(const uint8_t *f, uint32_t len, uint8_t flags, uint32_t *msg_id)
{
	if (len < FW_PKT_HDR || f[0] != FW_WIRE_MAGIC ||
	    (f[offsetof(struct fw_pkt, flags)] & (FW_PKT_TRACE | flags)) != (FW_PKT_TRACE | flags))
		return 0;
	memcpy(msg_id, f + offsetof(struct fw_pkt, msg_id), 4);
	return 1;
}

/* The latest entry of msg_id whose first stamp lies in [lo, hi], into *out;
 * 0 when there is none. The entries of earlier messages are dropped on the
 * way (their records were drained, or lost). */
static inline int wire_stamps_take(struct wire_stamps *s, uint32_t msg_id, uint64_t lo, uint64_t hi,
				   struct wire_stamp *out)
{
	uint32_t tail = __atomic_load_n(&s->tail, __ATOMIC_ACQUIRE), head = s->head;
	int found = 0;

	for (; head != tail; head++) {
		const struct wire_stamp *e = &s->e[head % WIRE_STAMPS];

		if ((int32_t)(e->msg_id - msg_id) > 0)
			break;   /* a later message's: it stays */
		if (e->msg_id == msg_id && e->t[0] >= lo && e->t[0] <= hi) {
			*out = *e;
			found = 1;
		}
	}
	__atomic_store_n(&s->head, head, __ATOMIC_RELEASE);
	return found;
}

#endif
