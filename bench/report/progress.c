/* SPDX-License-Identifier: MIT */
/* bench/report/progress.c — what a long run is doing, on stderr: rewritten in place
 * on a terminal, one line per step when EEL_PROGRESS=1 (for logs), nothing
 * otherwise. Only the end that prints the results reports progress. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "bench/bench.h"

static int mode = -1; /* 0 off, 1 terminal, 2 lines */

void progress(const struct session *s, const char *fmt, ...)
{
	char line[160];
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
	if (mode == 1)
		fprintf(stderr, "\r\033[K  %s", line);
	else
		fprintf(stderr, "eel-bench: %s\n", line);
}

void progress_done(const struct session *s)
{
	if (mode == 1 && !s->server)
		fprintf(stderr, "\r\033[K");
}
