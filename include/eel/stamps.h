/* SPDX-License-Identifier: MIT */
/* include/eel/stamps.h — the stages of one message's life that eel stamps.
 *
 * A message's timeline, in order (docs/methods.md, the breakdown):
 *
 *   POST           host: the put call was entered
 *   DOORBELL       host: the descriptor is written, the doorbell store is about to issue
 *   DOORBELL_DONE  host: the doorbell store has retired (or the system call returned)
 *   NIC_FETCH      sending NIC: descriptor fetched
 *   NIC_TX         sending NIC: the (last) packet is on the wire
 *   NIC_RX         receiving NIC: the (first) packet came off the wire
 *   DMA_START      receiving NIC: checks done, payload DMA into host memory begins
 *   DMA_DONE       receiving NIC: the payload is in host memory
 *   DETECT         receiving host: the waiting program saw the data
 *   COMPLETE       sending host: the local completion was seen
 *
 * The one-way latency of a put is DETECT - POST; the stages between consecutive
 * stamps (post, doorbell, fetch, tx, wire, rx, dma, detect) add up to it.
 * All stamps are in cycles of the host's counter (eel/cycles.h); a NIC clock is
 * mapped onto it by the backend. A stamp of 0 means "not stamped".
 *
 * This header is shared with firmware/: fixed-width types only.
 */
#ifndef EEL_STAMPS_H
#define EEL_STAMPS_H

#include <stdint.h>

enum eel_stage {
	EEL_ST_POST = 0,
	EEL_ST_DOORBELL,
	EEL_ST_DOORBELL_DONE,
	EEL_ST_NIC_FETCH,
	EEL_ST_NIC_TX,
	EEL_ST_NIC_RX,
	EEL_ST_DMA_START,
	EEL_ST_DMA_DONE,
	EEL_ST_DETECT,
	EEL_ST_COMPLETE,
	EEL_STAGES
};

/* One traced message. Sender-side records hold POST..NIC_TX and COMPLETE;
 * receiver-side records hold NIC_RX..DETECT, for the peer's msg_id.
 *
 * A traced message takes only the stamps in `want` (0: every stamp the NIC
 * takes), so that a stamped message is close to an unstamped one: POST (by
 * which the bench finds it) and a few around one stage (eel_stamp_pick).
 * Only the stamps in `want` are meaningful: a record is not cleared before
 * reuse. */
struct eel_trace {
	uint32_t msg_id;        /* the sender's message number on the connection */
	uint32_t valid;         /* non-zero once the NIC has finished with the record */
	uint32_t want;          /* the stamps asked for: 1 << stage, | EEL_TRACE_CHOSEN; 0 = all */
	uint32_t rsvd;
	uint64_t t[EEL_STAGES]; /* cycles; 0 = not stamped */
};

/* want: it names the stamps taken (and may name none at this end); without
 * it, a want of 0 asks for every stamp */
#define EEL_TRACE_CHOSEN (1u << 14)
#define EEL_TRACE_STAMPS ((1u << EEL_STAGES) - 1)
/* want: the stamp s the choice is about, + 1, in bits 10..13 (0: none, the
 * whole one-way trip): with s and the stamps before and after it, the two
 * stages around s; with EEL_TRACE_WITHOUT, the two without s between them,
 * so that s's cost in place is how much longer the span is with it. */
#define EEL_TRACE_AROUND_SHIFT 10
#define EEL_TRACE_WITHOUT (1u << 15)

static inline int eel_trace_around(uint32_t want)
{
	return (int)((want >> EEL_TRACE_AROUND_SHIFT) & 15u) - 1;
}

/* Does record r hold stamp `stage`? */
static inline int eel_trace_has(const struct eel_trace *r, int stage)
{
	return (!r->want || (r->want & (1u << stage))) && r->t[stage] != 0;
}

/* Stamped messages come in bursts: the first EEL_STAMP_BURST of every
 * `stamp_every` (eel_set_stamp_every). A lone stamped message in 256 runs
 * through the stamping code and its trace record cold (branches mispredicted,
 * the record's lines out of the cache): here that cost it ~90 ns more than
 * its stamps' reads, landing in the stages as if theirs. The burst's last
 * message runs on a path the ones before it warmed; a ping-pong's breakdown
 * is taken from it (bench/pingpong.c). */
#define EEL_STAMP_BURST 4

/* Direction of a trace record, as seen by the device that holds it. */
enum eel_trace_dir { EEL_TRACE_TX = 0, EEL_TRACE_RX = 1 };

#endif
