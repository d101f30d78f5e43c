/* userlib/engine/engine_bus.c — the bus model charged in live time: each host
 * interaction the firmware makes through its HAL (and each doorbell the host
 * rings) costs what bus_model.c says, spun on the clock as the stage delays
 * (fetch_ns, ...) are. The firmware does not change.
 *
 * Who waits for what (the sequence of pcie-bench's simple NIC, Neugebauer et
 * al., SIGCOMM 2018, section 4, and Culler et al. 1996's NI on the memory bus):
 * - a non-posted read (descriptor fetch, payload read, a memory-region entry,
 *   an E-register load's answer): the NIC waits for its completions, the
 *   whole bus_read_ns, before it uses the data;
 * - a posted write (payload, completion, status): the NIC waits only while
 *   its TLPs leave (bus_write_issue_ns) and goes on; the data reaches host
 *   memory posted_ns later, in order. Whoever looks for it waits out what is
 *   left of the flight when it sees it: the host's wait for a put, its poll
 *   of the completion queue, its quiet (engine_bus_observe);
 * - the doorbell, the host's posted write (MMIO) to the NIC: the host's store
 *   retires at once, the NIC sees it bus_write_ns later (engine_bus_doorbell,
 *   engine_bus_doorbell_seen). An E-register store carries its operands in
 *   that write (one write-combined TLP of the register's 32 bytes);
 * - the host's MMIO read of an E-register's answer: a read round trip.
 * The NIC's trace stamps are eel's instrumentation, not the NIC's traffic:
 * free, as are the NIC's own registers.
 */
#include <stddef.h>

#include "userlib/engine/engine.h"

static uint64_t cycles(const struct engine *e, double ns)
{
	return (uint64_t)(ns * e->bus_cyc_per_ns + 0.5);
}

static void spin_until(uint64_t t)
{
	while ((int64_t)(eel_stamp() - t) < 0)
		engine_relax();
}

void engine_bus_setup(struct engine *e)
{
	e->bus_on = e->bus.kind != BUS_NONE;
	e->bus_cyc_per_ns = eel_clock()->hz / 1e9;
	e->bus_land = e->bus_db_land = 0;
}

/* The IOTLB's misses for an access: each a page walk in the root complex. */
static double iommu_ns(struct engine *e, uint64_t bus, uint32_t len)
{
	if (!e->bus.iotlb_entries)
		return 0;
	return e->bus.iommu_miss_ns * bus_iotlb_misses(&e->iotlb, &e->bus, bus, len);
}

static int is_trace(const struct engine *e, uint64_t bus)
{
	uint64_t t = (uintptr_t)e->trace;

	return bus >= t && bus < t + 2ull * ENGINE_TRACE_RECS * sizeof(struct eel_trace);
}

void engine_bus_read(struct engine *e, uint64_t bus, uint32_t len)
{
	uint64_t t0 = eel_stamp();

	spin_until(t0 + cycles(e, bus_read_ns(&e->bus, len) + iommu_ns(e, bus, len)));
}

void engine_bus_write(struct engine *e, uint64_t bus, uint32_t len)
{
	uint64_t t0 = eel_stamp(), sent, land, prev;

	if (is_trace(e, bus))
		return;
	sent = t0 + cycles(e, bus_write_issue_ns(&e->bus, len));
	land = sent + cycles(e, e->bus.posted_ns + e->bus.numa_ns + iommu_ns(e, bus, len));
	/* in order: never before an earlier write */
	prev = __atomic_load_n(&e->bus_land, __ATOMIC_RELAXED);
	if ((int64_t)(land - prev) > 0)
		__atomic_store_n(&e->bus_land, land, __ATOMIC_RELEASE);
	spin_until(sent);
}

void engine_bus_observe(struct engine *e)
{
	spin_until(__atomic_load_n(&e->bus_land, __ATOMIC_ACQUIRE));
}

void engine_bus_doorbell(struct engine *e, uint32_t len)
{
	__atomic_store_n(&e->bus_db_land, eel_stamp() + cycles(e, bus_write_ns(&e->bus, len)), __ATOMIC_RELEASE);
}

void engine_bus_doorbell_seen(struct engine *e, uint32_t which, uint64_t value)
{
	if (value == e->bus_db_seen[which])
		return;
	e->bus_db_seen[which] = value;
	spin_until(__atomic_load_n(&e->bus_db_land, __ATOMIC_ACQUIRE));
}

void engine_bus_mmio_read(struct engine *e)
{
	uint64_t t0 = eel_stamp();

	spin_until(t0 + cycles(e, bus_read_ns(&e->bus, 8)));
}
