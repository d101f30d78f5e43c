/* SPDX-License-Identifier: MIT */
/* userlib/core/wait.c — every blocking loop's deadline and peer watch. */
#include <errno.h>

#include "userlib/core/dev.h"

void eel_wait_start(struct eel_dev *dev, struct eel_wait *w, const char *what)
{
	uint64_t now = eel_stamp();

	w->end = now + dev->timeout_cycles;
	w->next = now + (uint64_t)(eel_clock()->hz / 1000);
	w->heard = 0;
	w->spins = 0;
	w->what = what;
}

void eel_wait_heard(struct eel_dev *dev, struct eel_wait *w, uint64_t heard)
{
	if (heard != w->heard) {
		w->heard = heard;
		w->end = eel_stamp() + dev->timeout_cycles;
	}
}

/* The slow path, every 256 spins: the clock, and about every ms the peer. */
int eel_wait_slow(struct eel_dev *dev, struct eel_wait *w)
{
	uint64_t now = eel_stamp();
	const struct eel_clock *c = eel_clock();

	if (now >= w->end)
		return eel_err(-ETIMEDOUT, "%s: nothing heard from the peer for %u ms: is it running and "
			       "connected? (raise the limit with timeout_ms=)", w->what, dev->opts.timeout_ms);
	if (now >= w->next) {
		w->next = now + (uint64_t)(c->hz / 1000);
		if (dev->oob && eel_oob_peer_gone(dev->oob))
			return eel_err(-ECONNRESET, "%s: the peer's process is gone (the %s: its out-of-band "
				       "connection closed): check the %s's output", w->what,
				       eel_oob_peer_role(dev->oob), eel_oob_peer_role(dev->oob));
	}
	return 0;
}
