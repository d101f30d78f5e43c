/* SPDX-License-Identifier: MIT */
/* bench/report/progress.c — what a long run is doing, on stderr: rewritten in place
 * on a terminal, one line per step with --progress or EEL_PROGRESS=1 (for
 * logs), nothing otherwise. Only the end that prints the results reports
 * progress. Once the tests' costs are estimated (budget.c, from the run's
 * first ping-pong) each line ends with the time left: the estimates of the
 * tests still to come, and of the one running less its time so far, each
 * scaled by how the tests done so far kept to theirs. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "bench/bench.h"

static int mode = -1; /* 0 off, 1 terminal, 2 lines */
static const struct timing *tm;
static int part = -1;
static double part_t0;

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

void progress_lines(void)
{
	mode = 2;
}

void progress_part(const struct timing *t, enum budget_part p)
{
	tm = t;
	part = (int)p;
	part_t0 = now_s();
}

/* Seconds left, or < 0 while nothing is estimated: the parts still to run
 * at their estimates, the running one at its estimate less its time so far
 * (the machine's part runs twice: once at each end of the run), each
 * scaled by how the parts done kept to theirs. */
static double eta_s(void)
{
	double took = 0, est = 0, left, k = 1, in = now_s() - part_t0;

	if (!tm || part < 0 || !(tm->rtt_ns > 0))
		return -1;
	for (int i = 0; i < BP_N; i++)
		if (i != part && tm->ran[i] && tm->estimate_s[i] > 0) {
			took += tm->took_s[i];
			est += tm->estimate_s[i];
		}
	if (est > 0)
		k = took / est;
	left = k * tm->estimate_s[part] - tm->took_s[part] - in;
	left = left > 0 ? left : 0;
	for (int i = 0; i < BP_N; i++)
		if (i != part && !tm->ran[i])
			left += k * tm->estimate_s[i];
	return left;
}

void progress(const struct session *s, const char *fmt, ...)
{
	char line[160], eta[32] = "";
	double left;
	va_list ap;

	if (mode < 0) {
		const char *e = getenv("EEL_PROGRESS");

		mode = e && *e == '1' ? 2 : isatty(2) ? 1 : 0;
	}
	if (!mode || s->server)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	left = eta_s();
	if (left >= 0)
		snprintf(eta, sizeof(eta), " (ETA %.0f s)", left);
	if (mode == 1)
		fprintf(stderr, "\r\033[K  %s%s", line, eta);
	else
		fprintf(stderr, "eel-bench: %s%s\n", line, eta);
}

void progress_done(const struct session *s)
{
	if (mode == 1 && !s->server)
		fprintf(stderr, "\r\033[K");
}
