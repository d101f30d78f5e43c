/* userlib/engine/engine_bus.c — the bus model charged in live time: each host
 * interaction the firmware makes through its HAL (and each doorbell the host
 * rings) costs what bus_model.c says, spun on the clock as the stage delays
 * (fetch_ns, ...) are. The firmware does not change.
 *
 * Who waits for what (the sequence of pcie-bench's simple NIC, Neugebauer et
 * al., SIGCOMM 2018, section 4, and Culler et al. 1996's NI on the memory bus):
 * - a non-posted read (descriptor fetch, payload read, a memory-region entry,
 *   an E-register load's answer): the NIC waits for its completions, the
 *   whole eel_bus_read_ns, before it uses the data;
 * - a posted write (payload, completion, status): the NIC waits only while
 *   its TLPs leave (eel_bus_write_issue_ns) and goes on; the data reaches host
 *   memory posted_ns later, in order. Whoever looks for it waits out what is
 *   left of the flight when it sees it: the host's wait for a put, its poll
 *   of the completion queue, its quiet (engine_bus_observe);
 * - the doorbell, the host's posted write (MMIO) to the NIC: the host's store
 *   retires at once, the NIC sees it eel_bus_write_ns later (engine_bus_doorbell,
 *   engine_bus_doorbell_seen). An E-register store carries its operands in
 *   that write (one write-combined TLP of the register's 32 bytes);
 * - the host's MMIO read of an E-register's answer: a read round trip.
 * The NIC's trace stamps are eel's instrumentation, not the NIC's traffic:
 * free (engine_bus_is_trace), as are the NIC's own registers.
 */
#include <stddef.h>

#include "userlib/engine/engine.h"

static uint64_t cycles(const struct engine *e, double ns)
{
	return (uint64_t)(ns * e->bus_cyc_per_ns + 0.5);
}

/* A transaction's cost in cycles by its length, remembered: the model's
 * arithmetic costs tens of ns, which would land on the path beside the
 * transaction it prices (a few lengths recur: 8, 64, the MTU). */
static uint64_t memo(struct engine *e, int kind, uint32_t len)
{
	struct engine_bus_memo *m = e->bus_memo[kind];

	for (int i = 0; i < ENGINE_BUS_MEMO; i++)
		if (m[i].valid && m[i].len == len)
			return m[i].cyc;
	m = &m[e->bus_memo_next[kind]++ % ENGINE_BUS_MEMO];
	m->len = len;
	m->cyc = cycles(e, kind == ENGINE_BUS_READ ? eel_bus_read_ns(&e->bus, len) : eel_bus_write_issue_ns(&e->bus, len));
	m->valid = 1;
	return m->cyc;
}

/* Spin until t. A charge's own bookkeeping (its counter reads, the memo)
 * is part of the charge: the deadline comes that much early (bus_bk_cyc,
 * measured at setup as a charge of nothing costs), as the breakdown takes
 * each stamp's own cost off its stage. A tight loop, as eel_spin_cycles: a
 * pause in it would overshoot by its own ~50 ns. */
static void spin_until(const struct engine *e, uint64_t t)
{
	t -= e->bus_bk_cyc;
	while ((int64_t)(eel_stamp() - t) < 0)
		;
}

/* What a charge of nothing costs: its counter reads and the rest, the least
 * of 64 (the counter's own read of the end is the measurement's). */
static uint64_t bookkeeping(struct engine *e)
{
	uint64_t best = UINT64_MAX;

	e->bus_bk_cyc = 0;
	for (int i = 0; i < 64; i++) {
		uint64_t a = eel_stamp(), b, t0 = eel_stamp();

		spin_until(e, t0 + (memo(e, ENGINE_BUS_READ, 64) & 0));
		b = eel_stamp();
		if (b - a < best)
			best = b - a;
	}
	return best > e->bus_stamp_cyc ? best - e->bus_stamp_cyc : 0;
}

const char *const engine_bus_counter_names[ENGINE_BUS_CNTS] = {
	"bus_reads", "bus_writes", "bus_doorbells", "bus_host_waits", "bus_mmio_reads",
};

void engine_bus_setup(struct engine *e)
{
	e->bus_on = e->bus.kind != EEL_BUS_NONE;
	e->bus_cyc_per_ns = eel_clock()->hz / 1e9;
	e->bus_land = e->bus_db_land = 0;
	e->bus_flight_cyc = cycles(e, e->bus.posted_ns + e->bus.numa_ns);
	e->bus_db_cyc[0] = cycles(e, eel_bus_write_ns(&e->bus, 8));
	e->bus_db_cyc[1] = cycles(e, eel_bus_write_ns(&e->bus, 32));
	e->bus_stamp_cyc = eel_clock()->stamp_cycles;
	if (e->bus_on)
		e->bus_bk_cyc = bookkeeping(e);
}

/* The IOTLB's misses for an access: each a page walk in the root complex. */
static uint64_t iommu_cyc(struct engine *e, uint64_t bus, uint32_t len)
{
	if (!e->bus.iotlb_entries)
		return 0;
	return cycles(e, e->bus.iommu_miss_ns * eel_bus_iotlb_misses(&e->iotlb, &e->bus, bus, len));
}

void engine_bus_read(struct engine *e, uint64_t bus, uint32_t len)
{
	uint64_t t0 = eel_stamp();

	e->bus_cnt[ENGINE_BUS_CNT_READS]++;
	spin_until(e, t0 + memo(e, ENGINE_BUS_READ, len) + iommu_cyc(e, bus, len));
}

void engine_bus_write(struct engine *e, uint64_t bus, uint32_t len)
{
	uint64_t t0 = eel_stamp(), issue = memo(e, ENGINE_BUS_ISSUE, len), sent = t0 + issue, land, prev;

	e->bus_cnt[ENGINE_BUS_CNT_WRITES]++;
	land = sent + e->bus_flight_cyc + iommu_cyc(e, bus, len);
	/* in order: never before an earlier write */
	prev = __atomic_load_n(&e->bus_land, __ATOMIC_RELAXED);
	if ((int64_t)(land - prev) > 0)
		__atomic_store_n(&e->bus_land, land, __ATOMIC_RELEASE);
	/* a TLP shorter than the bookkeeping is paid by it */
	if (issue > e->bus_bk_cyc)
		spin_until(e, sent);
}

void engine_bus_observe(struct engine *e)
{
	e->bus_cnt[ENGINE_BUS_CNT_OBSERVES]++;
	spin_until(e, __atomic_load_n(&e->bus_land, __ATOMIC_ACQUIRE));
}

void engine_bus_doorbell(struct engine *e, int ereg, uint64_t now)
{
	__atomic_store_n(&e->bus_db_land, (now ? now : eel_stamp()) + e->bus_db_cyc[ereg], __ATOMIC_RELEASE);
}

void engine_bus_doorbell_seen(struct engine *e, uint32_t which, uint64_t value)
{
	if (value == e->bus_db_seen[which])
		return;
	e->bus_db_seen[which] = value;
	e->bus_cnt[ENGINE_BUS_CNT_DOORBELLS]++;
	spin_until(e, __atomic_load_n(&e->bus_db_land, __ATOMIC_ACQUIRE));
}

void engine_bus_mmio_read(struct engine *e)
{
	e->bus_cnt[ENGINE_BUS_CNT_MMIO_READS]++;
	uint64_t t0 = eel_stamp();

	spin_until(e, t0 + memo(e, ENGINE_BUS_READ, 8));
}
