/* SPDX-License-Identifier: MIT */
/* userlib/engine/engine_data.c — the host driver's data path
 * (userlib/engine/engine.h): puts, completions, waits for a put to land,
 * E-register stores and loads, quiet. The protocol with the firmware:
 * include/eel/fw_abi.h. */
#include <errno.h>
#include <string.h>

#include "firmware/fw_host.h"
#include "userlib/engine/engine.h"
#include "userlib/engine/engine_bus.h"
#include "userlib/engine/engine_idle.h"

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

/* The doorbell: one store of the new producer index to BAR0. */
static inline void ring(struct engine *e)
{
	__atomic_store_n(&e->bar->sq_doorbell, ++e->sq_prod, __ATOMIC_RELEASE);
}

/* The doorbell with what an emulated host adds (struct engine's db_plain
 * clear): on a bus a posted MMIO write of 8 bytes, which reaches the NIC
 * that much later (engine_bus.c); the emulated doorbell's cost
 * (doorbell_ns). Off the path of a plain one: one test a put. */
static __attribute__((noinline)) void ring_emulated(struct engine *e, uint64_t t_db)
{
	if (e->bus_on)
		engine_bus_doorbell(e, ENGINE_BUS_SQ, t_db);
	ring(e);
	if (e->doorbell_cycles)
		eel_spin_cycles(e->doorbell_cycles);
}

/* A put: checked, its descriptor written, the doorbell rung (rec: its TX
 * trace record, opened at entry, or NULL). Inline into each of its callers,
 * the untraced ones (engine_put, put_sampled) with rec NULL and none of the record's code:
 * a put not traced (all but one in stamp_every) then keeps its arguments
 * in registers, where the record's call at entry made it save them (~20
 * instructions a put, tools/eel-cost). The connection's error and the
 * queue's room are looked at first, with the engine alone, and the
 * descriptor's fields that need no check written as soon as its slot is
 * known free, before the arguments are: fewer values held at once (7
 * instructions a put). The slot is the host's until the doorbell hands it
 * over, so a put refused after leaves nothing the NIC sees; when a put has
 * both a bad argument and a full queue or failed connection, the latter is
 * what it returns. */
static inline __attribute__((always_inline)) int put(struct eel_dev *dev, const struct eel_mr *lmr,
						     const void *src, size_t len, const struct eel_window *dst,
						     uint64_t dst_off, unsigned flags, uint64_t wr_id, uint32_t imm,
						     struct eel_trace *rec, uint32_t want)
{
	struct engine *e = ENGINE(dev);
	struct eel_fw_sqe *d;
	uint64_t t_db = 0;

	if (__builtin_expect(e->status->error != 0, 0))
		return conn_error(e);
	if (e->sq_prod - e->sq_cons_seen >= e->sq_depth) {
		e->sq_cons_seen = __atomic_load_n(&e->status->sq_cons, __ATOMIC_ACQUIRE);
		if (e->sq_prod - e->sq_cons_seen >= e->sq_depth)
			return eel_err(-EAGAIN, "send queue full (%u puts in flight): poll, then post again",
				       e->sq_depth);
	}
	d = &e->sq[e->sq_prod & (e->sq_depth - 1)];
	d->wr_id = wr_id;
	d->imm = imm;
	d->rkey = dst->rkey;
	d->raddr = dst->addr + dst_off;
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
	if ((flags & EEL_PUT_SIGNALED) && e->signaled_out >= e->sq_depth)
		return eel_err(-EAGAIN, "%u signalled puts not yet polled: poll their completions first",
			       e->signaled_out);

	d->opcode = EEL_FW_OP_PUT;
	d->flags = (uint8_t)((flags & EEL_PUT_SIGNALED ? EEL_FW_SQE_SIGNALED : 0) |
			     (flags & EEL_PUT_INLINE ? EEL_FW_SQE_INLINE : 0) |
			     (flags & EEL_PUT_NOTIFY ? EEL_FW_SQE_NOTIFY : 0));
	d->len = (uint32_t)len;
	d->laddr = (uintptr_t)src;
	d->lkey = lmr ? lmr->lkey : 0;
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
	if (__builtin_expect(!e->db_plain, 0))
		ring_emulated(e, t_db);
	else
		ring(e);
	if (rec)
		trace_stamp(rec, EEL_ST_DOORBELL_DONE);
	kick(e);
	return 0;
}

/* A traced put (one in stamp_every): its record opened, POST stamped, first. */
static __attribute__((noinline)) int put_traced(struct eel_dev *dev, const struct eel_mr *lmr, const void *src,
						size_t len, const struct eel_window *dst, uint64_t dst_off,
						unsigned flags, uint64_t wr_id, uint32_t imm, uint32_t want)
{
	struct eel_trace *rec = trace_tx_open(ENGINE(dev), want);

	return put(dev, lmr, src, len, dst, dst_off, flags, wr_id, imm, rec, want);
}

/* A put while stamping is on (stamp_every): traced when it is one of those
 * stamped. Off the path of a put with stamps off, which tests stamp_every
 * alone (3 instructions a put, tools/eel-cost). */
static __attribute__((noinline)) int put_sampled(struct eel_dev *dev, const struct eel_mr *lmr, const void *src,
						 size_t len, const struct eel_window *dst, uint64_t dst_off,
						 unsigned flags, uint64_t wr_id, uint32_t imm)
{
	struct engine *e = ENGINE(dev);
	uint32_t want = eel_stamp_want(e->stamp_every, &e->stamp_pos, &e->stamps);

	if (want)
		return put_traced(dev, lmr, src, len, dst, dst_off, flags, wr_id, imm, want);
	return put(dev, lmr, src, len, dst, dst_off, flags, wr_id, imm, NULL, 0);
}

int engine_put(struct eel_dev *dev, const struct eel_mr *lmr, const void *src, size_t len,
	       const struct eel_window *dst, uint64_t dst_off, unsigned flags, uint64_t wr_id, uint32_t imm)
{
	if (ENGINE(dev)->stamp_every)
		return put_sampled(dev, lmr, src, len, dst, dst_off, flags, wr_id, imm);
	return put(dev, lmr, src, len, dst, dst_off, flags, wr_id, imm, NULL, 0);
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

/* wait_seen's two, out of line: their calls' spills are not engine_wait_u64's
 * frame on a put seen with neither (2 instructions of its receive path). */
static __attribute__((noinline)) void seen_bus_or_stamp(struct engine *e)
{
	if (e->bus_on)
		engine_bus_observe(e); /* seen before the write's flight was over: wait it out */
	if (e->stamp_every)
		detected(e);
}

/* The put engine_wait_u64 waits for is seen. One test for the two that
 * have something to do, nearly never: a put seen costs one branch here. */
static inline int wait_seen(struct engine *e)
{
	if (__builtin_expect(e->bus_on | (int)e->stamp_every, 0))
		seen_bus_or_stamp(e);
	return 0;
}

/* engine_wait_u64 after a first look that did not see the put (got: what
 * the inline receive half found then). Its own function, with the wait's
 * state and clock (eel_wait_start): a put whose frame was waiting lands in
 * the first look without them (~40 instructions, and this frame's saves,
 * ~15, of its receive path). */
static __attribute__((noinline)) int wait_passes(struct eel_dev *dev, struct engine *e,
						 const volatile uint64_t *addr, uint64_t value, int got)
{
	struct eel_wait w;
	int rc, sending = 1;
	uint32_t pass = 0;

	eel_wait_start(dev, &w, "waiting for a put to land");
	e->idle_passes = 0; /* a wait spins IDLE_SPINS passes before it yields */
	for (;;) {
		/* inline: look at memory between the firmware's receive half and
		 * its send half, as soon as a frame can have landed. The send
		 * half runs on every pass while either half has work (frames in,
		 * which may open the window or want an ACK; packets, an ACK or a
		 * resend out) or the wire had no room for a packet (wire.full),
		 * else once in WAIT_SEND_PASSES: an idle send half
		 * between two looks at the wire delays seeing a frame. On a DPDK
		 * memif pair here, EEL - floor one way went from a median of 248
		 * ns to 135 (six runs each, alternated); the software NIC's EEL
		 * did not move. An idle NIC's timers are microseconds; a pass is
		 * tens of ns. */
		if (e->mode == ENGINE_INLINE) {
			if (got || sending || e->wire.full || !(++pass % WAIT_SEND_PASSES))
				sending = fw_doorbell(&e->fw);
			engine_idle(e, got | sending);
		} else {
			step(e);
		}
		if (*addr == value)
			return wait_seen(e);
		if ((rc = check(dev, e, &w)))
			return rc;
		if (e->mode == ENGINE_INLINE) {
			got = fw_receive(&e->fw);
			if (*addr == value)
				return wait_seen(e);
		}
	}
}

/* The first look, and inline the firmware's receive half once: a put whose
 * frame is waiting lands here. Only dev, addr and value are kept across
 * the firmware's call (the engine is found again from dev after it). */
int engine_wait_u64(struct eel_dev *dev, const volatile uint64_t *addr, uint64_t value)
{
	int got = 0;

	if (*addr == value)
		return wait_seen(ENGINE(dev));
	if (ENGINE(dev)->mode == ENGINE_INLINE) {
		got = fw_receive(&ENGINE(dev)->fw);
		if (*addr == value)
			return wait_seen(ENGINE(dev));
	}
	return wait_passes(dev, ENGINE(dev), addr, value, got);
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
	if ((s & 0x7f) == EEL_FW_ERR_REMOTE_ACCESS)
		return eel_err(-EREMOTEIO, "E-register operation refused by the peer's NIC: the window's key, "
			       "its bounds, or its access (an eget needs a window registered with "
			       "EEL_ACCESS_REMOTE_READ, an eput EEL_ACCESS_REMOTE_WRITE)");
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
