/* SPDX-License-Identifier: MIT */
/* userlib/engine/bus_mem.c — bus=measured-mem:<numa node>: the time of a
 * load from this machine's memory on NUMA node <node> (the other socket, or
 * a CXL memory expander, shows up as a node). A 32 MiB buffer bound to the node
 * (mbind(2), MPOL_BIND, through syscall: no libnuma) is walked as a random
 * cycle of dependent loads, one per 64-byte line (the pointer-chasing latency
 * test of lmbench's lat_mem_rd, McVoy and Staelin 1996): the median over 16
 * batches of a load's time (bus_preset.c makes the bus of it). The buffer asks for transparent huge
 * pages (madvise), so that page walks weigh less in a load's time. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <eel/bus.h>

#include "userlib/core/dev.h"
#include "userlib/engine/bus_mem.h"

#define MEM_BYTES (32u << 20)
#define MEM_LINES (MEM_BYTES / EEL_BUS_LINE)
#define MEM_BATCHES 16
#define MEM_LOADS 8192
#define MPOL_BIND_ 2
#define MPOL_MF_STRICT_ 1

/* The highest node this machine has (/sys/devices/system/node/online, "0" or "0-1,3"). */
static int max_node(void)
{
	FILE *f = fopen("/sys/devices/system/node/online", "r");
	char buf[256], *s;
	int hi = 0;

	if (!f)
		return 0; /* no NUMA in this kernel: one node, 0 */
	if (fgets(buf, sizeof(buf), f))
		for (s = buf; *s; s++)
			if ((s == buf || s[-1] == '-' || s[-1] == ',') && *s >= '0' && *s <= '9' && atoi(s) > hi)
				hi = atoi(s);
	fclose(f);
	return hi;
}

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* A random cycle through every line (Sattolo's shuffle), then 16 timed batches. */
static double chase(uint64_t *buf)
{
	uint32_t *order = malloc(MEM_LINES * sizeof(*order));
	uint64_t seed = 88172645463325252ull, at = 0;
	double t[MEM_BATCHES];

	if (!order)
		return -1;
	for (uint32_t i = 0; i < MEM_LINES; i++)
		order[i] = i;
	for (uint32_t i = MEM_LINES - 1; i > 0; i--) {
		uint32_t j, x;

		seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
		j = (uint32_t)(seed % i);
		x = order[i], order[i] = order[j], order[j] = x;
	}
	for (uint32_t i = 0; i < MEM_LINES; i++)
		buf[(uint64_t)i * 8] = (uint64_t)order[i] * 8;
	free(order);
	for (int b = 0; b < MEM_BATCHES; b++) {
		double t0 = now_ns();

		for (int i = 0; i < MEM_LOADS; i++)
			at = *(volatile uint64_t *)&buf[at];
		t[b] = (now_ns() - t0) / MEM_LOADS;
	}
	qsort(t, MEM_BATCHES, sizeof(t[0]), cmp_d);
	return at == UINT64_MAX ? 0 : (t[MEM_BATCHES / 2 - 1] + t[MEM_BATCHES / 2]) / 2;
}

int bus_mem_load_ns(const char *node, double *load_ns)
{
	char *end;
	long n = strtol(node, &end, 10);
	int hi = max_node();
	unsigned long mask[16] = { 0 };
	void *buf;
	double ns;
	char path[64];

	if (!*node || *end || n < 0 || n >= 1024)
		return eel_err(-EINVAL, "bus=measured-mem:%s: not a NUMA node number: give 0..%d", node, hi);
	snprintf(path, sizeof(path), "/sys/devices/system/node/node%ld", n);
	if (n > hi || (n > 0 && access(path, F_OK)))
		return eel_err(-EINVAL, "bus=measured-mem:%ld: no NUMA node %ld: this machine has nodes 0..%d", n, n, hi);
	buf = mmap(NULL, MEM_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		return eel_err(-ENOMEM, "bus=measured-mem:%ld: cannot map %u MiB: %s", n, MEM_BYTES >> 20, strerror(errno));
	madvise(buf, MEM_BYTES, MADV_HUGEPAGE); /* fewer TLB misses in the walk, where the kernel has THP */
	mask[n / 64] = 1ul << (n % 64);
	if (syscall(SYS_mbind, buf, MEM_BYTES, MPOL_BIND_, mask, 1024ul, MPOL_MF_STRICT_) && (errno != ENOSYS || n)) {
		int e = errno;

		munmap(buf, MEM_BYTES);
		return eel_err(-e, "bus=measured-mem:%ld: cannot bind memory to node %ld: %s", n, n, strerror(e));
	}
	ns = chase(buf);
	munmap(buf, MEM_BYTES);
	if (!(ns > 0))
		return eel_err(-ENOMEM, "bus=measured-mem:%ld: out of memory for the walk's order", n);
	*load_ns = ns;
	return 0;
}
