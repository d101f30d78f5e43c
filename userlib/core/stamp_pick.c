/* userlib/core/stamp_pick.c — which stamps a traced message takes.
 *
 * A message that took every stamp (nine reads and their records on one
 * message's path) was not the message eel measures: its stamped round trips
 * ran 15-50% longer than the unstamped ones, and a cost solved for to make
 * the parts add up to EEL hid it. So a traced message takes only the two
 * stamps that bound one stage, or the first and the last (the one-way trip,
 * and at each end the host's turnaround), or one stamp read twice back to
 * back (EEL_TRACE_NULL): the null interval, what a stamp adds to the stage it
 * begins at that place on that path, measured beside the stages and taken
 * off them (bench/breakdown.c), never solved from EEL. Each also takes POST
 * (struct eel_trace). The choices rotate,
 * one a burst of stamped messages (eel_stamp_want), so that every stage is
 * measured on messages that carry nothing else.
 */
#include <eel/stamps.h>

#include "dev.h"

/* The k-th of the choices (k taken modulo their number): pairs of
 * consecutive stamps, POST..DETECT, (across the ends only with one clock);
 * the first and the last; each stamp the host pays for, twice. Each takes
 * POST too, by which the bench finds the message among the round's (it
 * comes before every other stamp, so it lengthens none of the stages). */
uint32_t eel_stamp_pick(const struct eel_stamp_turn *t, uint32_t k)
{
	uint32_t pick[2 * EEL_STAGES + 1], mask = t->mask & ((1u << EEL_ST_COMPLETE) - 1);
	int n = 0, prev = -1, first = -1;

	for (int s = 0; s < EEL_ST_COMPLETE; s++) {
		if (!(mask & (1u << s)))
			continue;
		if (prev >= 0 && (t->shared || s <= EEL_ST_NIC_TX || prev >= EEL_ST_NIC_RX))
			pick[n++] = 1u << prev | 1u << s;
		first = first < 0 ? s : first;
		prev = s;
	}
	if (first >= 0 && prev > first && !(n && pick[n - 1] == (1u << first | 1u << prev)))
		pick[n++] = 1u << first | 1u << prev;
	for (int s = 0; s < EEL_ST_COMPLETE; s++)
		if ((mask & ~t->free) & (1u << s))
			pick[n++] = 1u << s | EEL_TRACE_NULL;
	return n ? pick[k % (uint32_t)n] | (mask & (1u << EEL_ST_POST)) | EEL_TRACE_CHOSEN : 0;
}
