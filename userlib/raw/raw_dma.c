/* SPDX-License-Identifier: MIT */
/* userlib/raw/raw_dma.c — DMA memory for eel's raw drivers (raw_pci.h):
 * eel_pci's DMA-coherent buffers, or, on the uio fallback, a hugepage and
 * its physical address. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <eel/eel_pci_ioctl.h>

#include "userlib/core/dev.h"
#include "userlib/raw/raw_pci.h"

#define HUGEPAGE (2u << 20)
#define HUGETLBFS_MAGIC 0x958458f6   /* linux/magic.h */

/* ---- through eel_pci ---- */

static int dma_eel_pci(struct raw_pci *p, size_t len, struct raw_dma *d)
{
	struct eel_pci_dma_alloc a = { .size = len };
	struct eel_pci_dma_free f = { 0 };
	void *m;

	if (ioctl(p->fd, EEL_PCI_IOC_DMA_ALLOC, &a))
		return eel_err(-errno, "raw: eel_pci could not allocate %zu bytes of DMA memory for %s: %s",
			       len, p->addr, strerror(errno));
	m = mmap(NULL, a.mapped_size, PROT_READ | PROT_WRITE, MAP_SHARED, p->fd, (off_t)a.mmap_offset);
	if (m == MAP_FAILED) {
		int err = errno;

		f.id = a.id;
		ioctl(p->fd, EEL_PCI_IOC_DMA_FREE, &f);
		return eel_err(-err, "raw: cannot map eel_pci's DMA buffer: %s", strerror(err));
	}
	d->va = m;
	d->bus = a.bus_addr;
	d->len = a.mapped_size;
	d->id = (int32_t)a.id;
	return 0;
}

/* ---- the uio fallback: a hugepage, its physical address from pagemap ---- */

/* Where hugetlbfs is mounted (the VM bench: /run/hugepages). */
static int hugetlbfs_dir(char *out, size_t cap)
{
	static const char *const known[] = { "/run/hugepages", "/dev/hugepages", "/mnt/huge" };
	char dev[256], dir[256], type[64];
	struct statfs sf;
	FILE *f;

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!statfs(known[i], &sf) && (unsigned long)sf.f_type == HUGETLBFS_MAGIC) {
			snprintf(out, cap, "%s", known[i]);
			return 0;
		}
	f = fopen("/proc/mounts", "r");
	if (!f)
		return -1;
	while (fscanf(f, "%255s %255s %63s %*[^\n]", dev, dir, type) == 3)
		if (!strcmp(type, "hugetlbfs")) {
			snprintf(out, cap, "%s", dir);
			fclose(f);
			return 0;
		}
	fclose(f);
	return -1;
}

/* Physical address of a mapped, locked page ([kernel] admin-guide/mm/pagemap:
 * bit 63 present, bits 0-54 the page frame number; non-root reads 0). */
static int phys_addr(const void *va, uint64_t *pa)
{
	long pg = sysconf(_SC_PAGESIZE);
	uint64_t e = 0;
	int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = pread(fd, &e, sizeof(e), (off_t)((uintptr_t)va / (uintptr_t)pg * sizeof(e)));
	close(fd);
	if (n != sizeof(e) || !(e & (1ull << 63)) || !(e & ((1ull << 55) - 1)))
		return -1;
	*pa = (e & ((1ull << 55) - 1)) * (uint64_t)pg + (uintptr_t)va % (uintptr_t)pg;
	return 0;
}

static int iommu_active(void)
{
	int fd = open("/sys/kernel/iommu_groups/0", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0)
		close(fd);
	return fd >= 0;
}

static int dma_hugepage(struct raw_pci *p, size_t len, struct raw_dma *d)
{
	static unsigned counter;
	char dir[256], path[320];
	void *m;
	int fd;

	if (len > HUGEPAGE)
		return eel_err(-EINVAL, "raw: %zu bytes of DMA memory do not fit one 2-MB hugepage", len);
	if (iommu_active())
		return eel_err(-ENOTSUP, "raw: an IOMMU translates %s's DMA, so physical addresses are not bus "
			       "addresses: use eel_pci (`sudo tools/eel-bind --force %s`)", p->addr, p->addr);
	if (hugetlbfs_dir(dir, sizeof(dir)))
		return eel_err(-ENOENT, "raw: the uio fallback needs hugepages and none are mounted: `echo 8 | sudo "
			       "tee /proc/sys/vm/nr_hugepages; sudo mount -t hugetlbfs none /dev/hugepages`");
	snprintf(path, sizeof(path), "%s/eel-raw-%d-%u", dir, (int)getpid(), counter++);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return eel_err(-errno, "raw: cannot create %s: %s", path, strerror(errno));
	unlink(path);
	m = mmap(NULL, HUGEPAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return eel_err(-ENOMEM, "raw: no free 2-MB hugepage for DMA memory: reserve more (`echo 8 | sudo "
			       "tee /proc/sys/vm/nr_hugepages`)");
	/* A hugepage does not move or swap; lock it all the same. */
	mlock(m, HUGEPAGE);
	memset(m, 0, HUGEPAGE);
	if (phys_addr(m, &d->bus)) {
		munmap(m, HUGEPAGE);
		return eel_err(-EACCES, "raw: cannot read physical addresses from /proc/self/pagemap: the uio "
			       "fallback needs root");
	}
	d->va = m;
	d->len = HUGEPAGE;
	d->id = -1;
	return 0;
}

int raw_dma_alloc(struct raw_pci *p, size_t len, struct raw_dma *d)
{
	memset(d, 0, sizeof(*d));
	d->id = -1;
	if (p->via == RAW_VIA_EEL_PCI)
		return dma_eel_pci(p, len, d);
	return dma_hugepage(p, len, d);
}

void raw_dma_free(struct raw_pci *p, struct raw_dma *d)
{
	if (!d->va)
		return;
	munmap(d->va, d->len);
	if (p->via == RAW_VIA_EEL_PCI && d->id >= 0 && p->fd >= 0) {
		struct eel_pci_dma_free f = { .id = (uint32_t)d->id };

		ioctl(p->fd, EEL_PCI_IOC_DMA_FREE, &f);
	}
	d->va = NULL;
}
