/* SPDX-License-Identifier: MIT */
/* tools/stdout_check.h — the tools' standard output checked at exit (the
 * bench has its own, bench/report/outfile.c: bench/ and tools/ share no file). */
#ifndef EEL_TOOLS_STDOUT_CHECK_H
#define EEL_TOOLS_STDOUT_CHECK_H

/* At exit, a failed write to standard output (a full disk, /dev/full) is
 * said in one line, "PROG: writing the standard output failed: ...", and
 * the exit status made 1. Called once, first thing in main. */
void stdout_check_at_exit(const char *prog);

#endif
