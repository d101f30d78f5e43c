/* SPDX-License-Identifier: MIT */
/* userlib/verbs/verbs_wait.c — the verbs backend's blocking loops: every turn's
 * bookkeeping (completions, async events, the peer heard from, deadline and
 * peer watch of wait.c), spinning or napping between looks, and the
 * receive-side wait on memory. */
#include <errno.h>
#include <time.h>

#include "userlib/verbs/verbs.h"

/* Every blocking loop: cheap on most turns; every 256 the completion queues,
 * whether the peer was heard from, the deadline and the peer's process
 * (wait.c); about every ms async events, every 100 ms the port's packet count. */
static int tick(struct eel_dev *dev, struct eel_wait *w)
{
	struct verbs *v = VERBS(dev);
	uint64_t now;
	int rc;

	if (++w->spins & 255)
		return 0;
	vb_reap_all(v);
	now = eel_stamp();
	if (now >= v->async_next) {
		v->async_next = now + (uint64_t)(eel_clock()->hz / 1000);
		vb_async_events(v);
	}
	if (now >= v->rx_read_next) {
		v->rx_read_next = now + (uint64_t)(eel_clock()->hz / 10);
		vb_rx_counter(v);
	}
	/* the peer is talking while its packets arrive or our puts complete:
	 * a wait gives up only after timeout_ms of silence (wait.c) */
	eel_wait_heard(dev, w, v->rx_pkts + v->cnt[VB_CNT_SEND_CQES] + v->cnt[VB_CNT_NOTIFIES]);
	if ((rc = eel_wait_slow(dev, w)))
		return rc;
	return v->err ? vb_error(v) : 0;
}

void vb_wait_start(struct eel_dev *dev, struct vb_wait *vw, const char *what)
{
	struct verbs *v = VERBS(dev);

	eel_wait_start(dev, &vw->w, what);
	vw->start = eel_stamp();
	vw->nap_at = v->spin_cycles ? vw->start + v->spin_cycles : 0;
	vw->napping = 0;
}

/* One turn of a blocking loop whose look found nothing yet: the bookkeeping
 * (tick), then a pause — a spin-loop hint or, once the wait has spun for
 * spin_us (software RDMA devices only, by default), a nap. On rxe and siw the
 * NIC is the kernel on these CPUs: a waiter that spins for ever takes the CPU
 * from the very work it waits for (and, in a VM, from the host that runs the
 * other VM). A nap is 1/64 of the wait so far, at least VB_NAP_NS and at most
 * VB_NAP_MAX_NS: the end of a wait is seen at most ~1.6% late, and a long one
 * (a receiver waiting out a flood) wakes ~1000 times a second, not 20,000.
 * A wait that ends within spin_us never naps. */
int vb_wait_turn(struct eel_dev *dev, struct vb_wait *vw)
{
	int rc;

	if (vw->napping)
		vw->w.spins |= 255; /* after a nap, every look does the whole tick */
	if ((rc = tick(dev, &vw->w)))
		return rc;
	if (!vw->napping && vw->nap_at && !(vw->w.spins & 255) && eel_stamp() >= vw->nap_at)
		vw->napping = 1;
	if (vw->napping) {
		double nap = (double)(eel_stamp() - vw->start) * eel_clock()->ns_per_cycle / 64;

		nap = nap < VB_NAP_NS ? VB_NAP_NS : nap > VB_NAP_MAX_NS ? VB_NAP_MAX_NS : nap;
		nanosleep(&(struct timespec){ .tv_sec = 0, .tv_nsec = (long)nap }, NULL);
	} else
		eel_cpu_relax();
	return 0;
}

/* Room for one more WQE: reap; when still full, -EAGAIN or wait for it. */
int vb_sq_room(struct eel_dev *dev, int block, const char *what)
{
	struct verbs *v = VERBS(dev);
	struct vb_wait w;
	int rc;

	if (v->head - v->tail < v->sq_depth)
		return 0;
	vb_reap_all(v);
	if (v->err)
		return vb_error(v);
	if (v->head - v->tail < v->sq_depth)
		return 0;
	if (!block) {
		v->cnt[VB_CNT_EAGAIN]++;
		return eel_err(-EAGAIN, "send queue full (%u puts in flight): poll, then post again", v->sq_depth);
	}
	vb_wait_start(dev, &w, what);
	while (v->head - v->tail >= v->sq_depth) {
		vb_reap_all(v);
		if ((rc = vb_wait_turn(dev, &w)))
			return rc;
	}
	return v->err ? vb_error(v) : 0;
}


/* Look at memory, as perftest's ib_write_lat polls the last byte: nothing
 * tells the receiver of a plain RDMA WRITE. The send CQ is looked at every
 * 256 turns (a failed put of ours ends the wait with its reason), and on
 * every turn while a stamped put waits for its COMPLETE stamp. */
int vb_wait_u64(struct eel_dev *dev, const volatile uint64_t *addr, uint64_t value)
{
	struct verbs *v = VERBS(dev);
	struct vb_wait w;
	int rc;

	if (*addr != value) {
		vb_wait_start(dev, &w, "waiting for a put to land");
		while (*addr != value) {
			if (v->traced_out)
				vb_reap_send(v);
			if ((rc = vb_wait_turn(dev, &w)))
				return rc;
		}
	}
	if (eel_stamp_due(v->stamp_every, &v->detect_pos))
		vb_trace_rx(v, 0, eel_stamp());
	v->detects++;
	return 0;
}

int vb_progress(struct eel_dev *dev)
{
	struct verbs *v = VERBS(dev);

	if (v->qp)
		vb_reap_all(v);
	return 0;
}
