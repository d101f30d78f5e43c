/* SPDX-License-Identifier: MIT */
/* userlib/engine/engine_bus.c — the bus model charged in live time: each host
 * interaction the firmware makes through its HAL (and each doorbell the host
 * rings) costs what bus_model.c says, spun on the clock as the stage delays
 * (fetch_ns, ...) are. The firmware does not change.
 *
 * Who waits for what (the sequence of pcie-bench's simple NIC, Neugebauer et
 * al., SIGCOMM 2018, section 4, and Culler et al. 1996's NI on the memory bus):
 * - a non-posted read (descriptor fetch, payload read, a memory-region entry,
 *   an E-register load's answer) is issued (engine_bus_read_issue) and flies
 *   while the NIC goes on: each of its requests goes up when the link and a
 *   tag are free, its completions come down eel_bus_read_ns after the first
 *   request (a read alone) or when the downstream link and the DMA engine
 *   are free (eel_bus_link_read, bus_model.c, "The link": the model whose
 *   streams eel-bench -t busmodel checks); the NIC waits for them
 *   when it uses the data (engine_bus_read_wait), and only then;
 * - a posted write (payload, completion, status): its TLPs go on the
 *   upstream link after what is ahead of them (eel_bus_write_issue_ns each)
 *   and the DMA engine's issue time after the write before (dma_wr_ns);
 *   the NIC goes on at once while they are within the posted credits
 *   (EEL_BUS_POSTED_CREDIT), else waits until they are; the data reaches host
 *   memory the DMA engine's time and posted_ns later (eel_bus_dma_write_ns),
 *   in order. Whoever looks for it (the host's wait
 *   for a put, its poll of the completion queue, its quiet:
 *   engine_bus_observe) sees it the flight later than it would without a bus;
 * - the doorbell, the host's posted write (MMIO) to the NIC: the host's store
 *   retires at once, the NIC sees it eel_bus_write_ns later than it would
 *   without a bus (engine_bus_doorbell, engine_bus_doorbell_seen). An
 *   E-register store carries its operands in that write (one write-combined
 *   TLP of the register's 32 bytes);
 * - the host's MMIO read of an E-register's answer: a read round trip.
 * The NIC's trace stamps are eel's instrumentation, not the NIC's traffic:
 * free (engine_bus_is_trace), as are the NIC's own registers.
 *
 * A bus adds its transactions to the time the software NIC takes without one,
 * and nothing else (docs/bus.md: EEL(bus) - EEL(none) is the sum of the path's
 * transactions). Two things this host's own code does changed that sum
 * (the ping-pong's 8-byte put in this VM; docs/bus.md, "Validation"):
 * - noticing takes time without a bus too: the NIC reads its doorbell some
 *   10 ns after the host's store (the rest of the host's put, the firmware's
 *   loop; 25 with the put stamped), the host looks at a write some 20 ns
 *   after the NIC issued it (the rest of the firmware's pass). A flight
 *   counted from the store or the issue hid that time under itself: the
 *   bus added 20-30 ns less than its flights (-7% of membus's path). A look
 *   before the write has landed was made by a side waiting for it: it pays
 *   the whole flight from the look (noticed()); a look after it landed (the
 *   looker was busy: thread mode, a host that polls later) pays nothing;
 * - a posted write the NIC does not wait for (within the posted credits:
 *   every write of an 8-byte put) cost its own bookkeeping, a counter read
 *   and a few stores (~9 ns): what it costs beyond its wait is given back
 *   by the next spin on its thread (bus_credit: the ACK's, the payload's and
 *   last_rx's status writes, some 3 x 9 ns a put).
 * Each charge's own bookkeeping is taken off its spin (bus_bk_cyc).
 * The link's timeline is the NIC's alone (its HAL's calls: one thread), in
 * cycles; a charge is spun only where the NIC waits (a read's data, a
 * write's TLPs leaving), so a charge's deadline depends on the cycles of
 * the issue, never on how long the spin that pays it was held off.
 */
#include <stddef.h>

#include "userlib/engine/engine.h"
#include "userlib/engine/engine_bus.h"

/* bus_credit's index: the host's thread, the NIC's; one thread inline */
#define HOST 0
#define NIC 1

static uint64_t cycles(const struct engine *e, double ns)
{
	return (uint64_t)(ns * e->bus_cyc_per_ns + 0.5);
}

/* A transaction's cost in cycles by its length, remembered: the model's
 * arithmetic costs tens of ns, which would land on the path beside the
 * transaction it prices (a few lengths recur: 8, 64, the MTU). Only the
 * NIC's calls use it (one thread). */
static struct engine_bus_memo *memo(struct engine *e, int kind, uint32_t len)
{
	struct engine_bus_memo *m = e->bus_memo[kind];

	for (int i = 0; i < ENGINE_BUS_MEMO; i++)
		if (m[i].valid && m[i].len == len)
			return &m[i];
	m = &m[e->bus_memo_next[kind]++ % ENGINE_BUS_MEMO];
	m->len = len;
	if (kind == ENGINE_BUS_READ) {
		eel_bus_read_cost(&e->bus, len, e->bus_cyc_per_ns, &m->rd);
		m->cyc = m->rd.first + m->rd.cpl;
	} else {
		eel_bus_write_cost(&e->bus, len, e->bus_cyc_per_ns, &m->wr);
		m->cyc = m->wr.issue;
	}
	m->valid = 1;
	return m;
}

static uint64_t *credit(struct engine *e, int side)
{
	return &e->bus_credit[e->mode == ENGINE_THREAD && side == NIC];
}

/* Spin until t. A charge's own bookkeeping (its counter reads, the memo)
 * is part of the charge: the deadline comes that much early (bus_bk_cyc,
 * measured at setup as a charge of nothing costs), as the breakdown takes
 * each stamp's own cost off its stage; and what this thread paid beyond the
 * model before (bus_credit) comes off it too, as far as the spin has room.
 * A tight loop, as eel_spin_cycles: a pause in it would overshoot by its own
 * ~50 ns. */
static void spin_until(struct engine *e, int side, uint64_t t)
{
	uint64_t *cr = credit(e, side), now = eel_stamp(), give;
	int64_t room = (int64_t)(t - e->bus_bk_cyc - now);

	if (room <= 0)
		return;
	give = *cr < (uint64_t)room ? *cr : (uint64_t)room;
	*cr -= give;
	t -= e->bus_bk_cyc + give;
	while ((int64_t)(eel_stamp() - t) < 0)
		;
}

/* What one call of f costs: the least of 8 batches of 64 calls, timed
 * whole, less one counter read (the read of the end is the measurement's),
 * over 64. A batch, not the least single call: the counter moves in steps
 * (26 cycles in this VM) and costs about one to read, so a single call of
 * ~40 cycles read as 0, 26 or 52, and the least of them, less the read,
 * as 1 or 27: an 8-byte write's bookkeeping measured at 1 cycle was not
 * given back, and each such write added its ~10 ns to the bus's path. */
static uint64_t least_cost(struct engine *e, void (*f)(struct engine *))
{
	uint64_t best = UINT64_MAX;

	for (int k = 0; k < 8; k++) {
		uint64_t a = eel_stamp(), b;

		for (int i = 0; i < 64; i++)
			f(e);
		b = eel_stamp();
		if (b - a < best)
			best = b - a;
	}
	return best > e->bus_stamp_cyc ? (best - e->bus_stamp_cyc + 32) / 64 : 0;
}

/* A charge of nothing: its counter reads, the memo, the spin's test. */
static void charge_nothing(struct engine *e)
{
	uint64_t t0 = eel_stamp();

	spin_until(e, HOST, t0 + (memo(e, ENGINE_BUS_READ, 64)->cyc & 0));
}

static void write_8(struct engine *e)
{
	engine_bus_write(e, 0, 8);
}

const char *const engine_bus_counter_names[ENGINE_BUS_CNTS] = {
	"bus_reads", "bus_writes", "bus_doorbells", "bus_host_waits", "bus_mmio_reads", "bus_reads_in_flight_max",
};

void engine_bus_setup(struct engine *e)
{
	e->bus_on = e->bus.kind != EEL_BUS_NONE;
	e->bus_cyc_per_ns = eel_clock()->hz / 1e9;
	e->bus_flight_cyc = cycles(e, e->bus.posted_ns + e->bus.numa_ns);
	e->bus_db_cyc[0] = cycles(e, eel_bus_write_ns(&e->bus, 8));
	e->bus_db_cyc[1] = cycles(e, eel_bus_write_ns(&e->bus, 32));
	e->bus_stamp_cyc = eel_clock()->stamp_cycles;
	e->bus_bk_cyc = e->bus_write_cyc = 0;
	/* twice: here, for least_cost's 8-byte writes below (they go through
	 * the link), and again after them, so that the run starts on an empty link */
	eel_bus_link_init(&e->bus_link, &e->bus);
	if (e->bus_on) {
		e->bus_bk_cyc = least_cost(e, charge_nothing);
		/* an 8-byte write's own cost, its issue spun out in full */
		e->bus_write_cyc = UINT64_MAX;
		e->bus_write_cyc = least_cost(e, write_8);
	}
	e->bus_mmio_cyc = cycles(e, eel_bus_read_ns(&e->bus, 8));
	e->bus_posted_cyc = cycles(e, eel_bus_write_issue_ns(&e->bus, EEL_BUS_POSTED_CREDIT));
	eel_bus_link_init(&e->bus_link, &e->bus); /* after least_cost's writes */
	e->rd_busy = 0;
	e->bus_cnt[ENGINE_BUS_CNT_READS_MAX] = 0;
	e->bus_land = e->bus_land_at = 0;
	e->bus_db_at[0] = e->bus_db_at[1] = 0;
	e->bus_credit[0] = e->bus_credit[1] = 0;
	e->bus_cnt[ENGINE_BUS_CNT_WRITES] = 0;
	e->iotlb = (struct eel_bus_iotlb){ 0 };
}

/* The IOTLB's misses for an access: each a page walk in the root complex. */
static uint64_t iommu_cyc(struct engine *e, uint64_t bus, uint32_t len)
{
	if (!e->bus.iotlb_entries)
		return 0;
	return cycles(e, e->bus.iommu_miss_ns * eel_bus_iotlb_misses(&e->iotlb, &e->bus, bus, len));
}

/* A read issued: onto the link's timeline, nothing spun. The reads in
 * flight when it starts: those issued (tags in use) not complete by then. */
uint64_t engine_bus_read_issue(struct engine *e, uint64_t bus, uint32_t len)
{
	uint64_t t0 = eel_stamp(), start, done, busy = e->rd_busy, n = 1;

	e->bus_cnt[ENGINE_BUS_CNT_READS]++;
	done = eel_bus_link_read(&e->bus_link, &memo(e, ENGINE_BUS_READ, len)->rd, t0, iommu_cyc(e, bus, len), &start);
	for (; busy; busy &= busy - 1)
		n += (int64_t)(e->rd[__builtin_ctzll(busy)].done - start) > 0;
	if (n > e->bus_cnt[ENGINE_BUS_CNT_READS_MAX])
		e->bus_cnt[ENGINE_BUS_CNT_READS_MAX] = n;
	return done;
}

/* The NIC waits for a read's data: until its last completion is in. */
void engine_bus_read_wait(struct engine *e, uint64_t done)
{
	spin_until(e, NIC, done);
}

/* At most this much credit is carried (a thread preempted in a charge is
 * not paid back). */
#define CREDIT_MAX_NS 1000.0

void engine_bus_write(struct engine *e, uint64_t bus, uint32_t len)
{
	uint64_t t0 = eel_stamp(), sent, go, wait, land, prev;
	const struct eel_bus_write_cost *c = &memo(e, ENGINE_BUS_ISSUE, len)->wr;

	/* its TLPs leave after what is ahead of them on the upstream link; the
	 * NIC goes on once what is left of them is within the posted credits */
	sent = eel_bus_link_write(&e->bus_link, c, t0);
	go = sent - e->bus_posted_cyc;
	wait = (int64_t)(go - t0) > 0 ? go - t0 : 0;
	e->bus_cnt[ENGINE_BUS_CNT_WRITES]++;
	/* it lands the DMA engine's time, its TLPs and the flight after its
	 * issue (eel_bus_dma_write_ns: the link's queue starts its TLPs at the
	 * engine's start, the same pipeline shifted by the engine's stage) */
	land = sent + c->engine + e->bus_flight_cyc + iommu_cyc(e, bus, len);
	/* in order: never before an earlier write */
	prev = __atomic_load_n(&e->bus_land, __ATOMIC_RELAXED);
	if ((int64_t)(land - prev) > 0) {
		__atomic_store_n(&e->bus_land_at, t0, __ATOMIC_RELAXED);
		__atomic_store_n(&e->bus_land, land, __ATOMIC_RELEASE);
	}
	if (wait > e->bus_write_cyc) {
		spin_until(e, NIC, go);
	} else {
		/* shorter than its own cost: the rest is given back later */
		uint64_t *cr = credit(e, NIC), max = cycles(e, CREDIT_MAX_NS), add = e->bus_write_cyc - wait;

		*cr = add > max - *cr ? max : *cr + add;
	}
}

/* Whoever looks for a posted write before it has landed was waiting for it:
 * without a bus it would have seen it now, with one it sees it the rest of
 * the flight (from the issue) later. A look after it landed waits for
 * nothing: the flight passed while the looker was busy. */
static uint64_t noticed(uint64_t now, uint64_t at, uint64_t land)
{
	return (int64_t)(land - now) > 0 && (int64_t)(land - at) > 0 ? now + (land - at) : now;
}

void engine_bus_observe(struct engine *e)
{
	uint64_t now = eel_stamp(), land = __atomic_load_n(&e->bus_land, __ATOMIC_ACQUIRE);

	e->bus_cnt[ENGINE_BUS_CNT_OBSERVES]++;
	spin_until(e, HOST, noticed(now, __atomic_load_n(&e->bus_land_at, __ATOMIC_RELAXED), land));
}

void engine_bus_doorbell(struct engine *e, int ereg, uint64_t now)
{
	__atomic_store_n(&e->bus_db_at[ereg], now ? now : eel_stamp(), __ATOMIC_RELEASE);
}

void engine_bus_doorbell_seen(struct engine *e, uint32_t which, uint64_t value)
{
	uint64_t now, at;

	if (value == e->bus_db_seen[which])
		return;
	now = eel_stamp();
	e->bus_db_seen[which] = value;
	e->bus_cnt[ENGINE_BUS_CNT_DOORBELLS]++;
	at = __atomic_load_n(&e->bus_db_at[which], __ATOMIC_ACQUIRE);
	spin_until(e, NIC, noticed(now, at, at + e->bus_db_cyc[which]));
}

void engine_bus_mmio_read(struct engine *e)
{
	uint64_t t0 = eel_stamp();

	e->bus_cnt[ENGINE_BUS_CNT_MMIO_READS]++;
	spin_until(e, HOST, t0 + e->bus_mmio_cyc);
}
