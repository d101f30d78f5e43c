/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * eel_pci ioctl ABI: shared by driver/eel_pci.ko and user space.
 *
 * One character device per PCI function bound to eel_pci:
 *   /dev/eel_pci/<domain:bus:dev.fn>, e.g. /dev/eel_pci/0000:00:03.0
 * Only root (CAP_SYS_RAWIO) may open it.
 *
 * mmap offsets name a region in the top bits (EEL_PCI_REGION_SHIFT); the
 * bits below it are the offset inside the region (page aligned):
 *   EEL_PCI_MMAP_BAR(n)     memory BAR n, uncached
 *   EEL_PCI_MMAP_BAR_WC(n)  memory BAR n, write-combining (prefetchable only)
 *   EEL_PCI_MMAP_DMA(id)    DMA buffer id (from EEL_PCI_IOC_DMA_ALLOC)
 * Mappings must be MAP_SHARED.
 *
 * Every structure has fixed-width fields and explicit padding; reserved
 * fields must be zero on input (else EINVAL), so that later versions can
 * give them a meaning. The structure sizes are part of the ioctl numbers,
 * and EEL_PCI_IOC_INFO reports EEL_PCI_ABI_MAGIC and EEL_PCI_ABI_VERSION.
 */
#ifndef EEL_PCI_IOCTL_H
#define EEL_PCI_IOCTL_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define EEL_PCI_ABI_MAGIC	0x45454c50u	/* "EELP" */
#define EEL_PCI_ABI_VERSION	2u	/* 2: mmap regions of 36 bits (were 40) */

#define EEL_PCI_DEV_DIR		"/dev/eel_pci"	/* + "/0000:00:03.0" */
#define EEL_PCI_DRIVER_NAME	"eel_pci"

#define EEL_PCI_NUM_BARS	6

/*
 * mmap offsets: region number << EEL_PCI_REGION_SHIFT | offset in region.
 * A region holds a BAR of up to 64 GiB; the largest offset, of the last DMA
 * buffer, in pages ((16 + 64) << 36 >> 12 = 80 << 24) fits the 32-bit page
 * offset of mmap2() on 32-bit systems (it did not with a shift of 40).
 */
#define EEL_PCI_REGION_SHIFT	36
#define EEL_PCI_REGION_WC	8	/* regions 8..13: BARs 0..5, WC */
#define EEL_PCI_REGION_DMA	16	/* regions 16..: DMA buffer ids 0.. */
#define EEL_PCI_MMAP_BAR(n)	((__u64)(n) << EEL_PCI_REGION_SHIFT)
#define EEL_PCI_MMAP_BAR_WC(n) \
	((__u64)(EEL_PCI_REGION_WC + (n)) << EEL_PCI_REGION_SHIFT)
#define EEL_PCI_MMAP_DMA(id) \
	((__u64)(EEL_PCI_REGION_DMA + (id)) << EEL_PCI_REGION_SHIFT)

/* Limits (checked by the module, EINVAL beyond them). */
#define EEL_PCI_DMA_MAX_SIZE	(4u << 20)	/* one buffer: 4 MiB */
#define EEL_PCI_DMA_MAX_BUFS	64u		/* live buffers per open file */
#define EEL_PCI_DMA_MAX_TOTAL	(64u << 20)	/* bytes per open file */
#define EEL_PCI_DMA_MAX_DEVICE	(96u << 20)	/* bytes per device, all files (ENOSPC) */
#define EEL_PCI_MMIO_MAX_COUNT	4096u		/* samples per timing call */

/* struct eel_pci_bar.flags */
#define EEL_PCI_BAR_MEM		0x1u	/* memory BAR (else I/O ports) */
#define EEL_PCI_BAR_64		0x2u	/* 64-bit BAR */
#define EEL_PCI_BAR_PREFETCH	0x4u	/* prefetchable: WC mapping allowed */
#define EEL_PCI_BAR_MMAP	0x8u	/* mmap-able (memory, page aligned) */

struct eel_pci_bar {
	__u64 size;		/* bytes; 0 when the BAR is not implemented */
	__u64 phys;		/* CPU physical address of the BAR */
	__u32 flags;		/* EEL_PCI_BAR_* */
	__u32 reserved;
};

/* EEL_PCI_IOC_INFO: what the module knows of the function (output only). */
struct eel_pci_info {
	__u32 magic;		/* EEL_PCI_ABI_MAGIC */
	__u32 abi_version;	/* EEL_PCI_ABI_VERSION */
	__u16 vendor;
	__u16 device;
	__u16 subsystem_vendor;
	__u16 subsystem_device;
	__u32 class_code;	/* base class << 16 | sub class << 8 | prog-if */
	__u8 revision;
	__u8 reserved0[3];
	__u32 dma_mask_bits;	/* current streaming and coherent DMA mask */
	__s32 numa_node;	/* -1 when unknown */
	__u32 cycles_khz;	/* cycle counter rate of the timing ioctl; 0 = unknown */
	__u32 reserved1;
	struct eel_pci_bar bar[EEL_PCI_NUM_BARS];
};

/* EEL_PCI_IOC_SET_DMA_MASK: the device's DMA addressing width, 24..64 bits. */
struct eel_pci_dma_mask {
	__u32 bits;		/* in */
	__u32 reserved;		/* must be 0 */
};

/* EEL_PCI_IOC_DMA_ALLOC: a DMA-coherent buffer, zeroed. */
struct eel_pci_dma_alloc {
	__u64 size;		/* in: bytes, 1..EEL_PCI_DMA_MAX_SIZE (rounded up to pages) */
	__u32 flags;		/* in: must be 0 */
	__u32 id;		/* out: buffer id */
	__u64 bus_addr;		/* out: address the device uses (IOVA under an IOMMU) */
	__u64 mmap_offset;	/* out: EEL_PCI_MMAP_DMA(id) */
	__u64 mapped_size;	/* out: size rounded up to pages */
};

/* EEL_PCI_IOC_DMA_FREE: free a buffer that is no longer mapped (else EBUSY). */
struct eel_pci_dma_free {
	__u32 id;		/* in */
	__u32 reserved;		/* must be 0 */
};

/* struct eel_pci_mmio_time.op */
#define EEL_PCI_MMIO_READ	0u	/* sample = one load */
#define EEL_PCI_MMIO_WRITE	1u	/* sample = one (posted) store */
#define EEL_PCI_MMIO_WRITE_READ	2u	/* sample = store, then load of the same register (flush) */

/*
 * EEL_PCI_IOC_MMIO_TIME: count accesses of width bytes at offset of a memory
 * BAR, each timed with the cycle counter, with preemption and interrupts off.
 * The offset must be aligned to the width and inside the BAR.
 */
struct eel_pci_mmio_time {
	__u32 bar;		/* in: 0..5, a memory BAR */
	__u32 op;		/* in: EEL_PCI_MMIO_* */
	__u32 width;		/* in: 1, 2, 4 or 8 bytes */
	__u32 count;		/* in: 1..EEL_PCI_MMIO_MAX_COUNT */
	__u64 offset;		/* in: byte offset in the BAR */
	__u64 value;		/* in: value stored (WRITE*); out: last value loaded (READ*) */
	__u64 min_cycles;	/* out */
	__u64 median_cycles;	/* out: sorted sample [count / 2] */
	__u64 max_cycles;	/* out */
	__u64 timer_min_cycles;	/* out: min of an empty timed section (timer's own cost) */
	__u32 cycles_khz;	/* out: cycle counter rate; 0 = unknown */
	__u32 reserved;		/* must be 0 */
};

#define EEL_PCI_IOC_TYPE	0xEE

#define EEL_PCI_IOC_INFO	_IOR(EEL_PCI_IOC_TYPE, 0x00, struct eel_pci_info)
#define EEL_PCI_IOC_SET_DMA_MASK \
	_IOW(EEL_PCI_IOC_TYPE, 0x01, struct eel_pci_dma_mask)
#define EEL_PCI_IOC_DMA_ALLOC	_IOWR(EEL_PCI_IOC_TYPE, 0x02, struct eel_pci_dma_alloc)
#define EEL_PCI_IOC_DMA_FREE	_IOW(EEL_PCI_IOC_TYPE, 0x03, struct eel_pci_dma_free)
#define EEL_PCI_IOC_MMIO_TIME	_IOWR(EEL_PCI_IOC_TYPE, 0x04, struct eel_pci_mmio_time)

#endif /* EEL_PCI_IOCTL_H */
