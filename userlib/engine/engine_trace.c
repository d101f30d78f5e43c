/* SPDX-License-Identifier: MIT */
/* userlib/engine/engine_trace.c — what the host reads of the NIC's records:
 * the stamping period, the trace records (TX and RX, DETECT joined to its
 * message's) and the counters (the firmware's, the fault layer's, the
 * bus's). */
#include "firmware/fw_host.h"
#include "userlib/engine/engine.h"
#include "userlib/engine/engine_bus.h"

static const char *const fw_counter_names[EEL_FW_COUNTERS] = {
	[EEL_FW_CNT_TX_PKTS] = "tx_packets", [EEL_FW_CNT_RX_PKTS] = "rx_packets",
	[EEL_FW_CNT_TX_MSGS] = "tx_messages", [EEL_FW_CNT_RX_MSGS] = "rx_messages",
	[EEL_FW_CNT_RETRANSMITS] = "retransmits", [EEL_FW_CNT_TIMEOUTS] = "timeouts",
	[EEL_FW_CNT_NAKS_TX] = "naks_sent", [EEL_FW_CNT_NAKS_RX] = "naks_received",
	[EEL_FW_CNT_DUPS] = "duplicates_dropped", [EEL_FW_CNT_OOO] = "out_of_order_dropped",
	[EEL_FW_CNT_BAD] = "malformed_dropped", [EEL_FW_CNT_ACCESS_ERRS] = "access_errors",
	[EEL_FW_CNT_ACKS_TX] = "acks_sent", [EEL_FW_CNT_RNR] = "receiver_not_ready",
	[EEL_FW_CNT_OOO_KEPT] = "out_of_order_kept",
};

void engine_set_stamp_every(struct eel_dev *dev, uint32_t every)
{
	struct engine *e = ENGINE(dev);

	e->stamp_every = every;
	e->stamp_pos = 0; /* the next put is stamped (eel.h) */
	/* which stamps each takes (stamp_pick.c): the caps are final by now.
	 * Where eel's firmware is hosted over a real NIC (dpdk, raw) the wire
	 * reads its doorbell stamps on every traced frame, matched to the
	 * records by POST, which every choice takes: their cost in place comes
	 * out near 0 (taken with and without), and lands in the perturbation */
	e->stamps.mask = dev->caps.stamp_mask;
	e->stamps.shared = !!(dev->caps.flags & EEL_CAP_SHARED_CLOCK);
}

int engine_trace_drain(struct eel_dev *dev, enum eel_trace_dir dir, struct eel_trace *out, int max)
{
	struct engine *e = ENGINE(dev);
	int n = 0;

	if (dir == EEL_TRACE_TX) {
		if (e->tx_trace_next - e->tx_drain > ENGINE_TRACE_RECS)
			e->tx_drain = e->tx_trace_next - ENGINE_TRACE_RECS; /* older ones were reused */
		while (n < max && e->tx_drain != e->tx_trace_next) {
			struct eel_trace *r = &e->trace[e->tx_drain & (ENGINE_TRACE_RECS - 1)];

			if (!__atomic_load_n(&r->valid, __ATOMIC_ACQUIRE))
				break;
			out[n++] = *r;
			e->tx_drain++;
		}
		return n;
	}
	if (e->mode == ENGINE_INLINE)
		fw_trace_rx_flush(&e->fw); /* the last message's, if the NIC has not yet */
	while (n < max) {
		uint32_t slot = e->rx_drain & (ENGINE_TRACE_RECS - 1);
		struct eel_trace *r = &e->trace[ENGINE_TRACE_RECS + slot];
		const struct engine_detect *d = &e->detect[slot];

		if (!__atomic_load_n(&r->valid, __ATOMIC_ACQUIRE))
			break;
		out[n] = *r;
		out[n++].t[EEL_ST_DETECT] = d->msg_id == r->msg_id ? d->t : 0;
		__atomic_store_n(&r->valid, 0, __ATOMIC_RELEASE);
		e->rx_drain++;
	}
	return n;
}

int engine_counters(struct eel_dev *dev, struct eel_counter *out, int max)
{
	struct engine *e = ENGINE(dev);
	int n = 0;

	for (int i = 0; i < EEL_FW_COUNTERS && n < max; i++, n++) {
		out[n].name = fw_counter_names[i];
		out[n].value = __atomic_load_n(&e->bar->counters[i], __ATOMIC_ACQUIRE);
	}
	for (int i = 0; e->faulty && i < WF_COUNTERS && n < max; i++, n++) {
		out[n].name = wf_counter_names[i];
		out[n].value = e->faults.cnt[i];
	}
	for (int i = 0; e->bus_on && i < ENGINE_BUS_CNTS && n < max; i++, n++) {
		out[n].name = engine_bus_counter_names[i];
		out[n].value = e->bus_cnt[i];
	}
	return n;
}
