/* SPDX-License-Identifier: MIT */
/* userlib/core/input.c — opening a file a person named for reading
 * (eel_input_open in include/eel/eel.h): a bus preset, --bus-data, the
 * historical machines, a NetPIPE output, an lspci dump. Only a regular file
 * that is not empty and not larger than its reader expects is opened; a FIFO
 * is refused without waiting for a writer and a device (/dev/zero) without
 * reading it, so no input can block a program or spin it forever. A
 * kernel's file (/proc, /sys) whose size says 0 is opened when it has
 * something to read, and read as far as its reader reads. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <eel/eel.h>

#include "userlib/core/dev.h"

/* The path for a message: control characters shown as '?' (the message
 * reaches a terminal; eel-bench escapes it again, the tools print it as is). */
static const char *shown(const char *path, char *out, size_t n)
{
	size_t i = 0;

	for (; path[i] && i + 1 < n; i++)
		out[i] = (unsigned char)path[i] < 0x20 || path[i] == 0x7f ? '?' : path[i];
	out[i] = 0;
	return out;
}

static const char *what_is(mode_t m)
{
	return S_ISDIR(m) ? "a folder" : S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device" :
	       S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

/* Whether a file of size 0 gives a byte when read from its start. */
static int has_data(int fd)
{
	char c;

	return pread(fd, &c, 1, 0) == 1;
}

int eel_input_open(const char *path, size_t max_bytes, FILE **out)
{
	char p[300];
	struct stat st;
	FILE *f;
	int fd, err;

	*out = NULL;
	if (!path || !*path)
		return eel_err(-ENOENT, "an empty file name: give the path of a file");
	/* O_NONBLOCK: opening a FIFO with no writer returns at once instead of
	 * waiting for one; fstat then says what it is. O_NOCTTY: a terminal
	 * named here never becomes the controlling one. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		err = errno;
		return eel_err(-err, "%s: cannot open: %s", shown(path, p, sizeof(p)), strerror(err));
	}
	if (fstat(fd, &st)) {
		err = errno;
		close(fd);
		return eel_err(-err, "%s: cannot look at: %s", shown(path, p, sizeof(p)), strerror(err));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return eel_err(S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL, "%s: is %s, not a regular file: give a "
			       "regular file", shown(path, p, sizeof(p)), what_is(st.st_mode));
	}
	/* a kernel's file (/proc, /sys) says size 0 and reads as more: only a
	 * file with nothing to read is empty (read while O_NONBLOCK: a kernel
	 * file that waits for data, as tracefs's trace_pipe, gives none) */
	if (st.st_size == 0 && !has_data(fd)) {
		close(fd);
		return eel_err(-ENODATA, "%s: is empty: give a file with something in it",
			       shown(path, p, sizeof(p)));
	}
	if (max_bytes && (unsigned long long)st.st_size > max_bytes) {
		close(fd);
		return eel_err(-EFBIG, "%s: is %lld bytes, more than the %zu this file may have: give the right file",
			       shown(path, p, sizeof(p)), (long long)st.st_size, max_bytes);
	}
	/* a kernel's file stays non-blocking: one that waits for data
	 * (trace_pipe, /proc/kmsg) ends the read instead of holding it */
	if (st.st_size > 0)
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	f = fdopen(fd, "r");
	if (!f) {
		err = errno;
		close(fd);
		return eel_err(-err, "%s: %s", shown(path, p, sizeof(p)), strerror(err));
	}
	*out = f;
	return 0;
}
