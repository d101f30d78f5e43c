// SPDX-License-Identifier: GPL-2.0
/*
 * eel_pci: DMA-coherent buffers for user space.
 *
 * dma_alloc_coherent() gives memory the device can reach and its bus
 * address (an IOVA when an IOMMU translates, the physical address when not),
 * so user space can build descriptor rings and payload buffers with or
 * without an IOMMU. A buffer belongs to the open file that allocated it and
 * is freed by EEL_PCI_IOC_DMA_FREE, by the file's release, or on unbind;
 * while a VMA still maps it, freeing waits for the last munmap, but on
 * unbind its memory goes at once (the mappings are zapped first) and only
 * its record waits, so no DMA memory outlives the driver's binding.
 *
 * All functions here run under edev->lock.
 */
#include <linux/dma-mapping.h>
#include <linux/slab.h>

#include "eel_pci.h"

int eel_pci_dma_set_mask(struct eel_pci_dev *edev, unsigned int bits)
{
	int err;

	if (bits < 24 || bits > 64)
		return -EINVAL;
	/* Buffers already allocated may lie outside a narrower mask. */
	if (edev->nbufs)
		return -EBUSY;
	err = dma_set_mask_and_coherent(&edev->pdev->dev, DMA_BIT_MASK(bits));
	if (!err)
		edev->dma_mask_bits = bits;
	return err;
}

/* A buffer of this file by id, pending ones too or not. */
static struct eel_pci_buf *eel_pci_dma_lookup(struct eel_pci_file *ef, u32 id, bool pending)
{
	struct eel_pci_buf *buf;

	list_for_each_entry(buf, &ef->bufs, node)
		if (buf->id == id && (pending || !buf->pending))
			return buf;
	return NULL;
}

/* A buffer user space knows of (not one whose id is still on its way). */
struct eel_pci_buf *eel_pci_dma_find(struct eel_pci_file *ef, u32 id)
{
	return eel_pci_dma_lookup(ef, id, false);
}

/* Lowest id not in use by this file: ids stay below EEL_PCI_DMA_MAX_BUFS. */
static u32 eel_pci_dma_free_id(struct eel_pci_file *ef)
{
	u32 id;

	for (id = 0; id < EEL_PCI_DMA_MAX_BUFS; id++)
		if (!eel_pci_dma_lookup(ef, id, true))
			break;
	return id;
}

/*
 * The buffer is made pending: no FREE finds it and no ALLOC takes its id
 * until eel_pci_dma_told() says whether user space got its id, so the ioctl can
 * drop the lock to copy the answer out and still free this very buffer if
 * the copy fails (freeing by id then could free another's new buffer).
 */
int eel_pci_dma_alloc(struct eel_pci_file *ef, struct eel_pci_dma_alloc *req,
		      struct eel_pci_buf **made)
{
	struct eel_pci_dev *edev = ef->edev;
	struct eel_pci_buf *buf;
	size_t size;

	if (req->flags || req->id || req->bus_addr || req->mmap_offset ||
	    req->mapped_size)
		return -EINVAL;
	if (!req->size || req->size > EEL_PCI_DMA_MAX_SIZE)
		return -EINVAL;
	size = PAGE_ALIGN(req->size);
	if (ef->nbufs >= EEL_PCI_DMA_MAX_BUFS ||
	    ef->dma_bytes + size > EEL_PCI_DMA_MAX_TOTAL ||
	    edev->dma_bytes + size > EEL_PCI_DMA_MAX_DEVICE)
		return -ENOSPC;

	buf = kzalloc(sizeof(*buf), GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	/* dma_alloc_coherent() returns zeroed memory */
	buf->cpu = dma_alloc_coherent(&edev->pdev->dev, size, &buf->bus,
				      GFP_KERNEL);
	if (!buf->cpu) {
		kfree(buf);
		return -ENOMEM;
	}
	buf->edev = edev;
	buf->size = size;
	buf->id = eel_pci_dma_free_id(ef);
	buf->owned = true;
	buf->pending = true;
	list_add_tail(&buf->node, &ef->bufs);
	ef->nbufs++;
	ef->dma_bytes += size;
	edev->nbufs++;
	edev->dma_bytes += size;
	*made = buf;

	req->id = buf->id;
	req->bus_addr = buf->bus;
	req->mmap_offset = EEL_PCI_MMAP_DMA(buf->id);
	req->mapped_size = size;
	return 0;
}

/* User space has the buffer's id (ok), or could not be told: free it. */
void eel_pci_dma_told(struct eel_pci_file *ef, struct eel_pci_buf *buf, bool ok)
{
	buf->pending = false;
	if (!ok)
		eel_pci_dma_disown(ef, buf);
}

/* The buffer's DMA memory, now (its record may stay for a VMA's close). */
void eel_pci_dma_release_memory(struct eel_pci_buf *buf)
{
	struct eel_pci_dev *edev = buf->edev;

	if (!buf->cpu)
		return;
	dma_free_coherent(&edev->pdev->dev, buf->size, buf->cpu, buf->bus);
	buf->cpu = NULL;
	edev->nbufs--;
	edev->dma_bytes -= buf->size;
}

static void eel_pci_buf_free(struct eel_pci_buf *buf)
{
	eel_pci_dma_release_memory(buf);
	kfree(buf);
}

/* Take the buffer off its file's list; free it unless a VMA maps it. */
void eel_pci_dma_disown(struct eel_pci_file *ef, struct eel_pci_buf *buf)
{
	ef->nbufs--;
	ef->dma_bytes -= buf->size;
	list_del(&buf->node);
	buf->owned = false;
	if (!buf->maps)
		eel_pci_buf_free(buf);
}

int eel_pci_dma_free(struct eel_pci_file *ef, u32 id)
{
	struct eel_pci_buf *buf = eel_pci_dma_find(ef, id);

	if (!buf)
		return -EINVAL;
	if (buf->maps)
		return -EBUSY;
	eel_pci_dma_disown(ef, buf);
	return 0;
}

void eel_pci_buf_get(struct eel_pci_buf *buf)
{
	buf->maps++;
}

/* One VMA less; the last one frees a buffer its owner let go of. */
void eel_pci_buf_put(struct eel_pci_buf *buf)
{
	if (--buf->maps == 0 && !buf->owned)
		eel_pci_buf_free(buf);
}
