/* SPDX-License-Identifier: MIT */
/* userlib/core/dev.h — inside libeel: a device, and what a backend provides.
 *
 * eel.c dispatches every public call to the device's backend. A backend is
 * a folder (userlib/<name>/) whose backend_<name>.c fills a struct
 * eel_backend; registry.c lists them.
 */
#ifndef EEL_USERLIB_DEV_H
#define EEL_USERLIB_DEV_H

#include <eel/eel.h>

#include "userlib/core/uri.h"

struct eel_backend {
	const char *scheme;  /* the URI scheme it answers to */
	int (*open)(struct eel_dev *dev, struct eel_uri *uri);
	void (*close)(struct eel_dev *dev);
	/* connection information for the peer; `server` is the OOB role */
	int (*conn_info)(struct eel_dev *dev, int server, void *buf, uint32_t cap, uint32_t *len);
	int (*connect)(struct eel_dev *dev, int server, const void *peer, uint32_t len,
		       struct eel_oob *oob);
	int (*mr_reg)(struct eel_dev *dev, struct eel_mr *mr, unsigned access);
	int (*mr_dereg)(struct eel_dev *dev, struct eel_mr *mr);
	int (*put)(struct eel_dev *dev, const struct eel_mr *lmr, const void *src, size_t len,
		   const struct eel_window *dst, uint64_t dst_off, unsigned flags, uint64_t wr_id,
		   uint32_t imm);
	int (*eput)(struct eel_dev *dev, const struct eel_window *dst, uint64_t off, uint64_t v);
	int (*eget)(struct eel_dev *dev, const struct eel_window *src, uint64_t off, uint64_t *v);
	int (*poll)(struct eel_dev *dev, struct eel_cqe *cqe, int max);
	int (*quiet)(struct eel_dev *dev);
	int (*wait_u64)(struct eel_dev *dev, const volatile uint64_t *addr, uint64_t value);
	int (*progress)(struct eel_dev *dev);
	int (*floor)(struct eel_dev *dev, int server, uint32_t iters, double *one_way_ns);
	void (*set_stamp_every)(struct eel_dev *dev, uint32_t every);
	int (*trace_drain)(struct eel_dev *dev, enum eel_trace_dir dir, struct eel_trace *out, int max);
	int (*counters)(struct eel_dev *dev, struct eel_counter *out, int max);
	/* what the NIC is and which versions drive it (eel_nic_info: the core
	 * has filled device and eel_commit, the rest is zero) */
	int (*nic_info)(struct eel_dev *dev, struct eel_nic_info *info);
};

struct eel_dev {
	const struct eel_backend *be;
	struct eel_caps caps;
	struct eel_opts opts;
	uint64_t timeout_cycles;  /* opts.timeout_ms on the cycle counter */
	struct eel_oob *oob;      /* the peer's channel, watched for its death */
	int connected;
	void *priv;               /* the backend's */
};

/* Errors: set this thread's message and return code (negative errno). */
int eel_err(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Whether [addr, addr + len) is memory this process has mapped, readable
 * (and writable when write): 0, or -EFAULT (-EINVAL for a range that wraps)
 * with the message naming call and the first byte that is not
 * (mem_check.c). */
int eel_mem_check(const void *addr, size_t len, int write, const char *call);

/* A blocking loop's deadline and peer watch (wait.c). Call eel_wait_start
 * once, then eel_wait_check every iteration: it is cheap, and every ~1 ms it
 * looks at the clock and the peer. */
struct eel_wait {
	uint64_t end;       /* cycle count at which the call gives up */
	uint64_t next;      /* next time to look at the peer */
	uint64_t heard;     /* what the NIC had received when last looked */
	uint32_t spins;
	const char *what;   /* what is waited for, for the message */
};

void eel_wait_start(struct eel_dev *dev, struct eel_wait *w, const char *what);
int eel_wait_slow(struct eel_dev *dev, struct eel_wait *w);
/* The peer was heard from (received counts `heard` things so far): a wait
 * gives up only after timeout_ms of silence, not of a long exchange. */
void eel_wait_heard(struct eel_dev *dev, struct eel_wait *w, uint64_t heard);

static inline int eel_wait_check(struct eel_dev *dev, struct eel_wait *w)
{
	if (++w->spins & 255)
		return 0;
	return eel_wait_slow(dev, w);
}

/* Is this message one to stamp: the first EEL_STAMP_BURST of every `every`
 * (0: none)? *pos counts through the period, no division (a 64-bit modulo on
 * every put cost EEL ~5%); *pos = 0 starts a period, its first stamped. */
static inline int eel_stamp_due(uint32_t every, uint32_t *pos)
{
	uint32_t p = *pos;

	if (!every)
		return 0;
	*pos = p + 1 >= every ? 0 : p + 1;
	return p < EEL_STAMP_BURST;
}

/* Which stamps a traced message takes (struct eel_trace's want), one choice
 * a burst, in turn (stamp_pick.c): mask, the stamps this NIC takes; shared,
 * both ends stamp with one clock (a span across the ends measures
 * something). */
struct eel_stamp_turn {
	uint32_t mask;
	int shared;
	uint32_t turn;      /* how many choices made */
	uint32_t want;      /* this burst's */
};

uint32_t eel_stamp_pick(const struct eel_stamp_turn *t, uint32_t k);

/* eel_stamp_due, and the stamps of the message: 0 = not stamped. */
static inline uint32_t eel_stamp_want(uint32_t every, uint32_t *pos, struct eel_stamp_turn *t)
{
	uint32_t p = *pos;

	if (!eel_stamp_due(every, pos))
		return 0;
	if (!t->mask) /* not set up (eel_set_stamp_every): every stamp */
		return EEL_TRACE_CHOSEN | EEL_TRACE_STAMPS;
	if (!p || !t->want)
		t->want = eel_stamp_pick(t, t->turn++);
	return t->want;
}

/* oob.c: does the peer's end of the channel still exist? */
int eel_oob_peer_gone(struct eel_oob *oob);
/* "server" or "client": the other end's role. */
const char *eel_oob_peer_role(const struct eel_oob *oob);
int eel_oob_is_server(const struct eel_oob *oob);

#endif
