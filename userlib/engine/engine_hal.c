/* SPDX-License-Identifier: MIT */
/* userlib/engine/engine_hal.c — hosting the firmware on this machine: the HAL of
 * firmware/hal.h.
 *
 * Bus addresses are the host's virtual addresses (an identity IOMMU); the
 * NIC clock is the host's cycle counter, so the firmware's stamps need no
 * mapping. Register and DMA accesses carry the orderings a PCIe NIC gives:
 * a register read acquires what the host wrote before its doorbell store,
 * and DMA writes land in order (payload before completion). Frames are not
 * the HAL's: the firmware's wire calls reach the backend's carrier (e->wire,
 * the fault layer when one is set) directly (firmware/hal.h, struct wire).
 * With a bus (bus=, engine_bus.c) each DMA and each doorbell first costs its
 * transaction on that bus; without one these calls have nothing to add, and
 * the firmware makes the same accesses itself (firmware/hal.h: regs,
 * dma_direct; engine_start).
 */
#include <stddef.h>

#include "userlib/engine/engine.h"
#include "userlib/engine/engine_bus.h"

static uint64_t now(void *ctx)
{
	(void)ctx;
	return eel_stamp();
}

static uint32_t reg_read32(void *ctx, uint32_t off)
{
	struct engine *e = ctx;

	return __atomic_load_n((uint32_t *)((char *)e->bar + off), __ATOMIC_ACQUIRE);
}

/* A doorbell the NIC sees for the first time reached it over the bus:
 * the NIC waits out the write's flight (engine_bus.c). */
static uint64_t reg_read64(void *ctx, uint32_t off)
{
	struct engine *e = ctx;
	uint64_t v = __atomic_load_n((uint64_t *)((char *)e->bar + off), __ATOMIC_ACQUIRE);

	if (e->bus_on && (off == offsetof(struct eel_fw_bar, sq_doorbell) ||
			  off == offsetof(struct eel_fw_bar, ereg_doorbell)))
		engine_bus_doorbell_seen(e, off == offsetof(struct eel_fw_bar, sq_doorbell) ? ENGINE_BUS_SQ
											 : ENGINE_BUS_EREG, v);
	return v;
}

static void reg_write32(void *ctx, uint32_t off, uint32_t v)
{
	struct engine *e = ctx;

	__atomic_store_n((uint32_t *)((char *)e->bar + off), v, __ATOMIC_RELEASE);
}

static void reg_write64(void *ctx, uint32_t off, uint64_t v)
{
	struct engine *e = ctx;

	__atomic_store_n((uint64_t *)((char *)e->bar + off), v, __ATOMIC_RELEASE);
}

/* A DMA read in flight (firmware/hal.h): its address and length kept by
 * tag, and with a bus its completion on the link's timeline (engine_bus.c).
 * The data is taken when the NIC waits for it: the host does not touch a
 * buffer it has posted until the NIC completes it. Without a bus the read
 * is complete at issue. */
/* One read, waited for (hal.h): issued and waited for at once, without a tag. */
static void dma_read(void *ctx, void *dst, uint64_t bus, uint32_t len)
{
	struct engine *e = ctx;

	if (e->bus_on)
		engine_bus_read_wait(e, engine_bus_read_issue(e, bus, len));
	hal_copy(dst, (const void *)(uintptr_t)bus, len);
}

_Static_assert(FW_HAL_READS <= 64, "engine rd_busy: a bit a tag");

static uint32_t dma_read_issue(void *ctx, uint64_t bus, uint32_t len)
{
	struct engine *e = ctx;
	uint32_t tag = (uint32_t)__builtin_ctzll(~e->rd_busy); /* FW_HAL_READS at most in use */
	struct engine_read *r = &e->rd[tag];

	r->bus = bus;
	r->len = len;
	r->done = e->bus_on ? engine_bus_read_issue(e, bus, len) : 0;
	e->rd_busy |= 1ull << tag;
	return tag;
}

static void dma_read_wait(void *ctx, uint32_t tag, void *dst)
{
	struct engine *e = ctx;
	const struct engine_read *r = &e->rd[tag];

	if (e->bus_on)
		engine_bus_read_wait(e, r->done);
	if (dst)
		hal_copy(dst, (const void *)(uintptr_t)r->bus, r->len);
	e->rd_busy &= ~(1ull << tag);
}

static void dma_write(void *ctx, uint64_t bus, const void *src, uint32_t len)
{
	struct engine *e = ctx;

	if (e->bus_on && !engine_bus_is_trace(e, bus))
		engine_bus_write(e, bus, len);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	hal_copy((void *)(uintptr_t)bus, src, len);
}

static int dma_read_done(void *ctx, uint32_t tag)
{
	struct engine *e = ctx;

	return !e->bus_on || (int64_t)(eel_stamp() - e->rd[tag].done) >= 0;
}

const struct fw_hal_ops engine_hal_ops = {
	.now = now,
	.reg_read32 = reg_read32,
	.reg_read64 = reg_read64,
	.reg_write32 = reg_write32,
	.reg_write64 = reg_write64,
	.dma_read = dma_read,
	.dma_read_issue = dma_read_issue,
	.dma_read_wait = dma_read_wait,
	.dma_read_done = dma_read_done,
	.dma_write = dma_write,
};
