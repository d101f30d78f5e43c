/* SPDX-License-Identifier: GPL-2.0 */
/*
 * eel_pci: internal state shared by the module's files.
 *
 * Lifetimes:
 *  - struct eel_pci_dev lives from probe until the last open file is released
 *    (kref). remove() marks it dead, zaps user mappings, stops bus mastering
 *    and frees what no mapping holds; ioctl and mmap then fail with ENODEV.
 *  - struct eel_pci_file is one open file; it owns its DMA buffers.
 *  - struct eel_pci_buf lives while its owner lists it or a VMA maps it, so a
 *    buffer that is still mapped is never freed under user space. Every
 *    VMA holds its file, so buffers never outlive their file.
 *  - The module stays loaded while any file is open or mapped (fops owner).
 */
#ifndef EEL_PCI_DRIVER_H
#define EEL_PCI_DRIVER_H

#include <linux/fs.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/pci.h>

#include <eel/eel_pci_ioctl.h>

#define EEL_PCI_NAME	EEL_PCI_DRIVER_NAME
/*
 * The release it came with: eel's (include/eel/eel.h, EEL_VERSION), read by
 * userspace in /sys/module/eel_pci/version (eel_nic_info, raw backend).
 */
#define EEL_PCI_VERSION	"0.1.0"

struct eel_pci_dev {
	struct kref ref;
	struct mutex lock;		/* protects everything below */
	struct pci_dev *pdev;		/* held with pci_dev_get() */
	bool dead;			/* removed: no more device access */
	unsigned int dma_mask_bits;
	void __iomem *bar[EEL_PCI_NUM_BARS];	/* memory BARs, for timing */
	struct list_head files;		/* struct eel_pci_file.node */
	unsigned int nbufs;		/* DMA buffers alive on this device */
	u64 dma_bytes;			/* their bytes, at most EEL_PCI_DMA_MAX_DEVICE */
	struct miscdevice misc;
	char name[32];			/* misc name: eel_pci-0000:00:03.0 */
	char nodename[40];		/* /dev/eel_pci/0000:00:03.0 */
};

struct eel_pci_file {
	struct eel_pci_dev *edev;	/* holds a reference */
	struct file *filp;
	struct list_head node;		/* in edev->files */
	struct list_head bufs;		/* struct eel_pci_buf.node */
	unsigned int nbufs;
	u64 dma_bytes;
};

struct eel_pci_buf {
	struct eel_pci_dev *edev;	/* outlived: the owner file holds it */
	struct list_head node;		/* in eel_pci_file.bufs while owned */
	bool owned;
	bool pending;			/* allocated, its id not yet told to user space */
	u32 id;
	size_t size;			/* page multiple */
	void *cpu;
	dma_addr_t bus;
	unsigned int maps;		/* VMAs mapping it */
};

/* core.c */
void eel_pci_dev_put(struct eel_pci_dev *edev);

/* dma.c: everything under edev->lock */
int eel_pci_dma_alloc(struct eel_pci_file *ef, struct eel_pci_dma_alloc *req,
		      struct eel_pci_buf **made);
void eel_pci_dma_told(struct eel_pci_file *ef, struct eel_pci_buf *buf, bool ok);
void eel_pci_dma_release_memory(struct eel_pci_buf *buf);
int eel_pci_dma_free(struct eel_pci_file *ef, u32 id);
struct eel_pci_buf *eel_pci_dma_find(struct eel_pci_file *ef, u32 id);
void eel_pci_dma_disown(struct eel_pci_file *ef, struct eel_pci_buf *buf);
void eel_pci_buf_get(struct eel_pci_buf *buf);
void eel_pci_buf_put(struct eel_pci_buf *buf);
int eel_pci_dma_set_mask(struct eel_pci_dev *edev, unsigned int bits);

/* mmap.c */
int eel_pci_mmap(struct file *filp, struct vm_area_struct *vma);

/* mmio_time.c: under edev->lock */
int eel_pci_mmio_time(struct eel_pci_dev *edev, struct eel_pci_mmio_time *req);
u32 eel_pci_cycles_khz(void);

/* ioctl.c */
long eel_pci_ioctl(struct file *filp, unsigned int cmd, unsigned long arg);

#endif /* EEL_PCI_DRIVER_H */
