/* SPDX-License-Identifier: MIT */
/* userlib/core/stamp_pick.c — which stamps a traced message takes.
 *
 * A message that took every stamp (nine reads and their records on one
 * message's path) was not the message eel measures: its stamped round trips
 * ran 15-50% longer than the unstamped ones, and a cost solved for to make
 * the parts add up to EEL hid it. So a traced message takes only a few
 * stamps (struct eel_trace's want), and the choices rotate, one a burst of
 * stamped messages (eel_stamp_want):
 *   - around stamp s (each but the first and the last the NIC takes): s and
 *     the stamps before and after it, p and n: the stages p..s and s..n;
 *   - the same without s: p and n alone. What s costs the path in place is
 *     how much longer the span p..n is with s in it (bench/breakdown.c),
 *     measured on messages of their own, never solved from EEL;
 *   - the first and the last (the whole one-way trip; at each end the
 *     host's turnaround).
 * Each also takes POST, by which the bench finds the message among the
 * round's; it comes before every other stamp and lengthens none of the
 * stages measured. Without one clock at both ends a span across them is
 * left out: it measures nothing.
 */
#include <eel/stamps.h>

#include "dev.h"

/* The stamp in mask before s (after it: dir 1), -1 if none. */
static int neighbour(uint32_t mask, int s, int dir)
{
	for (int t = s + dir; t >= 0 && t < EEL_ST_COMPLETE; t += dir)
		if (mask & (1u << t))
			return t;
	return -1;
}

/* Does the span a..b lie at one end, or is there one clock at both? */
static int one_clock(const struct eel_stamp_turn *t, int a, int b)
{
	return t->shared || b <= EEL_ST_NIC_TX || a >= EEL_ST_NIC_RX;
}

/* The k-th of the choices (k taken modulo their number). */
uint32_t eel_stamp_pick(const struct eel_stamp_turn *t, uint32_t k)
{
	uint32_t pick[2 * EEL_STAGES + 1], mask = t->mask & ((1u << EEL_ST_COMPLETE) - 1);
	int n = 0, first = neighbour(mask, -1, 1), last = neighbour(mask, EEL_ST_COMPLETE, -1);

	if (first < 0)
		return 0;
	for (int s = first + 1; s < last; s++) {
		int p = neighbour(mask, s, -1), x = neighbour(mask, s, 1);
		uint32_t around = (uint32_t)(s + 1) << EEL_TRACE_AROUND_SHIFT;

		if (!(mask & (1u << s)))
			continue;
		pick[n++] = 1u << p | 1u << s | 1u << x | around;
		if (one_clock(t, p, x))
			pick[n++] = 1u << p | 1u << x | around | EEL_TRACE_WITHOUT;
	}
	if (one_clock(t, first, last) || !n)
		pick[n++] = 1u << first | 1u << last;
	return pick[k % (uint32_t)n] | (mask & (1u << EEL_ST_POST)) | EEL_TRACE_CHOSEN;
}
