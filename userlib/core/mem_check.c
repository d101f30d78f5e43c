/* SPDX-License-Identifier: MIT */
/* userlib/core/mem_check.c — is a region the program registers memory it
 * has (eel_mem_check in dev.h)? A NIC pins what is registered and fails the
 * registration of memory that is not mapped (ibv_reg_mr: -EFAULT); eel's
 * software NIC and its raw driver copy into the region from the process
 * itself, where an unmapped or read-only page would be a SIGSEGV in the
 * middle of a peer's put. The process's own map, /proc/self/maps (proc(5)),
 * says which ranges are mapped and how. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "userlib/core/dev.h"

/* One line of /proc/self/maps: "start-end perms ...", hex addresses. */
static int map_line(FILE *f, uint64_t *start, uint64_t *end, char perms[5])
{
	int c;

	if (fscanf(f, "%" SCNx64 "-%" SCNx64 " %4s", start, end, perms) != 3)
		return 0;
	while ((c = getc(f)) != '\n' && c != EOF)
		;
	return 1;
}

/* The first byte of [at, stop) the process's map does not give as asked
 * (stop: all of it; at, unchecked: no /proc). */
static uint64_t first_missing(uint64_t at, uint64_t stop, int write)
{
	uint64_t start, end;
	char perms[5];
	FILE *f = fopen("/proc/self/maps", "re");

	if (!f)
		return stop; /* no /proc: the check is the NIC's alone */
	/* the mappings come in increasing order: walk them over [at, stop) */
	while (at < stop && map_line(f, &start, &end, perms)) {
		if (end <= at)
			continue;
		if (start > at)
			break; /* a hole at `at` */
		if (perms[0] != 'r' || (write && perms[1] != 'w'))
			break;
		at = end;
	}
	fclose(f);
	return at < stop ? at : stop;
}

int eel_mem_check(const void *addr, size_t len, int write, const char *call)
{
	uint64_t at, stop = (uintptr_t)addr + len;

	if (stop < (uintptr_t)addr)
		return eel_err(-EINVAL, "%s: %zu bytes at %p run past the end of the address space: give the "
			       "region's real length", call, len, addr);
	/* the map is read in pieces: another thread's mmap or munmap between
	 * two may show a hole that is not there; a second look settles it */
	at = first_missing((uintptr_t)addr, stop, write);
	if (at < stop)
		at = first_missing((uintptr_t)addr, stop, write);
	if (at < stop)
		return eel_err(-EFAULT, "%s: byte %" PRIu64 " of the %zu at %p is not %s memory of this process: "
			       "register memory the program allocated (and may %s)", call,
			       at - (uintptr_t)addr, len, addr, write ? "writable" : "readable",
			       write ? "write" : "read");
	return 0;
}
