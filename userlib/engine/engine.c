/* SPDX-License-Identifier: MIT */
/* userlib/engine/engine.c — the host driver of eel's firmware hosted on this
 * machine (userlib/engine/engine.h): setting the NIC up, and every eel_* call.
 * The layout and the protocol with the firmware: include/eel/fw_abi.h. */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/mman.h>
#include <unistd.h>

#include "firmware/fw_host.h"
#include "userlib/engine/engine.h"
#include "userlib/engine/engine_bus.h"
#include "userlib/engine/engine_idle.h"

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


#define WAIT_SEND_PASSES 16u /* engine_wait_u64 inline: an idle send half once in this many passes */

/* A pass of a blocking loop: inline, the firmware's; then the idle policy. */
static int step(struct engine *e)
{
	int work = e->mode == ENGINE_INLINE ? fw_step(&e->fw) : 0;

	engine_idle(e, work);
	return work;
}

/* Inline mode: a doorbell runs the firmware once at once, so the NIC starts
 * sending when it is rung, as a NIC does, not at the next poll. */
static void kick(struct engine *e)
{
	if (e->mode == ENGINE_INLINE)
		fw_doorbell(&e->fw);
}

/* The connection's sticky error, as the firmware reported it. */
static int conn_error(struct engine *e)
{
	uint32_t code = __atomic_load_n(&e->status->error, __ATOMIC_ACQUIRE);
	uint32_t info = e->status->error_info;

	switch (code) {
	case EEL_FW_OK:
		return 0;
	case EEL_FW_ERR_REMOTE_ACCESS:
		return eel_err(-EREMOTEIO, "connection failed: a put or get was refused by the receiving NIC "
			       "(bad key, or outside the registered window; packet %u): check the window "
			       "and offset", info);
	case EEL_FW_ERR_LOCAL_ACCESS:
		return eel_err(-EFAULT, "connection failed: a put's source is outside its registered region");
	case EEL_FW_ERR_RETRY:
		return eel_err(-ECONNRESET, "connection failed: the peer stopped answering (retransmission "
			       "limit at packet %u)", info);
	default:
		return eel_err(-EIO, "the NIC's firmware failed (code %u): its configuration was rejected", code);
	}
}

/* Frames the NIC has taken off the wire: the peer is talking. */
static uint64_t heard(struct engine *e)
{
	return __atomic_load_n(&e->bar->counters[EEL_FW_CNT_RX_PKTS], __ATOMIC_RELAXED);
}

/* A blocking loop's check, every few spins: a peer still talking keeps it
 * waiting; silence for the timeout, a dead peer or a failed connection end it. */
static int check(struct eel_dev *dev, struct engine *e, struct eel_wait *w)
{
	int rc;

	if (++w->spins & 255)
		return 0;
	eel_wait_heard(dev, w, heard(e));
	if ((rc = eel_wait_slow(dev, w))) {
		/* nothing heard because this end's wire drops every frame: say that,
		 * whether this end's timeout came first or the peer's (it then
		 * gave up and left: its process is gone) */
		if ((rc == -ETIMEDOUT || rc == -ECONNRESET) && e->fo.drop >= 1)
			return eel_err(rc, "%s: the wire dropped every packet (this NIC's URI sets drop=1): nothing "
				       "can arrive; give drop= a value below 1", w->what);
		return rc;
	}
	return conn_error(e);
}

static int cqe_status(uint8_t s)
{
	switch (s) {
	case EEL_FW_OK:
		return 0;
	case EEL_FW_ERR_REMOTE_ACCESS:
		return -EREMOTEIO;
	case EEL_FW_ERR_LOCAL_ACCESS:
		return -EFAULT;
	case EEL_FW_ERR_FLUSHED:
		return -ECANCELED;
	case EEL_FW_ERR_RETRY:
		return -ETIMEDOUT;
	default:
		return -EINVAL;
	}
}

/* ---- memory regions ---- */

/* A region's key tag: random (getrandom), so keys differ from run to run and
 * a peer cannot derive one region's key from another's; never the tag this
 * entry had before, so a stale key of a re-registered entry still fails. */
static uint32_t mr_tag_new(uint32_t old)
{
	uint32_t r = 0;

	if (getrandom(&r, sizeof(r), 0) != sizeof(r))
		r = (uint32_t)eel_stamp() * 2654435761u; /* no entropy yet: the cycle counter, mixed */
	r = EEL_FW_KEY_TAG(r);
	return r == old ? EEL_FW_KEY_TAG(r + 1) : r;
}

int engine_mr_reg(struct eel_dev *dev, struct eel_mr *mr, unsigned access)
{
	struct engine *e = ENGINE(dev);

	for (uint32_t i = 1; i < ENGINE_MR_ENTRIES; i++) {
		struct eel_fw_mr *m = &e->mrt[i];
		uint32_t tag;

		if (m->access & EEL_FW_MR_VALID)
			continue;
		tag = mr_tag_new(m->tag);
		m->addr = (uintptr_t)mr->addr;
		m->len = mr->len;
		m->tag = tag;
		__atomic_store_n(&m->access, EEL_FW_MR_VALID | EEL_FW_MR_LOCAL_READ |
			(access & EEL_ACCESS_REMOTE_WRITE ? EEL_FW_MR_REMOTE_WRITE : 0) |
			(access & EEL_ACCESS_REMOTE_READ ? EEL_FW_MR_REMOTE_READ : 0), __ATOMIC_RELEASE);
		__atomic_add_fetch(&e->bar->mr_gen, 1, __ATOMIC_RELEASE);
		mr->lkey = EEL_FW_KEY(i, tag);
		mr->win.addr = (uintptr_t)mr->addr;
		mr->win.len = mr->len;
		mr->win.rkey = mr->lkey;
		return 0;
	}
	return eel_err(-ENOSPC, "all %u memory regions of this NIC are in use: deregister some", ENGINE_MR_ENTRIES - 1);
}

int engine_mr_dereg(struct eel_dev *dev, struct eel_mr *mr)
{
	struct engine *e = ENGINE(dev);
	uint32_t i = EEL_FW_KEY_INDEX(mr->lkey);

	if (i == 0 || i >= ENGINE_MR_ENTRIES)
		return eel_err(-EINVAL, "not a region of this NIC");
	__atomic_store_n(&e->mrt[i].access, 0, __ATOMIC_RELEASE);
	__atomic_add_fetch(&e->bar->mr_gen, 1, __ATOMIC_RELEASE);
	return 0;
}

/* ---- data ---- */

/* A trace record is used once in stamp_every puts, by then long out of the
 * cache: the stamps of a traced message paid the misses of its record (here
 * +40 ns in post, +40 in rx, and the stages read them as their own). The
 * next record is brought in for writing when one is taken, off the path of
 * the message that will use it. */
static void warm(const struct eel_trace *r)
{
	__builtin_prefetch(r, 1, 3);
	__builtin_prefetch((const char *)r + sizeof(*r) - 1, 1, 3);
}

/* A traced message's TX record, before its POST stamp (the record's
 * bookkeeping stays out of the stages): the next slot, not yet taken (a put
 * refused by its checks leaves it to the next), with the stamps it asks for
 * (want; stamp_pick.c). Only those are read: it is not cleared. POST is
 * stamped into it at once. */
static struct eel_trace *trace_tx_open(struct engine *e, uint32_t want)
{
	uint32_t slot = e->tx_trace_next & (ENGINE_TRACE_RECS - 1);
	struct eel_trace *rec = &e->trace[slot];

	rec->want = want;
	if (want & (1u << EEL_ST_POST))
		rec->t[EEL_ST_POST] = eel_stamp();
	return rec;
}

/* The put passed its checks: the record is its, for the NIC to finish (the
 * drain reads only records taken). Its valid is cleared and the next record
 * warmed here, in post: before POST they lengthened the turnaround ~14 ns. */
static uint32_t trace_tx_take(struct engine *e)
{
	uint32_t slot = e->tx_trace_next++ & (ENGINE_TRACE_RECS - 1);

	e->trace[slot].valid = 0;
	warm(&e->trace[(slot + 1) & (ENGINE_TRACE_RECS - 1)]);
	return slot;
}

/* A host stamp of the record, if it asks for it. */
static inline void trace_stamp(struct eel_trace *rec, int stage)
{
	if (rec->want & (1u << stage))
		rec->t[stage] = eel_stamp();
}

int engine_put(struct eel_dev *dev, const struct eel_mr *lmr, const void *src, size_t len,
		  const struct eel_window *dst, uint64_t dst_off, unsigned flags, uint64_t wr_id, uint32_t imm)
{
	struct engine *e = ENGINE(dev);
	uint32_t want = eel_stamp_want(e->stamp_every, &e->stamp_pos, &e->stamps);
	struct eel_trace *rec = want ? trace_tx_open(e, want) : NULL;
	struct eel_fw_sqe *d;
	uint64_t t_db = 0;

	if (flags & ~(unsigned)(EEL_PUT_SIGNALED | EEL_PUT_INLINE | EEL_PUT_NOTIFY))
		return eel_err(-EINVAL, "eel_put: unknown flags 0x%x", flags);
	if (len > dev->caps.max_put)
		return eel_err(-EMSGSIZE, "eel_put: %zu bytes is more than this NIC's largest put (%llu)",
			       len, (unsigned long long)dev->caps.max_put);
	if (flags & EEL_PUT_INLINE) {
		if (len > EEL_FW_MAX_INLINE)
			return eel_err(-EINVAL, "eel_put: %zu bytes inline, this NIC carries at most %u",
				       len, EEL_FW_MAX_INLINE);
	} else if (!lmr || (const char *)src < (const char *)lmr->addr ||
		   (size_t)((const char *)src - (const char *)lmr->addr) > lmr->len ||
		   len > lmr->len - (size_t)((const char *)src - (const char *)lmr->addr)) {
		return eel_err(-EINVAL, "eel_put: the source (%zu bytes at %p) is not inside the local region "
			       "given: register it, or pass EEL_PUT_INLINE for small puts", len, src);
	}
	if (__builtin_expect(e->status->error != 0, 0))
		return conn_error(e);
	if (e->sq_prod - e->sq_cons_seen >= e->sq_depth) {
		e->sq_cons_seen = __atomic_load_n(&e->status->sq_cons, __ATOMIC_ACQUIRE);
		if (e->sq_prod - e->sq_cons_seen >= e->sq_depth)
			return eel_err(-EAGAIN, "send queue full (%u puts in flight): poll, then post again",
				       e->sq_depth);
	}
	if ((flags & EEL_PUT_SIGNALED) && e->signaled_out >= e->sq_depth)
		return eel_err(-EAGAIN, "%u signalled puts not yet polled: poll their completions first",
			       e->signaled_out);

	d = &e->sq[e->sq_prod & (e->sq_depth - 1)];
	d->opcode = EEL_FW_OP_PUT;
	d->flags = (uint8_t)((flags & EEL_PUT_SIGNALED ? EEL_FW_SQE_SIGNALED : 0) |
			     (flags & EEL_PUT_INLINE ? EEL_FW_SQE_INLINE : 0) |
			     (flags & EEL_PUT_NOTIFY ? EEL_FW_SQE_NOTIFY : 0));
	d->len = (uint32_t)len;
	d->wr_id = wr_id;
	d->laddr = (uintptr_t)src;
	d->lkey = lmr ? lmr->lkey : 0;
	d->rkey = dst->rkey;
	d->raddr = dst->addr + dst_off;
	d->imm = imm;
	if (flags & EEL_PUT_INLINE) {
		if (len == 8)
			memcpy(d->inline_data, src, 8); /* a move, not a call */
		else
			memcpy(d->inline_data, src, len);
	}
	if (flags & EEL_PUT_SIGNALED)
		e->signaled_out++;
	d->stamps = 0;
	if (rec) {
		d->flags |= EEL_FW_SQE_TRACE;
		d->trace = trace_tx_take(e);
		d->stamps = (uint16_t)want;
		trace_stamp(rec, EEL_ST_DOORBELL);
		t_db = want & (1u << EEL_ST_DOORBELL) ? rec->t[EEL_ST_DOORBELL] : 0;
	}
	/* The doorbell: one store of the new producer index to BAR0; on a bus a
	 * posted MMIO write of 8 bytes, which reaches the NIC that much later
	 * (engine_bus.c). */
	if (e->bus_on)
		engine_bus_doorbell(e, ENGINE_BUS_SQ, t_db);
	__atomic_store_n(&e->bar->sq_doorbell, ++e->sq_prod, __ATOMIC_RELEASE);
	if (e->doorbell_cycles)
		eel_spin_cycles(e->doorbell_cycles);
	if (rec)
		trace_stamp(rec, EEL_ST_DOORBELL_DONE);
	kick(e);
	return 0;
}

int engine_poll(struct eel_dev *dev, struct eel_cqe *out, int max)
{
	struct engine *en = ENGINE(dev);
	int n = 0;

	if (en->mode == ENGINE_INLINE)
		fw_step(&en->fw);
	while (n < max) {
		struct eel_fw_cqe *e = &en->cq[en->cq_cons & (en->cq_size - 1)];
		uint32_t owner = (uint32_t)(((en->cq_cons / en->cq_size) + 1) & 1);

		if (__atomic_load_n(&e->owner, __ATOMIC_ACQUIRE) != owner)
			break;
		out[n].wr_id = e->wr_id;
		out[n].len = e->len;
		out[n].imm = e->imm;
		out[n].status = cqe_status(e->status);
		out[n].kind = e->opcode == EEL_FW_CQE_NOTIFY ? EEL_CQE_NOTIFY : EEL_CQE_PUT;
		out[n].msg_id = e->msg_id;
		if (e->opcode == EEL_FW_CQE_PUT) {
			if (en->signaled_out)
				en->signaled_out--;
			if (e->trace)
				en->trace[(e->trace - 1) & (ENGINE_TRACE_RECS - 1)].t[EEL_ST_COMPLETE] = eel_stamp();
		}
		if (out[n].status)
			eel_err(out[n].status, "put %llu (message %u) failed: %s",
				(unsigned long long)e->wr_id, e->msg_id, eel_strerror(out[n].status));
		en->cq_cons++;
		n++;
	}
	/* nothing yet: a polling loop; oversubscribed, it yields to the firmware */
	engine_idle(en, n);
	if (n && en->bus_on)
		engine_bus_observe(en);
	if (n)
		__atomic_store_n(&en->bar->cq_doorbell, en->cq_cons, __ATOMIC_RELEASE);
	return n;
}

/* The receiving host saw a put: stamp DETECT, when the last message
 * delivered here was traced, asked for it and was not yet detected. The
 * NIC writes its RX record after it is done (fw_trace_rx_flush): DETECT is
 * kept beside the records and joined to its record as it is drained. */
static void detected(struct engine *e)
{
	uint64_t last = __atomic_load_n(&e->status->last_rx, __ATOMIC_ACQUIRE);

	/* the NIC writes the payload, then last_rx: a host that saw the payload
	 * may still read the message before's (its own thread: thread mode) */
	for (int i = 0; i < 4096 && (uint32_t)last == e->rx_seen && e->mode == ENGINE_THREAD; i++) {
		eel_cpu_relax();
		last = __atomic_load_n(&e->status->last_rx, __ATOMIC_ACQUIRE);
	}
	e->rx_seen = (uint32_t)last;
	if (last & EEL_FW_LAST_RX_DETECT) {
		struct engine_detect *d = &e->detect[(uint32_t)(last >> 32) & (ENGINE_TRACE_RECS - 1)];

		if (d->msg_id != (uint32_t)last || !d->t) {
			d->t = eel_stamp();
			d->msg_id = (uint32_t)last;
		}
	}
}

int engine_wait_u64(struct eel_dev *dev, const volatile uint64_t *addr, uint64_t value)
{
	struct engine *e = ENGINE(dev);
	struct eel_wait w;
	int rc, sending = 1;
	uint32_t pass = 0;

	if (*addr == value)
		goto seen;
	eel_wait_start(dev, &w, "waiting for a put to land");
	e->idle_passes = 0; /* a wait spins IDLE_SPINS passes before it yields */
	for (;;) {
		/* inline: look at memory between the firmware's receive half and
		 * its send half, as soon as a frame can have landed. The send
		 * half runs on every pass while either half has work (frames in,
		 * which may open the window or want an ACK; packets, an ACK or a
		 * resend out) or the wire had no room for a packet (tx_full),
		 * else once in WAIT_SEND_PASSES: an idle send half
		 * between two looks at the wire delays seeing a frame. On a DPDK
		 * memif pair here, EEL - floor one way went from a median of 248
		 * ns to 135 (six runs each, alternated); the software NIC's EEL
		 * did not move. An idle NIC's timers are microseconds; a pass is
		 * tens of ns. */
		if (e->mode == ENGINE_INLINE) {
			int got = fw_receive(&e->fw);

			if (*addr == value)
				goto seen;
			if (got || sending || e->tx_full || !(++pass % WAIT_SEND_PASSES))
				sending = fw_doorbell(&e->fw);
			engine_idle(e, got | sending);
		} else {
			step(e);
		}
		if (*addr == value)
			goto seen;
		if ((rc = check(dev, e, &w)))
			return rc;
	}
seen:
	if (e->bus_on)
		engine_bus_observe(e); /* seen before the write's flight was over: wait it out */
	if (e->stamp_every)
		detected(e);
	return 0;
}

static int ereg_done(struct engine *e, uint32_t i)
{
	uint32_t s = __atomic_load_n(&e->bar->ereg[i].status, __ATOMIC_ACQUIRE);

	return (s >> 8) == e->ereg_seq[i] && (s & EEL_FW_EREG_DONE);
}

/* The E-register's last answer as an error code (0 when it succeeded). */
static int ereg_result(struct engine *e, uint32_t i)
{
	uint32_t s = e->bar->ereg[i].status;

	if (!e->ereg_seq[i] || (s & 0x7f) == EEL_FW_OK)
		return 0;
	if ((s & 0x7f) == EEL_FW_ERR_FLUSHED)
		return conn_error(e) ? conn_error(e) : eel_err(-ECANCELED, "E-register operation flushed");
	return eel_err(cqe_status((uint8_t)(s & 0x7f)), "E-register operation failed: %s",
		       eel_strerror(cqe_status((uint8_t)(s & 0x7f))));
}

static int ereg_wait(struct eel_dev *dev, uint32_t i, const char *what)
{
	struct engine *e = ENGINE(dev);
	struct eel_wait w;
	int rc;

	eel_wait_start(dev, &w, what);
	e->idle_passes = 0;
	while (!ereg_done(e, i)) {
		step(e);
		if ((rc = check(dev, e, &w)))
			return rc;
	}
	if (e->bus_on)
		engine_bus_mmio_read(e); /* the host read the answer from the NIC's register */
	return 0;
}

/* Issue an E-register command: operands, then the command with a fresh
 * sequence number, then the E-register doorbell (fw_abi.h, struct eel_fw_ereg). */
static int ereg_issue(struct eel_dev *dev, uint32_t op, const struct eel_window *win, uint64_t off,
		      uint64_t value, uint32_t *reg)
{
	struct engine *e = ENGINE(dev);
	/* a store is a put on the wire: stamped one in stamp_every like puts */
	uint32_t want = op == EEL_FW_EREG_PUT ? eel_stamp_want(e->stamp_every, &e->stamp_pos, &e->stamps) : 0;
	struct eel_trace *rec = want ? trace_tx_open(e, want) : NULL;
	uint32_t i = e->ereg_next++ % EEL_FW_EREGS;
	struct eel_fw_ereg *r = &e->bar->ereg[i];
	uint64_t t_db = 0;
	int rc;

	if (e->status->error)
		return conn_error(e);
	if (e->ereg_seq[i] && !ereg_done(e, i) && (rc = ereg_wait(dev, i, "waiting for a free E-register")))
		return rc;
	if ((rc = ereg_result(e, i)))
		return rc;
	e->ereg_seq[i] = (e->ereg_seq[i] + 1) & 0xffffff;
	if (!e->ereg_seq[i])
		e->ereg_seq[i] = 1;
	r->value = value;
	r->raddr = win->addr + off;
	r->rkey = win->rkey;
	r->trace = rec ? trace_tx_take(e) + 1 : 0;
	r->stamps = want;
	if (rec) {
		trace_stamp(rec, EEL_ST_DOORBELL);
		t_db = want & (1u << EEL_ST_DOORBELL) ? rec->t[EEL_ST_DOORBELL] : 0;
	}
	if (e->bus_on) /* operands and command: one write-combined TLP */
		engine_bus_doorbell(e, ENGINE_BUS_EREG, t_db);
	__atomic_store_n(&r->cmd, e->ereg_seq[i] << 8 | op, __ATOMIC_RELEASE);
	__atomic_store_n(&e->bar->ereg_doorbell, ++e->ereg_db, __ATOMIC_RELEASE);
	if (rec)
		trace_stamp(rec, EEL_ST_DOORBELL_DONE);
	*reg = i;
	kick(e);
	return 0;
}

int engine_eput(struct eel_dev *dev, const struct eel_window *dst, uint64_t off, uint64_t v)
{
	uint32_t i;

	return ereg_issue(dev, EEL_FW_EREG_PUT, dst, off, v, &i);
}

int engine_eget(struct eel_dev *dev, const struct eel_window *src, uint64_t off, uint64_t *v)
{
	struct engine *e = ENGINE(dev);
	uint32_t i;
	int rc = ereg_issue(dev, EEL_FW_EREG_GET, src, off, 0, &i);

	if (!rc)
		rc = ereg_wait(dev, i, "eel_eget: waiting for the value");
	if (!rc)
		rc = ereg_result(e, i);
	if (!rc)
		*v = __atomic_load_n(&e->bar->ereg[i].value, __ATOMIC_ACQUIRE);
	return rc;
}

int engine_quiet(struct eel_dev *dev)
{
	struct engine *e = ENGINE(dev);
	struct eel_wait w;
	int rc;

	eel_wait_start(dev, &w, "eel_quiet: waiting for puts to be delivered");
	e->idle_passes = 0;
	for (;;) {
		uint32_t busy = 0;

		for (uint32_t i = 0; i < EEL_FW_EREGS; i++)
			busy |= e->ereg_seq[i] && !ereg_done(e, i);
		if (!busy && __atomic_load_n(&e->status->sq_cons, __ATOMIC_ACQUIRE) == e->sq_prod)
			break;
		if ((rc = conn_error(e)))
			return rc;
		step(e);
		if ((rc = check(dev, e, &w)))
			return rc;
	}
	if (e->bus_on)
		engine_bus_observe(e);
	for (uint32_t i = 0; i < EEL_FW_EREGS; i++)
		if ((rc = ereg_result(e, i)))
			return rc;
	return conn_error(e);
}

int engine_progress(struct eel_dev *dev)
{
	struct engine *e = ENGINE(dev);

	if (e->mode != ENGINE_INLINE)
		return 0;
	fw_step(&e->fw);
	return 1;
}

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


/* ---- setting up ---- */

static int opt_ns(struct eel_uri *u, const char *key, uint64_t *cycles)
{
	uint64_t ns = 0;
	int rc = eel_uri_u64(u, key, 0, 1000000000, &ns);

	if (rc < 0)
		return rc;
	*cycles = eel_ns_to_cycles(eel_clock(), (double)ns);
	return 0;
}

int engine_parse(struct engine *e, struct eel_dev *dev, struct eel_uri *u, const char *mode,
		 int threads_per_machine)
{
	const char *str;
	uint64_t v;
	int rc, n;

	if (!strcmp(mode, "") || !strcmp(mode, "inline"))
		e->mode = ENGINE_INLINE;
	else if (!strcmp(mode, "thread"))
		e->mode = ENGINE_THREAD;
	else
		return eel_err(-EINVAL, "unknown mode '%s' in %s: use :inline or :thread", mode, u->text);

	if ((rc = opt_ns(u, "doorbell_ns", &e->doorbell_cycles)) || (rc = opt_ns(u, "fetch_ns", &e->delay_fetch)) ||
	    (rc = opt_ns(u, "tx_ns", &e->delay_tx)) || (rc = opt_ns(u, "wire_ns", &e->fo.delay)) ||
	    (rc = opt_ns(u, "rx_ns", &e->delay_rx)) || (rc = opt_ns(u, "dma_ns", &e->delay_dma)) ||
	    (rc = opt_ns(u, "payload_ns", &e->delay_payload)))
		return rc;
	if ((rc = bus_from_uri(u, &e->bus)))
		return rc;
	engine_bus_setup(e);
	if ((rc = eel_uri_prob(u, "drop", &e->fo.drop)) < 0 || (rc = eel_uri_prob(u, "dup", &e->fo.dup)) < 0 ||
	    (rc = eel_uri_prob(u, "reorder", &e->fo.reorder)) < 0 ||
	    (rc = eel_uri_prob(u, "corrupt", &e->fo.corrupt)) < 0)
		return rc;
	e->fo.seed = 1;
	if ((rc = eel_uri_u64(u, "seed", 0, UINT64_MAX, &e->fo.seed)) < 0)
		return rc;
	e->mtu = 4096;
	if ((rc = eel_uri_u64(u, "mtu", EEL_FW_MTU_MIN, EEL_FW_MTU_MAX, &v)) < 0)
		return rc;
	if (rc == 0)
		e->mtu = (uint32_t)v;
	v = 4000; /* 4 ms: longer than a scheduler's hiccup, as RC NICs' timeouts are */
	if ((rc = eel_uri_u64(u, "rto_us", 1, 10000000, &v)) < 0)
		return rc;
	e->rto_cycles = eel_ns_to_cycles(eel_clock(), (double)v * 1000);
	/* the adaptive timer's floor (firmware/fw_rto.c, RFC 6298 §2.4): by
	 * default the initial timeout, as long as a host's scheduler may keep
	 * the peer's firmware (a process, or a thread) off its core: a
	 * descheduled peer is not a loss. The timer adapts above it. */
	if ((rc = eel_uri_u64(u, "rto_min_us", 1, 10000000, &v)) < 0)
		return rc;
	e->rto_min_cycles = eel_ns_to_cycles(eel_clock(), (double)v * 1000);
	/* loss recovery (firmware/wire.h): go-back-N, as an InfiniBand RC NIC, or
	 * selective repeat, as newer RoCE NICs offer */
	e->recovery = EEL_FW_RECOVERY_GBN;
	if ((str = eel_uri_str(u, "recovery")) && !strcmp(str, "sr"))
		e->recovery = EEL_FW_RECOVERY_SR;
	else if (str && strcmp(str, "gbn"))
		return eel_err(-EINVAL, "recovery=%s in %s: use recovery=gbn (go-back-N) or recovery=sr "
			       "(selective repeat)", str, u->text);
	v = dev->opts.oversubscribe != 0; /* the URI's overrides the caller's */
	if ((rc = eel_uri_u64(u, "oversubscribe", 0, 1, &v)) < 0)
		return rc;
	e->oversubscribe = (int)v;
	e->fw_cpu = -1;
	if ((rc = eel_uri_u64(u, "fw_cpu", 0, CPU_SETSIZE - 1, &v)) < 0)
		return rc;
	if (rc == 0)
		e->fw_cpu = (int)v;
	e->stamp_every = dev->opts.stamp_every;
	e->sq_depth = dev->opts.sq_depth;
	e->cq_size = 4 * e->sq_depth;

	/* Thread mode spins a firmware thread beside each host thread. */
	n = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (e->mode == ENGINE_THREAD && !e->oversubscribe && n < threads_per_machine)
		return eel_err(-EBUSY, "%s:thread runs a firmware thread beside each host thread: %d busy threads "
			       "on this machine, and it has %d core%s: use :inline, or add ?oversubscribe=1 "
			       "(correct, but slow)", u->scheme, threads_per_machine, n, n == 1 ? "" : "s");
	return 0;
}

/* Host memory for the NIC, carved out of one mapping. */
static int alloc_host_memory(struct engine *e)
{
	size_t sq = (size_t)e->sq_depth * sizeof(struct eel_fw_sqe);
	size_t cq = (size_t)e->cq_size * sizeof(struct eel_fw_cqe);
	size_t mr = ENGINE_MR_ENTRIES * sizeof(struct eel_fw_mr);
	size_t st = 64;
	size_t tr = 2 * ENGINE_TRACE_RECS * sizeof(struct eel_trace);
	char *p;

	e->mem_len = (sq + cq + mr + st + tr + 4095) & ~(size_t)4095;
	p = mmap(NULL, e->mem_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		e->mem = NULL;
		return eel_err(-ENOMEM, "cannot map %zu bytes of host memory for the NIC", e->mem_len);
	}
	e->mem = p;
	e->sq = (void *)p;
	e->cq = (void *)(p + sq);
	e->mrt = (void *)(p + sq + cq);
	e->status = (void *)(p + sq + cq + mr);
	e->trace = (void *)(p + sq + cq + mr + st);
	return 0;
}

/* The mean of the middle half of n values (sorted in place): an
 * interruption (the peer's process on this core) lands in the top quarter. */
static double u64_iqm(uint64_t *v, int n)
{
	double sum = 0;

	for (int i = 1; i < n; i++)
		for (int k = i; k > 0 && v[k - 1] > v[k]; k--) {
			uint64_t x = v[k];

			v[k] = v[k - 1];
			v[k - 1] = x;
		}
	for (int i = n / 4; i < n - n / 4; i++)
		sum += (double)v[i];
	return sum / (n - 2 * (n / 4));
}

/* What a spin of `ticks` lasts on average, ns: SPUN spins, each timed alone
 * after a pause of a pseudo-random length (so that it starts anywhere within
 * a step of the counter: spins back to back all start just after one),
 * beside as many empty timings; the two middle halves' means, one less the
 * other. host: the host's spin (the doorbell's), else the firmware's
 * (fw_delay, through its HAL). In place, on a message's path, a spin costs a
 * few ns more (here ~5 at 60 ns: what EEL grows by): the reads of the
 * counter around it no longer overlap other work. */
#define SPUN 256
static double spun_ns(struct engine *e, uint64_t ticks, int host)
{
	uint64_t t[2][SPUN];
	uint32_t x = 12345;

	if (!ticks)
		return 0;
	for (int i = 0; i < 2 * SPUN; i++) {
		uint64_t a, b;
		int spin = i & 1;

		x = x * 1103515245u + 12345u;
		for (uint32_t k = 0; k < (x >> 16) % 64; k++)
			__asm__ volatile("" : : : "memory");
		a = eel_cycles();
		if (spin && host)
			eel_spin_cycles(ticks);
		else if (spin)
			fw_delay(&e->fw, ticks);
		b = eel_cycles();
		t[spin][i / 2] = b - a;
	}
	return eel_cycles_to_ns(eel_clock(), u64_iqm(t[1], SPUN) - u64_iqm(t[0], SPUN));
}

static void delays_measure(struct engine *e)
{
	e->delay_ns[EEL_ST_DOORBELL] = spun_ns(e, e->doorbell_cycles, 1);
	e->delay_ns[EEL_ST_DOORBELL_DONE] = spun_ns(e, e->delay_fetch, 0);
	e->delay_ns[EEL_ST_NIC_FETCH] = spun_ns(e, e->delay_tx, 0) + spun_ns(e, e->delay_payload, 0);
	e->delay_ns[EEL_ST_NIC_RX] = spun_ns(e, e->delay_rx, 0);
	e->delay_ns[EEL_ST_DMA_START] = spun_ns(e, e->delay_dma, 0);
}

int engine_start(struct engine *e)
{
	struct eel_fw_bar *bar;
	struct fw_hal hal = { &engine_hal_ops, e };
	int rc;

	/* BAR0: a shared-memory page, as a PCI BAR mapped into the host */
	e->bar = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (e->bar == MAP_FAILED) {
		e->bar = NULL;
		return eel_err(-ENOMEM, "cannot map the NIC's BAR");
	}
	if ((rc = alloc_host_memory(e)))
		return rc;
	bar = e->bar;

	/* Power on, then configure and enable (fw_abi.h, bring-up). */
	fw_reset(&e->fw, &hal);
	bar->sq_base = (uintptr_t)e->sq;
	bar->sq_size = e->sq_depth;
	bar->cq_base = (uintptr_t)e->cq;
	bar->cq_size = e->cq_size;
	bar->mr_base = (uintptr_t)e->mrt;
	bar->mr_size = ENGINE_MR_ENTRIES;
	bar->status_base = (uintptr_t)e->status;
	bar->trace_base = (uintptr_t)e->trace;
	bar->trace_size = ENGINE_TRACE_RECS;
	bar->mtu = e->mtu;
	bar->rto = e->rto_cycles;
	bar->rto_min = e->rto_min_cycles;
	bar->retry_limit = 0; /* never give up: the host's timeout and peer watch decide */
	bar->recovery = e->recovery;
	bar->delay_fetch = e->delay_fetch;
	bar->delay_tx = e->delay_tx;
	bar->delay_rx = e->delay_rx;
	bar->delay_dma = e->delay_dma;
	bar->delay_payload = e->delay_payload;
	delays_measure(e);
	e->rx_seen = UINT32_MAX; /* no message seen (numbers start at 0) */
	__atomic_store_n(&bar->ctrl, EEL_FW_CTRL_ENABLE, __ATOMIC_RELEASE);
	if (e->mode == ENGINE_THREAD)
		return engine_thread_start(e);
	return 0;
}

uint32_t engine_max_frame(const struct engine *e)
{
	return FW_PKT_HDR + e->mtu + 4;
}

void engine_conn_info(const struct engine *e, struct engine_conn *c)
{
	c->mtu = e->mtu;
	c->crc = e->fo.corrupt > 0;
}

int engine_link_up(struct engine *e, struct wire carrier, const struct engine_conn *peer)
{
	/* A frame CRC (the FCS) where either end may corrupt a frame; drops,
	 * duplicates, reordering and delay need none, and a CRC costs the
	 * software wire time in every frame (the wire stage would grow by it). */
	int crc = e->fo.corrupt > 0 || peer->crc;

	if (peer->mtu != e->mtu)
		return eel_err(-EINVAL, "the two ends' mtu differ: %u here, %u at the peer: give both the same mtu=",
			       e->mtu, peer->mtu);
	e->wire = carrier;
	if (crc || wire_faults_wanted(&e->fo)) {
		struct wire_faults_opts none = { 0 };

		if (wire_faults_init(&e->faults, wire_faults_wanted(&e->fo) ? &e->fo : &none, carrier,
				     FW_PKT_HDR + e->mtu, crc))
			return eel_err(-ENOMEM, "out of memory for the fault layer");
		e->faulty = 1;
		e->wire.ops = &wire_faults_ops;
		e->wire.ctx = &e->faults;
	}
	__atomic_store_n(&e->bar->ctrl, EEL_FW_CTRL_ENABLE | EEL_FW_CTRL_LINK, __ATOMIC_RELEASE);
	return 0;
}

void engine_stop(struct engine *e)
{
	if (e->bar)
		__atomic_store_n(&e->bar->ctrl, 0, __ATOMIC_RELEASE);
	engine_thread_stop(e);
}

void engine_close(struct eel_dev *dev, void (*release)(struct engine *e))
{
	struct engine *e = ENGINE(dev);

	if (!e)
		return;
	engine_stop(e); /* the firmware off the wire before its wire goes */
	if (e->backend)
		release(e);
	e->backend = NULL;
	engine_free(e);
	dev->priv = NULL;
}

void engine_free(struct engine *e)
{
	engine_stop(e);
	if (e->faulty)
		wire_faults_free(&e->faults);
	if (e->mem)
		munmap(e->mem, e->mem_len);
	if (e->bar)
		munmap(e->bar, 4096);
	free(e);
}

int engine_needs_caller(const struct engine *e)
{
	return e->mode == ENGINE_INLINE;
}

void engine_caps(const struct engine *e, struct eel_caps *c)
{
	c->flags = EEL_CAP_EREGS | EEL_CAP_NOTIFY | EEL_CAP_RELIABLE_HW |
		   (e->mode == ENGINE_THREAD ? EEL_CAP_ONESIDED_HW : 0) |
		   (engine_needs_caller(e) ? EEL_CAP_NEEDS_CALLER : 0);
	c->max_inline = EEL_FW_MAX_INLINE;
	c->max_put = 1u << 30;
	c->mtu = e->mtu;
	c->sq_depth = e->sq_depth;
	c->stamp_mask = (1u << EEL_STAGES) - 1;
	/* the emulated stage costs, by the stamp that begins their stage */
	c->delay_asked_ns[EEL_ST_DOORBELL] = eel_cycles_to_ns(eel_clock(), (double)e->doorbell_cycles);
	c->delay_asked_ns[EEL_ST_DOORBELL_DONE] = eel_cycles_to_ns(eel_clock(), (double)e->delay_fetch);
	c->delay_asked_ns[EEL_ST_NIC_FETCH] = eel_cycles_to_ns(eel_clock(), (double)(e->delay_tx + e->delay_payload));
	c->delay_asked_ns[EEL_ST_NIC_RX] = eel_cycles_to_ns(eel_clock(), (double)e->delay_rx);
	c->delay_asked_ns[EEL_ST_DMA_START] = eel_cycles_to_ns(eel_clock(), (double)e->delay_dma);
	memcpy(c->delay_ns, e->delay_ns, sizeof(c->delay_ns));
}
