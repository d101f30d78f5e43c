/* SPDX-License-Identifier: MIT */
/*
 * PCI facts through libpci: identity and names (pci.ids), driver, NUMA node,
 * IOMMU group, BARs, and the PCI Express link and transfer sizes read from
 * the PCI Express Capability structure (PCI Express Base Specification,
 * section 7.5.3: Device Capabilities 7.5.3.3, Device Control 7.5.3.4, Link
 * Capabilities 7.5.3.6, Link Status 7.5.3.8).
 *
 * libpci reports fatal errors through a callback that must not return; ours
 * records the message and longjmp()s back to the call that entered libpci.
 */
#include <eel/eel.h>
#include <eel/pci_facts.h>

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pci/pci.h>

static _Thread_local char facts_err[320];
static _Thread_local jmp_buf *facts_jmp;

const char *eel_pci_facts_error(void)
{
	return facts_err;
}

static int fail(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(facts_err, sizeof(facts_err), fmt, ap);
	va_end(ap);
	return err;
}

/* libpci's own attributes (PCI_NONRET is noreturn) make the types match. */
static void on_libpci_error(char *msg, ...) PCI_PRINTF(1, 2) PCI_NONRET;
static void on_libpci_quiet(char *msg, ...) PCI_PRINTF(1, 2);

static void on_libpci_error(char *msg, ...)
{
	char what[200];
	va_list ap;

	va_start(ap, msg);
	vsnprintf(what, sizeof(what), msg, ap);
	va_end(ap);
	fail(-EIO, "libpci: %s", what);
	longjmp(*facts_jmp, 1);
}

static void on_libpci_quiet(char *msg, ...)
{
}

int eel_pci_addr_normalize(const char *in, char out[EEL_PCI_ADDR_LEN])
{
	unsigned int dom = 0, bus, dev, fn;
	int n = -1;

	if (!in)
		return fail(-EINVAL, "no PCI address given");
	if (sscanf(in, "%4x:%2x:%2x.%1x%n", &dom, &bus, &dev, &fn, &n) != 4 ||
	    in[n]) {
		n = -1;
		dom = 0;
		if (sscanf(in, "%2x:%2x.%1x%n", &bus, &dev, &fn, &n) != 3 ||
		    in[n])
			return fail(-EINVAL,
				    "'%s' is not a PCI address: use DDDD:BB:DD.F or BB:DD.F (hex), e.g. 0000:00:03.0",
				    in);
	}
	if (dev > 0x1f || fn > 7)
		return fail(-EINVAL,
			    "'%s' is not a PCI address: device is 00..1f, function 0..7",
			    in);
	snprintf(out, EEL_PCI_ADDR_LEN, "%04x:%02x:%02x.%x", dom, bus, dev, fn);
	return 0;
}

static void copy_str(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src ? src : "");
}

static void fill_names(struct pci_access *a, struct pci_dev *d,
		       struct eel_pci_facts *f)
{
	char buf[256];
	const int nn = PCI_LOOKUP_NO_NUMBERS;

	copy_str(f->vendor, sizeof(f->vendor),
		 pci_lookup_name(a, buf, sizeof(buf), PCI_LOOKUP_VENDOR | nn,
				 d->vendor_id));
	copy_str(f->device, sizeof(f->device),
		 pci_lookup_name(a, buf, sizeof(buf), PCI_LOOKUP_DEVICE | nn,
				 d->vendor_id, d->device_id));
	copy_str(f->class_name, sizeof(f->class_name),
		 pci_lookup_name(a, buf, sizeof(buf), PCI_LOOKUP_CLASS | nn,
				 d->device_class));
}

static void fill_bars(struct pci_dev *d, int known, struct eel_pci_facts *f)
{
	int i;

	for (i = 0; i < EEL_PCI_FACTS_BARS; i++) {
		struct eel_pci_bar_fact *b = &f->bar[i];
		pciaddr_t base = d->base_addr[i];
		pciaddr_t fl = (known & PCI_FILL_IO_FLAGS) ? d->flags[i] : 0;

		b->size = d->size[i];
		if (fl) {
			b->io = fl & PCI_IORESOURCE_IO;
			b->is64 = fl & PCI_IORESOURCE_MEM_64;
			b->prefetch = fl & PCI_IORESOURCE_PREFETCH;
		} else {	/* the BAR's own low bits (PCI Local Bus 6.2.5.1) */
			b->io = base & PCI_BASE_ADDRESS_SPACE_IO;
			b->is64 = !b->io && (base & PCI_BASE_ADDRESS_MEM_TYPE_64);
			b->prefetch = !b->io &&
				      (base & PCI_BASE_ADDRESS_MEM_PREFETCH);
		}
	}
}

/* Link Capabilities / Status speed codes 1..6 (PCIe Base Spec 7.5.3.6) */
static uint32_t speed_mts(unsigned int code)
{
	static const uint32_t mts[] = { 0, 2500, 5000, 8000, 16000, 32000,
					64000 };

	return code < sizeof(mts) / sizeof(mts[0]) ? mts[code] : 0;
}

static bool has_link(int type)
{
	return type != EEL_PCIE_RC_INTEGRATED &&
	       type != EEL_PCIE_RC_EVENT_COLLECTOR;
}

static void fill_pcie_config(struct pci_dev *d, struct eel_pci_facts *f)
{
	struct pci_cap *cap = pci_find_cap(d, PCI_CAP_ID_EXP, PCI_CAP_NORMAL);
	unsigned int devcap, devctl, lnkcap, lnksta;
	int p;

	if (!cap) {
		f->pcie_type = EEL_PCIE_NONE;
		return;
	}
	p = cap->addr;
	f->pcie_type = (pci_read_word(d, p + PCI_EXP_FLAGS) &
			PCI_EXP_FLAGS_TYPE) >> 4;
	/* Max_Payload_Size and Max_Read_Request_Size: 128 << code bytes */
	devcap = pci_read_long(d, p + PCI_EXP_DEVCAP);
	devctl = pci_read_word(d, p + PCI_EXP_DEVCTL);
	f->max_payload_cap = 128u << (devcap & PCI_EXP_DEVCAP_PAYLOAD);
	f->max_payload = 128u << ((devctl & PCI_EXP_DEVCTL_PAYLOAD) >> 5);
	f->max_read_req = 128u << ((devctl & PCI_EXP_DEVCTL_READRQ) >> 12);
	if (!has_link(f->pcie_type))
		return;
	lnkcap = pci_read_long(d, p + PCI_EXP_LNKCAP);
	lnksta = pci_read_word(d, p + PCI_EXP_LNKSTA);
	f->link_speed_max_mts = speed_mts(lnkcap & PCI_EXP_LNKCAP_SPEED);
	f->link_width_max = (lnkcap & PCI_EXP_LNKCAP_WIDTH) >> 4;
	f->link_speed_mts = speed_mts(lnksta & PCI_EXP_LNKSTA_SPEED);
	f->link_width = (lnksta & PCI_EXP_LNKSTA_WIDTH) >> 4;
}

/* The kernel's link attributes are world-readable; config space is not. */
static bool sysfs_read_attr(const char *addr, const char *attr, char *buf,
			    size_t len)
{
	char path[128];
	FILE *fp;
	bool ok;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/%s", addr, attr);
	fp = fopen(path, "r");
	if (!fp)
		return false;
	ok = fgets(buf, (int)len, fp) != NULL;
	fclose(fp);
	return ok;
}

static uint32_t sysfs_speed(const char *addr, const char *attr)
{
	char buf[64];
	double gts;

	/* "8.0 GT/s PCIe", or "Unknown" */
	if (!sysfs_read_attr(addr, attr, buf, sizeof(buf)) ||
	    sscanf(buf, "%lf GT/s", &gts) != 1 || gts <= 0 || gts > 1000)
		return 0;
	return (uint32_t)(gts * 1000 + 0.5);
}

static uint32_t sysfs_width(const char *addr, const char *attr)
{
	char buf[64];
	unsigned int w;

	if (!sysfs_read_attr(addr, attr, buf, sizeof(buf)) ||
	    sscanf(buf, "%u", &w) != 1 || w > 32)
		return 0;
	return w;
}

static void fill_pcie_sysfs(struct eel_pci_facts *f)
{
	f->link_speed_mts = sysfs_speed(f->addr, "current_link_speed");
	f->link_width = sysfs_width(f->addr, "current_link_width");
	f->link_speed_max_mts = sysfs_speed(f->addr, "max_link_speed");
	f->link_width_max = sysfs_width(f->addr, "max_link_width");
}

static void fill_one(struct pci_access *a, struct pci_dev *d, bool dump,
		     struct eel_pci_facts *f)
{
	const int want = PCI_FILL_IDENT | PCI_FILL_CLASS | PCI_FILL_CLASS_EXT |
			 PCI_FILL_SUBSYS | PCI_FILL_BASES | PCI_FILL_SIZES |
			 PCI_FILL_IO_FLAGS | PCI_FILL_NUMA_NODE |
			 PCI_FILL_IOMMU_GROUP | PCI_FILL_DRIVER | PCI_FILL_CAPS;
	int known = pci_fill_info(d, want);
	u8 cfg[192];
	char *s;

	memset(f, 0, sizeof(*f));
	snprintf(f->addr, sizeof(f->addr), "%04x:%02x:%02x.%x", d->domain,
		 d->bus, d->dev, d->func);
	f->vendor_id = d->vendor_id;
	f->device_id = d->device_id;
	if (known & PCI_FILL_SUBSYS) {
		f->subsys_vendor_id = d->subsys_vendor_id;
		f->subsys_device_id = d->subsys_id;
	}
	f->class_code = (uint32_t)d->device_class << 8 | d->prog_if;
	f->revision = d->rev_id;
	fill_names(a, d, f);

	s = (known & PCI_FILL_DRIVER) ?
		pci_get_string_property(d, PCI_FILL_DRIVER) : NULL;
	copy_str(f->driver, sizeof(f->driver), s);
	f->numa_node = (known & PCI_FILL_NUMA_NODE) ? d->numa_node : -1;
	if (f->numa_node < -1)
		f->numa_node = -1;
	s = (known & PCI_FILL_IOMMU_GROUP) ?
		pci_get_string_property(d, PCI_FILL_IOMMU_GROUP) : NULL;
	f->iommu_group = s ? atoi(s) : -1;
	fill_bars(d, known, f);

	/* Beyond the first 64 bytes config space is root's only (sysfs). */
	f->config_full = pci_read_block(d, 64, cfg, sizeof(cfg)) != 0;
	if (f->config_full) {
		fill_pcie_config(d, f);
	} else {
		f->pcie_type = EEL_PCIE_UNKNOWN;
		if (!dump)
			fill_pcie_sysfs(f);
	}
}

static bool is_network(const struct eel_pci_facts *f)
{
	return (f->class_code >> 16) == PCI_BASE_CLASS_NETWORK;
}

static int cmp_addr(const void *x, const void *y)
{
	const struct eel_pci_facts *a = x, *b = y;
	unsigned int da, ba, sa, fa, db, bb, sb, fb;

	if (sscanf(a->addr, "%x:%x:%x.%x", &da, &ba, &sa, &fa) != 4 ||
	    sscanf(b->addr, "%x:%x:%x.%x", &db, &bb, &sb, &fb) != 4)
		return strcmp(a->addr, b->addr);
	if (da != db)
		return da < db ? -1 : 1;
	if (ba != bb)
		return ba < bb ? -1 : 1;
	if (sa != sb)
		return sa < sb ? -1 : 1;
	return fa < fb ? -1 : fa > fb;
}

/* What one scan collects; reached through a pointer across longjmp(). */
struct scan {
	struct pci_access *pacc;
	struct eel_pci_facts *list;
	size_t n;
	const char *only;	/* one address, or NULL */
};

static int scan_run(const struct eel_pci_facts_opts *opts, struct scan *sc)
{
	const char *dump = opts ? opts->dump_file : NULL;
	bool all = (opts && opts->all) || sc->only;
	struct pci_access *a;
	struct pci_dev *d;
	size_t cap = 0;

	a = pci_alloc();
	if (!a)
		return fail(-ENOMEM, "out of memory");
	sc->pacc = a;
	a->error = on_libpci_error;
	a->warning = on_libpci_quiet;
	a->debug = on_libpci_quiet;
	if (dump) {
		a->method = PCI_ACCESS_DUMP;
		if (pci_set_param(a, "dump.name", (char *)dump))
			return fail(-EINVAL, "libpci has no dump access method");
	}
	pci_init(a);
	pci_scan_bus(a);
	if (dump && !a->devices)
		return fail(-ENODATA,
			    "the dump file %s holds no PCI function: make one with `lspci -xxx > FILE`",
			    dump);

	for (d = a->devices; d; d = d->next) {
		struct eel_pci_facts f;

		fill_one(a, d, dump != NULL, &f);
		if (sc->only ? strcmp(sc->only, f.addr) != 0 :
			       !(all || is_network(&f)))
			continue;
		if (sc->n == cap) {
			struct eel_pci_facts *more;

			cap = cap ? 2 * cap : 16;
			more = realloc(sc->list, cap * sizeof(*more));
			if (!more)
				return fail(-ENOMEM, "out of memory");
			sc->list = more;
		}
		sc->list[sc->n++] = f;
	}
	return 0;
}

static int scan(const struct eel_pci_facts_opts *opts, struct scan *sc)
{
	jmp_buf env;
	jmp_buf *outer = facts_jmp;
	int err;

	facts_err[0] = '\0';
	if (opts && opts->dump_file) {
		/* libpci opens it blocking and reads it whole: a FIFO would hang
		 * it, /dev/zero spin it. eel_input_open refuses both without
		 * waiting. An lspci -xxx of a large machine is a few MiB; 64 MiB
		 * is beyond any. */
		FILE *fp;

		err = eel_input_open(opts->dump_file, 64u << 20, &fp);
		if (err == -EISDIR || err == -EINVAL || err == -ENODATA || err == -EFBIG)
			return fail(err, "the dump file %s: make one with `lspci -xxx > FILE`", eel_errmsg());
		if (err)   /* the open's own error, worded as before */
			return fail(err, "cannot read the dump file %s: %s: give a file that `lspci -xxx` wrote",
				    opts->dump_file, strerror(-err));
		fclose(fp);
	}
	facts_jmp = &env;
	if (setjmp(env) == 0)
		err = scan_run(opts, sc);
	else
		err = -EIO;	/* on_libpci_error() said why */
	facts_jmp = outer;
	if (sc->pacc)
		pci_cleanup(sc->pacc);
	sc->pacc = NULL;
	if (err == -EIO) {	/* add the likely fix to libpci's words */
		char what[sizeof(facts_err)];

		snprintf(what, sizeof(what), "%s", facts_err);
		if (opts && opts->dump_file)
			fail(err, "%s: is %s the output of `lspci -xxx`?",
			     what, opts->dump_file);
		else
			fail(err, "%s: is /sys/bus/pci mounted and readable?",
			     what);
	}
	if (err) {
		free(sc->list);
		sc->list = NULL;
		sc->n = 0;
	}
	return err;
}

int eel_pci_facts_list(const struct eel_pci_facts_opts *opts,
		       struct eel_pci_facts **list, size_t *count)
{
	struct scan sc = { 0 };
	int err;

	if (!list || !count)
		return fail(-EINVAL, "eel_pci_facts_list: no place for the result");
	err = scan(opts, &sc);
	if (err)
		return err;
	if (sc.n)
		qsort(sc.list, sc.n, sizeof(*sc.list), cmp_addr);
	*list = sc.list;
	*count = sc.n;
	return 0;
}

int eel_pci_facts_get(const struct eel_pci_facts_opts *opts, const char *addr,
		      struct eel_pci_facts *facts)
{
	char norm[EEL_PCI_ADDR_LEN];
	struct scan sc = { 0 };
	int err;

	if (!facts)
		return fail(-EINVAL, "eel_pci_facts_get: no place for the result");
	err = eel_pci_addr_normalize(addr, norm);
	if (err)
		return err;
	sc.only = norm;
	err = scan(opts, &sc);
	if (err)
		return err;
	if (!sc.n) {
		free(sc.list);
		return fail(-ENODEV,
			    "no PCI function %s here: list them with `eel-probe --all`",
			    norm);
	}
	*facts = sc.list[0];
	free(sc.list);
	return 0;
}

void eel_pci_facts_free(struct eel_pci_facts *list)
{
	free(list);
}
