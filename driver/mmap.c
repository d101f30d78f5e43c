// SPDX-License-Identifier: GPL-2.0
/*
 * eel_pci: mmap of memory BARs and of DMA buffers.
 *
 * The mmap offset names the region (include/eel/eel_pci_ioctl.h): its top
 * bits select BAR n (uncached or write-combining) or DMA buffer id, the low
 * bits are the page-aligned offset inside it. Every VMA gets eel_pci_vm_ops, whose
 * fault handler answers SIGBUS: after unbind zaps the page tables, an access
 * faults there instead of reaching a disabled device or freed memory.
 */
#include <linux/dma-mapping.h>

#include "eel_pci.h"

static struct eel_pci_dev *eel_pci_vma_dev(struct vm_area_struct *vma)
{
	struct eel_pci_file *ef = vma->vm_file->private_data;

	return ef->edev;
}

/* A VMA was split or copied: count the new one. */
static void eel_pci_vm_open(struct vm_area_struct *vma)
{
	struct eel_pci_buf *buf = vma->vm_private_data;
	struct eel_pci_dev *edev = eel_pci_vma_dev(vma);

	if (!buf)
		return;
	mutex_lock(&edev->lock);
	eel_pci_buf_get(buf);
	mutex_unlock(&edev->lock);
}

static void eel_pci_vm_close(struct vm_area_struct *vma)
{
	struct eel_pci_buf *buf = vma->vm_private_data;
	struct eel_pci_dev *edev = eel_pci_vma_dev(vma);

	if (!buf)
		return;
	mutex_lock(&edev->lock);
	eel_pci_buf_put(buf);
	mutex_unlock(&edev->lock);
}

/* Mappings are populated in mmap; a fault means they were zapped on unbind. */
static vm_fault_t eel_pci_vm_fault(struct vm_fault *vmf)
{
	return VM_FAULT_SIGBUS;
}

static const struct vm_operations_struct eel_pci_vm_ops = {
	.open	= eel_pci_vm_open,
	.close	= eel_pci_vm_close,
	.fault	= eel_pci_vm_fault,
};

static int eel_pci_mmap_bar(struct eel_pci_dev *edev, struct vm_area_struct *vma,
			    unsigned int bar, bool wc, u64 off)
{
	struct pci_dev *pdev = edev->pdev;
	unsigned long flags = pci_resource_flags(pdev, bar);
	resource_size_t start = pci_resource_start(pdev, bar);
	resource_size_t len = pci_resource_len(pdev, bar);
	unsigned long size = vma->vm_end - vma->vm_start;
	pgprot_t prot;

	/* A BAR smaller than a page may share its page with another device. */
	if (!(flags & IORESOURCE_MEM) || len < PAGE_SIZE ||
	    !PAGE_ALIGNED(start))
		return -EINVAL;
	if (wc && !(flags & IORESOURCE_PREFETCH))
		return -EINVAL;
	if (off >= len || size > len - off)
		return -EINVAL;

	prot = wc ? pgprot_writecombine(vma->vm_page_prot) :
		    pgprot_noncached(vma->vm_page_prot);
	vma->vm_private_data = NULL;
	return io_remap_pfn_range(vma, vma->vm_start, (start + off) >> PAGE_SHIFT,
				  size, prot);
}

static int eel_pci_mmap_dma(struct eel_pci_file *ef, struct vm_area_struct *vma,
			    u32 id, u64 off)
{
	struct eel_pci_buf *buf = eel_pci_dma_find(ef, id);
	unsigned long size = vma->vm_end - vma->vm_start;
	int err;

	if (!buf || off >= buf->size || size > buf->size - off)
		return -EINVAL;
	/* dma_mmap_coherent() reads vm_pgoff as the offset into the buffer */
	vma->vm_pgoff = off >> PAGE_SHIFT;
	err = dma_mmap_coherent(&ef->edev->pdev->dev, vma, buf->cpu, buf->bus,
				buf->size);
	if (err)
		return err;
	vma->vm_private_data = buf;
	eel_pci_buf_get(buf);
	return 0;
}

int eel_pci_mmap(struct file *filp, struct vm_area_struct *vma)
{
	struct eel_pci_file *ef = filp->private_data;
	struct eel_pci_dev *edev = ef->edev;
	u64 pos = (u64)vma->vm_pgoff << PAGE_SHIFT;
	u64 region = pos >> EEL_PCI_REGION_SHIFT;
	u64 off = pos & (BIT_ULL(EEL_PCI_REGION_SHIFT) - 1);
	int err;

	/* Private (copy-on-write) mappings of MMIO or DMA memory make no sense. */
	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	/*
	 * The remap helpers set VM_IO/VM_PFNMAP (or VM_MIXEDMAP) and
	 * VM_DONTEXPAND; a fork's copy is counted by eel_pci_vm_open(), and its
	 * page tables are zapped on unbind with ours.
	 */
	vma->vm_ops = &eel_pci_vm_ops;

	mutex_lock(&edev->lock);
	if (edev->dead)
		err = -ENODEV;
	else if (region < EEL_PCI_NUM_BARS)
		err = eel_pci_mmap_bar(edev, vma, region, false, off);
	else if (region >= EEL_PCI_REGION_WC &&
		 region < EEL_PCI_REGION_WC + EEL_PCI_NUM_BARS)
		err = eel_pci_mmap_bar(edev, vma, region - EEL_PCI_REGION_WC, true,
				       off);
	else if (region >= EEL_PCI_REGION_DMA &&
		 region < EEL_PCI_REGION_DMA + EEL_PCI_DMA_MAX_BUFS)
		err = eel_pci_mmap_dma(ef, vma, region - EEL_PCI_REGION_DMA, off);
	else
		err = -EINVAL;
	mutex_unlock(&edev->lock);
	return err;
}
