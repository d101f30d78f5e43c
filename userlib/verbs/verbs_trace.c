/* SPDX-License-Identifier: MIT */
/* userlib/verbs/verbs_trace.c — what the verbs backend can stamp of a message, and
 * its counters.
 *
 * Sender (TX records, one put in stamp_every): POST when eel_put is entered,
 * DOORBELL and DOORBELL_DONE around ibv_post_send, COMPLETE when its
 * completion is reaped (a stamped put is always signalled). The NIC's own
 * stages (fetch, transmit) are not visible through verbs.
 * Receiver (RX records, one detection in stamp_every): DETECT when
 * eel_wait_u64 saw the data or eel_poll reaped a notification, and — where
 * the device stamps completions — DMA_DONE of a notification from the NIC's
 * clock. A plain RDMA WRITE does not tell the receiver which message it was:
 * an RX record's msg_id counts this end's detections, not the sender's
 * messages, so the two ends' records cannot be joined (nor need they be:
 * two hosts have no shared clock, EEL_CAP_SHARED_CLOCK is never set).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "userlib/verbs/verbs.h"

#define SYSFS_IB "/sys/class/infiniband"

struct eel_trace *vb_trace_tx(struct verbs *v, uint32_t *slot)
{
	struct eel_trace *r;

	*slot = v->tx_next++ & (VB_TRACE_RECS - 1);
	r = &v->tx[*slot];
	memset(r, 0, sizeof(*r));
	return r;
}

void vb_trace_rx(struct verbs *v, uint64_t dma_done, uint64_t detect)
{
	struct eel_trace *r = &v->rx[v->rx_next++ & (VB_TRACE_RECS - 1)];

	memset(r, 0, sizeof(*r));
	r->msg_id = (uint32_t)v->detects;
	r->t[EEL_ST_DMA_DONE] = dma_done;
	r->t[EEL_ST_DETECT] = detect;
	r->valid = 1;
}

void vb_set_stamp_every(struct eel_dev *dev, uint32_t every)
{
	struct verbs *v = VERBS(dev);

	v->stamp_every = every;
	v->stamp_pos = 0;  /* the next put and the next detection are stamped (eel.h) */
	v->detect_pos = 0;
	if (every && v->clk.on)
		vb_clock_sync(v);
}

int vb_trace_drain(struct eel_dev *dev, enum eel_trace_dir dir, struct eel_trace *out, int max)
{
	struct verbs *v = VERBS(dev);
	struct eel_trace *recs = dir == EEL_TRACE_TX ? v->tx : v->rx;
	uint32_t *drain = dir == EEL_TRACE_TX ? &v->tx_drain : &v->rx_drain;
	uint32_t next = dir == EEL_TRACE_TX ? v->tx_next : v->rx_next;
	int n = 0;

	if (next - *drain > VB_TRACE_RECS)
		*drain = next - VB_TRACE_RECS; /* older ones were reused */
	while (n < max && *drain != next) {
		struct eel_trace *r = &recs[*drain & (VB_TRACE_RECS - 1)];

		if (!__atomic_load_n(&r->valid, __ATOMIC_ACQUIRE))
			break; /* a stamped put not yet completed */
		out[n++] = *r;
		(*drain)++;
	}
	return n;
}

/* ---- counters ---- */

static const char *const sw_names[VB_SW_COUNTERS] = {
	[VB_CNT_PUTS] = "puts", [VB_CNT_EPUTS] = "eputs", [VB_CNT_EGETS] = "egets",
	[VB_CNT_HIDDEN_SIGNALS] = "signals_added", [VB_CNT_FENCES] = "quiet_fences",
	[VB_CNT_SEND_CQES] = "send_completions", [VB_CNT_NOTIFIES] = "notifications",
	[VB_CNT_EAGAIN] = "send_queue_full", [VB_CNT_ERRORS] = "errors",
};

/* The port's own counters in sysfs, where the driver has them (rxe:
 * hw_counters/; InfiniBand and most RoCE NICs: counters/). */
static const char *const hw_names[] = {
	"hw_counters/sent_pkts", "hw_counters/rcvd_pkts", "hw_counters/duplicate_request",
	"hw_counters/out_of_seq_request", "hw_counters/rcvd_seq_err", "hw_counters/ack_deferred",
	"hw_counters/retry_exceeded_err", "hw_counters/retry_rnr_exceeded_err",
	"hw_counters/completer_retry_err", "hw_counters/send_err", "hw_counters/rcvd_rnr_err",
	"hw_counters/send_rnr_err", "hw_counters/link_downed",
	"counters/port_xmit_packets", "counters/port_rcv_packets", "counters/port_xmit_data",
	"counters/port_rcv_data", "counters/port_rcv_errors", "counters/port_xmit_discards",
	"counters/local_ack_timeout_err", "counters/out_of_sequence", "counters/packet_seq_err",
};

/* The port's received-packet count: rxe's hw_counters/rcvd_pkts, or the
 * InfiniBand port counter (kept open, read with pread: one system call). */
void vb_rx_counter_open(struct verbs *v)
{
	static const char *const names[] = { "hw_counters/rcvd_pkts", "counters/port_rcv_packets" };

	v->rx_fd = -1;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]) && v->rx_fd < 0; i++) {
		char path[256];

		snprintf(path, sizeof(path), SYSFS_IB "/%s/ports/%u/%s", v->ibdev, v->port, names[i]);
		v->rx_fd = open(path, O_RDONLY | O_CLOEXEC);
	}
}

uint64_t vb_rx_counter(struct verbs *v)
{
	char buf[32];
	ssize_t n;

	if (v->rx_fd < 0)
		return 0;
	n = pread(v->rx_fd, buf, sizeof(buf) - 1, 0);
	if (n > 0) {
		buf[n] = 0;
		v->rx_pkts = strtoull(buf, NULL, 10);
	}
	return v->rx_pkts;
}

static int read_u64(const char *path, uint64_t *val)
{
	FILE *f = fopen(path, "r");
	unsigned long long x;
	int ok;

	if (!f)
		return -1;
	ok = fscanf(f, "%llu", &x) == 1;
	fclose(f);
	if (!ok)
		return -1;
	*val = x;
	return 0;
}

int vb_counters(struct eel_dev *dev, struct eel_counter *out, int max)
{
	struct verbs *v = VERBS(dev);
	int n = 0;

	for (int i = 0; i < VB_SW_COUNTERS && n < max; i++, n++) {
		out[n].name = sw_names[i];
		out[n].value = v->cnt[i];
	}
	for (size_t i = 0; i < sizeof(hw_names) / sizeof(hw_names[0]) && n < max; i++) {
		char path[256];

		snprintf(path, sizeof(path), SYSFS_IB "/%s/ports/%u/%s", v->ibdev, v->port, hw_names[i]);
		if (!read_u64(path, &out[n].value))
			out[n++].name = hw_names[i];
	}
	return n;
}
