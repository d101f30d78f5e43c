/* SPDX-License-Identifier: MIT */
/* userlib/engine/engine_bus.h — the bus model charged in live time
 * (engine_bus.c): the names its callers use, the HAL's DMA and the host
 * driver's doorbells, waits and counters. Each charge is a no-op without a
 * bus (bus=, bus_preset.c).
 */
#ifndef EEL_USERLIB_ENGINE_BUS_H
#define EEL_USERLIB_ENGINE_BUS_H

#include <stdint.h>

#include "userlib/engine/engine.h"

/* which doorbell: the send queue's, the E-registers' */
#define ENGINE_BUS_SQ 0
#define ENGINE_BUS_EREG 1
/* which cost a transaction's memo holds: a read's, a posted write's issue */
#define ENGINE_BUS_READ 0
#define ENGINE_BUS_ISSUE 1

/* The counters of charged transactions (eel_counters, with a bus). */
enum { ENGINE_BUS_CNT_READS, ENGINE_BUS_CNT_WRITES, ENGINE_BUS_CNT_DOORBELLS, ENGINE_BUS_CNT_OBSERVES,
       ENGINE_BUS_CNT_MMIO_READS, ENGINE_BUS_CNT_READS_MAX /* the most reads in flight at once */,
       ENGINE_BUS_CNTS };
extern const char *const engine_bus_counter_names[ENGINE_BUS_CNTS];

/* The costs of the chosen bus, in cycles (engine_parse, after bus_from_uri). */
void engine_bus_setup(struct engine *e);
/* The NIC's DMA (engine_hal.c): a read is issued (returns when its data
 * is in, in cycles) and waited for when the NIC uses it; a
 * write waits for its issue. */
uint64_t engine_bus_read_issue(struct engine *e, uint64_t bus, uint32_t len);
void engine_bus_read_wait(struct engine *e, uint64_t done);
void engine_bus_write(struct engine *e, uint64_t bus, uint32_t len);
/* The host looked at what the NIC wrote: it waits out the write's flight. */
void engine_bus_observe(struct engine *e);
/* the host rang a doorbell (now: the counter just read, or 0) */
void engine_bus_doorbell(struct engine *e, int ereg, uint64_t now);
/* the NIC read a doorbell register (engine_hal.c): a new value waits for its write */
void engine_bus_doorbell_seen(struct engine *e, uint32_t which, uint64_t value);
/* the host read an E-register's answer from the NIC: a read round trip */
void engine_bus_mmio_read(struct engine *e);

/* The trace records: eel's instrumentation, no bus traffic. */
static inline int engine_bus_is_trace(const struct engine *e, uint64_t bus)
{
	uint64_t t = (uintptr_t)e->trace;

	return bus >= t && bus < t + 2ull * ENGINE_TRACE_RECS * sizeof(struct eel_trace);
}

#endif
