/* SPDX-License-Identifier: MIT */
/* userlib/raw/raw_pci.c — finding a PCI function, checking who drives it, and
 * mapping its BAR 0, through eel_pci.ko or uio_pci_generic (raw_pci.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <eel/eel_pci_ioctl.h>

#include "userlib/core/dev.h"
#include "userlib/raw/raw_pci.h"

#define SYS_PCI "/sys/bus/pci"
#define UIO_DRIVER "uio_pci_generic"
#define PCI_COMMAND 0x04             /* PCI Local Bus spec 6.2.2: Command register */
#define PCI_COMMAND_MEMORY 0x2
#define PCI_COMMAND_MASTER 0x4

static int is_hex(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f') || (s[i] >= 'A' && s[i] <= 'F')))
			return 0;
	return 1;
}

int raw_pci_parse_addr(const char *s, char *out, size_t cap)
{
	char a[16];
	size_t n = strlen(s);

	if (n == 7)
		snprintf(a, sizeof(a), "0000:%s", s);
	else if (n == 12)
		snprintf(a, sizeof(a), "%s", s);
	else
		a[0] = 0;
	/* DDDD:BB:DD.F */
	if (strlen(a) != 12 || !is_hex(a, 4) || a[4] != ':' || !is_hex(a + 5, 2) || a[7] != ':' ||
	    !is_hex(a + 8, 2) || a[10] != '.' || a[11] < '0' || a[11] > '7' || cap < 13)
		return eel_err(-EINVAL, "raw: '%s' is not a PCI address: give raw:DDDD:BB:DD.F (e.g. "
			       "raw:0000:00:03.0; `lspci -D` lists them)", s);
	for (int i = 0; a[i]; i++)
		out[i] = (char)(a[i] >= 'A' && a[i] <= 'F' ? a[i] - 'A' + 'a' : a[i]);
	out[12] = 0;
	return 0;
}

/* A sysfs attribute of the function holding a hex number. */
static int read_hex(const char *addr, const char *attr, unsigned *v)
{
	char path[128], buf[32];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), SYS_PCI "/devices/%s/%s", addr, attr);
	f = fopen(path, "r");
	if (!f)
		return -1;
	ok = fgets(buf, sizeof(buf), f) && sscanf(buf, "%x", v) == 1;
	fclose(f);
	return ok ? 0 : -1;
}

/* The kernel driver bound to the function ("" when none). */
static void driver_of(const char *addr, char *out, size_t cap)
{
	char path[128], link[PATH_MAX];
	ssize_t n;
	const char *slash;

	out[0] = 0;
	snprintf(path, sizeof(path), SYS_PCI "/devices/%s/driver", addr);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return;
	link[n] = 0;
	slash = strrchr(link, '/');
	slash = slash ? slash + 1 : link;
	if (strlen(slash) < cap)
		memcpy(out, slash, strlen(slash) + 1);
}

static int module_loaded(void)
{
	struct stat st;

	return stat(SYS_PCI "/drivers/" EEL_PCI_DRIVER_NAME, &st) == 0;
}

/* Why the function cannot be used as it is bound, and how to bind it. */
static int not_ours(const char *addr, const char *drv)
{
	char bound[128];

	if (drv[0])
		snprintf(bound, sizeof(bound), "is bound to the kernel driver %s", drv);
	else
		snprintf(bound, sizeof(bound), "has no driver");
	if (!module_loaded())
		return eel_err(-ENODEV, "raw: %s %s, and eel_pci is not loaded: build and load it (`make module`, "
			       "`sudo insmod build/module/$(uname -r)/eel_pci.ko`), then `sudo tools/eel-bind "
			       "--force %s` (or bind it to uio_pci_generic, the fallback)", addr, bound, addr);
	return eel_err(-EBUSY, "raw: %s %s: hand it to eel_pci with `sudo tools/eel-bind --force %s` "
		       "(`tools/eel-bind --unbind %s` gives it back)", addr, bound, addr, addr);
}

static int lock_it(struct raw_pci *p)
{
	if (flock(p->fd, LOCK_EX | LOCK_NB) == 0)
		return 0;
	if (errno == EWOULDBLOCK)
		return eel_err(-EBUSY, "raw: %s is already driven by another process: one process per NIC "
			       "(give the other end its own NIC)", p->addr);
	return eel_err(-errno, "raw: cannot lock %s: %s", p->addr, strerror(errno));
}

static int open_eel_pci(struct raw_pci *p)
{
	char node[64];
	struct eel_pci_info info;
	void *m;

	snprintf(node, sizeof(node), EEL_PCI_DEV_DIR "/%s", p->addr);
	p->fd = open(node, O_RDWR | O_CLOEXEC);
	if (p->fd < 0) {
		if (errno == EACCES || errno == EPERM)
			return eel_err(-EACCES, "raw: opening %s needs root (CAP_SYS_RAWIO): run as root "
				       "(sudo)", node);
		if (errno == ENOENT)
			return eel_err(-ENOENT, "raw: %s is bound to eel_pci but %s is missing: is devtmpfs "
				       "mounted on /dev?", p->addr, node);
		return eel_err(-errno, "raw: cannot open %s: %s", node, strerror(errno));
	}
	if (lock_it(p))
		return -EBUSY;
	memset(&info, 0, sizeof(info));
	if (ioctl(p->fd, EEL_PCI_IOC_INFO, &info))
		return eel_err(-errno, "raw: eel_pci's INFO on %s failed: %s", node, strerror(errno));
	if (info.magic != EEL_PCI_ABI_MAGIC || info.abi_version != EEL_PCI_ABI_VERSION)
		return eel_err(-EPROTO, "raw: the loaded eel_pci speaks ABI %u, this eel %u: load the module "
			       "built from this tree (`make module`)", info.abi_version, EEL_PCI_ABI_VERSION);
	if (!(info.bar[0].flags & EEL_PCI_BAR_MEM) || !(info.bar[0].flags & EEL_PCI_BAR_MMAP))
		return eel_err(-ENODEV, "raw: %s's BAR 0 is not a mappable memory BAR: not an e1000?", p->addr);
	m = mmap(NULL, info.bar[0].size, PROT_READ | PROT_WRITE, MAP_SHARED, p->fd, (off_t)EEL_PCI_MMAP_BAR(0));
	if (m == MAP_FAILED)
		return eel_err(-errno, "raw: cannot map %s's BAR 0 through eel_pci: %s", p->addr, strerror(errno));
	p->bar0 = m;
	p->bar0_len = info.bar[0].size;
	p->via = RAW_VIA_EEL_PCI;
	return 0;
}

/* uio_pci_generic does not enable bus mastering: the driver does ([PCI]
 * Command register bit 2), and puts it back at close. */
static int set_master(struct raw_pci *p)
{
	char path[128];
	uint16_t cmd;

	snprintf(path, sizeof(path), SYS_PCI "/devices/%s/config", p->addr);
	p->cfg_fd = open(path, O_RDWR | O_CLOEXEC);
	if (p->cfg_fd < 0 || pread(p->cfg_fd, &cmd, 2, PCI_COMMAND) != 2)
		return eel_err(-EACCES, "raw: cannot read %s's PCI config space (%s): run as root", p->addr, path);
	p->cmd_saved = cmd;
	cmd |= PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER;
	if (cmd != p->cmd_saved) {
		if (pwrite(p->cfg_fd, &cmd, 2, PCI_COMMAND) != 2)
			return eel_err(-EACCES, "raw: cannot enable bus mastering on %s: run as root", p->addr);
		p->cmd_changed = 1;
	}
	return 0;
}

static int open_uio(struct raw_pci *p)
{
	char path[128];
	struct stat st;
	void *m;

	if (geteuid() != 0)
		return eel_err(-EACCES, "raw: %s is bound to uio_pci_generic; that fallback maps BAR 0 from sysfs "
			       "and reads physical addresses: run as root", p->addr);
	snprintf(path, sizeof(path), SYS_PCI "/devices/%s/resource0", p->addr);
	p->fd = open(path, O_RDWR | O_SYNC | O_CLOEXEC);
	if (p->fd < 0 || fstat(p->fd, &st))
		return eel_err(-errno, "raw: cannot open %s: %s", path, strerror(errno));
	if (lock_it(p))
		return -EBUSY;
	m = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, p->fd, 0);
	if (m == MAP_FAILED)
		return eel_err(-errno, "raw: cannot map %s: %s", path, strerror(errno));
	p->bar0 = m;
	p->bar0_len = (size_t)st.st_size;
	p->via = RAW_VIA_UIO;
	return set_master(p);
}

int raw_pci_open(struct raw_pci *p, const char *addr, const uint16_t (*ids)[2], int n, const char *supported)
{
	char path[128], drv[64];
	struct stat st;
	unsigned v, d;
	int known = 0, rc;

	memset(p, 0, sizeof(*p));
	p->fd = p->cfg_fd = -1;
	snprintf(p->addr, sizeof(p->addr), "%s", addr);
	snprintf(path, sizeof(path), SYS_PCI "/devices/%s", addr);
	if (stat(path, &st))
		return eel_err(-ENODEV, "raw: no PCI function %s here: list them with `lspci -D` (or "
			       "`tools/eel-probe --all`)", addr);
	if (read_hex(addr, "vendor", &v) || read_hex(addr, "device", &d))
		return eel_err(-EIO, "raw: cannot read %s's IDs from sysfs", addr);
	p->vendor = (uint16_t)v;
	p->device = (uint16_t)d;
	for (int i = 0; i < n; i++)
		known |= ids[i][0] == p->vendor && ids[i][1] == p->device;
	if (!known)
		return eel_err(-ENODEV, "raw: %s is %04x:%04x, which eel's raw driver does not drive: it supports "
			       "%s", addr, p->vendor, p->device, supported);
	driver_of(addr, drv, sizeof(drv));
	if (!strcmp(drv, EEL_PCI_DRIVER_NAME))
		rc = open_eel_pci(p);
	else if (!strcmp(drv, UIO_DRIVER))
		rc = open_uio(p);
	else
		return not_ours(addr, drv);
	if (rc)
		raw_pci_close(p);
	return rc;
}

void raw_pci_close(struct raw_pci *p)
{
	if (!p->addr[0])
		return; /* never opened */
	if (p->bar0)
		munmap((void *)p->bar0, p->bar0_len);
	p->bar0 = NULL;
	if (p->cfg_fd >= 0) {
		/* Bus mastering back as it was: nothing may DMA once we are gone. */
		if (p->cmd_changed && pwrite(p->cfg_fd, &p->cmd_saved, 2, PCI_COMMAND) != 2)
			p->cmd_changed = -1; /* nothing more to do about it here */
		close(p->cfg_fd);
	}
	if (p->fd >= 0)
		close(p->fd);
	p->fd = p->cfg_fd = -1;
	p->addr[0] = 0;
}

const char *raw_pci_via_name(const struct raw_pci *p)
{
	return p->via == RAW_VIA_UIO ? "uio_pci_generic+hugepages" : "eel_pci";
}
