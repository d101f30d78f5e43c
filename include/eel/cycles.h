/* SPDX-License-Identifier: MIT */
/* include/eel/cycles.h — the host cycle counter, and its calibration to ns.
 *
 * eel_cycles() is the serialising read used around timed regions; eel_stamp()
 * is the cheap read used for per-stage stamps (it may be reordered by a few
 * instructions, and costs about half as much). Both count the same clock:
 * the TSC on x86-64, the generic timer's virtual count on arm64.
 * eel_cpu_relax() is the pause a loop spinning on the counter (or on
 * memory) takes between looks.
 */
#ifndef EEL_CYCLES_H
#define EEL_CYCLES_H

#include <stdbool.h>
#include <stdint.h>

/* Intel SDM Vol. 2B, RDTSCP: waits until all previous instructions have
 * executed; the LFENCE after it keeps later instructions from starting before
 * the read. Arm ARM D11.2: ISB before reading CNTVCT_EL0 orders the read. */
static inline uint64_t eel_cycles(void)
{
#if defined(__x86_64__) && defined(EEL_CYCLES_NO_RDTSCP)
	/* a build for valgrind (make VALGRIND=1), whose CPU model has no RDTSCP
	 * where the host's CPUID does not list it: Intel SDM Vol. 2B, RDTSC,
	 * "LFENCE; RDTSC; LFENCE" orders the read the same way */
	uint32_t lo, hi;
	__asm__ volatile("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) : : "memory");
	return ((uint64_t)hi << 32) | lo;
#elif defined(__x86_64__)
	uint32_t lo, hi, aux;
	__asm__ volatile("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi), "=c"(aux) : : "memory");
	return ((uint64_t)hi << 32) | lo;
#elif defined(__aarch64__)
	uint64_t v;
	__asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(v) : : "memory");
	return v;
#else
#error "eel: no cycle counter for this architecture (x86-64 and arm64 are supported)"
#endif
}

static inline uint64_t eel_stamp(void)
{
#if defined(__x86_64__)
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return ((uint64_t)hi << 32) | lo;
#elif defined(__aarch64__)
	uint64_t v;
	__asm__ volatile("mrs %0, cntvct_el0" : "=r"(v) : : "memory");
	return v;
#endif
}

/* A spinning wait's pause: tells the core a loop is waiting (Intel SDM
 * Vol. 2B, PAUSE; Arm ARM, YIELD), so a sibling hyperthread or the peer
 * being waited for gets the core's resources. */
static inline void eel_cpu_relax(void)
{
#if defined(__x86_64__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ volatile("yield");
#endif
}

/* What the calibration found; eel-bench prints all of it. */
struct eel_clock {
	double hz;              /* counter ticks per second */
	double ns_per_cycle;    /* 1e9 / hz */
	double hz_spread_ppm;   /* spread of the repeated calibrations */
	uint64_t timer_cycles;  /* cost of one eel_cycles() (min of back-to-back pairs) */
	uint64_t stamp_cycles;  /* cost of one eel_stamp() */
	double resolution_cycles; /* the step the counter advances by (eel_clock_step): a real number of cycles */
	bool invariant;         /* constant and nonstop counter (x86: constant_tsc + nonstop_tsc) */
	char source[24];        /* "tsc" or "cntvct_el0" */
	char kernel_clocksource[24]; /* what the kernel chose, for the record ("tsc", "kvm-clock") */
	char warning[160];      /* non-empty when the counter cannot be trusted as is */
};

/* One (counter, CLOCK_MONOTONIC_RAW) observation, bracketed by two counter
 * reads: the narrower the bracket, the better the sample. */
struct eel_clock_sample {
	uint64_t c0, c1; /* counter before and after the clock_gettime */
	int64_t ns;      /* CLOCK_MONOTONIC_RAW in ns */
};

/* The calibration maths, kept pure so it can be tested: the least-squares
 * slope of counter (bracket midpoints) against ns over n samples, in Hz. */
int eel_clock_fit(const struct eel_clock_sample *s, int n, double *hz);

/* The counter's step, in cycles and not necessarily a whole number of them
 * (a VM's TSC may advance by 24.45): the largest real s from 2 up to
 * EEL_CLOCK_MAX_STEP of which at least 90% of the non-zero deltas lie within
 * about a cycle (1.25; s/4 for s under 5) of a non-zero multiple k s,
 * refined by least squares over those deltas (s = sum(k d) / sum(k^2)); 1
 * when no such s (a counter that ticks every cycle); 0 when all deltas are
 * zero. Pure, for tests; the calibration feeds it deltas between reads. */
#define EEL_CLOCK_MAX_STEP 1024
double eel_clock_step(const uint64_t *delta, int n);

/* Calibrate once (about 60 ms) and return the result; later calls return the
 * same numbers. Never fails: a counter that cannot be checked is reported in
 * ->warning. */
const struct eel_clock *eel_clock(void);

static inline double eel_cycles_to_ns(const struct eel_clock *c, double cycles)
{
	return cycles * c->ns_per_cycle;
}

static inline uint64_t eel_ns_to_cycles(const struct eel_clock *c, double ns)
{
	return (uint64_t)(ns * c->hz / 1e9 + 0.5);
}

/* Spin for the given number of cycles: the "computation" of the overlap test
 * and the emulated stage costs. */
static inline void eel_spin_cycles(uint64_t n)
{
	uint64_t t0 = eel_stamp();
	while (eel_stamp() - t0 < n)
		;
}

#define EEL_SPIN_COST_CALLS 32 /* spins timed together */
#define EEL_SPIN_COST_TRIES 3  /* of which the least mean is taken: noise only adds */

/* What eel_spin_cycles(n) costs, measured, in cycles: n and the spin's own
 * reads of the counter, the whole of it for a small n (the overlap tests'
 * D, Bell et al. 2003 4.3, is the CPU time added). timer: the cost of a pair
 * of eel_cycles(), taken off; 0 for n = 0. */
static inline double eel_spin_cost_cycles(uint64_t n, uint64_t timer)
{
	double best = -1;

	if (!n)
		return 0;
	for (int k = 0; k < EEL_SPIN_COST_TRIES; k++) {
		uint64_t t0 = eel_cycles();
		double x;

		for (int i = 0; i < EEL_SPIN_COST_CALLS; i++)
			eel_spin_cycles(n);
		x = (double)(eel_cycles() - t0 - timer) / EEL_SPIN_COST_CALLS;
		best = best < 0 || x < best ? x : best;
	}
	return best;
}

#endif
