/* SPDX-License-Identifier: MIT */
/* bench/post.c — posting puts the way every test does: inline when it fits,
 * and waiting out a full send queue by polling. */
#include <errno.h>

#include "bench.h"
#include "post.h"

/* The peer, about once a millisecond of empty polls: a lost peer is named at
 * once, not after the timeout as missing completions. */
static int peer_lost_rc(struct session *s, uint64_t *next)
{
	uint64_t now = eel_cycles();

	/* a wait's first look at the peer comes after 1 ms without a
	 * completion, not at its first empty poll: the check is a system call
	 * (~0.7 us here), and a wait for each message (a flood at q=1, the
	 * CPU-overlap test) paid it every message: g(q=1) 1230 ns against 390
	 * at q=2, and o_s, o_r carried it */
	if (!*next)
		*next = now + (uint64_t)(s->clk->hz / 1000);
	if (now < *next)
		return 0;
	*next = now + (uint64_t)(s->clk->hz / 1000);
	return eel_peer_check(s->dev);
}

static int peer_lost(struct session *s, uint64_t *next, const char *what)
{
	return peer_lost_rc(s, next) ? bench_fail(what) : 0;
}

/* An 8-byte put of value to the peer's control slot. */
int put_slot(struct session *s, int slot, uint64_t value)
{
	uint64_t *src = SLOT(s, CTRL_SLOTS - 1);
	unsigned flags = 0;

	if (s->caps->max_inline >= 8) {
		src = &value;
		flags = EEL_PUT_INLINE;
	} else {
		*src = value;
	}
	return put_wait(s, s->ctrl_mr, src, 8, &s->peer_ctrl, (uint64_t)slot * 64, flags);
}

/* An unsignalled put, waiting out a full send queue: poll its completions,
 * and wait for it to drain through eel_quiet, whose wait is bounded by the
 * timeout and names a peer that vanished (polling alone spun for ever on a
 * stopped peer). */
int put_wait(struct session *s, const struct eel_mr *mr, const void *src, size_t len, const struct eel_window *dst,
	     uint64_t off, unsigned flags)
{
	int rc;

	while ((rc = eel_put(s->dev, mr, src, len, dst, off, flags, 0, 0)) == -EAGAIN)
		if (eel_poll(s->dev, (struct eel_cqe[8]){ 0 }, 8) < 0 || (rc = eel_quiet(s->dev)))
			break;
	return rc;
}

/* Wait until at least `want` completions arrived (an error completion is a
 * failure); returns how many, or -1. */
int poll_at_least(struct session *s, int want, const char *what)
{
	struct eel_cqe c[64];
	uint64_t end = eel_cycles() + (uint64_t)(s->clk->hz / 1000 * s->plan.timeout_ms), next = 0;
	int got = 0;

	while (got < want) {
		int n = eel_poll(s->dev, c, 64);

		if (n < 0)
			return bench_fail(what);
		for (int i = 0; i < n; i++)
			if (c[i].status)
				return bench_fail(what);
		got += n;
		if (!n && peer_lost(s, &next, what))
			return -1;
		if (!n && eel_cycles() > end) {
			fprintf(stderr, "eel-bench: %s: no completion for %u ms (%d of %d)\n", what,
				s->plan.timeout_ms, got, want);
			return -1;
		}
	}
	return got;
}

/* Completions of puts whose wr_id is their index, until the put before index
 * `target` completed: *completed becomes one past the newest index seen (a
 * reliable connection completes a queue's puts in order, so the newest says
 * all before it are done — selective signalling, flood.c). */
int poll_until(struct session *s, uint32_t *completed, uint32_t target, const char *what)
{
	struct eel_cqe c[64];
	uint64_t end = eel_cycles() + (uint64_t)(s->clk->hz / 1000 * s->plan.timeout_ms), next = 0;

	while (*completed < target) {
		int n = eel_poll(s->dev, c, 64);

		if (n < 0)
			return bench_fail(what);
		for (int i = 0; i < n; i++) {
			if (c[i].status)
				return bench_fail(what);
			if (c[i].wr_id + 1 > *completed)
				*completed = (uint32_t)c[i].wr_id + 1;
		}
		if (!n && peer_lost(s, &next, what))
			return -1;
		if (!n && eel_cycles() > end) {
			fprintf(stderr, "eel-bench: %s: no completion for %u ms (%u of %u)\n", what,
				s->plan.timeout_ms, *completed, target);
			return -1;
		}
	}
	return 0;
}
