/* SPDX-License-Identifier: MIT */
/* userlib/core/clock.c — calibrating the cycle counter against CLOCK_MONOTONIC_RAW,
 * measuring its cost, and checking it can be trusted (eel/cycles.h). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <eel/cycles.h>

#define SAMPLES 9          /* observations per calibration */
#define SPAN_NS 6000000    /* between first and last observation */
#define ROUNDS 5           /* calibrations, for the spread */

static int64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The best of a few tries: the observation with the narrowest bracket. */
static struct eel_clock_sample observe(void)
{
	struct eel_clock_sample best = { 0, UINT64_MAX, 0 };

	for (int i = 0; i < 16; i++) {
		struct eel_clock_sample s;

		s.c0 = eel_cycles();
		s.ns = mono_ns();
		s.c1 = eel_cycles();
		if (s.c1 - s.c0 < best.c1 - best.c0)
			best = s;
	}
	return best;
}

int eel_clock_fit(const struct eel_clock_sample *s, int n, double *hz)
{
	double mx = 0, my = 0, sxx = 0, sxy = 0;

	if (n < 2)
		return -1;
	/* x = ns since the first sample, y = counter at the bracket's middle;
	 * counter differences are signed, so a counter that ran backwards gives
	 * a negative slope (refused), not a huge one */
	for (int i = 0; i < n; i++) {
		mx += (double)(s[i].ns - s[0].ns);
		my += (double)(int64_t)(s[i].c0 - s[0].c0) + (double)(int64_t)(s[i].c1 - s[i].c0) / 2;
	}
	mx /= n;
	my /= n;
	for (int i = 0; i < n; i++) {
		double x = (double)(s[i].ns - s[0].ns) - mx;
		double y = (double)(int64_t)(s[i].c0 - s[0].c0) + (double)(int64_t)(s[i].c1 - s[i].c0) / 2 - my;

		sxx += x * x;
		sxy += x * y;
	}
	if (sxx <= 0)
		return -1;
	*hz = sxy / sxx * 1e9;
	return *hz > 0 ? 0 : -1;
}

static double calibrate_once(void)
{
	struct eel_clock_sample s[SAMPLES];
	double hz = 0;

	for (int i = 0; i < SAMPLES; i++) {
		int64_t until = mono_ns() + SPAN_NS / (SAMPLES - 1);

		s[i] = observe();
		if (i + 1 < SAMPLES)
			while (mono_ns() < until)
				;
	}
	eel_clock_fit(s, SAMPLES, &hz);
	return hz;
}

static uint64_t cost_of_cycles(void)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 1000; i++) {
		uint64_t a = eel_cycles(), b = eel_cycles();

		if (b - a < best)
			best = b - a;
	}
	return best;
}

static uint64_t cost_of_stamp(void)
{
	uint64_t best = UINT64_MAX;

	/* the mean of 64 back-to-back stamps, the best of 100 tries */
	for (int i = 0; i < 100; i++) {
		uint64_t a = eel_cycles();

		for (int k = 0; k < 64; k++)
			(void)eel_stamp();
		uint64_t b = eel_cycles();
		if (b - a < best)
			best = b - a;
	}
	return best / 64;
}

/* The step the counter advances by (docs/methods.md), from deltas between
 * reads separated by a varying amount of work: the largest real step s of
 * which at least 90% of the non-zero deltas are a non-zero whole multiple,
 * give or take the reads' roundings, then refined by least squares. A
 * virtual machine's TSC may advance every 10 ns, which at 2445 MHz is 24.45
 * cycles: deltas of 24-25, 49, 73-74, 98, never a whole-number step; on
 * another it advances by a whole 21. A counter that ticks every cycle shows
 * deltas of every length, of which no step of 2 cycles or more fits over
 * 3/4, and comes out at 1 (so does a step under ~3 cycles that is not a
 * whole number: its deltas are told from those only within a quarter step). */
struct delta_count {
	uint64_t d; /* a distinct non-zero delta */
	int n;      /* how many times it was seen */
};

static int by_delta(const void *a, const void *b)
{
	const struct delta_count *x = a, *y = b;

	return (x->d > y->d) - (x->d < y->d);
}

static int by_count(const void *a, const void *b)
{
	const struct delta_count *x = a, *y = b;

	return (y->n > x->n) - (y->n < x->n); /* the most frequent first */
}

/* The distinct non-zero deltas and their counts, in increasing order: a
 * step is tried against each distinct value once, not against every delta. */
static int histogram(const uint64_t *delta, int n, struct delta_count *h)
{
	int nh = 0, m = 0;

	for (int i = 0; i < n; i++)
		if (delta[i])
			h[m++] = (struct delta_count){ delta[i], 1 };
	qsort(h, (size_t)m, sizeof(*h), by_delta);
	for (int i = 0; i < m; i++) {
		if (nh && h[nh - 1].d == h[i].d)
			h[nh - 1].n++;
		else
			h[nh++] = h[i];
	}
	return nh;
}

/* How far from a multiple of the step a delta may lie: a cycle, for each
 * read is the counter rounded to a whole cycle (up to half a cycle each),
 * and a quarter more for the steps tried lying apart (STEP_GRID); never more
 * than a quarter of the step, so that deltas of every length fit at most
 * 3/4 of any step (a counter that ticks every cycle fails the 90%). */
static double tolerance(double s)
{
	return s / 4 < 1.25 ? s / 4 : 1.25;
}

/* Whether d lies within the tolerance of a non-zero whole multiple k of s. */
static int fits(uint64_t d, double s, double *k)
{
	double m, off;

	*k = (double)(uint64_t)((double)d / s + 0.5); /* the nearest multiple */
	m = *k * s;
	off = (double)d > m ? (double)d - m : m - (double)d;
	return *k >= 1 && off <= tolerance(s);
}

/* Whether at least 90% of the nonzero deltas fit s. The most frequent
 * deltas come first in h, so a step they miss is refused after a few. */
static int step_fits(const struct delta_count *h, int nh, int nonzero, double s)
{
	int miss = 0;
	double k;

	for (int i = 0; i < nh; i++)
		if (!fits(h[i].d, s, &k) && (miss += h[i].n) > nonzero / 10)
			return 0;
	return 1;
}

/* Least squares over the deltas that fit s, each d ~ k s:
 * s = sum(k d) / sum(k^2), over those up to longest (4x the median: the
 * work between reads spans a few steps, an interrupt's delta many more, and
 * such a delta lies within the tolerance of a multiple of many a step by
 * chance, where its k^2 would decide the fit alone). Done again at the new
 * s a few times, as which deltas fit, and their k, may change with it. */
static double refine(const struct delta_count *h, int nh, uint64_t longest, double s)
{
	for (int round = 0; round < 4; round++) {
		double skd = 0, skk = 0, k;

		for (int i = 0; i < nh; i++)
			if (h[i].d <= longest && fits(h[i].d, s, &k)) {
				skd += h[i].n * k * (double)h[i].d;
				skk += h[i].n * k * k;
			}
		if (skk > 0)
			s = skd / skk;
	}
	return s;
}

/* Steps are tried from the largest down, each 1/2048 below the last: a
 * delta of up to 1024 cycles then lies within a quarter cycle of where it
 * would for the nearest step tried, which the tolerance allows for. */
#define STEP_GRID (1 + 1 / 2048.0)

/* The largest step that 90% of the deltas fit (the largest: every multiple
 * of s is one of s/2, which fits as well), from top down to 2 cycles; 0 when
 * none does. The steps that fit make a range around the counter's, about
 * two tolerances over the longest deltas' k wide, and its largest fits also
 * a long delta or two (an interrupt's) that lies only near its multiples:
 * the middle of the range is given, nearer the counter's step. */
static double largest_step(const struct delta_count *h, int nh, int nonzero, double top)
{
	double hi, lo;

	for (hi = top; hi >= 2; hi /= STEP_GRID)
		if (step_fits(h, nh, nonzero, hi))
			break;
	if (hi < 2)
		return 0;
	for (lo = hi; lo / STEP_GRID >= 2 && step_fits(h, nh, nonzero, lo / STEP_GRID); lo /= STEP_GRID)
		;
	return (hi + lo) / 2;
}

/* The least delta that more than a share (in %) of the deltas lie at or
 * below, h in increasing order. */
static uint64_t delta_over(const struct delta_count *h, int nh, int nonzero, int share)
{
	int below = 0;

	for (int i = 0; i < nh; i++) {
		below += h[i].n;
		if ((int64_t)below * 100 > (int64_t)nonzero * share)
			return h[i].d;
	}
	return h[nh - 1].d;
}

double eel_clock_step(const uint64_t *delta, int n)
{
	struct delta_count *h;
	int nh, nonzero = 0;
	uint64_t longest;
	double top, step;

	for (int i = 0; i < n; i++)
		nonzero += delta[i] != 0;
	if (!nonzero)
		return 0;
	h = malloc((size_t)nonzero * sizeof(*h));
	if (!h)
		return 1; /* no room to tell: as a counter that ticks every cycle */
	nh = histogram(delta, n, h);
	/* 90% of the deltas are a step or more (less the tolerance), so no step
	 * is larger than the delta that over 10% lie at or below, plus the
	 * tolerance */
	top = (double)delta_over(h, nh, nonzero, 10) + tolerance(EEL_CLOCK_MAX_STEP);
	top = top < EEL_CLOCK_MAX_STEP ? top : EEL_CLOCK_MAX_STEP;
	longest = 4 * delta_over(h, nh, nonzero, 50);
	qsort(h, (size_t)nh, sizeof(*h), by_count);
	step = largest_step(h, nh, nonzero, top);
	step = step ? refine(h, nh, longest, step) : 1;
	free(h);
	return step;
}

#define STEP_SAMPLES 4096

static double resolution(void)
{
	static uint64_t d[STEP_SAMPLES];
	uint32_t x = 12345;

	for (int i = 0; i < STEP_SAMPLES; i++) {
		uint64_t a = eel_stamp(), b;

		x = x * 1103515245u + 12345u;    /* a varying amount of work between the reads */
		for (uint32_t k = 0; k < (x >> 16) % 61; k++)
			__asm__ volatile("" : : : "memory");
		b = eel_stamp();
		d[i] = b - a;
	}
	return eel_clock_step(d, STEP_SAMPLES);
}

static int cpu_has_flag(const char *flag)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[4096];
	int found = 0;

	if (!f)
		return -1;
	while (!found && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5))
			continue;
		for (char *t = strtok(line, " \t\n"); t; t = strtok(NULL, " \t\n"))
			if (!strcmp(t, flag))
				found = 1;
		break;
	}
	fclose(f);
	return found;
}

static struct eel_clock clk;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void calibrate(void)
{
	double r[ROUNDS], lo, hi, sum = 0;
	FILE *f;

	for (int i = 0; i < ROUNDS; i++)
		r[i] = calibrate_once();
	lo = hi = r[0];
	for (int i = 0; i < ROUNDS; i++) {
		sum += r[i];
		lo = r[i] < lo ? r[i] : lo;
		hi = r[i] > hi ? r[i] : hi;
	}
	clk.hz = sum / ROUNDS;
	clk.ns_per_cycle = 1e9 / clk.hz;
	clk.hz_spread_ppm = (hi - lo) / clk.hz * 1e6;
	clk.timer_cycles = cost_of_cycles();
	clk.stamp_cycles = cost_of_stamp();
	clk.resolution_cycles = resolution();
#if defined(__x86_64__)
	snprintf(clk.source, sizeof(clk.source), "tsc");
	clk.invariant = cpu_has_flag("constant_tsc") == 1 && cpu_has_flag("nonstop_tsc") == 1;
	if (!clk.invariant)
		snprintf(clk.warning, sizeof(clk.warning),
			 "the TSC is not invariant (no constant_tsc/nonstop_tsc): cycles may not be time");
#else
	snprintf(clk.source, sizeof(clk.source), "cntvct_el0");
	clk.invariant = true; /* the generic timer runs at a fixed rate (Arm ARM D11.1) */
#endif
	if (!clk.warning[0] && clk.hz_spread_ppm > 1000)
		snprintf(clk.warning, sizeof(clk.warning),
			 "calibrations disagree by %.0f ppm: the counter or the machine is unsteady",
			 clk.hz_spread_ppm);
	f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");
	if (f) {
		if (fgets(clk.kernel_clocksource, sizeof(clk.kernel_clocksource), f))
			clk.kernel_clocksource[strcspn(clk.kernel_clocksource, "\n")] = 0;
		fclose(f);
	}
}

const struct eel_clock *eel_clock(void)
{
	pthread_once(&once, calibrate);
	return &clk;
}
