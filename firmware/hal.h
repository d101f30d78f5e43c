/* SPDX-License-Identifier: MIT */
/* firmware/hal.h — everything the firmware may ask of the machine it runs on.
 *
 * The firmware is freestanding: it reaches its host only through these calls
 * (firmware/README.md; ARCHITECTURE.md, "Each folder: its job, what it may
 * include"). A host that runs the firmware — the software NIC's inline and
 * thread modes, the DPDK and raw backends, an embedded core — fills in a
 * struct fw_hal_ops. What each call stands for on a real NIC:
 *
 *   now          the NIC's free-running clock, in ticks
 *   reg_*        the NIC's own registers (BAR0, struct eel_fw_bar)
 *   dma_read     a DMA read of host memory, waited for: dma_read_issue and
 *                dma_read_wait back to back, in one call (the common case:
 *                one descriptor, one packet's payload)
 *   dma_read_issue  a DMA read of host memory (descriptor fetch, payload
 *                fetch) sent: it returns the read's tag at once, and the
 *                read is in flight while the firmware goes on; as many as
 *                the host's bus keeps in flight (struct eel_bus, tags)
 *   dma_read_wait   waits until that read's completions are all in and
 *                takes its data (the DMA engine's completion buffer) into
 *                dst, or drops it (dst 0). Every read issued is waited
 *                for once, at most FW_HAL_READS issued and not waited for
 *                at a time (a tag is one of them: 0..FW_HAL_READS-1, free
 *                again at the wait). A host with no bus may complete a read
 *                at issue.
 *   dma_read_done   whether that read's completions are all in (it never
 *                waits): the firmware may take other work first
 *   dma_write    a DMA write to host memory, ordered after every earlier one
 *                (PCIe posted writes are ordered: CQE after payload)
 *   wire_tx_*    the transmit MAC: reserve a frame buffer, then send it
 *   wire_rx*     the receive MAC: the next good frame (bad FCS already
 *                dropped), valid until wire_rx_done, which says whether
 *                another may be waiting (a descriptor ring's next DD bit);
 *                a look again before then gives the same frame (the timer
 *                looks: fw_send.c)
 *
 * The wire calls go straight to the carrier the host gives (struct wire:
 * the software NIC's shared-memory rings, a DPDK port, an e1000, or the
 * fault layer over one of them), with the carrier's own context.
 *
 * A host with nothing to do at a register access or a DMA (no bus to charge)
 * may say so (struct fw_hal's regs, dma_direct): the firmware then loads and
 * stores its registers itself, as an embedded core does its own memory-mapped
 * ones, and copies a DMA itself, bus addresses being its own addresses (an
 * identity IOMMU), with the same orderings. An indirect call and its return
 * were ~10 instructions an access, ~100 an 8-byte put's two sides spent on
 * them (firmware/README.md, "Instruction budget").
 */
#ifndef EEL_FW_HAL_H
#define EEL_FW_HAL_H

#include <stdint.h>

/* Reads issued and not yet waited for, at most: the host keeps each one's
 * address, length and completion under its tag until the wait. */
#define FW_HAL_READS 64u

struct fw_hal_ops {
	uint64_t (*now)(void *ctx);
	uint32_t (*reg_read32)(void *ctx, uint32_t off);
	uint64_t (*reg_read64)(void *ctx, uint32_t off);
	void (*reg_write32)(void *ctx, uint32_t off, uint32_t v);
	void (*reg_write64)(void *ctx, uint32_t off, uint64_t v);
	void (*dma_read)(void *ctx, void *dst, uint64_t bus_addr, uint32_t len);
	uint32_t (*dma_read_issue)(void *ctx, uint64_t bus_addr, uint32_t len);
	void (*dma_read_wait)(void *ctx, uint32_t tag, void *dst);
	int (*dma_read_done)(void *ctx, uint32_t tag);
	void (*dma_write)(void *ctx, uint64_t bus_addr, const void *src, uint32_t len);
};

/* What carries the firmware's frames to the peer's NIC. Frames are the
 * firmware's packets; a carrier adds and strips its own framing. */
struct wire_ops {
	/* A buffer for one frame of up to len bytes, or 0 when the wire is full. */
	void *(*tx_alloc)(void *ctx, uint32_t len);
	/* Send the frame last allocated, trimmed to len bytes. */
	void (*tx_send)(void *ctx, void *frame, uint32_t len);
	/* The next received frame and its length, or 0 when none is waiting. */
	const void *(*rx)(void *ctx, uint32_t *len);
	/* Done with the frame rx returned. Non-zero when another may be
	 * waiting; 0 when the carrier knows none is, and the firmware does not
	 * look again in this pass (a look at an empty ring was ~20
	 * instructions of an 8-byte put's receive path). */
	int (*rx_done)(void *ctx);
};

struct wire {
	const struct wire_ops *ops;
	void *ctx;
	int full; /* the firmware's last hal_wire_tx_alloc found no room */
};

struct fw_hal {
	const struct fw_hal_ops *ops;
	void *ctx;
	struct wire *wire; /* the host's; it may join its carrier later (link up) */
	void *regs;        /* the registers as plain memory, or 0: each access through ops */
	int dma_direct;    /* a DMA is a copy between the firmware's own addresses, else through ops */
};

/* The copy of a DMA on its own addresses. The sizes of an 8-byte put's path
 * (its payload, the status words; a 64-byte descriptor) are copied inline, a
 * move or four; others go to memcpy, whose call costs more than such a copy. */
static inline void hal_copy(void *dst, const void *src, uint32_t len)
{
	if (len == 8)
		__builtin_memcpy(dst, src, 8);
	else if (len == 64)
		__builtin_memcpy(dst, src, 64);
	else
		__builtin_memcpy(dst, src, len);
}

/* The accesses of a host whose registers are plain memory and whose DMA is
 * a copy (struct fw_hal's regs, dma_direct), for a path that tested that
 * once (the receive fast path, fw_recv.c) and those below. */
static inline uint32_t hal_regs_read32(void *regs, uint32_t off)
{
	return __atomic_load_n((uint32_t *)((char *)regs + off), __ATOMIC_ACQUIRE);
}

static inline uint64_t hal_regs_read64(void *regs, uint32_t off)
{
	return __atomic_load_n((uint64_t *)((char *)regs + off), __ATOMIC_ACQUIRE);
}

static inline void hal_regs_write64(void *regs, uint32_t off, uint64_t v)
{
	__atomic_store_n((uint64_t *)((char *)regs + off), v, __ATOMIC_RELEASE);
}

static inline void hal_dma_direct_write(uint64_t bus, const void *src, uint32_t len)
{
	__atomic_thread_fence(__ATOMIC_RELEASE);
	hal_copy((void *)(uintptr_t)bus, src, len);
}

static inline uint64_t hal_now(const struct fw_hal *h)
{
	return h->ops->now(h->ctx);
}

/* A register read acquires what the host stored before it (its doorbell);
 * a write releases what the firmware wrote before it. */
static inline uint32_t hal_reg_read32(const struct fw_hal *h, uint32_t off)
{
	if (h->regs)
		return hal_regs_read32(h->regs, off);
	return h->ops->reg_read32(h->ctx, off);
}

static inline uint64_t hal_reg_read64(const struct fw_hal *h, uint32_t off)
{
	if (h->regs)
		return hal_regs_read64(h->regs, off);
	return h->ops->reg_read64(h->ctx, off);
}

static inline void hal_reg_write32(const struct fw_hal *h, uint32_t off, uint32_t v)
{
	if (h->regs)
		__atomic_store_n((uint32_t *)((char *)h->regs + off), v, __ATOMIC_RELEASE);
	else
		h->ops->reg_write32(h->ctx, off, v);
}

static inline __attribute__((always_inline)) void hal_reg_write64(const struct fw_hal *h, uint32_t off, uint64_t v)
{
	if (h->regs)
		hal_regs_write64(h->regs, off, v);
	else
		h->ops->reg_write64(h->ctx, off, v);
}

static inline uint32_t hal_dma_read_issue(const struct fw_hal *h, uint64_t bus, uint32_t len)
{
	return h->ops->dma_read_issue(h->ctx, bus, len);
}

static inline void hal_dma_read_wait(const struct fw_hal *h, uint32_t tag, void *dst)
{
	h->ops->dma_read_wait(h->ctx, tag, dst);
}

static inline int hal_dma_read_done(const struct fw_hal *h, uint32_t tag)
{
	return h->ops->dma_read_done(h->ctx, tag);
}

static inline void hal_dma_read(const struct fw_hal *h, void *dst, uint64_t bus, uint32_t len)
{
	if (h->dma_direct)
		hal_copy(dst, (const void *)(uintptr_t)bus, len);
	else
		h->ops->dma_read(h->ctx, dst, bus, len);
}

/* In order after every earlier write (a release fence: PCIe's posted writes). */
static inline __attribute__((always_inline)) void hal_dma_write(const struct fw_hal *h, uint64_t bus, const void *src, uint32_t len)
{
	if (h->dma_direct)
		hal_dma_direct_write(bus, src, len);
	else
		h->ops->dma_write(h->ctx, bus, src, len);
}

static inline void *hal_wire_tx_alloc(const struct fw_hal *h, uint32_t len)
{
	void *frame = h->wire->ops->tx_alloc(h->wire->ctx, len);

	h->wire->full = !frame;
	return frame;
}

static inline void hal_wire_tx_send(const struct fw_hal *h, void *frame, uint32_t len)
{
	h->wire->ops->tx_send(h->wire->ctx, frame, len);
}

static inline const void *hal_wire_rx(const struct fw_hal *h, uint32_t *len)
{
	return h->wire->ops->rx(h->wire->ctx, len);
}

static inline int hal_wire_rx_done(const struct fw_hal *h)
{
	return h->wire->ops->rx_done(h->wire->ctx);
}

#endif
