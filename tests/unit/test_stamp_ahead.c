/* SPDX-License-Identifier: MIT */
/* tests/unit/test_stamp_ahead.c — a burst's stamp choice made ahead
 * (userlib/core/dev.h, eel_stamp_ahead, after each put has gone) gives the
 * traced puts the same stamps, in the same order, as the choice made when
 * the burst's first put asks for it (eel_stamp_want alone), on a NIC with
 * one clock at both ends and on one without; and none when stamping is off. */
#include "check.h"
#include "userlib/core/dev.h"

#define PUTS 2000

static void same_choices(uint32_t mask, int shared, uint32_t every)
{
	struct eel_stamp_turn late = { .mask = mask, .shared = shared }, early = late;
	uint32_t pos_late = 0, pos_early = 0, traced = 0, bursts = 0;

	for (int i = 0; i < PUTS; i++) {
		uint32_t a = eel_stamp_want(every, &pos_late, &late);
		uint32_t b = eel_stamp_want(every, &pos_early, &early);

		eel_stamp_ahead(&early); /* after the put, as put_sampled does */
		CHECK(a == b, "mask %#x shared %d every %u, put %d: want %#x made ahead, %#x made late", mask, shared,
		      every, i, b, a);
		traced += a != 0;
		bursts += a != 0 && (i % every) == 0;
	}
	CHECK(traced == bursts * EEL_STAMP_BURST || every < EEL_STAMP_BURST,
	      "every %u: %u traced puts in %u bursts", every, traced, bursts);
	CHECK(early.next != 0, "no choice made ahead for the next burst");
}

int main(void)
{
	uint32_t all = (1u << EEL_ST_COMPLETE) - 1;

	same_choices(all, 1, 15);
	same_choices(all, 0, 15);
	same_choices(all, 1, 78);
	same_choices(all & ~(1u << EEL_ST_NIC_FETCH), 1, 8);
	{
		struct eel_stamp_turn t = { .mask = all, .shared = 1 };
		uint32_t pos = 0;

		CHECK(eel_stamp_want(0, &pos, &t) == 0, "stamping off, yet a put traced");
	}
	CHECK_DONE();
}
