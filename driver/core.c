// SPDX-License-Identifier: GPL-2.0
/*
 * eel_pci: a PCI driver for bring-up of functions that have no other driver.
 *
 * It binds only to functions the administrator names (driver_override or
 * new_id: its id_table is empty), enables them, sets the DMA mask and bus
 * mastering, and gives user space one character device per function,
 * /dev/eel_pci/<pci address>, with BAR and DMA buffer mmap (mmap.c, dma.c)
 * and an MMIO timing ioctl (mmio_time.c). The ABI is include/eel/eel_pci_ioctl.h.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "eel_pci.h"

static void eel_pci_dev_release(struct kref *ref)
{
	struct eel_pci_dev *edev = container_of(ref, struct eel_pci_dev, ref);

	pci_dev_put(edev->pdev);
	mutex_destroy(&edev->lock);
	kfree(edev);
}

void eel_pci_dev_put(struct eel_pci_dev *edev)
{
	kref_put(&edev->ref, eel_pci_dev_release);
}

static int eel_pci_open(struct inode *inode, struct file *filp)
{
	/* misc_open() set private_data and holds misc_mtx: edev is alive */
	struct miscdevice *misc = filp->private_data;
	struct eel_pci_dev *edev = container_of(misc, struct eel_pci_dev, misc);
	struct eel_pci_file *ef;

	if (!capable(CAP_SYS_RAWIO))
		return -EPERM;

	ef = kzalloc(sizeof(*ef), GFP_KERNEL);
	if (!ef)
		return -ENOMEM;
	INIT_LIST_HEAD(&ef->bufs);
	ef->filp = filp;

	mutex_lock(&edev->lock);
	if (edev->dead) {
		mutex_unlock(&edev->lock);
		kfree(ef);
		return -ENODEV;
	}
	/* the first user: bus mastering back on (the last one turned it off) */
	if (list_empty(&edev->files))
		pci_set_master(edev->pdev);
	kref_get(&edev->ref);
	ef->edev = edev;
	list_add(&ef->node, &edev->files);
	mutex_unlock(&edev->lock);

	filp->private_data = ef;
	return 0;
}

/* Called once no descriptor and no mapping refers to the file any more. */
static int eel_pci_release(struct inode *inode, struct file *filp)
{
	struct eel_pci_file *ef = filp->private_data;
	struct eel_pci_dev *edev = ef->edev;
	struct eel_pci_buf *buf, *tmp;

	mutex_lock(&edev->lock);
	list_del(&ef->node);
	/*
	 * The last user is gone: stop the function's DMA before its buffers
	 * are freed, or a NIC left running (its rings in these buffers) would
	 * write into pages the kernel has given to someone else.
	 */
	if (list_empty(&edev->files) && !edev->dead)
		pci_clear_master(edev->pdev);
	list_for_each_entry_safe(buf, tmp, &ef->bufs, node)
		eel_pci_dma_disown(ef, buf);
	mutex_unlock(&edev->lock);

	eel_pci_dev_put(edev);
	kfree(ef);
	return 0;
}

static const struct file_operations eel_pci_fops = {
	.owner		= THIS_MODULE,
	.open		= eel_pci_open,
	.release	= eel_pci_release,
	.unlocked_ioctl	= eel_pci_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
	.mmap		= eel_pci_mmap,
	.llseek		= noop_llseek,
};

static void eel_pci_map_bars(struct eel_pci_dev *edev)
{
	struct pci_dev *pdev = edev->pdev;
	int i;

	for (i = 0; i < EEL_PCI_NUM_BARS; i++) {
		if (!(pci_resource_flags(pdev, i) & IORESOURCE_MEM) ||
		    !pci_resource_len(pdev, i))
			continue;
		/* Unmapped BARs stay usable through mmap, not for timing. */
		edev->bar[i] = pcim_iomap(pdev, i, 0);
		if (!edev->bar[i])
			pci_warn(pdev, "cannot ioremap BAR %d: no MMIO timing there\n",
				 i);
	}
}

static int eel_pci_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct eel_pci_dev *edev;
	int err;

	/* Host, PCI and ISA bridges belong to the PCI core and the platform. */
	if (pdev->hdr_type != PCI_HEADER_TYPE_NORMAL ||
	    (pdev->class >> 16) == PCI_BASE_CLASS_BRIDGE) {
		pci_err(pdev, "class %06x, header type %u: not an endpoint function, not binding\n",
			pdev->class, pdev->hdr_type);
		return -ENODEV;
	}

	edev = kzalloc(sizeof(*edev), GFP_KERNEL);
	if (!edev)
		return -ENOMEM;
	kref_init(&edev->ref);
	mutex_init(&edev->lock);
	INIT_LIST_HEAD(&edev->files);
	edev->pdev = pci_dev_get(pdev);

	/* pcim_: regions, iomaps and enable are undone when we unbind */
	err = pcim_enable_device(pdev);
	if (err) {
		pci_err(pdev, "cannot enable device: %d\n", err);
		goto err_put;
	}
	err = pci_request_regions(pdev, EEL_PCI_NAME);
	if (err) {
		pci_err(pdev, "BARs are claimed by another driver: %d\n", err);
		goto err_put;
	}
	eel_pci_map_bars(edev);

	err = eel_pci_dma_set_mask(edev, 64);
	if (err)
		err = eel_pci_dma_set_mask(edev, 32);
	if (err) {
		pci_err(pdev, "no usable DMA mask: %d\n", err);
		goto err_put;
	}
	pci_set_master(pdev);

	snprintf(edev->name, sizeof(edev->name), EEL_PCI_NAME "-%s",
		 pci_name(pdev));
	snprintf(edev->nodename, sizeof(edev->nodename), EEL_PCI_NAME "/%s",
		 pci_name(pdev));
	edev->misc.minor = MISC_DYNAMIC_MINOR;
	edev->misc.name = edev->name;
	edev->misc.nodename = edev->nodename;
	edev->misc.mode = 0600;
	edev->misc.fops = &eel_pci_fops;
	edev->misc.parent = &pdev->dev;
	pci_set_drvdata(pdev, edev);

	err = misc_register(&edev->misc);
	if (err) {
		pci_err(pdev, "cannot register /dev/%s: %d\n", edev->nodename,
			err);
		goto err_master;
	}
	pci_info(pdev, "bound as /dev/%s (%04x:%04x, DMA mask %u bits)\n",
		 edev->nodename, pdev->vendor, pdev->device,
		 edev->dma_mask_bits);
	return 0;

err_master:
	pci_clear_master(pdev);
	pci_set_drvdata(pdev, NULL);
err_put:
	eel_pci_dev_put(edev);
	return err;
}

static void eel_pci_remove(struct pci_dev *pdev)
{
	struct eel_pci_dev *edev = pci_get_drvdata(pdev);
	struct eel_pci_file *ef;
	struct eel_pci_buf *buf, *tmp;
	unsigned int left;

	/* No new opens after this; misc_mtx orders us after eel_pci_open(). */
	misc_deregister(&edev->misc);

	mutex_lock(&edev->lock);
	edev->dead = true;
	/*
	 * Files may still be open or mapped. Zap their mappings (a later
	 * access faults with SIGBUS), stop the device's DMA, then free every
	 * buffer no VMA still holds; the rest go with their last VMA.
	 */
	list_for_each_entry(ef, &edev->files, node)
		unmap_mapping_range(ef->filp->f_mapping, 0, 0, 1);
	pci_clear_master(pdev);
	left = 0;
	list_for_each_entry(ef, &edev->files, node)
		list_for_each_entry_safe(buf, tmp, &ef->bufs, node) {
			/*
			 * Its pages are zapped: the memory goes now, while the
			 * device is still ours to free it for; the record stays
			 * for its last VMA's close.
			 */
			left += buf->maps > 0;
			eel_pci_dma_release_memory(buf);
			eel_pci_dma_disown(ef, buf);
		}
	memset(edev->bar, 0, sizeof(edev->bar));
	mutex_unlock(&edev->lock);

	if (left)
		pci_info(pdev, "unbound; %u DMA buffers were still mapped: freed, their mappings now fault\n",
			 left);
	else
		pci_info(pdev, "unbound\n");
	pci_set_drvdata(pdev, NULL);
	eel_pci_dev_put(edev);
}

/* Empty: eel_pci binds only through driver_override or new_id. */
static const struct pci_device_id eel_pci_ids[] = {
	{ }
};

static struct pci_driver eel_pci_driver = {
	.name		= EEL_PCI_NAME,
	.id_table	= eel_pci_ids,
	.probe		= eel_pci_probe,
	.remove		= eel_pci_remove,
};

module_pci_driver(eel_pci_driver);

MODULE_DESCRIPTION("eel: user-space access to a PCI function for NIC bring-up");
MODULE_AUTHOR("eel project");
MODULE_LICENSE("GPL");
MODULE_VERSION(EEL_PCI_VERSION);
