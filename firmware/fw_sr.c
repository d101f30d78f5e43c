/* SPDX-License-Identifier: MIT */
/* firmware/fw_sr.c — selective repeat's receive buffer.
 *
 * A receiver in selective repeat (EEL_FW_RECOVERY_SR, as newer RoCE NICs
 * offer beside go-back-N) keeps what arrives beyond a hole, so that the sender
 * resends only the missing PSNs (NAK(MISSING), firmware/pkt.h). What is kept
 * is bounded twice: PSNs within FW_WINDOW after rcv_nxt (a bitmap, one slot
 * each, by psn % FW_WINDOW: the sender never has more in flight), and
 * FW_SR_BYTES of packet payload in a ring. A packet that finds no room is
 * dropped as go-back-N would drop it, and NAKed with the hole it leaves.
 *
 * The ring keeps entries in arrival order, each an 8-byte head (its size,
 * whether it is still live) and the payload rounded up to 8 bytes; an entry
 * that would cross the ring's end leaves a dead filler there and starts at 0.
 * Kept packets are delivered in PSN order, which is not quite arrival order
 * (a resend fills a hole behind later packets), so the ring's tail moves
 * past dead entries only: space comes back once everything before it is
 * delivered.
 *
 * Nothing here is delivered to the host: fw_recv.c takes a kept packet
 * (fw_sr_kept) when its PSN comes up and delivers it as if it had just
 * arrived, with the same checks, then releases it (fw_sr_release).
 */
#include "fw_sr.h"

struct sr_entry {
	uint32_t size;  /* bytes, this head included, a multiple of 8 */
	uint32_t live;
};

#define SR_HEAD ((uint32_t)sizeof(struct sr_entry))
#define SR_MASK (FW_WINDOW - 1)

static struct sr_entry *entry_at(struct fw *fw, uint32_t at)
{
	return (struct sr_entry *)(void *)&fw->sr_ring[at % FW_SR_BYTES];
}

static int have(const struct fw *fw, uint32_t psn)
{
	uint32_t i = psn & SR_MASK;

	return (int)(fw->sr_have[i / 64] >> (i % 64) & 1);
}

static void set_have(struct fw *fw, uint32_t psn, int on)
{
	uint32_t i = psn & SR_MASK;
	uint64_t bit = 1ull << (i % 64);

	fw->sr_have[i / 64] = on ? fw->sr_have[i / 64] | bit : fw->sr_have[i / 64] & ~bit;
}

/* An entry of `size` bytes at the ring's head; returns its offset, or
 * UINT32_MAX when the ring has no room. */
static uint32_t ring_alloc(struct fw *fw, uint32_t size)
{
	uint32_t pos = fw->sr_head % FW_SR_BYTES;
	uint32_t filler = pos + size > FW_SR_BYTES ? FW_SR_BYTES - pos : 0;
	uint32_t at;

	if (fw->sr_head - fw->sr_tail + filler + size > FW_SR_BYTES)
		return UINT32_MAX;
	if (filler) {
		struct sr_entry *f = entry_at(fw, fw->sr_head);

		f->size = filler;
		f->live = 0;
		fw->sr_head += filler;
	}
	at = fw->sr_head;
	entry_at(fw, at)->size = size;
	entry_at(fw, at)->live = 1;
	fw->sr_head += size;
	return at;
}

static void ring_free(struct fw *fw, uint32_t at)
{
	entry_at(fw, at)->live = 0;
	while (fw->sr_tail != fw->sr_head && !entry_at(fw, fw->sr_tail)->live)
		fw->sr_tail += entry_at(fw, fw->sr_tail)->size;
}

/* Keep data packet p (its PSN after rcv_nxt). Returns 1 when kept, 0 when it
 * is kept already (a duplicate), -1 when there is no room for it. */
int fw_sr_keep(struct fw *fw, const struct fw_pkt *p, const uint8_t *payload, uint64_t t_rx)
{
	struct fw_sr_slot *s = &fw->sr_slot[p->psn & SR_MASK];
	uint32_t at;

	if (p->psn - fw->rcv_nxt >= FW_WINDOW)
		return -1;
	if (have(fw, p->psn))
		return 0;
	at = ring_alloc(fw, SR_HEAD + ((p->len + 7u) & ~7u));
	if (at == UINT32_MAX)
		return -1;
	fw_copy(&fw->sr_ring[(at + SR_HEAD) % FW_SR_BYTES], payload, p->len);
	s->hdr = *p;
	s->t_rx = t_rx;
	s->at = at;
	set_have(fw, p->psn, 1);
	return 1;
}

/* The packet kept for psn, or 0. */
struct fw_sr_slot *fw_sr_kept(struct fw *fw, uint32_t psn)
{
	struct fw_sr_slot *s = &fw->sr_slot[psn & SR_MASK];

	return have(fw, psn) && s->hdr.psn == psn ? s : 0;
}

const uint8_t *fw_sr_payload(struct fw *fw, const struct fw_sr_slot *s)
{
	return &fw->sr_ring[(s->at + SR_HEAD) % FW_SR_BYTES];
}

/* Forget the packet kept for psn (delivered, or refused). */
void fw_sr_release(struct fw *fw, uint32_t psn)
{
	struct fw_sr_slot *s = fw_sr_kept(fw, psn);

	if (!s)
		return;
	set_have(fw, psn, 0);
	ring_free(fw, s->at);
}

/* How many PSNs from rcv_nxt on are missing, up to the first one kept (or
 * up to rcv_high when nothing after rcv_nxt is kept). */
uint32_t fw_sr_hole(const struct fw *fw)
{
	uint32_t n = 0;

	while (fw_psn_before(fw->rcv_nxt + n, fw->rcv_high) && !have(fw, fw->rcv_nxt + n))
		n++;
	return n;
}
