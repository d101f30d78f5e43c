/* SPDX-License-Identifier: MIT */
/*
 * eel PCI facts: what a PCI function is and how it attaches to the host,
 * gathered with libpci (pciutils) and sysfs. Used by tools/eel-probe and
 * by whatever wants to put a NIC's PCI facts in its results.
 *
 * Every call returns 0 or a negative errno; eel_pci_facts_error() then says
 * what went wrong and how to fix it. Nothing here prints or exits.
 * Unknown facts are 0 (sizes, speeds, widths), -1 (numa_node, iommu_group)
 * or "" (strings).
 */
#ifndef EEL_PCI_FACTS_H
#define EEL_PCI_FACTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define EEL_PCI_ADDR_LEN 16		/* "0000:00:03.0" and its NUL */
#define EEL_PCI_FACTS_BARS 6

struct eel_pci_bar_fact {
	uint64_t size;			/* bytes; 0: BAR not implemented */
	bool io;			/* I/O ports (else memory) */
	bool is64;			/* 64-bit memory BAR */
	bool prefetch;			/* prefetchable memory */
};

/* PCI Express device/port type (PCIe Base Spec, PCI Express Capabilities Register) */
enum eel_pcie_type {
	EEL_PCIE_NONE = -1,		/* conventional PCI: no PCIe capability */
	EEL_PCIE_UNKNOWN = -2,		/* config space beyond 64 bytes not readable (not root) */
	EEL_PCIE_ENDPOINT = 0x0,
	EEL_PCIE_LEGACY_ENDPOINT = 0x1,
	EEL_PCIE_ROOT_PORT = 0x4,
	EEL_PCIE_UPSTREAM_PORT = 0x5,
	EEL_PCIE_DOWNSTREAM_PORT = 0x6,
	EEL_PCIE_PCI_BRIDGE = 0x7,
	EEL_PCIE_PCIE_BRIDGE = 0x8,
	EEL_PCIE_RC_INTEGRATED = 0x9,	/* root complex integrated endpoint: no link */
	EEL_PCIE_RC_EVENT_COLLECTOR = 0xa,
};

struct eel_pci_facts {
	char addr[EEL_PCI_ADDR_LEN];	/* domain:bus:device.function */
	uint16_t vendor_id, device_id;
	uint16_t subsys_vendor_id, subsys_device_id;
	uint32_t class_code;		/* base << 16 | sub << 8 | prog-if */
	uint8_t revision;
	char vendor[128];		/* names from pci.ids; "" when not listed */
	char device[160];
	char class_name[96];
	char driver[64];		/* kernel driver bound now; "" when none */
	int numa_node;			/* -1: unknown or no NUMA */
	int iommu_group;		/* -1: no IOMMU group */
	bool config_full;		/* all of config space read (root, or a dump) */
	int pcie_type;			/* enum eel_pcie_type */
	/* Link (PCIe Base Spec, Link Capabilities/Status); 0 when unknown or none */
	uint32_t link_speed_mts;	/* now: 2500, 5000, 8000, 16000, 32000, 64000 MT/s */
	uint32_t link_width;		/* now: lanes */
	uint32_t link_speed_max_mts;
	uint32_t link_width_max;
	/* Device Capabilities/Control; 0 when unknown (not root) */
	uint32_t max_payload;		/* bytes, in use */
	uint32_t max_payload_cap;	/* bytes, supported */
	uint32_t max_read_req;		/* bytes */
	struct eel_pci_bar_fact bar[EEL_PCI_FACTS_BARS];
};

struct eel_pci_facts_opts {
	bool all;			/* every function, not only network controllers */
	const char *dump_file;		/* read an `lspci -xxx` dump, not this machine */
};

/* Functions of this machine (or a dump), in address order; free the list. */
int eel_pci_facts_list(const struct eel_pci_facts_opts *opts,
		       struct eel_pci_facts **list, size_t *count);
/* One function, whatever its class: -ENODEV when there is no such address. */
int eel_pci_facts_get(const struct eel_pci_facts_opts *opts, const char *addr,
		      struct eel_pci_facts *facts);
void eel_pci_facts_free(struct eel_pci_facts *list);

/* "00:03.0" or "0000:00:03.0" -> "0000:00:03.0"; -EINVAL when not an address. */
int eel_pci_addr_normalize(const char *in, char out[EEL_PCI_ADDR_LEN]);

/* Why the last failing call of this thread failed, with the fix. */
const char *eel_pci_facts_error(void);

/* A function's MMIO read round trip, timed by eel_pci (userlib/pci/mmio_rtt.c):
 * the function bound to eel_pci, root. 0, or a negative errno code with
 * eel_errmsg() naming the problem and the fix (no such function, eel_pci not
 * loaded or not bound, not root). */
struct eel_pci_mmio_rtt {
	double read_ns;      /* median of the loads, less the counter reads' own cost */
	double read_min_ns;  /* least of them */
	uint32_t bar;        /* the memory BAR timed (its first 4 bytes) */
	uint32_t samples;
};
int eel_pci_mmio_rtt(const char *addr, struct eel_pci_mmio_rtt *out);

#ifdef __cplusplus
}
#endif

#endif /* EEL_PCI_FACTS_H */
