// SPDX-License-Identifier: GPL-2.0
/*
 * eel_pci: MMIO timing, the host side of a PCIe round trip.
 *
 * Each sample is one access (or a store and a load) between two reads of
 * the cycle counter, taken with preemption and interrupts off so nothing on
 * this CPU lands inside it. Interrupts are re-enabled between chunks of at
 * most EEL_MMIO_CHUNK samples and EEL_MMIO_IRQOFF_US, so a long run never
 * holds them off for long; a device that does not answer (each read waiting
 * out its completion timeout, up to tens of ms) ends the call with -EIO after
 * one such access, rather than keeping interrupts off for a chunk of them.
 * A load from an uncached BAR completes only when the device's completion
 * TLP is back, so a READ sample is a full non-posted round trip; a WRITE
 * sample is the (posted) store's issue cost; WRITE_READ adds the load that
 * flushes the store to the device (PCIe Base Spec, "Ordering Rules": a read
 * request may not pass a posted write).
 */
#include <linux/io.h>
#include <linux/preempt.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/timex.h>
#ifdef CONFIG_X86
#include <asm/msr.h>
#include <asm/tsc.h>
#endif

#include "eel_pci.h"

#define EEL_MMIO_CHUNK	64	/* samples per interrupts-off section, at most */
#define EEL_MMIO_IRQOFF_US	50	/* ... and about this long, at most */
#define EEL_MMIO_STALL_US	1000	/* one access this long: the device does not answer */

/* Serialising cycle counter read: earlier loads finish before it. */
static __always_inline u64 eel_pci_cycles(void)
{
#ifdef CONFIG_X86
	return rdtsc_ordered();
#else
	u64 c;

	mb();	/* earlier accesses complete before the counter is read */
	c = get_cycles();
	mb();	/* and later ones start after it */
	return c;
#endif
}

u32 eel_pci_cycles_khz(void)
{
#ifdef CONFIG_X86
	return tsc_khz;
#else
	return 0;
#endif
}

static u64 eel_pci_mmio_read(void __iomem *addr, u32 width)
{
	switch (width) {
	case 1:
		return readb(addr);
	case 2:
		return readw(addr);
	case 4:
		return readl(addr);
#ifdef readq
	case 8:
		return readq(addr);
#endif
	}
	return 0;
}

static void eel_pci_mmio_write(void __iomem *addr, u32 width, u64 val)
{
	switch (width) {
	case 1:
		writeb(val, addr);
		break;
	case 2:
		writew(val, addr);
		break;
	case 4:
		writel(val, addr);
		break;
#ifdef writeq
	case 8:
		writeq(val, addr);
		break;
#endif
	}
}

static bool eel_pci_width_ok(u32 width)
{
	switch (width) {
	case 1:
	case 2:
	case 4:
		return true;
#if defined(readq) && defined(writeq)
	case 8:
		return true;
#endif
	}
	return false;
}

static int eel_pci_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static int eel_pci_mmio_validate(struct eel_pci_dev *edev,
				 const struct eel_pci_mmio_time *req)
{
	resource_size_t len;

	if (req->reserved || req->min_cycles || req->median_cycles ||
	    req->max_cycles || req->timer_min_cycles || req->cycles_khz)
		return -EINVAL;
	if (req->bar >= EEL_PCI_NUM_BARS || !edev->bar[req->bar])
		return -EINVAL;
	if (req->op > EEL_PCI_MMIO_WRITE_READ || !eel_pci_width_ok(req->width))
		return -EINVAL;
	if (!req->count || req->count > EEL_PCI_MMIO_MAX_COUNT)
		return -EINVAL;
	len = pci_resource_len(edev->pdev, req->bar);
	if (req->offset % req->width || req->offset >= len ||
	    len - req->offset < req->width)
		return -EINVAL;
	return 0;
}

/* The timer's own cost: the same section with nothing inside. */
static u64 eel_pci_timer_min(u32 count)
{
	u64 best = U64_MAX, t0, t1;
	unsigned long flags;
	u32 i;

	count = min_t(u32, count, EEL_MMIO_CHUNK);
	preempt_disable();
	local_irq_save(flags);
	for (i = 0; i < count; i++) {
		t0 = eel_pci_cycles();
		t1 = eel_pci_cycles();
		best = min(best, t1 - t0);
	}
	local_irq_restore(flags);
	preempt_enable();
	return best;
}

int eel_pci_mmio_time(struct eel_pci_dev *edev, struct eel_pci_mmio_time *req)
{
	void __iomem *addr;
	u64 *s, t0, t1, val = 0;
	unsigned long flags;
	u32 i, j, n, khz;
	int err;

	err = eel_pci_mmio_validate(edev, req);
	if (err)
		return err;
	addr = edev->bar[req->bar] + req->offset;

	s = kvmalloc_array(req->count, sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;

	khz = eel_pci_cycles_khz();
	for (i = 0; i < req->count; i += n) {
		u64 start;

		n = min_t(u32, req->count - i, EEL_MMIO_CHUNK);
		preempt_disable();
		local_irq_save(flags);
		start = eel_pci_cycles();
		for (j = 0; j < n; j++) {
			t0 = eel_pci_cycles();
			if (req->op != EEL_PCI_MMIO_READ)
				eel_pci_mmio_write(addr, req->width, req->value);
			if (req->op != EEL_PCI_MMIO_WRITE)
				val = eel_pci_mmio_read(addr, req->width);
			t1 = eel_pci_cycles();
			s[i + j] = t1 - t0;
			/* the interrupts-off section ends early when it ran long */
			if (khz && (t1 - t0 > (u64)khz * EEL_MMIO_STALL_US / 1000 ||
				    t1 - start > (u64)khz * EEL_MMIO_IRQOFF_US / 1000)) {
				n = j + 1;
				break;
			}
		}
		local_irq_restore(flags);
		preempt_enable();
		if (khz && s[i + n - 1] > (u64)khz * EEL_MMIO_STALL_US / 1000) {
			kvfree(s);
			return -EIO;	/* no completion in time: the device does not answer */
		}
		if (fatal_signal_pending(current)) {
			kvfree(s);
			return -EINTR;
		}
		cond_resched();
	}

	sort(s, req->count, sizeof(*s), eel_pci_cmp_u64, NULL);
	req->min_cycles = s[0];
	req->median_cycles = s[req->count / 2];
	req->max_cycles = s[req->count - 1];
	req->timer_min_cycles = eel_pci_timer_min(req->count);
	req->cycles_khz = eel_pci_cycles_khz();
	if (req->op != EEL_PCI_MMIO_WRITE)
		req->value = val;
	kvfree(s);
	return 0;
}
