/* SPDX-License-Identifier: MIT */
/* bench/outfile.c — where eel-bench writes a file the user named (--json):
 * safely, as root on a shared machine (outfile.h). */
#include <errno.h>
#include <fcntl.h>
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
static int out_fail(const char *path, const char *why, const char *fix)
{
	fprintf(stderr, "eel-bench: --json %s: %s: %s\n", path, why, fix);
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

int out_open(const char *path, struct out *o, int check)
{
	struct stat st;
	char dir[4096];
	int fd;

	memset(o, 0, sizeof(*o));
	if (!*path)
		return out_fail("''", "an empty name", "give the file to write, e.g. --json run.json");
	if (path[strlen(path) - 1] == '/')
		return out_fail(path, "names a folder", "give a file name inside it, e.g. run.json");
	if (!lstat(path, &st) && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
		if (S_ISDIR(st.st_mode))
			return out_fail(path, "is a folder", "give a file name inside it, e.g. run.json");
		if (!S_ISFIFO(st.st_mode) && !S_ISCHR(st.st_mode))
			return out_fail(path, "is a block device or a socket, which eel does not write",
					"give a regular file");
		o->direct = 1;
		if (check) /* opening a FIFO to look would end its reader's input */
			return access(path, W_OK) ? out_fail(path, strerror(errno), "give a file eel may write") : 0;
		/* O_NONBLOCK: a FIFO nobody reads fails now (ENXIO) rather than hangs */
		fd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
		if (fd < 0)
			return out_fail(path, strerror(errno), errno == ENXIO ? "start its reader first" :
					"give a file eel may write");
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
		o->f = fdopen(fd, "w");
		return o->f ? 0 : (close(fd), out_fail(path, strerror(errno), "try again"));
	}
	folder_of(path, dir, sizeof(dir));
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return out_fail(path, "its folder does not exist", "create it, or give a path in an existing folder");
	if ((size_t)snprintf(o->tmp, sizeof(o->tmp), "%s/.eel-json-XXXXXX", dir) >= sizeof(o->tmp))
		return out_fail(path, "the path is too long", "give a shorter one");
	fd = mkstemp(o->tmp);
	if (fd < 0)
		return out_fail(path, strerror(errno), "give --json a path in a folder you may write");
	if (check) {
		close(fd);
		unlink(o->tmp);
		return 0;
	}
	fchmod(fd, 0644);
	o->f = fdopen(fd, "w");
	if (!o->f) {
		close(fd);
		unlink(o->tmp);
		return out_fail(path, strerror(errno), "try again");
	}
	return 0;
}

/* Finish: flush, and rename the temporary file over the path. */
int out_close(const char *path, struct out *o)
{
	int bad = fflush(o->f) || ferror(o->f);

	bad |= fclose(o->f) != 0;
	if (!bad && !o->direct && rename(o->tmp, path))
		bad = 1;
	if (bad) {
		fprintf(stderr, "eel-bench: writing %s failed: %s\n", path, strerror(errno));
		if (!o->direct)
			unlink(o->tmp);
		return -1;
	}
	return 0;
}

