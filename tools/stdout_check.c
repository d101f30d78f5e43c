/* SPDX-License-Identifier: MIT */
/* tools/stdout_check.c — the tools' standard output checked at exit
 * (stdout_check.h). atexit runs before the C library's own flush, so this
 * flush is the one that meets the error. */
#include "stdout_check.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *prog_name = "eel";

static void check(void)
{
	int bad = fflush(stdout) != 0 || ferror(stdout), err = bad ? errno : 0;

	if (fclose(stdout) && !bad) {
		bad = 1;
		err = errno;
	}
	if (bad) {
		fprintf(stderr, "%s: writing the standard output failed: %s: give it a place with room\n", prog_name,
			strerror(err ? err : EIO));
		_exit(1);
	}
}

void stdout_check_at_exit(const char *prog)
{
	prog_name = prog;
	atexit(check);
}
