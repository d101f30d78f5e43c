/* SPDX-License-Identifier: MIT */
/* bench/report/outfile.h — writing a file the user named (--json, --csv) safely.
 *
 * A regular file, or none yet, is replaced whole: the content goes to a new
 * temporary file in the same folder (mkstemp), renamed over the path by
 * out_close. A path that exists and is not a regular file is never replaced:
 * a FIFO or a character device is written in place; a folder, a block device
 * or a socket is refused. Errors: one line on stderr, -1.
 */
#ifndef EEL_BENCH_OUTFILE_H
#define EEL_BENCH_OUTFILE_H

#include <signal.h>
#include <stdio.h>

struct out {
	const char *opt;     /* the option that named the file (--json, --csv), for messages */
	FILE *f;
	int direct;          /* written in place, not renamed */
	char tmp[4096];
	int pipe_saved;      /* SIGPIPE ignored while a FIFO is written; its action before */
	struct sigaction old_pipe;
};

/* check: only find out whether it could be written (nothing opened or made
 * that stays, a FIFO not opened) */
int out_open(const char *path, struct out *o, int check);
/* the same for the file of another option than --json (opt: its name, for messages) */
int out_open_as(const char *opt, const char *path, struct out *o, int check);
int out_close(const char *path, struct out *o);
/* Nothing to write after all (the document could not be built): close, remove the temporary file. */
void out_abort(struct out *o);
/* At exit, a failed write to standard output is said in one line and the
 * exit status made 1. Called once, first thing in main. */
void out_check_stdout_at_exit(void);
/* a and b name one file: the same text, or the same existing file (a link,
 * another path to it) */
int out_same_file(const char *a, const char *b);

#endif
