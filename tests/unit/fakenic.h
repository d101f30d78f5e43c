/* SPDX-License-Identifier: MIT */
/* tests/unit/fakenic.h — two firmwares in one process, on a fake HAL.
 *
 * The firmware (firmware/) is tested as a NIC would be on a test bench: each
 * `struct fn_nic` is one NIC with its own BAR0 (a struct eel_fw_bar in
 * memory), its host memory laid out as include/eel/fw_abi.h says (send queue,
 * completion queue, memory-region table, status block, trace records) and a
 * small host driver (post, poll, E-registers). Between two NICs is a wire the
 * test controls frame by frame (struct fn_link): frames sent wait in flight
 * until the receiver's firmware takes them; the test can drop, duplicate,
 * swap, corrupt or delay any of them, or let a seeded random policy do it.
 *
 * Time is a counter the test owns (fn_pair.now): a step of the pair moves it
 * by one tick, and a test can jump it (past an RTO, say).
 *
 * The HAL checks every DMA against the host memory the NIC may touch: its
 * own rings, status and traces, and the registered regions (reads: any valid
 * region; writes: regions with REMOTE_WRITE). A stray access is counted in
 * fn_nic.dma_violations and printed, or aborts when FN_TRAP_VIOLATIONS is
 * defined (the fuzzer).
 *
 * Everything here is static inline: several test programs include it.
 */
#ifndef EEL_TESTS_FAKENIC_H
#define EEL_TESTS_FAKENIC_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "firmware/fw_main.h"

#define FN_SQ 64u          /* send-queue entries */
#define FN_CQ_MAX 256u     /* completion-queue entries, at most */
#define FN_MR 8u           /* memory-region table entries */
#define FN_TR 16u          /* trace records per direction */
#define FN_QMAX 1024u      /* frames in flight on one link, storage */

struct fn_frame {
	uint8_t *buf;
	uint32_t len;
	uint64_t due;      /* the receiver may take it once now >= due */
};

/* One direction of the wire. */
struct fn_link {
	struct fn_frame q[FN_QMAX];
	uint32_t n;        /* frames in flight */
	uint32_t cap;      /* tx_alloc refuses while n >= cap */
	int taken;         /* index handed out by wire_rx, -1 if none */
	const uint64_t *now;
	uint8_t stage[FW_PKT_HDR + EEL_FW_MTU_MAX];
	/* the random policy, applied as frames are sent */
	double drop, dup, corrupt, delay;
	uint64_t delay_max;     /* ticks, for the frames chosen by `delay` */
	uint32_t corrupt_bytes; /* corrupt only bit positions below 8 * this (0: anywhere) */
	uint64_t rng;
	/* what happened */
	uint64_t sent, dropped, duplicated, corrupted, delayed, delivered;
};

struct fn_nic {
	const char *name;
	struct eel_fw_bar bar;
	struct fw fw;
	struct wire wire;  /* the firmware's frames: fn_wire_ops on this NIC's links */
	/* host memory the NIC reaches by DMA */
	struct eel_fw_sqe sq[FN_SQ];
	struct eel_fw_cqe cq[FN_CQ_MAX];
	struct eel_fw_mr mrt[FN_MR];
	struct eel_fw_status status;
	struct eel_trace trace[2 * FN_TR];
	/* the host driver */
	uint32_t cq_size;
	uint64_t sq_prod, cq_cons, ereg_db;
	uint32_t ereg_seq[EEL_FW_EREGS];
	struct fn_link *tx, *rx;
	const uint64_t *now;
	int dma_violations;
	struct fn_read { uint64_t bus, due; uint32_t len, pending; } rd[FW_HAL_READS]; /* by tag */
	uint32_t rd_out, rd_out_max; /* reads issued and not waited for; the most at once */
	uint64_t rd_ticks;  /* a read is in this many ticks after its issue (0: at once) */
	uint64_t rd_watch;  /* a bus address: the packets this NIC had sent when a read of it */
	uint64_t rd_watch_tx; /* was first issued, plus one (0: none yet) */
	uint64_t ereg_cmd_reads; /* the firmware's reads of an E-register's cmd */
};

struct fn_pair {
	uint64_t now;
	struct fn_nic a, b;
	struct fn_link ab, ba;   /* a -> b, b -> a */
};

/* ---- randomness (xorshift64*, Vigna 2016) ---- */

static inline uint64_t fn_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1Dull;
}

static inline double fn_rand01(uint64_t *s)
{
	return (double)(fn_rand(s) >> 11) * (1.0 / 9007199254740992.0);
}

/* ---- the wire ---- */

static inline void fn_link_remove(struct fn_link *l, uint32_t i)
{
	free(l->q[i].buf);
	memmove(&l->q[i], &l->q[i + 1], (l->n - i - 1) * sizeof(l->q[0]));
	l->n--;
}

static inline void fn_link_insert(struct fn_link *l, uint32_t at, const void *buf, uint32_t len,
				  uint64_t due)
{
	struct fn_frame f = { malloc(len ? len : 1), len, due };

	if (!f.buf || l->n == FN_QMAX) {
		fprintf(stderr, "fakenic: link storage full\n");
		abort();
	}
	memcpy(f.buf, buf, len);
	memmove(&l->q[at + 1], &l->q[at], (l->n - at) * sizeof(l->q[0]));
	l->q[at] = f;
	l->n++;
}

/* Test controls: act on frame i of those in flight (0 = oldest). */
static inline void fn_drop(struct fn_link *l, uint32_t i) { fn_link_remove(l, i); }

static inline void fn_dup(struct fn_link *l, uint32_t i)
{
	fn_link_insert(l, i + 1, l->q[i].buf, l->q[i].len, l->q[i].due);
}

static inline void fn_swap(struct fn_link *l, uint32_t i, uint32_t j)
{
	struct fn_frame t = l->q[i];

	l->q[i] = l->q[j];
	l->q[j] = t;
}

static inline void fn_flip(struct fn_link *l, uint32_t i, uint32_t bit)
{
	l->q[i].buf[bit / 8] ^= (uint8_t)(1u << (bit % 8));
}

static inline void fn_delay(struct fn_link *l, uint32_t i, uint64_t until)
{
	l->q[i].due = until;
}

/* The header of frame i, as sent (no checks). */
static inline struct fw_pkt fn_hdr(const struct fn_link *l, uint32_t i)
{
	struct fw_pkt p;

	memcpy(&p, l->q[i].buf, sizeof(p));
	return p;
}

static inline void fn_link_clear(struct fn_link *l)
{
	while (l->n)
		fn_link_remove(l, l->n - 1);
}

/* ---- the HAL ---- */

static inline int fn_inside(uint64_t bus, uint32_t len, const void *base, size_t size)
{
	uint64_t b = (uint64_t)(uintptr_t)base;

	return bus >= b && len <= size && bus - b <= size - len;
}

/* May the NIC DMA len bytes at bus? write: may it write there? */
static inline int fn_dma_ok(const struct fn_nic *n, uint64_t bus, uint32_t len, int write)
{
	if (write ? fn_inside(bus, len, n->cq, sizeof(n->cq)) || fn_inside(bus, len, &n->status, sizeof(n->status)) ||
		    fn_inside(bus, len, n->trace, sizeof(n->trace))
		  : fn_inside(bus, len, n->sq, sizeof(n->sq)) || fn_inside(bus, len, n->mrt, sizeof(n->mrt)))
		return 1;
	for (uint32_t i = 0; i < FN_MR; i++) {
		const struct eel_fw_mr *m = &n->mrt[i];
		uint32_t need = write ? EEL_FW_MR_REMOTE_WRITE : EEL_FW_MR_LOCAL_READ | EEL_FW_MR_REMOTE_READ;

		if ((m->access & EEL_FW_MR_VALID) && (m->access & need) &&
		    fn_inside(bus, len, (const void *)(uintptr_t)m->addr, m->len))
			return 1;
	}
	return 0;
}

static inline void fn_violation(struct fn_nic *n, const char *what, uint64_t bus, uint32_t len)
{
	n->dma_violations++;
	fprintf(stderr, "fakenic %s: %s of %u bytes at 0x%llx is outside the NIC's host memory\n",
		n->name, what, len, (unsigned long long)bus);
#ifdef FN_TRAP_VIOLATIONS
	abort();
#endif
}

static inline uint64_t fn_hal_now(void *ctx)
{
	return *((struct fn_nic *)ctx)->now;
}

static inline void fn_reg_check(struct fn_nic *n, uint32_t off, uint32_t size)
{
	if (off % size || off + size > sizeof(n->bar)) {
		fprintf(stderr, "fakenic %s: register access of %u bytes at 0x%x\n", n->name, size, off);
		abort();
	}
}

static inline uint32_t fn_reg_read32(void *ctx, uint32_t off)
{
	struct fn_nic *n = ctx;
	uint32_t v;

	fn_reg_check(n, off, 4);
	if (off >= offsetof(struct eel_fw_bar, ereg) && off < offsetof(struct eel_fw_bar, ereg) + sizeof(n->bar.ereg) &&
	    (off - offsetof(struct eel_fw_bar, ereg)) % sizeof(struct eel_fw_ereg) == offsetof(struct eel_fw_ereg, cmd))
		n->ereg_cmd_reads++;
	memcpy(&v, (uint8_t *)&n->bar + off, 4);
	return v;
}

static inline uint64_t fn_reg_read64(void *ctx, uint32_t off)
{
	struct fn_nic *n = ctx;
	uint64_t v;

	fn_reg_check(n, off, 8);
	memcpy(&v, (uint8_t *)&n->bar + off, 8);
	return v;
}

static inline void fn_reg_write32(void *ctx, uint32_t off, uint32_t v)
{
	struct fn_nic *n = ctx;

	fn_reg_check(n, off, 4);
	memcpy((uint8_t *)&n->bar + off, &v, 4);
}

static inline void fn_reg_write64(void *ctx, uint32_t off, uint64_t v)
{
	struct fn_nic *n = ctx;

	fn_reg_check(n, off, 8);
	memcpy((uint8_t *)&n->bar + off, &v, 8);
}

/* A read in flight until the firmware waits for it (hal.h): the data is
 * taken at the wait, so a firmware that used it before would see it stale.
 * More than FW_HAL_READS in flight, or a tag waited for twice or never
 * issued, is a violation. */
static inline uint32_t fn_dma_read_issue(void *ctx, uint64_t bus, uint32_t len);
static inline void fn_dma_read_wait(void *ctx, uint32_t tag, void *dst);

/* One read, waited for: the two calls back to back. */
static inline void fn_dma_read(void *ctx, void *dst, uint64_t bus, uint32_t len)
{
	fn_dma_read_wait(ctx, fn_dma_read_issue(ctx, bus, len), dst);
}

static inline uint32_t fn_dma_read_issue(void *ctx, uint64_t bus, uint32_t len)
{
	struct fn_nic *n = ctx;
	uint32_t tag = 0;

	while (tag < FW_HAL_READS && n->rd[tag].pending)
		tag++;
	if (tag == FW_HAL_READS) {
		fn_violation(n, "DMA read past FW_HAL_READS in flight", bus, len);
		return 0;
	}
	if (++n->rd_out > n->rd_out_max)
		n->rd_out_max = n->rd_out;
	n->rd[tag] = (struct fn_read){ .bus = bus, .due = *n->now + n->rd_ticks, .len = len, .pending = 1 };
	if (bus == n->rd_watch && !n->rd_watch_tx)
		n->rd_watch_tx = n->bar.counters[EEL_FW_CNT_TX_PKTS] + 1;
	return tag;
}

/* The fake NIC's reads are in rd_ticks after their issue (a wait for one
 * not in takes it at once: the fake's time moves only between steps). */
static inline int fn_dma_read_done(void *ctx, uint32_t tag)
{
	const struct fn_nic *n = ctx;

	return *n->now >= n->rd[tag % FW_HAL_READS].due;
}

static inline void fn_dma_read_wait(void *ctx, uint32_t tag, void *dst)
{
	struct fn_nic *n = ctx;
	struct fn_read *r = &n->rd[tag % FW_HAL_READS];

	if (tag >= FW_HAL_READS || !r->pending) {
		fn_violation(n, "DMA read waited for twice or never issued", r->bus, r->len);
		return;
	}
	r->pending = 0;
	n->rd_out--;
	if (!fn_dma_ok(n, r->bus, r->len, 0)) {
		fn_violation(n, "DMA read", r->bus, r->len);
		if (dst)
			memset(dst, 0, r->len);
		return;
	}
	if (dst)
		memcpy(dst, (const void *)(uintptr_t)r->bus, r->len);
}

static inline void fn_dma_write(void *ctx, uint64_t bus, const void *src, uint32_t len)
{
	struct fn_nic *n = ctx;

	if (!fn_dma_ok(n, bus, len, 1)) {
		fn_violation(n, "DMA write", bus, len);
		return;
	}
	memcpy((void *)(uintptr_t)bus, src, len);
}

static inline void *fn_tx_alloc(void *ctx, uint32_t len)
{
	struct fn_link *l = ((struct fn_nic *)ctx)->tx;

	if (!l || l->n >= l->cap || len > sizeof(l->stage))
		return NULL;
	return l->stage;
}

static inline void fn_tx_send(void *ctx, void *frame, uint32_t len)
{
	struct fn_link *l = ((struct fn_nic *)ctx)->tx;
	uint64_t due = *l->now;

	l->sent++;
	if (l->drop > 0 && fn_rand01(&l->rng) < l->drop) {
		l->dropped++;
		return;
	}
	if (l->delay > 0 && fn_rand01(&l->rng) < l->delay) {
		due += 1 + fn_rand(&l->rng) % (l->delay_max ? l->delay_max : 1);
		l->delayed++;
	}
	fn_link_insert(l, l->n, frame, len, due);
	if (l->corrupt > 0 && fn_rand01(&l->rng) < l->corrupt) {
		uint32_t bytes = l->corrupt_bytes && l->corrupt_bytes < len ? l->corrupt_bytes : len;

		fn_flip(l, l->n - 1, (uint32_t)(fn_rand(&l->rng) % (8ull * bytes)));
		l->corrupted++;
	}
	if (l->dup > 0 && fn_rand01(&l->rng) < l->dup) {
		fn_dup(l, l->n - 1);
		l->duplicated++;
	}
}

static inline const void *fn_rx(void *ctx, uint32_t *len)
{
	struct fn_link *l = ((struct fn_nic *)ctx)->rx;

	if (!l)
		return NULL;
	for (uint32_t i = 0; i < l->n; i++)
		if (l->q[i].due <= *l->now) {
			l->taken = (int)i;
			*len = l->q[i].len;
			return l->q[i].buf;
		}
	return NULL;
}

static inline int fn_rx_done(void *ctx)
{
	struct fn_link *l = ((struct fn_nic *)ctx)->rx;

	if (l->taken < 0) {
		fprintf(stderr, "fakenic: wire_rx_done without wire_rx\n");
		abort();
	}
	fn_link_remove(l, (uint32_t)l->taken);
	l->taken = -1;
	l->delivered++;
	return 1; /* fn_rx looks for the next frame due */
}

static const struct fw_hal_ops fn_hal_ops = {
	.now = fn_hal_now,
	.reg_read32 = fn_reg_read32,
	.reg_read64 = fn_reg_read64,
	.reg_write32 = fn_reg_write32,
	.reg_write64 = fn_reg_write64,
	.dma_read = fn_dma_read,
	.dma_read_issue = fn_dma_read_issue,
	.dma_read_wait = fn_dma_read_wait,
	.dma_read_done = fn_dma_read_done,
	.dma_write = fn_dma_write,
};

static const struct wire_ops fn_wire_ops = {
	.tx_alloc = fn_tx_alloc,
	.tx_send = fn_tx_send,
	.rx = fn_rx,
	.rx_done = fn_rx_done,
};

/* ---- the host driver ---- */

struct fn_config {
	uint32_t cq_size;       /* power of two, <= FN_CQ_MAX */
	uint32_t mtu;
	uint64_t rto;           /* ticks: the initial timeout (RFC 6298 §2.1) */
	uint64_t rto_min;       /* ticks: its floor (§2.4); 0: rto, a timer that stays at rto until it backs off */
	uint32_t retry_limit;
	uint32_t recovery;      /* enum eel_fw_recovery */
	int direct;             /* the HAL's registers are the BAR itself and DMA a copy (hal.h: regs,
				 * dma_direct), as the engine's without a bus: no DMA is checked then */
};

static inline struct fn_config fn_defaults(void)
{
	struct fn_config c = { .cq_size = FN_CQ_MAX, .mtu = 256, .rto = 100, .retry_limit = 0 };

	return c;
}

/* The host's half of bring-up (fw_abi.h): configure, enable, link up. */
static inline void fn_nic_config(struct fn_nic *n, const char *name, const uint64_t *now, struct fn_link *tx,
				 struct fn_link *rx, const struct fn_config *c)
{
	n->name = name;
	n->now = now;
	n->tx = tx;
	n->rx = rx;
	n->wire = (struct wire){ .ops = &fn_wire_ops, .ctx = n };
	n->cq_size = c->cq_size;
	n->bar.sq_base = (uintptr_t)n->sq;
	n->bar.sq_size = FN_SQ;
	n->bar.cq_base = (uintptr_t)n->cq;
	n->bar.cq_size = c->cq_size;
	n->bar.mr_base = (uintptr_t)n->mrt;
	n->bar.mr_size = FN_MR;
	n->bar.status_base = (uintptr_t)&n->status;
	n->bar.trace_base = (uintptr_t)n->trace;
	n->bar.trace_size = FN_TR;
	n->bar.mtu = c->mtu;
	n->bar.rto = c->rto;
	n->bar.rto_min = c->rto_min ? c->rto_min : c->rto;
	n->bar.retry_limit = c->retry_limit;
	n->bar.recovery = c->recovery;
	n->bar.ctrl = EEL_FW_CTRL_ENABLE | EEL_FW_CTRL_LINK;
}

/* Power on, then configure. */
static inline void fn_nic_init(struct fn_nic *n, const char *name, const uint64_t *now, struct fn_link *tx,
			       struct fn_link *rx, const struct fn_config *c)
{
	struct fw_hal hal = { .ops = &fn_hal_ops, .ctx = n, .wire = &n->wire,
			      .regs = c->direct ? (void *)&n->bar : NULL, .dma_direct = c->direct };

	fw_reset(&n->fw, &hal);
	fn_nic_config(n, name, now, tx, rx, c);
}

static inline void fn_link_init(struct fn_link *l, const uint64_t *now, uint64_t seed)
{
	l->now = now;
	l->cap = 512;
	l->taken = -1;
	l->rng = seed * 0x9E3779B97F4A7C15ull + 1;
}

static inline struct fn_pair *fn_pair_new(const struct fn_config *c)
{
	struct fn_pair *p = calloc(1, sizeof(*p));

	if (!p)
		abort();
	p->now = 1000;
	fn_link_init(&p->ab, &p->now, 1);
	fn_link_init(&p->ba, &p->now, 2);
	fn_nic_init(&p->a, "a", &p->now, &p->ab, &p->ba, c);
	fn_nic_init(&p->b, "b", &p->now, &p->ba, &p->ab, c);
	return p;
}

static inline void fn_pair_free(struct fn_pair *p)
{
	fn_link_clear(&p->ab);
	fn_link_clear(&p->ba);
	free(p);
}

/* One pass of each firmware, then a tick. Non-zero when either did work. */
static inline int fn_step(struct fn_pair *p)
{
	int w = fw_step(&p->a.fw);

	w |= fw_step(&p->b.fw);
	p->now++;
	return w;
}

/* Step until both NICs are idle and nothing is in flight, at most max steps;
 * returns the steps taken. A jump in time lets a pending timer fire: idle
 * means idle for longer than the firmware goes between two reads of its
 * timer's clock (FW_TIMER_PASSES each): a lone ACK's repeat is due at the
 * second (fw_recv.c). */
static inline int fn_settle(struct fn_pair *p, int max)
{
	int i, idle = 0;

	for (i = 0; i < max; i++) {
		if (fn_step(p) || p->ab.n || p->ba.n)
			idle = 0;
		else if (++idle > 2 * (int)FW_TIMER_PASSES + 3)
			break;
	}
	return i;
}

/* Register [addr, addr + len) as region idx (1 .. FN_MR-1); returns its key. */
static inline uint32_t fn_mr(struct fn_nic *n, uint32_t idx, const void *addr, uint64_t len, uint32_t access)
{
	uint32_t tag = (idx * 37u + 5u) & 0xffu;

	n->mrt[idx].addr = (uintptr_t)addr;
	n->mrt[idx].len = len;
	n->mrt[idx].tag = tag;
	n->mrt[idx].access = EEL_FW_MR_VALID | access;
	n->bar.mr_gen++;
	return EEL_FW_KEY(idx, tag);
}

static inline void fn_mr_invalidate(struct fn_nic *n, uint32_t idx)
{
	n->mrt[idx].access = 0;
	n->bar.mr_gen++;
}

static inline int fn_sq_full(const struct fn_nic *n)
{
	return n->sq_prod - n->status.sq_cons >= FN_SQ;
}

/* Post one descriptor and ring the doorbell: 0, or -1 when the SQ is full. */
static inline int fn_post(struct fn_nic *n, const struct eel_fw_sqe *d)
{
	if (fn_sq_full(n))
		return -1;
	n->sq[n->sq_prod % FN_SQ] = *d;
	n->bar.sq_doorbell = ++n->sq_prod;
	return 0;
}

/* A put descriptor: inline when flags say so (src then holds the payload). */
static inline struct eel_fw_sqe fn_put_desc(uint32_t lkey, const void *src, uint32_t len, uint32_t rkey,
					     const void *dst, uint8_t flags, uint64_t wr_id, uint32_t imm)
{
	struct eel_fw_sqe d = {
		.opcode = EEL_FW_OP_PUT, .flags = flags, .len = len, .wr_id = wr_id,
		.laddr = (uintptr_t)src, .lkey = lkey, .rkey = rkey, .raddr = (uintptr_t)dst, .imm = imm,
	};

	if ((flags & EEL_FW_SQE_INLINE) && src)
		memcpy(d.inline_data, src, len < EEL_FW_MAX_INLINE ? len : EEL_FW_MAX_INLINE);
	return d;
}

/* The next completion, if the NIC has written it (owner bit of this pass). */
static inline int fn_poll(struct fn_nic *n, struct eel_fw_cqe *out)
{
	const struct eel_fw_cqe *e = &n->cq[n->cq_cons & (n->cq_size - 1)];
	uint32_t owner = (uint32_t)(((n->cq_cons / n->cq_size) + 1) & 1);

	if (e->owner != owner)
		return 0;
	*out = *e;
	n->bar.cq_doorbell = ++n->cq_cons;
	return 1;
}

/* Issue E-register command op on register i; returns the sequence number. */
static inline uint32_t fn_ereg(struct fn_nic *n, uint32_t i, uint32_t op, uint32_t rkey, const void *raddr,
			       uint64_t value)
{
	struct eel_fw_ereg *r = &n->bar.ereg[i];
	uint32_t seq = n->ereg_seq[i] = (n->ereg_seq[i] + 1) & 0xffffff;

	r->value = value;
	r->raddr = (uintptr_t)raddr;
	r->rkey = rkey;
	r->cmd = seq << 8 | op;
	n->bar.ereg_doorbell = ++n->ereg_db;
	return seq;
}

/* The E-register's answer: -1 while not done, else its status code. */
static inline int fn_ereg_status(const struct fn_nic *n, uint32_t i)
{
	uint32_t s = n->bar.ereg[i].status;

	if ((s >> 8) != n->ereg_seq[i] || !(s & EEL_FW_EREG_DONE))
		return -1;
	return (int)(s & 0x7f);
}

static inline uint64_t fn_counter(const struct fn_nic *n, int c)
{
	return n->bar.counters[c];
}

#endif
