/* SPDX-License-Identifier: MIT */
/* userlib/raw/raw_pci.h — a PCI function in user space, for eel's raw drivers:
 * its BAR 0 mapped, and DMA memory with bus addresses.
 *
 * Two ways in, chosen by the driver the function is bound to:
 *   eel_pci           eel's own module (driver/, include/eel/eel_pci_ioctl.h):
 *                     BAR 0 mmap'd from /dev/eel_pci/<address>, DMA-coherent
 *                     buffers with their bus addresses (IOVAs under an IOMMU)
 *                     from its ioctl. Root only.
 *   uio_pci_generic   the fallback when the module is absent: BAR 0 from sysfs
 *                     resource0, bus mastering set in config space, DMA memory
 *                     in a 2-MB hugepage (physically contiguous) whose physical
 *                     address /proc/self/pagemap gives. Needs root, hugepages
 *                     (hugetlbfs mounted), and no IOMMU.
 * The library never prints: every failure sets eel_err with the fix.
 */
#ifndef EEL_USERLIB_RAW_PCI_H
#define EEL_USERLIB_RAW_PCI_H

#include <stddef.h>
#include <stdint.h>

enum raw_pci_via { RAW_VIA_EEL_PCI = 1, RAW_VIA_UIO = 2 };

struct raw_pci {
	char addr[16];         /* 0000:00:03.0 */
	uint16_t vendor, device;
	int via;               /* enum raw_pci_via */
	int fd;                /* /dev/eel_pci/<addr>, or sysfs resource0 */
	int cfg_fd;            /* uio: sysfs config (bus mastering) */
	volatile uint8_t *bar0;
	size_t bar0_len;
	uint16_t cmd_saved;    /* uio: PCI command register before us */
	int cmd_changed;
};

/* DMA memory: CPU address, the address the device uses, length. */
struct raw_dma {
	void *va;
	uint64_t bus;
	size_t len;
	int32_t id;            /* eel_pci buffer id; -1 for a hugepage */
};

/* "0000:00:03.0" or "00:03.0" into the canonical form (lower case);
 * -EINVAL (with the message) when it is neither. */
int raw_pci_parse_addr(const char *s, char *out, size_t cap);

/* Open the function at addr (canonical) if its ID is one of the `ids` (n
 * pairs of vendor, device), naming them in the message when it is not
 * (`supported` lists them for a person). Maps BAR 0. */
int raw_pci_open(struct raw_pci *p, const char *addr, const uint16_t (*ids)[2], int n,
		 const char *supported);
void raw_pci_close(struct raw_pci *p);

/* The path used, for caps: "eel_pci" or "uio_pci_generic+hugepages". */
const char *raw_pci_via_name(const struct raw_pci *p);

/* raw_dma.c: len bytes of zeroed DMA memory (at most 2 MB on the uio path,
 * 4 MB through eel_pci), contiguous in bus address space. */
int raw_dma_alloc(struct raw_pci *p, size_t len, struct raw_dma *d);
void raw_dma_free(struct raw_pci *p, struct raw_dma *d);

#endif
