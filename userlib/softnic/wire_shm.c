/* SPDX-License-Identifier: MIT */
/* userlib/softnic/wire_shm.c — the software NIC's shared-memory wire (wire_shm.h). */
#include <stddef.h>
#include <string.h>

#include "userlib/softnic/wire_shm.h"

#ifdef EEL_COST_MARKS /* VALGRIND=1 builds, which need valgrind's headers (tools/setup build) */
#include <valgrind/callgrind.h>
/* tools/eel-cost's mark, in its VALGRIND=1 build only: its driver
 * (tests/host/cost_drive.c) sets it before a put whose instructions up to
 * the frame on the wire it counts; the frame's send stops callgrind's count
 * and clears it. Its test is 3 instructions of each send path that build
 * counts. */
__attribute__((visibility("hidden"))) int eel_cost_wire_mark;

static __attribute__((noinline, cold)) void cost_mark_hit(void)
{
	eel_cost_wire_mark = 0;
	CALLGRIND_TOGGLE_COLLECT;
}
#endif

static uint32_t slot_size_for(uint32_t max_frame)
{
	return (SHM_SLOT_HDR + max_frame + 63) & ~63u;
}

/* Ring d's offset: a page for the header, then ring 0, then ring 1. */
static size_t ring_at(uint32_t max_frame, int d)
{
	return 4096 + (size_t)d * (64 + (size_t)SHM_SLOTS * slot_size_for(max_frame));
}

size_t shm_wire_size(uint32_t max_frame)
{
	return 4096 + 2 * (64 + (size_t)SHM_SLOTS * slot_size_for(max_frame));
}

void shm_wire_format(struct shm_wire_hdr *shm, uint32_t max_frame)
{
	memset(shm, 0, shm_wire_size(max_frame));
	shm->version = SHM_WIRE_VERSION;
	shm->nslots = SHM_SLOTS;
	shm->slot_size = slot_size_for(max_frame);
	shm->max_frame = max_frame;
	shm->ring_off[0] = ring_at(max_frame, 0);
	shm->ring_off[1] = ring_at(max_frame, 1);
	__atomic_store_n(&shm->magic, SHM_WIRE_MAGIC, __ATOMIC_RELEASE);
}

/* A ring: a line holding the consumer's count, then the slots. */
static uint8_t *ring_slots(struct shm_wire_hdr *shm, uint32_t max_frame, int d)
{
	return (uint8_t *)shm + ring_at(max_frame, d) + 64;
}

static volatile uint32_t *ring_cons(struct shm_wire_hdr *shm, uint32_t max_frame, int d)
{
	return (volatile uint32_t *)((uint8_t *)shm + ring_at(max_frame, d));
}

int shm_wire_attach(struct shm_wire *w, struct shm_wire_hdr *shm, size_t len, int side)
{
	uint32_t max_frame;

	memset(w, 0, sizeof(*w));
	if (len < sizeof(*shm) || __atomic_load_n(&shm->magic, __ATOMIC_ACQUIRE) != SHM_WIRE_MAGIC)
		return -1;
	/* The header is the peer's: read each field once, and take the ring
	 * offsets only where shm_wire_format puts them (inside len). */
	max_frame = shm->max_frame;
	if (shm->version != SHM_WIRE_VERSION || shm->nslots != SHM_SLOTS || max_frame > (1u << 20) ||
	    shm->slot_size != slot_size_for(max_frame) || len < shm_wire_size(max_frame) ||
	    shm->ring_off[0] != 4096 || shm->ring_off[1] != 4096 + 64 + (size_t)SHM_SLOTS * slot_size_for(max_frame))
		return -1;
	w->shm = shm;
	w->shm_len = len;
	w->side = side;
	w->nslots = shm->nslots;
	w->slot_size = slot_size_for(max_frame);
	w->max_frame = max_frame;
	/* the offsets this end computes, not the ones in the shared header */
	w->tx_slots = ring_slots(shm, max_frame, side);
	w->tx_cons = ring_cons(shm, max_frame, side);
	w->rx_slots = ring_slots(shm, max_frame, !side);
	w->rx_cons_pub = ring_cons(shm, max_frame, !side);
	return 0;
}

/* Slot i of a ring: a wire attached has SHM_SLOTS of them (shm_wire_attach
 * checks), a mask known here and not loaded at each look. */
static struct shm_slot *slot(uint8_t *slots, const struct shm_wire *w, uint32_t i)
{
	return (struct shm_slot *)(slots + (size_t)(i & (SHM_SLOTS - 1)) * w->slot_size);
}

static void *shm_tx_alloc(void *ctx, uint32_t len)
{
	struct shm_wire *w = ctx;

	if (len > w->max_frame)
		return NULL;
	/* The consumer's count lives on a line the consumer writes: read it
	 * only when the last count read says the ring is full. */
	if (w->tx_prod - w->tx_cons_seen >= w->nslots) {
		w->tx_cons_seen = __atomic_load_n(w->tx_cons, __ATOMIC_ACQUIRE);
		if (w->tx_prod - w->tx_cons_seen >= w->nslots)
			return NULL;
	}
	return slot(w->tx_slots, w, w->tx_prod)->frame;
}

static void shm_tx_send(void *ctx, void *frame, uint32_t len)
{
	struct shm_wire *w = ctx;
	/* frame is the one shm_tx_alloc gave: slot tx_prod's */
	struct shm_slot *s = (struct shm_slot *)((uint8_t *)frame - offsetof(struct shm_slot, frame));

	s->len = len;
	__atomic_store_n(&s->seq, w->tx_prod + 1, __ATOMIC_RELEASE);
	w->tx_prod++;
#ifdef EEL_COST_MARKS
	if (__builtin_expect(eel_cost_wire_mark, 0))
		cost_mark_hit(); /* the frame is on the wire: the count stops */
#endif
}

static const void *shm_rx(void *ctx, uint32_t *len)
{
	struct shm_wire *w = ctx;

	for (;;) {
		struct shm_slot *s = slot(w->rx_slots, w, w->rx_cons);

		if (__atomic_load_n(&s->seq, __ATOMIC_ACQUIRE) != w->rx_cons + 1)
			return NULL;
		if (s->len <= w->max_frame) {
			*len = s->len;
			return s->frame;
		}
		/* a length the peer could not have written: skip the slot */
		w->rx_cons++;
		__atomic_store_n(w->rx_cons_pub, w->rx_cons, __ATOMIC_RELEASE);
	}
}

/* Another frame is waiting when the next slot's sequence number says so:
 * the look shm_rx would make, without its call. */
static int shm_rx_done(void *ctx)
{
	struct shm_wire *w = ctx;
	uint32_t c = ++w->rx_cons;

	__atomic_store_n(w->rx_cons_pub, c, __ATOMIC_RELEASE);
	return __atomic_load_n(&slot(w->rx_slots, w, c)->seq, __ATOMIC_RELAXED) == c + 1;
}

const struct wire_ops shm_wire_ops = {
	.tx_alloc = shm_tx_alloc,
	.tx_send = shm_tx_send,
	.rx = shm_rx,
	.rx_done = shm_rx_done,
};
