/* userlib/softnic_wire.c — the software NIC's shared-memory wire
 * (userlib/softnic_wire.h). */
#include <stdlib.h>
#include <string.h>

#include <eel/cycles.h>

#include "crc32.h"
#include "softnic_wire.h"

#include "firmware/wire.h"

static uint32_t slot_size_for(uint32_t mtu)
{
	return (SN_SLOT_HDR + FW_PKT_HDR + mtu + 4 + 63) & ~63u;
}

size_t sn_wire_size(uint32_t mtu)
{
	return 4096 + 2 * (64 + (size_t)SN_SLOTS * slot_size_for(mtu));
}

void sn_wire_format(struct sn_shm *shm, uint32_t mtu)
{
	size_t ring = 64 + (size_t)SN_SLOTS * slot_size_for(mtu);

	memset(shm, 0, sn_wire_size(mtu));
	shm->version = SN_WIRE_VERSION;
	shm->nslots = SN_SLOTS;
	shm->slot_size = slot_size_for(mtu);
	shm->mtu = mtu;
	shm->ring_off[0] = 4096;
	shm->ring_off[1] = 4096 + ring;
	__atomic_store_n(&shm->magic, SN_WIRE_MAGIC, __ATOMIC_RELEASE);
}

/* A ring: a line holding the consumer's count, then the slots. */
static uint8_t *ring_slots(struct sn_shm *shm, int d)
{
	return (uint8_t *)shm + shm->ring_off[d] + 64;
}

static volatile uint32_t *ring_cons(struct sn_shm *shm, int d)
{
	return (volatile uint32_t *)((uint8_t *)shm + shm->ring_off[d]);
}

int sn_wire_attach(struct sn_wire *w, struct sn_shm *shm, size_t len, int side,
		   const struct sn_faults *f)
{
	memset(w, 0, sizeof(*w));
	if (len < sizeof(*shm) || __atomic_load_n(&shm->magic, __ATOMIC_ACQUIRE) != SN_WIRE_MAGIC ||
	    shm->version != SN_WIRE_VERSION || shm->nslots != SN_SLOTS ||
	    shm->slot_size != slot_size_for(shm->mtu) || len < sn_wire_size(shm->mtu))
		return -1;
	w->shm = shm;
	w->shm_len = len;
	w->side = side;
	w->nslots = shm->nslots;
	w->slot_size = shm->slot_size;
	w->tx_slots = ring_slots(shm, side);
	w->tx_cons = ring_cons(shm, side);
	w->rx_slots = ring_slots(shm, !side);
	w->rx_cons_pub = ring_cons(shm, !side);
	w->f = *f;
	w->rng = f->seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull + (uint64_t)side;
	w->staging = f->drop > 0 || f->dup > 0 || f->reorder > 0 || f->corrupt > 0;
	if (w->staging) {
		w->stage = malloc(w->slot_size);
		w->hold = malloc(w->slot_size);
		if (!w->stage || !w->hold) {
			sn_wire_detach(w);
			return -2;
		}
	}
	return 0;
}

void sn_wire_detach(struct sn_wire *w)
{
	free(w->stage);
	free(w->hold);
	w->stage = w->hold = NULL;
}

static struct sn_slot *slot(uint8_t *slots, uint32_t size, uint32_t n, uint32_t i)
{
	return (struct sn_slot *)(slots + (size_t)(i & (n - 1)) * size);
}

/* Are `need` slots free? The consumer's count is read only when the last
 * one read says no: it lives on a line the consumer writes. */
static int have_slots(struct sn_wire *w, uint32_t need)
{
	if (w->nslots - (w->tx_prod - w->tx_cons_seen) >= need)
		return 1;
	w->tx_cons_seen = __atomic_load_n(w->tx_cons, __ATOMIC_ACQUIRE);
	return w->nslots - (w->tx_prod - w->tx_cons_seen) >= need;
}

/* Publish the slot at tx_prod, filled with len frame bytes. */
static void publish(struct sn_wire *w, struct sn_slot *s, uint32_t len, uint64_t now)
{
	s->len = len;
	s->visible = w->f.delay ? now + w->f.delay : 0;
	__atomic_store_n(&s->seq, w->tx_prod + 1, __ATOMIC_RELEASE);
	w->tx_prod++;
}

/* Faults on: copy a staged frame into the ring, with an FCS when corruption
 * is possible. There is always room: tx_alloc kept three slots free. */
static void put_copy(struct sn_wire *w, const uint8_t *frame, uint32_t len, uint64_t now)
{
	struct sn_slot *s = slot(w->tx_slots, w->slot_size, w->nslots, w->tx_prod);
	uint32_t flags = 0;

	memcpy(s->frame, frame, len);
	if (w->f.corrupt > 0) {
		uint32_t fcs = eel_crc32(frame, len);

		memcpy(s->frame + len, &fcs, 4);
		flags = SN_FCS;
	}
	publish(w, s, len | flags, now);
}

static double rnd(struct sn_wire *w)
{
	/* xorshift64* (Vigna 2016) */
	w->rng ^= w->rng >> 12;
	w->rng ^= w->rng << 25;
	w->rng ^= w->rng >> 27;
	return (double)((w->rng * 0x2545F4914F6CDD1Dull) >> 11) * (1.0 / 9007199254740992.0);
}

static void flush_hold(struct sn_wire *w, uint64_t now)
{
	if (w->hold_len) {
		put_copy(w, w->hold, w->hold_len, now);
		w->hold_len = 0;
	}
}

void *sn_wire_tx_alloc(struct sn_wire *w, uint32_t len)
{
	if (!have_slots(w, w->staging ? 4u : 1u))
		return NULL;
	if (w->staging)
		return w->stage;
	return slot(w->tx_slots, w->slot_size, w->nslots, w->tx_prod)->frame;
}

void sn_wire_tx_send(struct sn_wire *w, void *frame, uint32_t len, uint64_t now)
{
	if (!w->staging) {
		publish(w, slot(w->tx_slots, w->slot_size, w->nslots, w->tx_prod), len, now);
		return;
	}
	if (rnd(w) < w->f.drop) {
		w->cnt[SN_CNT_DROPPED]++;
		flush_hold(w, now);
		return;
	}
	if (rnd(w) < w->f.corrupt) {
		/* Flip one bit after the FCS is computed: put_copy computes it
		 * over the good frame, so corrupt a copy of it here. */
		struct sn_slot *s = slot(w->tx_slots, w->slot_size, w->nslots, w->tx_prod);
		uint32_t fcs = eel_crc32(frame, len);
		uint32_t bit = (uint32_t)(rnd(w) * len * 8);

		memcpy(s->frame, frame, len);
		memcpy(s->frame + len, &fcs, 4);
		s->frame[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		publish(w, s, len | SN_FCS, now);
		w->cnt[SN_CNT_CORRUPTED]++;
		flush_hold(w, now);
		return;
	}
	if (!w->hold_len && rnd(w) < w->f.reorder) {
		memcpy(w->hold, frame, len); /* goes out after the next frame */
		w->hold_len = len;
		w->hold_since = now;
		w->cnt[SN_CNT_REORDERED]++;
		return;
	}
	put_copy(w, frame, len, now);
	if (rnd(w) < w->f.dup) {
		put_copy(w, frame, len, now);
		w->cnt[SN_CNT_DUPLICATED]++;
	}
	flush_hold(w, now);
}

const void *sn_wire_rx(struct sn_wire *w, uint32_t *len)
{
	/* A held (reordered) frame with nothing behind it goes out eventually. */
	if (w->hold_len && eel_stamp() - w->hold_since > 20000)
		flush_hold(w, eel_stamp());
	for (;;) {
		struct sn_slot *s = slot(w->rx_slots, w->slot_size, w->nslots, w->rx_cons);
		uint32_t l;

		if (__atomic_load_n(&s->seq, __ATOMIC_ACQUIRE) != w->rx_cons + 1)
			return NULL;
		if (s->visible && eel_stamp() < s->visible)
			return NULL;
		l = s->len;
		if (l & SN_FCS) {
			uint32_t fcs;

			l &= ~SN_FCS;
			if (l > w->slot_size - SN_SLOT_HDR - 4) {
				w->cnt[SN_CNT_FCS_ERRORS]++;
				sn_wire_rx_done(w);
				continue;
			}
			memcpy(&fcs, s->frame + l, 4);
			if (fcs != eel_crc32(s->frame, l)) {
				w->cnt[SN_CNT_FCS_ERRORS]++;
				sn_wire_rx_done(w);
				continue;
			}
		}
		if (l > w->slot_size - SN_SLOT_HDR) {
			sn_wire_rx_done(w);
			continue;
		}
		*len = l;
		return s->frame;
	}
}

void sn_wire_rx_done(struct sn_wire *w)
{
	w->rx_cons++;
	__atomic_store_n(w->rx_cons_pub, w->rx_cons, __ATOMIC_RELEASE);
}
