/* SPDX-License-Identifier: MIT */
/*
 * eel-pci-check: the user-space side of eel_pci.ko's VM test
 * (tests/vm/guest-module.sh). Each subcommand checks one behaviour of the
 * module on a real (QEMU-emulated) PCI function and exits 0 only if it held.
 *
 *   eel-pci-check info DEV              the INFO ioctl, printed
 *   eel-pci-check edu-dma DEV           DMA through QEMU edu's engine, byte for byte
 *   eel-pci-check e1000-status DEV      e1000 STATUS through the BAR mapping
 *   eel-pci-check mmio-time DEV OFF     the timing ioctl on BAR 0 at OFF
 *   eel-pci-check bad-args DEV          bad arguments: EINVAL (and friends)
 *   eel-pci-check open DEV EXPECT       open(2) gives EXPECT (ok, EACCES, EPERM...)
 *   eel-pci-check wc DEV BAR            a prefetchable BAR mapped uncached and WC
 *   eel-pci-check hold DEV              map BAR 0 and a DMA buffer, close the fd,
 *                                       print "ready", wait for a line on stdin,
 *                                       then touch both mappings: prints
 *                                       "bar=ok|sigbus dma=ok|sigbus"
 * DEV is /dev/eel_pci/<address>.
 */
#include <eel/eel.h>
#include <eel/eel_pci_ioctl.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#ifndef EEL_GIT
#error "EEL_GIT: tools/version.mk passes it to the objects in VERSION_SRC; list this file there"
#endif

/* QEMU edu device, docs/specs/edu.rst ("MMIO area spec", "DMA controller") */
#define EDU_VENDOR		0x1234
#define EDU_DEVICE		0x11e8
#define EDU_ID			0x00	/* RO: 0xRRrr00ed */
#define EDU_LIVENESS		0x04	/* RW: reads back the inverse of what was written */
#define EDU_DMA_SRC		0x80
#define EDU_DMA_DST		0x88
#define EDU_DMA_CNT		0x90
#define EDU_DMA_CMD		0x98
#define EDU_DMA_CMD_START	0x1
#define EDU_DMA_CMD_TO_RAM	0x2	/* direction: 0 RAM -> EDU, 1 EDU -> RAM */
#define EDU_DMA_BUF		0x40000	/* the device's 4096-byte buffer */
#define EDU_DMA_BUF_SIZE	4096
/*
 * QEMU 7.2's edu rejects a transfer that ends exactly at the end of its buffer
 * (its range check wants end < buffer end, and a hw_error() stops QEMU), so the
 * test moves one byte less: the largest transfer it accepts, and an odd size.
 */
#define EDU_DMA_XFER		(EDU_DMA_BUF_SIZE - 1)
#define EDU_DMA_MASK_BITS	28	/* "supports only 28 bits (256 MiB) by default" */

/* Intel 8254x Family SDM (317453006): 13.4.2 Device Status Register */
#define E1000_VENDOR		0x8086
#define E1000_STATUS		0x0008
#define E1000_STATUS_FD		(1u << 0)	/* full duplex */
#define E1000_STATUS_LU		(1u << 1)	/* link up */
#define E1000_STATUS_SPEED	(3u << 6)	/* 00 10, 01 100, 1x 1000 Mb/s */
#define E1000_STATUS_SPEED_1000	(2u << 6)

static int failures;

static void check(int ok, const char *what)
{
	printf("%s  %s\n", ok ? "ok  " : "FAIL", what);
	if (!ok)
		failures++;
}

static int open_dev(const char *dev)
{
	int fd = open(dev, O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		fprintf(stderr, "eel-pci-check: cannot open %s: %s\n", dev,
			strerror(errno));
		exit(1);
	}
	return fd;
}

static void get_info(int fd, struct eel_pci_info *info)
{
	memset(info, 0, sizeof(*info));
	if (ioctl(fd, EEL_PCI_IOC_INFO, info)) {
		fprintf(stderr, "eel-pci-check: INFO failed: %s\n",
			strerror(errno));
		exit(1);
	}
	if (info->magic != EEL_PCI_ABI_MAGIC ||
	    info->abi_version != EEL_PCI_ABI_VERSION) {
		fprintf(stderr,
			"eel-pci-check: module ABI %#x/%u, expected %#x/%u: rebuild with `make module`\n",
			info->magic, info->abi_version, EEL_PCI_ABI_MAGIC,
			EEL_PCI_ABI_VERSION);
		exit(1);
	}
}

static volatile uint8_t *map_bar0(int fd, const struct eel_pci_info *info,
				  size_t len)
{
	void *p;

	if (!(info->bar[0].flags & EEL_PCI_BAR_MMAP)) {
		fprintf(stderr, "eel-pci-check: BAR 0 is not mmap-able\n");
		exit(1);
	}
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 (off_t)EEL_PCI_MMAP_BAR(0));
	if (p == MAP_FAILED) {
		fprintf(stderr, "eel-pci-check: mmap of BAR 0: %s\n",
			strerror(errno));
		exit(1);
	}
	return p;
}

static uint32_t rd32(volatile uint8_t *bar, size_t off)
{
	return *(volatile uint32_t *)(bar + off);
}

static void wr32(volatile uint8_t *bar, size_t off, uint32_t v)
{
	*(volatile uint32_t *)(bar + off) = v;
}

static void wr64(volatile uint8_t *bar, size_t off, uint64_t v)
{
	*(volatile uint64_t *)(bar + off) = v;
}

static uint64_t rd64(volatile uint8_t *bar, size_t off)
{
	return *(volatile uint64_t *)(bar + off);
}

static int cmd_info(const char *dev)
{
	struct eel_pci_info info;
	int fd = open_dev(dev), i;

	get_info(fd, &info);
	printf("id %04x:%04x subsystem %04x:%04x class %06x rev %u\n",
	       info.vendor, info.device, info.subsystem_vendor,
	       info.subsystem_device, info.class_code, info.revision);
	printf("dma_mask_bits %u numa_node %d cycles_khz %u\n",
	       info.dma_mask_bits, info.numa_node, info.cycles_khz);
	for (i = 0; i < EEL_PCI_NUM_BARS; i++)
		if (info.bar[i].size)
			printf("bar %d size %llu flags %#x\n", i,
			       (unsigned long long)info.bar[i].size,
			       info.bar[i].flags);
	close(fd);
	return 0;
}

static void *map_dma(int fd, const struct eel_pci_dma_alloc *a)
{
	void *p = mmap(NULL, a->mapped_size, PROT_READ | PROT_WRITE,
		       MAP_SHARED, fd, (off_t)a->mmap_offset);

	if (p == MAP_FAILED) {
		fprintf(stderr, "eel-pci-check: mmap of DMA buffer %u: %s\n",
			a->id, strerror(errno));
		exit(1);
	}
	return p;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* edu.rst: start a transfer, then "while (DMA command register & 1)". */
static int edu_dma(volatile uint8_t *bar, uint64_t src, uint64_t dst,
		   uint64_t cnt, uint64_t cmd)
{
	double deadline = now_s() + 20;

	wr64(bar, EDU_DMA_SRC, src);
	wr64(bar, EDU_DMA_DST, dst);
	wr64(bar, EDU_DMA_CNT, cnt);
	wr64(bar, EDU_DMA_CMD, cmd | EDU_DMA_CMD_START);
	while (rd64(bar, EDU_DMA_CMD) & EDU_DMA_CMD_START) {
		if (now_s() > deadline)
			return -1;
		usleep(1000);
	}
	return 0;
}

static int cmd_edu_dma(const char *dev)
{
	struct eel_pci_dma_mask mask = { .bits = EDU_DMA_MASK_BITS };
	struct eel_pci_dma_alloc a = { .size = 2 * EDU_DMA_BUF_SIZE };
	struct eel_pci_info info;
	volatile uint8_t *bar;
	uint8_t *buf;
	uint32_t x = 2463534242u, id;
	size_t i, bad = 0;
	int fd = open_dev(dev);

	get_info(fd, &info);
	if (info.vendor != EDU_VENDOR || info.device != EDU_DEVICE) {
		fprintf(stderr, "eel-pci-check: %s is %04x:%04x, not QEMU's edu\n",
			dev, info.vendor, info.device);
		return 1;
	}
	bar = map_bar0(fd, &info, 4096);
	id = rd32(bar, EDU_ID);
	check((id & 0xffff) == 0x00ed, "edu identification register reads 0xRRrr00ed");

	check(ioctl(fd, EEL_PCI_IOC_SET_DMA_MASK, &mask) == 0,
	      "DMA mask set to edu's 28 bits");
	check(ioctl(fd, EEL_PCI_IOC_DMA_ALLOC, &a) == 0,
	      "8 KiB DMA buffer allocated");
	if (failures)
		return 1;
	printf("buffer %u: bus address %#" PRIx64 ", %" PRIu64 " bytes\n",
	       a.id, (uint64_t)a.bus_addr, (uint64_t)a.mapped_size);
	check(a.bus_addr + a.mapped_size <= (1ull << EDU_DMA_MASK_BITS),
	      "bus address within the 28-bit mask");
	check(a.bus_addr % 4096 == 0, "bus address page aligned");
	buf = map_dma(fd, &a);
	for (i = 0; i < a.mapped_size && !buf[i]; i++)
		;
	check(i == a.mapped_size, "fresh DMA buffer is zeroed");
	/* xorshift32 pattern in the first half; the second half stays zero */
	for (i = 0; i < EDU_DMA_BUF_SIZE; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		buf[i] = (uint8_t)(x >> 11);
	}
	check(edu_dma(bar, a.bus_addr, EDU_DMA_BUF, EDU_DMA_XFER, 0) == 0,
	      "DMA RAM -> edu finished");
	check(edu_dma(bar, EDU_DMA_BUF, a.bus_addr + EDU_DMA_BUF_SIZE,
		      EDU_DMA_XFER, EDU_DMA_CMD_TO_RAM) == 0,
	      "DMA edu -> RAM finished");
	for (i = 0; i < EDU_DMA_XFER; i++)
		if (buf[i] != buf[EDU_DMA_BUF_SIZE + i]) {
			if (!bad)
				printf("first difference at byte %zu: %#x != %#x\n",
				       i, buf[i], buf[EDU_DMA_BUF_SIZE + i]);
			bad++;
		}
	printf("%zu of %d bytes differ\n", bad, EDU_DMA_XFER);
	check(bad == 0, "4095 bytes came back through edu's DMA engine, byte for byte");
	check(buf[EDU_DMA_BUF_SIZE + EDU_DMA_XFER] == 0,
	      "and not one byte more");
	close(fd);
	return failures != 0;
}

static int mmio_time(int fd, uint32_t op, uint64_t off, uint64_t value,
		     uint32_t count, struct eel_pci_mmio_time *t)
{
	memset(t, 0, sizeof(*t));
	t->bar = 0;
	t->op = op;
	t->width = 4;
	t->count = count;
	t->offset = off;
	t->value = value;
	return ioctl(fd, EEL_PCI_IOC_MMIO_TIME, t);
}

static int cmd_e1000_status(const char *dev)
{
	struct eel_pci_mmio_time t;
	struct eel_pci_info info;
	volatile uint8_t *bar;
	uint32_t status;
	double deadline;
	int fd = open_dev(dev);

	get_info(fd, &info);
	check(info.vendor == E1000_VENDOR, "an Intel function");
	check(info.bar[0].size == 128 * 1024 &&
	      (info.bar[0].flags & EEL_PCI_BAR_MEM),
	      "BAR 0 is the 128 KiB register space (SDM 13.1)");
	bar = map_bar0(fd, &info, 4096);
	status = rd32(bar, E1000_STATUS);
	printf("STATUS = %#010x\n", status);
	/*
	 * The e1000 driver reset the MAC when it let go of the function; the
	 * link comes back when auto-negotiation ends: watch for STATUS.LU.
	 */
	deadline = now_s() + 10;
	while (!(status & E1000_STATUS_LU) && now_s() < deadline) {
		usleep(10000);
		status = rd32(bar, E1000_STATUS);
	}
	printf("STATUS = %#010x\n", status);
	check(status & E1000_STATUS_LU, "STATUS through the mapping: link up");
	check(status & E1000_STATUS_FD, "full duplex");
	check((status & E1000_STATUS_SPEED) == E1000_STATUS_SPEED_1000,
	      "1000 Mb/s");
	check(mmio_time(fd, EEL_PCI_MMIO_READ, E1000_STATUS, 0, 16, &t) == 0,
	      "timing ioctl reads STATUS");
	check(t.value == status,
	      "the kernel's read of STATUS equals the mapping's");
	close(fd);
	return failures != 0;
}

static int cmd_mmio_time(const char *dev, uint64_t off)
{
	struct eel_pci_mmio_time t;
	struct eel_pci_info info;
	volatile uint8_t *bar;
	uint32_t v = 0x5eed1234, direct;
	int fd = open_dev(dev);

	get_info(fd, &info);
	bar = map_bar0(fd, &info, 4096);
	direct = rd32(bar, off);
	check(mmio_time(fd, EEL_PCI_MMIO_READ, off, 0, 1000, &t) == 0,
	      "1000 timed reads");
	printf("read at %#" PRIx64 ": min %" PRIu64 " median %" PRIu64
	       " max %" PRIu64 " cycles, timer %" PRIu64 ", %u kHz, value %#" PRIx64 "\n",
	       off, (uint64_t)t.min_cycles, (uint64_t)t.median_cycles,
	       (uint64_t)t.max_cycles, (uint64_t)t.timer_min_cycles,
	       t.cycles_khz, (uint64_t)t.value);
	check(t.min_cycles > 0 && t.min_cycles <= t.median_cycles &&
	      t.median_cycles <= t.max_cycles,
	      "0 < min <= median <= max");
	check(t.timer_min_cycles <= t.min_cycles,
	      "an empty timed section costs no more than a read");
	check(t.value == direct, "the value read equals the mapping's");
	if (info.vendor == EDU_VENDOR && info.device == EDU_DEVICE) {
		/* edu.rst: 0x04 reads back the inverse of what was written */
		wr32(bar, EDU_LIVENESS, 0x0f0f0f0f);
		check(mmio_time(fd, EEL_PCI_MMIO_READ, EDU_LIVENESS, 0, 10,
				&t) == 0 && t.value == 0xf0f0f0f0,
		      "the kernel reads what the mapping wrote");
		check(mmio_time(fd, EEL_PCI_MMIO_WRITE, EDU_LIVENESS, v, 100,
				&t) == 0, "100 timed writes");
		check(t.min_cycles > 0 && t.min_cycles <= t.median_cycles &&
		      t.median_cycles <= t.max_cycles,
		      "writes: 0 < min <= median <= max");
		check(rd32(bar, EDU_LIVENESS) == ~v,
		      "the timed write reached the device");
		check(mmio_time(fd, EEL_PCI_MMIO_WRITE_READ, EDU_LIVENESS,
				~v, 100, &t) == 0,
		      "100 timed write-reads");
		check(t.value == v, "write-read returns the device's answer");
		printf("write-read: min %" PRIu64 " median %" PRIu64 " cycles\n",
		       (uint64_t)t.min_cycles, (uint64_t)t.median_cycles);
	}
	close(fd);
	return failures != 0;
}

/* Expect ioctl(fd, req, arg) to fail with errno want. */
static void expect_ioctl(int fd, unsigned long req, void *arg, int want,
			 const char *what)
{
	char line[200];
	int r = ioctl(fd, req, arg), e = r ? errno : 0;

	snprintf(line, sizeof(line), "%s -> %s (got %s)", what,
		 want ? strerrorname_np(want) : "0",
		 e ? strerrorname_np(e) : "0");
	check(e == want, line);
}

static void expect_mmap(int fd, size_t len, int flags, uint64_t off,
			int want, const char *what)
{
	char line[200];
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, flags, fd,
		       (off_t)off);
	int e = p == MAP_FAILED ? errno : 0;

	if (p != MAP_FAILED)
		munmap(p, len);
	snprintf(line, sizeof(line), "mmap %s -> %s (got %s)", what,
		 want ? strerrorname_np(want) : "0",
		 e ? strerrorname_np(e) : "0");
	check(e == want, line);
}

/* A valid timing request on BAR 0, offset 0, for the bad-args variants. */
static struct eel_pci_mmio_time good_time(void)
{
	struct eel_pci_mmio_time t = {
		.bar = 0, .op = EEL_PCI_MMIO_READ, .width = 4, .count = 4,
	};

	return t;
}

static int cmd_bad_args(const char *dev)
{
	struct eel_pci_dma_alloc a, bufs[EEL_PCI_DMA_MAX_BUFS];
	struct eel_pci_dma_free fr;
	struct eel_pci_dma_mask m;
	struct eel_pci_mmio_time t;
	struct eel_pci_info info;
	int fd = open_dev(dev), io_bar = -1, no_bar = -1, i;
	uint64_t bar0 = 0;
	void *p;

	get_info(fd, &info);
	bar0 = info.bar[0].size;
	for (i = 0; i < EEL_PCI_NUM_BARS; i++) {
		if (info.bar[i].size && !(info.bar[i].flags & EEL_PCI_BAR_MEM))
			io_bar = i;
		if (!info.bar[i].size && no_bar < 0)
			no_bar = i;
	}
	if (!bar0 || !(info.bar[0].flags & EEL_PCI_BAR_MMAP)) {
		fprintf(stderr, "eel-pci-check: bad-args wants a mappable memory BAR 0\n");
		return 1;
	}

	expect_ioctl(fd, _IO(EEL_PCI_IOC_TYPE, 0x7f), NULL, ENOTTY,
		     "unknown ioctl");
	expect_ioctl(fd, EEL_PCI_IOC_INFO, NULL, EFAULT, "INFO to NULL");

	t = good_time();
	expect_ioctl(fd, EEL_PCI_IOC_MMIO_TIME, &t, 0, "MMIO_TIME valid (control)");
	t = good_time(); t.bar = EEL_PCI_NUM_BARS;
	expect_ioctl(fd, EEL_PCI_IOC_MMIO_TIME, &t, EINVAL, "MMIO_TIME bar 6");
	if (no_bar >= 0) {
		t = good_time(); t.bar = (uint32_t)no_bar;
		expect_ioctl(fd, EEL_PCI_IOC_MMIO_TIME, &t, EINVAL,
			     "MMIO_TIME unimplemented BAR");
	}
	if (io_bar >= 0) {
		t = good_time(); t.bar = (uint32_t)io_bar;
		expect_ioctl(fd, EEL_PCI_IOC_MMIO_TIME, &t, EINVAL,
			     "MMIO_TIME I/O BAR");
	}
	t = good_time(); t.op = 3;
	expect_ioctl(fd, EEL_PCI_IOC_MMIO_TIME, &t, EINVAL, "MMIO_TIME op 3");
	t = good_time(); t.width = 3;
	expect_ioctl(fd, EEL_PCI_IOC_MMIO_TIME, &t, EINVAL, "MMIO_TIME width 3");
	t = good_time(); t.width = 0;
	expect_ioctl(fd, EEL_PCI_IOC_MMIO_TIME, &t, EINVAL, "MMIO_TIME width 0");
	t = good_time(); t.count = 0;
	expect_ioctl(fd, EEL_PCI_IOC_MMIO_TIME, &t, EINVAL, "MMIO_TIME count 0");
	t = good_time(); t.count = EEL_PCI_MMIO_MAX_COUNT + 1;
	expect_ioctl(fd, EEL_PCI_IOC_MMIO_TIME, &t, EINVAL,
		     "MMIO_TIME count over the cap");
	t = good_time(); t.offset = 2;
	expect_ioctl(fd, EEL_PCI_IOC_MMIO_TIME, &t, EINVAL,
		     "MMIO_TIME misaligned offset");
	t = good_time(); t.offset = bar0;
	expect_ioctl(fd, EEL_PCI_IOC_MMIO_TIME, &t, EINVAL,
		     "MMIO_TIME offset = BAR size");
	t = good_time(); t.offset = bar0 - 2; t.width = 4;
	expect_ioctl(fd, EEL_PCI_IOC_MMIO_TIME, &t, EINVAL,
		     "MMIO_TIME access across the BAR's end");
	t = good_time(); t.offset = 1ull << 63;
	expect_ioctl(fd, EEL_PCI_IOC_MMIO_TIME, &t, EINVAL,
		     "MMIO_TIME offset 2^63");
	t = good_time(); t.reserved = 1;
	expect_ioctl(fd, EEL_PCI_IOC_MMIO_TIME, &t, EINVAL,
		     "MMIO_TIME reserved field set");
	t = good_time(); t.min_cycles = 5;
	expect_ioctl(fd, EEL_PCI_IOC_MMIO_TIME, &t, EINVAL,
		     "MMIO_TIME output field preset");

	m = (struct eel_pci_dma_mask){ .bits = 23 };
	expect_ioctl(fd, EEL_PCI_IOC_SET_DMA_MASK, &m, EINVAL, "DMA mask 23 bits");
	m = (struct eel_pci_dma_mask){ .bits = 65 };
	expect_ioctl(fd, EEL_PCI_IOC_SET_DMA_MASK, &m, EINVAL, "DMA mask 65 bits");
	m = (struct eel_pci_dma_mask){ .bits = 32, .reserved = 1 };
	expect_ioctl(fd, EEL_PCI_IOC_SET_DMA_MASK, &m, EINVAL,
		     "DMA mask reserved field set");

	a = (struct eel_pci_dma_alloc){ .size = 0 };
	expect_ioctl(fd, EEL_PCI_IOC_DMA_ALLOC, &a, EINVAL, "DMA_ALLOC size 0");
	a = (struct eel_pci_dma_alloc){ .size = EEL_PCI_DMA_MAX_SIZE + 1ull };
	expect_ioctl(fd, EEL_PCI_IOC_DMA_ALLOC, &a, EINVAL,
		     "DMA_ALLOC size over the cap");
	a = (struct eel_pci_dma_alloc){ .size = 4096, .flags = 1 };
	expect_ioctl(fd, EEL_PCI_IOC_DMA_ALLOC, &a, EINVAL, "DMA_ALLOC flags 1");
	a = (struct eel_pci_dma_alloc){ .size = 4096, .id = 3 };
	expect_ioctl(fd, EEL_PCI_IOC_DMA_ALLOC, &a, EINVAL,
		     "DMA_ALLOC output field preset");
	fr = (struct eel_pci_dma_free){ .id = 9 };
	expect_ioctl(fd, EEL_PCI_IOC_DMA_FREE, &fr, EINVAL,
		     "DMA_FREE of an id never allocated");
	fr = (struct eel_pci_dma_free){ .id = 0, .reserved = 1 };
	expect_ioctl(fd, EEL_PCI_IOC_DMA_FREE, &fr, EINVAL,
		     "DMA_FREE reserved field set");

	expect_mmap(fd, 4096, MAP_SHARED, EEL_PCI_MMAP_BAR(0), 0,
		    "BAR 0 (control)");
	expect_mmap(fd, 4096, MAP_PRIVATE, EEL_PCI_MMAP_BAR(0), EINVAL,
		    "BAR 0 MAP_PRIVATE");
	expect_mmap(fd, 4096, MAP_SHARED, EEL_PCI_MMAP_BAR(0) + bar0, EINVAL,
		    "BAR 0 past its end");
	expect_mmap(fd, bar0 + 4096, MAP_SHARED, EEL_PCI_MMAP_BAR(0), EINVAL,
		    "BAR 0 longer than the BAR");
	expect_mmap(fd, 4096, MAP_SHARED, EEL_PCI_MMAP_BAR(7), EINVAL,
		    "region 7");
	if (!(info.bar[0].flags & EEL_PCI_BAR_PREFETCH))
		expect_mmap(fd, 4096, MAP_SHARED, EEL_PCI_MMAP_BAR_WC(0),
			    EINVAL, "write-combining on a non-prefetchable BAR");
	if (no_bar >= 0)
		expect_mmap(fd, 4096, MAP_SHARED, EEL_PCI_MMAP_BAR(no_bar),
			    EINVAL, "an unimplemented BAR");
	if (io_bar >= 0)
		expect_mmap(fd, 4096, MAP_SHARED, EEL_PCI_MMAP_BAR(io_bar),
			    EINVAL, "an I/O BAR");
	expect_mmap(fd, 4096, MAP_SHARED, EEL_PCI_MMAP_DMA(0), EINVAL,
		    "DMA buffer never allocated");
	expect_mmap(fd, 4096, MAP_SHARED, EEL_PCI_MMAP_DMA(EEL_PCI_DMA_MAX_BUFS),
		    EINVAL, "DMA region beyond the last id");

	/* A live buffer: busy while mapped, gone once freed. */
	a = (struct eel_pci_dma_alloc){ .size = 100 };
	expect_ioctl(fd, EEL_PCI_IOC_DMA_ALLOC, &a, 0, "DMA_ALLOC 100 bytes");
	check(a.mapped_size == 4096, "size rounded up to a page");
	/* mmap2() on a 32-bit system takes the offset in pages in 32 bits */
	check((EEL_PCI_MMAP_DMA(EEL_PCI_DMA_MAX_BUFS - 1) >> 12) <= UINT32_MAX &&
	      (a.mmap_offset >> 12) <= UINT32_MAX,
	      "every DMA mmap offset fits mmap2's 32-bit page offset");
	m = (struct eel_pci_dma_mask){ .bits = 32 };
	expect_ioctl(fd, EEL_PCI_IOC_SET_DMA_MASK, &m, EBUSY,
		     "DMA mask change with a buffer alive");
	expect_mmap(fd, 8192, MAP_SHARED, a.mmap_offset, EINVAL,
		    "DMA buffer longer than the buffer");
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 (off_t)a.mmap_offset);
	check(p != MAP_FAILED, "DMA buffer mapped");
	fr = (struct eel_pci_dma_free){ .id = a.id };
	expect_ioctl(fd, EEL_PCI_IOC_DMA_FREE, &fr, EBUSY,
		     "DMA_FREE while mapped");
	if (p != MAP_FAILED)
		munmap(p, 4096);
	expect_ioctl(fd, EEL_PCI_IOC_DMA_FREE, &fr, 0, "DMA_FREE once unmapped");
	expect_ioctl(fd, EEL_PCI_IOC_DMA_FREE, &fr, EINVAL, "DMA_FREE twice");

	/* The per-file cap on buffers */
	for (i = 0; i < (int)EEL_PCI_DMA_MAX_BUFS; i++) {
		bufs[i] = (struct eel_pci_dma_alloc){ .size = 4096 };
		if (ioctl(fd, EEL_PCI_IOC_DMA_ALLOC, &bufs[i]))
			break;
	}
	check(i == (int)EEL_PCI_DMA_MAX_BUFS, "64 buffers allocated");
	a = (struct eel_pci_dma_alloc){ .size = 4096 };
	expect_ioctl(fd, EEL_PCI_IOC_DMA_ALLOC, &a, ENOSPC,
		     "DMA_ALLOC beyond 64 buffers");
	while (i-- > 0) {
		fr = (struct eel_pci_dma_free){ .id = bufs[i].id };
		if (ioctl(fd, EEL_PCI_IOC_DMA_FREE, &fr))
			check(0, "free of a capped buffer");
	}
	close(fd);
	return failures != 0;
}

/* DMA memory is capped per device, not only per open file: two opens of the
 * same function fill EEL_PCI_DMA_MAX_DEVICE between them (1 MiB buffers). */
static int cmd_dma_cap(const char *dev)
{
	int fd[2] = { open_dev(dev), open_dev(dev) }, n[2] = { 0, 0 }, freed = 0;
	uint32_t ids[2][EEL_PCI_DMA_MAX_BUFS];
	struct eel_pci_dma_alloc a;
	struct eel_pci_dma_free fr;

	for (int f = 0; f < 2; f++) {
		for (;;) {
			a = (struct eel_pci_dma_alloc){ .size = 1u << 20 };
			if (ioctl(fd[f], EEL_PCI_IOC_DMA_ALLOC, &a))
				break;
			ids[f][n[f]++] = a.id;
		}
		check(errno == ENOSPC, "the cap says ENOSPC");
	}
	printf("file 1: %d MiB, file 2: %d MiB\n", n[0], n[1]);
	check(n[0] == (int)(EEL_PCI_DMA_MAX_TOTAL >> 20), "the first file reaches the per-file cap");
	check(n[0] + n[1] == (int)(EEL_PCI_DMA_MAX_DEVICE >> 20),
	      "the two files together stop at the per-device cap");
	for (int f = 0; f < 2; f++)
		for (int k = 0; k < n[f]; k++) {
			fr = (struct eel_pci_dma_free){ .id = ids[f][k] };
			freed += ioctl(fd[f], EEL_PCI_IOC_DMA_FREE, &fr) == 0;
		}
	check(freed == n[0] + n[1], "every buffer freed");
	close(fd[0]);
	close(fd[1]);
	return failures != 0;
}

struct churn {
	int fd;
	int bad;
};

/* Allocate and free from one thread while others do the same on the same
 * file: each frees only what it allocated, and always finds it. */
static void *churn_thread(void *arg)
{
	struct churn *c = arg;

	for (int k = 0; k < 2000; k++) {
		struct eel_pci_dma_alloc a = { .size = 4096 };
		struct eel_pci_dma_free fr;

		if (ioctl(c->fd, EEL_PCI_IOC_DMA_ALLOC, &a)) {
			if (errno != ENOSPC)
				c->bad++;
			continue;
		}
		fr = (struct eel_pci_dma_free){ .id = a.id };
		if (ioctl(c->fd, EEL_PCI_IOC_DMA_FREE, &fr))
			c->bad++;
	}
	return NULL;
}

static int cmd_dma_churn(const char *dev)
{
	int fd = open_dev(dev), bad = 0;
	struct churn c[4];
	pthread_t t[4];

	for (int k = 0; k < 4; k++) {
		c[k] = (struct churn){ fd, 0 };
		pthread_create(&t[k], NULL, churn_thread, &c[k]);
	}
	for (int k = 0; k < 4; k++) {
		pthread_join(t[k], NULL);
		bad += c[k].bad;
	}
	check(bad == 0, "4 threads x 2000 allocations and frees on one file: every free found its own buffer");
	close(fd);
	return failures != 0;
}

static int cmd_open(const char *dev, const char *expect)
{
	int fd = open(dev, O_RDWR | O_CLOEXEC);
	const char *got = fd >= 0 ? "ok" : strerrorname_np(errno);

	printf("open %s as uid %d: %s\n", dev, (int)getuid(), got);
	if (fd >= 0)
		close(fd);
	return strcmp(got, expect) != 0;
}

static sigjmp_buf touch_jmp;

static void on_sigbus(int sig)
{
	siglongjmp(touch_jmp, 1);
}

/* "ok" if a read and a write of *p work, "sigbus" if they fault. */
static const char *touch(volatile uint8_t *p)
{
	struct sigaction sa = { .sa_handler = on_sigbus };
	const char *r = "ok";

	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
	if (sigsetjmp(touch_jmp, 1) == 0) {
		uint8_t v = p[0];

		p[0] = v;
	} else {
		r = "sigbus";
	}
	signal(SIGBUS, SIG_DFL);
	return r;
}

static int cmd_hold(const char *dev)
{
	struct eel_pci_dma_alloc a = { .size = 4096 };
	struct eel_pci_info info;
	volatile uint8_t *bar, *dma;
	char line[16];
	const char *rb, *rd;
	int fd = open_dev(dev);

	get_info(fd, &info);
	bar = map_bar0(fd, &info, 4096);
	if (ioctl(fd, EEL_PCI_IOC_DMA_ALLOC, &a)) {
		fprintf(stderr, "eel-pci-check: DMA_ALLOC: %s\n", strerror(errno));
		return 1;
	}
	dma = map_dma(fd, &a);
	dma[0] = 0xa5;
	close(fd);	/* the mappings alone keep the file, and the module */
	printf("ready: %s and DMA buffer %u mapped, descriptor closed\n", dev,
	       a.id);
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		line[0] = '\0';
	rb = touch(bar);
	rd = touch(dma);
	printf("bar=%s dma=%s\n", rb, rd);
	return 0;
}

/* A prefetchable BAR mapped both ways reads the same through each. */
static int cmd_wc(const char *dev, unsigned int bar)
{
	struct eel_pci_info info;
	volatile uint32_t *uc, *wc;
	int fd = open_dev(dev), i, same = 1;

	get_info(fd, &info);
	if (bar >= EEL_PCI_NUM_BARS ||
	    !(info.bar[bar].flags & EEL_PCI_BAR_PREFETCH) ||
	    !(info.bar[bar].flags & EEL_PCI_BAR_MMAP)) {
		fprintf(stderr, "eel-pci-check: BAR %u is not a mappable prefetchable BAR\n",
			bar);
		return 1;
	}
	uc = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd,
		  (off_t)EEL_PCI_MMAP_BAR(bar));
	wc = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd,
		  (off_t)EEL_PCI_MMAP_BAR_WC(bar));
	check(uc != MAP_FAILED, "uncached mapping of a prefetchable BAR");
	check(wc != MAP_FAILED, "write-combining mapping of it");
	if (uc == MAP_FAILED || wc == MAP_FAILED)
		return 1;
	for (i = 0; i < 16; i++)
		same &= uc[i] == wc[i];
	check(same, "both read the same first 64 bytes");
	close(fd);
	return failures != 0;
}

static uint64_t parse_u64(const char *s)
{
	char *end;
	uint64_t v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || end == s) {
		fprintf(stderr, "eel-pci-check: '%s' is not a number\n", s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 2 && !strcmp(cmd, "--version")) {
		printf("eel-pci-check %s (git %s)\n", EEL_VERSION, EEL_GIT);
		return 0;
	}
	if (argc == 3 && !strcmp(cmd, "info"))
		return cmd_info(argv[2]);
	if (argc == 3 && !strcmp(cmd, "edu-dma"))
		return cmd_edu_dma(argv[2]);
	if (argc == 3 && !strcmp(cmd, "e1000-status"))
		return cmd_e1000_status(argv[2]);
	if (argc == 4 && !strcmp(cmd, "mmio-time"))
		return cmd_mmio_time(argv[2], parse_u64(argv[3]));
	if (argc == 3 && !strcmp(cmd, "bad-args"))
		return cmd_bad_args(argv[2]);
	if (argc == 3 && !strcmp(cmd, "dma-cap"))
		return cmd_dma_cap(argv[2]);
	if (argc == 3 && !strcmp(cmd, "dma-churn"))
		return cmd_dma_churn(argv[2]);
	if (argc == 4 && !strcmp(cmd, "open"))
		return cmd_open(argv[2], argv[3]);
	if (argc == 4 && !strcmp(cmd, "wc"))
		return cmd_wc(argv[2], (unsigned int)parse_u64(argv[3]));
	if (argc == 3 && !strcmp(cmd, "hold"))
		return cmd_hold(argv[2]);
	fprintf(stderr,
		"usage: eel-pci-check info|edu-dma|e1000-status|bad-args|dma-cap|dma-churn|hold DEV\n"
		"       eel-pci-check mmio-time DEV OFFSET | wc DEV BAR | open DEV ok|EACCES|EPERM|...\n");
	return 2;
}
