/* userlib/core/clock.c — calibrating the cycle counter against CLOCK_MONOTONIC_RAW,
 * measuring its cost, and checking it can be trusted (eel/cycles.h). */
#include <pthread.h>
#include <stdio.h>
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

/* The step that dominates the counter's advance (a histogram of deltas
 * between reads, issue 13): the largest step of which nearly every observed
 * delta is a multiple. A virtual machine's TSC may advance in steps of ~26
 * cycles (~10 ns) while the smallest delta ever seen is a fraction of that;
 * reads are separated by a varying amount of work so that a counter that
 * ticks every cycle shows every delta and comes out at one cycle. A step of
 * 16 cycles or more is allowed s/16 either side (here the TSC advances by
 * 26, now and then by 25 or 27: the hypervisor's scaling rounds). */
static uint64_t off_step(uint64_t d, uint64_t s, uint64_t *k)
{
	uint64_t m;

	*k = (d + s / 2) / s; /* the nearest multiple */
	m = *k * s;
	return d > m ? d - m : m - d;
}

uint64_t eel_clock_step(const uint64_t *delta, int n)
{
	uint64_t best = 1, least = UINT64_MAX, pick;
	int nonzero = 0;

	for (int i = 0; i < n; i++)
		nonzero += delta[i] != 0;
	if (!nonzero)
		return 0;
	for (uint64_t s = 2; s <= EEL_CLOCK_MAX_STEP; s++) {
		uint64_t tol = s / 16, k; /* a hypervisor's rounding: 26-cycle steps seen as 25 or 27 */
		int mult = 0;

		for (int i = 0; i < n; i++)
			mult += delta[i] && off_step(delta[i], s, &k) <= tol && k >= 1;
		if (mult >= nonzero - nonzero / 10) /* 90% of them */
			best = s;
	}
	/* deltas of 26 are also within 1 of 27: of the steps that near, the one
	 * the deltas sit closest to */
	pick = best;
	for (uint64_t s = best - best / 16; s <= best; s++) {
		uint64_t sum = 0, k;

		for (int i = 0; i < n; i++)
			if (delta[i])
				sum += off_step(delta[i], s, &k);
		if (sum <= least) {
			least = sum;
			pick = s;
		}
	}
	return pick;
}

#define STEP_SAMPLES 4096

static uint64_t resolution(void)
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
