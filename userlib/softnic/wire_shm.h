/* SPDX-License-Identifier: MIT */
/* userlib/softnic/wire_shm.h — the software NIC's wire: two rings in shared memory,
 * one per direction, joining the NICs of two processes on one machine.
 *
 * Each ring is a circle of fixed-size slots: a 16-byte header, then a frame.
 * An 8-byte put (header 16 + packet header 40 + payload 8) fills exactly one
 * cache line, so a small message costs one line moving from the sender's
 * core to the receiver's, the same as the bare ping-pong of
 * `eel-bench -t limit`. The producer fills a slot and then stores its
 * sequence number; the consumer polls that number, so nothing else is shared
 * on the fast path, and the producer reads the consumer's count only when the
 * ring looks full.
 */
#ifndef EEL_USERLIB_WIRE_SHM_H
#define EEL_USERLIB_WIRE_SHM_H

#include <stddef.h>
#include <stdint.h>

#include "userlib/engine/wire.h"

#define SHM_WIRE_MAGIC 0x45524957u   /* "WIRE" */
#define SHM_WIRE_VERSION 2u
#define SHM_SLOTS 256u
#define SHM_SLOT_HDR 16u

struct shm_slot {
	uint32_t seq;       /* producer count + 1, written last */
	uint32_t len;       /* frame bytes */
	uint64_t rsvd;
	uint8_t frame[];
};

/* The shared object: this header, then ring 0 (frames side 0 sends), then ring 1. */
struct shm_wire_hdr {
	uint32_t magic;
	uint32_t version;
	uint32_t nslots;
	uint32_t slot_size;
	uint32_t max_frame;
	int32_t pid[2];
	uint32_t rsvd;
	uint64_t ring_off[2];
};

struct shm_wire {
	struct shm_wire_hdr *shm;
	size_t shm_len;
	int side;
	uint32_t nslots, slot_size, max_frame;
	uint8_t *tx_slots;
	volatile uint32_t *tx_cons;   /* the peer's consumer count */
	uint32_t tx_prod, tx_cons_seen;
	uint8_t *rx_slots;
	volatile uint32_t *rx_cons_pub;
	uint32_t rx_cons;
};

/* Bytes of the shared object for frames up to max_frame bytes. */
size_t shm_wire_size(uint32_t max_frame);
/* Lay out a fresh shared object. */
void shm_wire_format(struct shm_wire_hdr *shm, uint32_t max_frame);
/* Join side 0 or 1 of a formatted object: 0, or -1 if it is not one. */
int shm_wire_attach(struct shm_wire *w, struct shm_wire_hdr *shm, size_t len, int side);

extern const struct wire_ops shm_wire_ops; /* ctx: struct shm_wire */

#endif
