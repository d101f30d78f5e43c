/* SPDX-License-Identifier: MIT */
/* bench/nic_pci.c — the NIC's PCI facts for the report (include/eel/pci_facts.h,
 * read with libpci as eel-probe reads them), and the one bus cost eel models
 * from them: the payload the PCIe link can carry at most.
 *
 * The model (PCI Express Base Specification, Physical and Data Link Layers):
 * a lane moves speed MT/s of encoded bits, 8b/10b at 2.5 and 5 GT/s, 128b/130b
 * at 8, 16 and 32 GT/s, 242/256 in the 64 GT/s FLIT mode; a posted write of
 * up to max_payload bytes travels as one TLP with 24 bytes around it (a
 * 4-DW header 16, sequence number 2, LCRC 4, framing 2). DLLPs (ACKs, flow
 * control credits) and read requests are left out: an upper bound, said so.
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"

#define TLP_OVERHEAD 24.0  /* bytes a TLP carries besides its payload */

static double encoding(uint32_t mts)
{
	if (mts <= 5000)
		return 8.0 / 10.0;
	if (mts <= 32000)
		return 128.0 / 130.0;
	return 242.0 / 256.0;
}

int nic_pci_get(const struct eel_caps *c, struct nic_pci *p)
{
	memset(p, 0, sizeof(*p));
	if (!c->pci[0])
		return 0;
	snprintf(p->addr, sizeof(p->addr), "%s", c->pci);
	if (eel_pci_facts_get(NULL, c->pci, &p->f)) {
		snprintf(p->error, sizeof(p->error), "%s", eel_pci_facts_error());
		return 0;
	}
	p->have = 1;
	nic_pci_model(p);
	return 0;
}

void nic_pci_model(struct nic_pci *p)
{
	const struct eel_pci_facts *f = &p->f;

	p->link_bytes_per_ns = p->payload_bytes_per_ns = 0;
	if (!f->link_speed_mts || !f->link_width)
		return; /* conventional PCI, an integrated endpoint, or not read */
	p->link_bytes_per_ns = f->link_speed_mts * f->link_width * encoding(f->link_speed_mts) / 8000.0;
	if (f->max_payload)
		p->payload_bytes_per_ns = p->link_bytes_per_ns * f->max_payload / (f->max_payload + TLP_OVERHEAD);
}

/* "PCIe 8.0 GT/s x4 (max 8.0 GT/s x8), MPS 256 B, MRRS 512 B" or what is known */
void nic_pci_link_text(const struct nic_pci *p, char *out, size_t n)
{
	const struct eel_pci_facts *f = &p->f;
	size_t at = 0;

	out[0] = 0;
	if (f->pcie_type == EEL_PCIE_NONE)
		at += (size_t)snprintf(out + at, n - at, "conventional PCI");
	else if (f->pcie_type == EEL_PCIE_UNKNOWN)
		at += (size_t)snprintf(out + at, n - at, "PCIe (link unknown: read as root)");
	else if (f->link_speed_mts)
		at += (size_t)snprintf(out + at, n - at, "PCIe %.1f GT/s x%u (max %.1f GT/s x%u)",
				       f->link_speed_mts / 1000.0, f->link_width, f->link_speed_max_mts / 1000.0,
				       f->link_width_max);
	else
		at += (size_t)snprintf(out + at, n - at, "PCIe, no link (integrated)");
	if (f->max_payload && at < n)
		at += (size_t)snprintf(out + at, n - at, ", MPS %u B, MRRS %u B", f->max_payload, f->max_read_req);
	if (at < n)
		snprintf(out + at, n - at, ", NUMA node %d", f->numa_node);
}
