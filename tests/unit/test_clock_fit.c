/* SPDX-License-Identifier: MIT */
/* tests/unit/test_clock_fit.c — the calibration maths (eel_clock_fit,
 * userlib/core/clock.c): the least-squares slope of the counter (each sample's
 * bracket midpoint) against CLOCK_MONOTONIC_RAW ns, in Hz, recovered exactly
 * from synthetic samples with known answers; and the counter's step
 * (eel_clock_step), whole or not, from synthetic deltas between reads. */
#include "check.h"
#include <eel/cycles.h>

/* n samples of a counter running at hz_num/hz_den GHz, from counter c0 and
 * time t0, one every step_ns, each bracketed by a read before and after the
 * clock of width w[i] (centred on the true value). */
static void make(struct eel_clock_sample *s, int n, uint64_t c0, int64_t t0, int64_t step_ns, uint64_t num,
		 uint64_t den, const uint64_t *w)
{
	for (int i = 0; i < n; i++) {
		int64_t ns = t0 + i * step_ns;
		uint64_t mid = c0 + (uint64_t)(i * step_ns) * num / den;

		s[i].ns = ns;
		s[i].c0 = mid - w[i % 4] / 2;
		s[i].c1 = mid + w[i % 4] / 2;
	}
}

#define STEPPED_N 400

/* Deltas between pairs of reads of a counter that advances by step cycles,
 * each read rounded to a whole cycle: round(k * step + phase) for a phase
 * and a first tick that vary from pair to pair, 1 to 5 steps of work
 * between the reads. With odd_every, every odd_every-th delta is an
 * interrupt's instead: a long one, any number of cycles. */
static void stepped(uint64_t *d, double step, int odd_every)
{
	for (int i = 0; i < STEPPED_N; i++) {
		double phase = (double)(i * 37 % 100) / 100;
		double k0 = 1000 + 13 * i, work = 1 + i * 7 % 5;
		uint64_t a = (uint64_t)(k0 * step + phase + 0.5);
		uint64_t b = (uint64_t)((k0 + work) * step + phase + 0.5);

		d[i] = odd_every && i % odd_every == 0 ? 1000 + 37 * (uint64_t)i : b - a;
	}
}

int main(void)
{
	static const uint64_t narrow[4] = { 0, 0, 0, 0 }, wide[4] = { 40, 2, 1000, 18 };
	struct eel_clock_sample s[16];
	double hz = 0;

	/* 3 GHz, perfect brackets */
	make(s, 8, 1000, 5000000, 1000000, 3, 1, narrow);
	CHECK(eel_clock_fit(s, 8, &hz) == 0, "fit failed");
	CHECK_EQ_D(hz, 3e9, 0);

	/* 2.5 GHz, brackets of different widths around the true value, a large
	 * counter and clock origin */
	make(s, 16, 0x7000000000000000ull, 1700000000000000000ll, 750000, 5, 2, wide);
	CHECK(eel_clock_fit(s, 16, &hz) == 0, "fit failed");
	CHECK_EQ_D(hz, 2.5e9, 2.5e9 * 1e-12);

	/* 1 GHz from just two samples */
	make(s, 2, 0, 0, 1000000, 1, 1, narrow);
	CHECK(eel_clock_fit(s, 2, &hz) == 0 && hz == 1e9, "two samples: %.17g", hz);

	/* noise that averages out: +-d on alternate samples */
	make(s, 8, 1000, 0, 1000000, 2, 1, narrow);
	for (int i = 0; i < 8; i++) {
		uint64_t d = (i == 0 || i == 7) ? 0 : (i % 2 ? 100 : (uint64_t)-100);

		s[i].c0 += d;
		s[i].c1 += d;
	}
	CHECK(eel_clock_fit(s, 8, &hz) == 0, "noisy fit failed");
	CHECK(hz > 1.99e9 && hz < 2.01e9, "noisy fit: %.17g", hz);

	/* refused: fewer than two samples, no time between them, a counter
	 * running backwards */
	hz = 42;
	CHECK(eel_clock_fit(s, 1, &hz) == -1 && hz == 42, "n = 1 accepted: %g", hz);
	CHECK(eel_clock_fit(s, 0, &hz) == -1 && hz == 42, "n = 0 accepted");
	for (int i = 0; i < 4; i++)
		s[i].ns = 77;
	CHECK(eel_clock_fit(s, 4, &hz) == -1, "samples all at one time accepted");
	make(s, 4, 1000000, 0, 1000, 1, 1, narrow);
	for (int i = 0; i < 4; i++) {
		s[i].c0 = 1000000 - (uint64_t)i * 1000;
		s[i].c1 = s[i].c0;
	}
	CHECK(eel_clock_fit(s, 4, &hz) == -1, "a counter running backwards accepted: %g", hz);
	/* the counter's step (docs/methods.md): a VM's TSC advancing by 26 cycles, seen
	 * as deltas of 26 and 52 (the smallest delta is not the step when reads
	 * cost more than one tick; here both are multiples of 26) */
	{
		uint64_t d[200];

		for (int i = 0; i < 200; i++)
			d[i] = i % 3 ? 52 : 26 * (uint64_t)(1 + i % 7);
		CHECK_EQ_D(eel_clock_step(d, 200), 26, 0.05);
		/* a counter that ticks every cycle: deltas of every length */
		for (int i = 0; i < 200; i++)
			d[i] = 20 + (uint64_t)i % 37;
		CHECK_EQ_D(eel_clock_step(d, 200), 1, 0.05);
		/* a few odd deltas (an interrupt between reads) do not hide the step */
		for (int i = 0; i < 200; i++)
			d[i] = i < 4 ? 1001 + (uint64_t)i : 26 * (uint64_t)(1 + i % 5);
		CHECK_EQ_D(eel_clock_step(d, 200), 26, 0.05);
		/* 26-cycle steps, one in six off by one */
		for (int i = 0; i < 200; i++)
			d[i] = 26 * (uint64_t)(1 + i % 4) - (i % 6 == 0) + (i % 12 == 5);
		CHECK_EQ_D(eel_clock_step(d, 200), 26, 0.05);
		/* the old rule, the smallest delta ever seen, would say 26 here too;
		 * it said 1 for a counter read twice within a step: zero deltas */
		for (int i = 0; i < 200; i++)
			d[i] = i % 2 ? 0 : 26;
		CHECK_EQ_D(eel_clock_step(d, 200), 26, 0.05);
		for (int i = 0; i < 200; i++)
			d[i] = 0;
		CHECK(eel_clock_step(d, 200) == 0, "all zero");
	}
	/* a step that is not a whole number of cycles (docs/methods.md, the breakdown): a VM's TSC
	 * advancing every 10 ns at 2445 MHz, read as deltas of 24-25, 49, 73-74,
	 * 98; and one that is (21 cycles, deltas 21, 42, 63, 84) */
	{
		uint64_t d[STEPPED_N];

		stepped(d, 24.45, 0);
		CHECK_EQ_D(eel_clock_step(d, STEPPED_N), 24.45, 0.05);
		stepped(d, 21, 0);
		CHECK_EQ_D(eel_clock_step(d, STEPPED_N), 21, 0.05);
		stepped(d, 25.961, 0); /* a VM's counter: 2596.1 MHz, 10 ns */
		CHECK_EQ_D(eel_clock_step(d, STEPPED_N), 25.961, 0.05);
		stepped(d, 7.3, 0);
		CHECK_EQ_D(eel_clock_step(d, STEPPED_N), 7.3, 0.05);
		/* one delta in ten an interrupt's */
		stepped(d, 24.45, 10);
		CHECK_EQ_D(eel_clock_step(d, STEPPED_N), 24.45, 0.05);
		stepped(d, 21, 10);
		CHECK_EQ_D(eel_clock_step(d, STEPPED_N), 21, 0.05);
	}
	CHECK_DONE();
}
