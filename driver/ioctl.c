// SPDX-License-Identifier: GPL-2.0
/*
 * eel_pci: the ioctl entry point (ABI: include/eel/eel_pci_ioctl.h).
 *
 * Arguments are copied in and out without edev->lock held (a user-copy
 * fault takes mmap_lock, which mmap takes before edev->lock); the work is
 * done under the lock, after checking the device is still bound.
 */
#include <linux/uaccess.h>

#include "eel_pci.h"

static void eel_pci_info_fill(struct eel_pci_dev *edev, struct eel_pci_info *info)
{
	struct pci_dev *pdev = edev->pdev;
	int i;

	memset(info, 0, sizeof(*info));
	info->magic = EEL_PCI_ABI_MAGIC;
	info->abi_version = EEL_PCI_ABI_VERSION;
	info->vendor = pdev->vendor;
	info->device = pdev->device;
	info->subsystem_vendor = pdev->subsystem_vendor;
	info->subsystem_device = pdev->subsystem_device;
	info->class_code = pdev->class;
	info->revision = pdev->revision;
	info->dma_mask_bits = edev->dma_mask_bits;
	info->numa_node = dev_to_node(&pdev->dev);
	info->cycles_khz = eel_pci_cycles_khz();

	for (i = 0; i < EEL_PCI_NUM_BARS; i++) {
		struct eel_pci_bar *b = &info->bar[i];
		unsigned long flags = pci_resource_flags(pdev, i);

		b->size = pci_resource_len(pdev, i);
		if (!b->size)
			continue;
		b->phys = pci_resource_start(pdev, i);
		if (flags & IORESOURCE_MEM)
			b->flags |= EEL_PCI_BAR_MEM;
		if (flags & IORESOURCE_MEM_64)
			b->flags |= EEL_PCI_BAR_64;
		if (flags & IORESOURCE_PREFETCH)
			b->flags |= EEL_PCI_BAR_PREFETCH;
		if ((flags & IORESOURCE_MEM) && b->size >= PAGE_SIZE &&
		    PAGE_ALIGNED(b->phys))
			b->flags |= EEL_PCI_BAR_MMAP;
	}
}

union eel_pci_ioctl_arg {
	struct eel_pci_info info;
	struct eel_pci_dma_mask mask;
	struct eel_pci_dma_alloc alloc;
	struct eel_pci_dma_free free;
	struct eel_pci_mmio_time mmio;
};

static int eel_pci_ioctl_locked(struct eel_pci_file *ef, unsigned int cmd,
				union eel_pci_ioctl_arg *u, struct eel_pci_buf **made)
{
	struct eel_pci_dev *edev = ef->edev;

	switch (cmd) {
	case EEL_PCI_IOC_INFO:
		eel_pci_info_fill(edev, &u->info);
		return 0;
	case EEL_PCI_IOC_SET_DMA_MASK:
		if (u->mask.reserved)
			return -EINVAL;
		return eel_pci_dma_set_mask(edev, u->mask.bits);
	case EEL_PCI_IOC_DMA_ALLOC:
		return eel_pci_dma_alloc(ef, &u->alloc, made);
	case EEL_PCI_IOC_DMA_FREE:
		if (u->free.reserved)
			return -EINVAL;
		return eel_pci_dma_free(ef, u->free.id);
	case EEL_PCI_IOC_MMIO_TIME:
		return eel_pci_mmio_time(edev, &u->mmio);
	}
	return -ENOTTY;
}

long eel_pci_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct eel_pci_file *ef = filp->private_data;
	struct eel_pci_dev *edev = ef->edev;
	void __user *uarg = (void __user *)arg;
	unsigned int size = _IOC_SIZE(cmd);
	union eel_pci_ioctl_arg u;
	struct eel_pci_buf *made = NULL;
	bool told;
	int err;

	switch (cmd) {
	case EEL_PCI_IOC_INFO:
	case EEL_PCI_IOC_SET_DMA_MASK:
	case EEL_PCI_IOC_DMA_ALLOC:
	case EEL_PCI_IOC_DMA_FREE:
	case EEL_PCI_IOC_MMIO_TIME:
		break;
	default:
		return -ENOTTY;
	}
	if ((_IOC_DIR(cmd) & _IOC_WRITE) && copy_from_user(&u, uarg, size))
		return -EFAULT;

	mutex_lock(&edev->lock);
	err = edev->dead ? -ENODEV : eel_pci_ioctl_locked(ef, cmd, &u, &made);
	mutex_unlock(&edev->lock);
	if (err)
		return err;

	told = !(_IOC_DIR(cmd) & _IOC_READ) || !copy_to_user(uarg, &u, size);
	if (made) {
		/*
		 * The new buffer is pending: nothing else could free it or take
		 * its id meanwhile. Unbind may have freed it, with every other.
		 */
		mutex_lock(&edev->lock);
		if (!edev->dead)
			eel_pci_dma_told(ef, made, told);
		mutex_unlock(&edev->lock);
	}
	return told ? 0 : -EFAULT;
}
