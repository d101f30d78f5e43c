/* SPDX-License-Identifier: MIT */
/* userlib/pci/mmio_rtt.c — a PCI function's MMIO read round trip, timed by
 * eel_pci (EEL_PCI_IOC_MMIO_TIME, driver/mmio_time.c): loads of 4 bytes at
 * the start of its first memory BAR, each between two reads of the cycle
 * counter with preemption and interrupts off. A load from an uncached BAR
 * completes only when the device's completion TLP is back: a non-posted
 * round trip (PCI Express Base Specification, section 2.4 "Transaction
 * Ordering": a read's completion follows its request). Only loads: a store
 * to an unknown function's register may do anything.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <eel/eel_pci_ioctl.h>
#include <eel/pci_facts.h>

#include "userlib/core/dev.h"

#define SYS_PCI "/sys/bus/pci"
#define SAMPLES 1000u

/* Why /dev/eel_pci/ADDR cannot be opened, and what to do. */
static int why_not(const char *addr, const char *node, int err)
{
	char path[128];
	struct stat st;

	snprintf(path, sizeof(path), SYS_PCI "/devices/%s", addr);
	if (stat(path, &st))
		return eel_err(-ENODEV, "no PCI function %s on this machine: `lspci -D` lists them", addr);
	if (stat(SYS_PCI "/drivers/" EEL_PCI_DRIVER_NAME, &st))
		return eel_err(-ENODEV, "eel_pci is not loaded: build and load it (`make module`, `sudo insmod "
			       "build/module/$(uname -r)/eel_pci.ko`), then `sudo tools/eel-bind --force %s`", addr);
	if (err == ENOENT)
		return eel_err(-ENODEV, "%s is not bound to eel_pci: `sudo tools/eel-bind --force %s` (`tools/"
			       "eel-bind --unbind %s` gives it back)", addr, addr, addr);
	if (err == EACCES || err == EPERM)
		return eel_err(-EACCES, "timing %s's MMIO needs root (%s): run as root (sudo)", addr, node);
	return eel_err(-err, "cannot open %s: %s", node, strerror(err));
}

int eel_pci_mmio_rtt(const char *addr_in, struct eel_pci_mmio_rtt *out)
{
	char addr[EEL_PCI_ADDR_LEN], node[64];
	struct eel_pci_info info;
	struct eel_pci_mmio_time t;
	double khz;
	int fd, bar = -1, rc = 0;

	memset(out, 0, sizeof(*out));
	if (eel_pci_addr_normalize(addr_in, addr))
		return eel_err(-EINVAL, "'%s' is not a PCI address: give DDDD:BB:DD.F (e.g. 0000:00:03.0; "
			       "`lspci -D` lists them)", addr_in);
	snprintf(node, sizeof(node), EEL_PCI_DEV_DIR "/%s", addr);
	fd = open(node, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return why_not(addr, node, errno);
	memset(&info, 0, sizeof(info));
	if (ioctl(fd, EEL_PCI_IOC_INFO, &info)) {
		rc = eel_err(-errno, "eel_pci's INFO on %s failed: %s", node, strerror(errno));
		goto out;
	}
	if (info.magic != EEL_PCI_ABI_MAGIC || info.abi_version != EEL_PCI_ABI_VERSION) {
		rc = eel_err(-EPROTO, "the loaded eel_pci speaks ABI %u, this eel %u: load the module built "
			     "from this tree (`make module`)", info.abi_version, EEL_PCI_ABI_VERSION);
		goto out;
	}
	for (int i = 0; i < EEL_PCI_NUM_BARS && bar < 0; i++)
		if ((info.bar[i].flags & EEL_PCI_BAR_MEM) && info.bar[i].size >= 4)
			bar = i;
	if (bar < 0) {
		rc = eel_err(-ENODEV, "%s has no memory BAR to time", addr);
		goto out;
	}
	memset(&t, 0, sizeof(t));
	t.bar = (uint32_t)bar;
	t.op = EEL_PCI_MMIO_READ;
	t.width = 4;
	t.count = SAMPLES;
	if (ioctl(fd, EEL_PCI_IOC_MMIO_TIME, &t)) {
		rc = eel_err(-errno, "eel_pci's MMIO timing of %s BAR %d failed: %s%s", addr, bar, strerror(errno),
			     errno == EIO ? " (the device does not answer its BAR)" : "");
		goto out;
	}
	khz = t.cycles_khz ? t.cycles_khz : info.cycles_khz;
	if (!khz || t.median_cycles <= t.timer_min_cycles) {
		rc = eel_err(-EIO, "eel_pci's MMIO timing of %s gave no time (counter rate %.0f kHz, median %llu "
			     "cycles): this kernel's cycle counter is unknown to eel_pci", addr, khz,
			     (unsigned long long)t.median_cycles);
		goto out;
	}
	/* less the empty timed section: the counter reads' own cost */
	out->read_ns = (double)(t.median_cycles - t.timer_min_cycles) * 1e6 / khz;
	out->read_min_ns = (double)(t.min_cycles > t.timer_min_cycles ? t.min_cycles - t.timer_min_cycles : 0) *
			   1e6 / khz;
	out->bar = (uint32_t)bar;
	out->samples = SAMPLES;
out:
	close(fd);
	return rc;
}
