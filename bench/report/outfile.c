/* SPDX-License-Identifier: MIT */
/* bench/report/outfile.c — where eel-bench writes a file the user named (--json, --csv):
 * safely, as root on a shared machine (outfile.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"

/* Where the document goes. A regular file, or none yet, is replaced whole:
 * the document is written to a new temporary file in the same folder
 * (mkstemp: a name nobody could have set up, created anew, so no symlink is
 * followed and no other file is truncated or removed) and renamed over the
 * path at the end. A path that exists and is not a regular file is never
 * replaced: a FIFO or a character device (/dev/null, /dev/stdout) is written
 * directly; a folder, a block device or a socket is refused. */
static int out_fail(const struct out *o, const char *path, const char *why, const char *fix)
{
	fprintf(stderr, "eel-bench: %s %s: %s: %s\n", o->opt, path, why, fix);
	return -1;
}

/* The folder path is in (".", or its part before the last '/') into dir. */
static void folder_of(const char *path, char *dir, size_t n)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(dir, n, ".");
	else if (slash == path)
		snprintf(dir, n, "/");
	else
		snprintf(dir, n, "%.*s", (int)(slash - path), path);
}

/* A name the system could never make: found out before a long run, not
 * after it (rename would fail with ENAMETOOLONG at the end). */
static int name_too_long(const struct out *o, const char *path)
{
	size_t part = 0;

	if (strlen(path) >= PATH_MAX)
		return out_fail(o, "(a long path)", "longer than PATH_MAX (4096 bytes)", "give a shorter path");
	for (const char *c = path;; c++) {
		if (*c == '/' || !*c) {
			if (part > NAME_MAX)
				return out_fail(o, path, "a name in it is longer than NAME_MAX (255 bytes)",
						"give a shorter file name");
			part = 0;
			if (!*c)
				return 0;
		} else {
			part++;
		}
	}
}

/* Writing into a FIFO whose reader has gone raises SIGPIPE, which would
 * kill eel-bench without a word after the whole run: ignored while the
 * document is written, so the write fails with EPIPE and out_close says so. */
static void pipe_quiet(struct out *o)
{
	struct sigaction ign = { .sa_handler = SIG_IGN };

	sigemptyset(&ign.sa_mask);
	o->pipe_saved = !sigaction(SIGPIPE, &ign, &o->old_pipe);
}

static void pipe_restore(struct out *o)
{
	if (o->pipe_saved)
		sigaction(SIGPIPE, &o->old_pipe, NULL);
	o->pipe_saved = 0;
}

/* The mode a new document gets: an existing regular file's own (a 0600
 * file stays 0600), else what open(2) would give, 0666 less the umask. */
static mode_t new_mode(const struct stat *st, int exists)
{
	mode_t um;

	if (exists && S_ISREG(st->st_mode))
		return st->st_mode & 0777;   /* not set-id bits: the file is root's now */
	um = umask(0);
	umask(um);
	return 0666 & ~um;
}

int out_open(const char *path, struct out *o, int check)
{
	return out_open_as("--json", path, o, check);
}

int out_open_as(const char *opt, const char *path, struct out *o, int check)
{
	struct stat st, dst;
	char dir[4096];
	int fd, exists;

	/* the example file name: the option's own kind (--csv: run.csv) */
	const char *eg = opt && strstr(opt, "csv") ? "give the file to write, e.g. run.csv" :
						     "give the file to write, e.g. run.json";
	const char *egin = opt && strstr(opt, "csv") ? "give a file name inside it, e.g. run.csv" :
						       "give a file name inside it, e.g. run.json";

	memset(o, 0, sizeof(*o));
	o->opt = opt;
	if (!*path)
		return out_fail(o, "''", "an empty name", eg);
	if (path[strlen(path) - 1] == '/')
		return out_fail(o, path, "names a folder", egin);
	if (name_too_long(o, path))
		return -1;
	exists = !lstat(path, &st);
	if (exists && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
		if (S_ISDIR(st.st_mode))
			return out_fail(o, path, "is a folder", egin);
		if (!S_ISFIFO(st.st_mode) && !S_ISCHR(st.st_mode))
			return out_fail(o, path, "is a block device or a socket, which eel does not write",
					"give a regular file");
		o->direct = 1;
		if (check) /* opening a FIFO to look would end its reader's input */
			return access(path, W_OK) ? out_fail(o, path, strerror(errno), "give a file eel may write") : 0;
		/* O_NONBLOCK: a FIFO nobody reads fails now (ENXIO) rather than hangs */
		fd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
		if (fd < 0)
			return out_fail(o, path, strerror(errno), errno == ENXIO ? "start its reader first" :
					"give a file eel may write");
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
		o->f = fdopen(fd, "w");
		if (!o->f)
			return close(fd), out_fail(o, path, strerror(errno), "try again");
		pipe_quiet(o);
		return 0;
	}
	folder_of(path, dir, sizeof(dir));
	if (stat(dir, &dst) || !S_ISDIR(dst.st_mode))
		return out_fail(o, path, "its folder does not exist", "create it, or give a path in an existing folder");
	if ((size_t)snprintf(o->tmp, sizeof(o->tmp), "%s/.eel-json-XXXXXX", dir) >= sizeof(o->tmp))
		return out_fail(o, path, "the path is too long", "give a shorter one");
	fd = mkstemp(o->tmp);
	if (fd < 0)
		return out_fail(o, path, strerror(errno), "give a path in a folder you may write");
	if (check) {
		close(fd);
		unlink(o->tmp);
		return 0;
	}
	fchmod(fd, new_mode(&st, exists));   /* mkstemp made it 0600 */
	o->f = fdopen(fd, "w");
	if (!o->f) {
		close(fd);
		unlink(o->tmp);
		return out_fail(o, path, strerror(errno), "try again");
	}
	return 0;
}

/* Finish: flush, and rename the temporary file over the path. A failed
 * write (ENOSPC: a full disk or /dev/full; EPIPE: a FIFO's reader gone) is
 * said with its own words, the first error's. */
int out_close(const char *path, struct out *o)
{
	int bad = fflush(o->f) || ferror(o->f), err = bad ? errno : 0;

	if (fclose(o->f) && !bad) {
		bad = 1;
		err = errno;
	}
	pipe_restore(o);
	if (!bad && !o->direct && rename(o->tmp, path)) {
		bad = 1;
		err = errno;
	}
	if (bad) {
		fprintf(stderr, "eel-bench: writing %s failed: %s: %s\n", path, strerror(err ? err : EIO),
			err == ENOSPC ? "free some space, or give a path on another disk" :
			err == EPIPE ? "its reader went away: keep the reader open until eel-bench exits" :
			err == EFBIG ? "it is over the file size limit (ulimit -f): raise the limit" :
			"give a file eel may write");
		if (!o->direct)
			unlink(o->tmp);
		return -1;
	}
	return 0;
}

/* Give up: nothing is written, nothing left behind. */
void out_abort(struct out *o)
{
	fclose(o->f);
	pipe_restore(o);
	if (!o->direct)
		unlink(o->tmp);
}

/* Standard output checked at exit: output that never arrived (a full disk,
 * /dev/full, a closed descriptor) is an error, not exit 0. atexit runs
 * before the C library's own flush, so this flush is the one that fails. */
static void stdout_check(void)
{
	int bad = fflush(stdout) != 0 || ferror(stdout), err = bad ? errno : 0;

	if (fclose(stdout) && !bad) {
		bad = 1;
		err = errno;
	}
	if (bad) {
		fprintf(stderr, "eel-bench: writing the standard output failed: %s: give it a place with room "
			"(or -q)\n", strerror(err ? err : EIO));
		_exit(1);
	}
}

void out_check_stdout_at_exit(void)
{
	atexit(stdout_check);
}

/* path's folder resolved (realpath) and its last name: one spelling of a
 * file that may not exist yet; "" when its folder does not resolve */
static void resolved(const char *path, char *out, size_t n)
{
	char dir[4096], real[PATH_MAX];
	const char *slash = strrchr(path, '/');

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) + (slash == path) : 1, slash ? path : ".");
	if (!realpath(dir, real)) {
		out[0] = 0;
		return;
	}
	snprintf(out, n, "%s/%s", real, slash ? slash + 1 : path);
}

int out_same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	char ra[PATH_MAX + 256], rb[PATH_MAX + 256];
	int ea = !stat(a, &sa), eb = !stat(b, &sb);

	/* what one write replaces: a regular file, or one not there yet (a
	 * FIFO or a device, /dev/stdout, is written through, not replaced) */
	if ((ea && !S_ISREG(sa.st_mode)) || (eb && !S_ISREG(sb.st_mode)))
		return 0;
	if (ea && eb)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	resolved(a, ra, sizeof(ra));
	resolved(b, rb, sizeof(rb));
	return !strcmp(a, b) || (ra[0] && !strcmp(ra, rb));
}
