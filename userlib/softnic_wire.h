/* userlib/softnic_wire.h — the software NIC's wire: two rings in shared
 * memory, one per direction, joining the NICs of two processes.
 *
 * Each ring is a circle of fixed-size slots. A slot is a 16-byte header and
 * a frame; an 8-byte put (header 16 + packet header 40 + payload 8) fills
 * exactly one cache line, so a small message costs one line moving from the
 * sender's core to the receiver's — the same as the bare ping-pong that
 * `eel-bench -t limit` measures. The producer fills a slot and then stores
 * its sequence number; the consumer polls that number, so nothing else is
 * shared on the fast path.
 *
 * Faults are injected on the sending side (drop, duplicate, reorder, corrupt)
 * and the wire delay holds a frame invisible until its time; corrupted frames
 * carry an FCS (CRC-32) and are dropped by the receiving side, as a MAC drops
 * a frame with a bad FCS. Without corruption no FCS is computed: shared memory
 * cannot corrupt a frame.
 */
#ifndef EEL_USERLIB_SOFTNIC_WIRE_H
#define EEL_USERLIB_SOFTNIC_WIRE_H

#include <stddef.h>
#include <stdint.h>

#define SN_WIRE_MAGIC 0x45524957u   /* "WIRE" */
#define SN_WIRE_VERSION 1u
#define SN_SLOTS 256u
#define SN_SLOT_HDR 16u

struct sn_slot {
	uint32_t seq;       /* producer count + 1, written last */
	uint32_t len;       /* frame bytes; SN_FCS set: a CRC-32 follows the frame */
	uint64_t visible;   /* cycle count before which the receiver must not see it */
	uint8_t frame[];
};
#define SN_FCS (1u << 31)

/* The shared object: this header, then ring 0 (frames side 0 sends), then ring 1. */
struct sn_shm {
	uint32_t magic;
	uint32_t version;
	uint32_t nslots;
	uint32_t slot_size;
	uint32_t mtu;
	int32_t pid[2];
	uint32_t rsvd;
	uint64_t ring_off[2];
};

/* Fault options for frames this side sends. */
struct sn_faults {
	double drop, dup, reorder, corrupt;  /* probabilities */
	uint64_t seed;
	uint64_t delay;                      /* cycles on the wire */
};

enum sn_counter {
	SN_CNT_DROPPED,    /* frames dropped by fault injection */
	SN_CNT_DUPLICATED,
	SN_CNT_REORDERED,
	SN_CNT_CORRUPTED,
	SN_CNT_FCS_ERRORS, /* received frames dropped for a bad FCS */
	SN_COUNTERS
};

struct sn_wire {
	struct sn_shm *shm;
	size_t shm_len;
	int side;
	uint32_t nslots, slot_size;
	/* transmit: our ring */
	uint8_t *tx_slots;
	volatile uint32_t *tx_cons;   /* the peer's consumer count */
	uint32_t tx_prod, tx_cons_seen;
	/* receive: the peer's ring */
	uint8_t *rx_slots;
	volatile uint32_t *rx_cons_pub;
	uint32_t rx_cons;
	/* faults */
	struct sn_faults f;
	int staging;                  /* faults on: frames are built aside first */
	uint64_t rng;
	uint8_t *stage, *hold;
	uint32_t hold_len;
	uint64_t hold_since;
	uint64_t cnt[SN_COUNTERS];
};

/* Bytes of the shared object for frames up to mtu payload bytes. */
size_t sn_wire_size(uint32_t mtu);
/* Lay out a fresh shared object. */
void sn_wire_format(struct sn_shm *shm, uint32_t mtu);
/* Join side 0 or 1 of a formatted object. Returns 0, or -1 if it is not one. */
int sn_wire_attach(struct sn_wire *w, struct sn_shm *shm, size_t len, int side,
		   const struct sn_faults *f);
void sn_wire_detach(struct sn_wire *w);

void *sn_wire_tx_alloc(struct sn_wire *w, uint32_t len);
void sn_wire_tx_send(struct sn_wire *w, void *frame, uint32_t len, uint64_t now);
const void *sn_wire_rx(struct sn_wire *w, uint32_t *len);
void sn_wire_rx_done(struct sn_wire *w);

#endif
