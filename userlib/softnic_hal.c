/* userlib/softnic_hal.c — hosting the firmware on this machine: the HAL of
 * firmware/hal.h for the software NIC, and its thread mode.
 *
 * Bus addresses are the host's virtual addresses (an identity IOMMU); the
 * NIC clock is the host's cycle counter, so the firmware's stamps need no
 * mapping. Register and DMA accesses carry the orderings a PCIe NIC gives:
 * a register read acquires what the host wrote before its doorbell store,
 * and DMA writes land in order (payload before completion).
 */
#include <errno.h>
#include <sched.h>
#include <string.h>

#include "dev.h"
#include "softnic.h"

static uint64_t hal_now_tsc(void *ctx)
{
	(void)ctx;
	return eel_stamp();
}

static uint32_t reg_read32(void *ctx, uint32_t off)
{
	struct softnic *sn = ctx;

	return __atomic_load_n((uint32_t *)((char *)sn->bar + off), __ATOMIC_ACQUIRE);
}

static uint64_t reg_read64(void *ctx, uint32_t off)
{
	struct softnic *sn = ctx;

	return __atomic_load_n((uint64_t *)((char *)sn->bar + off), __ATOMIC_ACQUIRE);
}

static void reg_write32(void *ctx, uint32_t off, uint32_t v)
{
	struct softnic *sn = ctx;

	__atomic_store_n((uint32_t *)((char *)sn->bar + off), v, __ATOMIC_RELEASE);
}

static void reg_write64(void *ctx, uint32_t off, uint64_t v)
{
	struct softnic *sn = ctx;

	__atomic_store_n((uint64_t *)((char *)sn->bar + off), v, __ATOMIC_RELEASE);
}

static void dma_read(void *ctx, void *dst, uint64_t bus, uint32_t len)
{
	(void)ctx;
	memcpy(dst, (const void *)(uintptr_t)bus, len);
}

static void dma_write(void *ctx, uint64_t bus, const void *src, uint32_t len)
{
	(void)ctx;
	__atomic_thread_fence(__ATOMIC_RELEASE);
	memcpy((void *)(uintptr_t)bus, src, len);
}

static void *wire_tx_alloc(void *ctx, uint32_t len)
{
	struct softnic *sn = ctx;

	return sn_wire_tx_alloc(&sn->wire, len);
}

static void wire_tx_send(void *ctx, void *frame, uint32_t len)
{
	struct softnic *sn = ctx;

	sn_wire_tx_send(&sn->wire, frame, len, eel_stamp());
}

static const void *wire_rx(void *ctx, uint32_t *len)
{
	struct softnic *sn = ctx;

	return sn_wire_rx(&sn->wire, len);
}

static void wire_rx_done(void *ctx)
{
	struct softnic *sn = ctx;

	sn_wire_rx_done(&sn->wire);
}

const struct fw_hal_ops sn_hal_ops = {
	.now = hal_now_tsc,
	.reg_read32 = reg_read32,
	.reg_read64 = reg_read64,
	.reg_write32 = reg_write32,
	.reg_write64 = reg_write64,
	.dma_read = dma_read,
	.dma_write = dma_write,
	.wire_tx_alloc = wire_tx_alloc,
	.wire_tx_send = wire_tx_send,
	.wire_rx = wire_rx,
	.wire_rx_done = wire_rx_done,
};

/* Thread mode: the NIC's embedded core, running the firmware's main loop. */
static void *fw_thread(void *arg)
{
	struct softnic *sn = arg;

	if (sn->fw_cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(sn->fw_cpu, &set);
		sched_setaffinity(0, sizeof(set), &set);
	}
	while (!__atomic_load_n(&sn->stop, __ATOMIC_ACQUIRE))
		if (!fw_step(&sn->fw)) {
			if (sn->oversubscribe)
				sched_yield();
			else
				sn_relax();
		}
	return NULL;
}

int sn_thread_start(struct softnic *sn)
{
	int rc;

	sn->stop = 0;
	rc = pthread_create(&sn->thread, NULL, fw_thread, sn);
	if (rc)
		return eel_err(-rc, "softnic:thread: cannot start the firmware thread: %s", strerror(rc));
	sn->thread_running = 1;
	return 0;
}

void sn_thread_stop(struct softnic *sn)
{
	if (!sn->thread_running)
		return;
	__atomic_store_n(&sn->stop, 1, __ATOMIC_RELEASE);
	pthread_join(sn->thread, NULL);
	sn->thread_running = 0;
}
