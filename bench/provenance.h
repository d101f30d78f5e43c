/* SPDX-License-Identifier: MIT */
/* bench/provenance.h — where a run's figures come from: eel's build, the
 * kernel, what the NIC is (eel_nic_info), and where this end ran
 * (provenance.c, placement.c). */
#ifndef EEL_BENCH_PROVENANCE_H
#define EEL_BENCH_PROVENANCE_H

#include <stddef.h>

#include <eel/eel.h>

struct json;
struct nic_pci;

/* Where this end ran (placement.c). */
struct placement {
	int core;         /* the core it was pinned to, -1: not pinned */
	int nic_node;     /* the NIC's NUMA node, -1: unknown */
	const char *by;   /* "--cpu", "the NIC's NUMA node", "--pair's default", "none" */
	char why[160];    /* why not on the NIC's node ("" when it is) */
};

/* Choose this end's core once the NIC is open and its PCI facts read
 * (nic_pci_get: the node is theirs): the core asked for (asked
 * >= 0, --cpu), else the nth core of the NIC's NUMA node this process may
 * run on (nth: 0, or 1 for --pair's server end; a pair needs two), else the
 * core it already has (pinned: --pair's default, or -1). Fills *p; returns
 * the core to pin to, -1 for none. */
int placement_choose(const struct nic_pci *pci, int asked, int pinned, int pair, int nth, struct placement *p);
/* "core 3 (the NIC's NUMA node 0)" or "not pinned (...)", for the table */
void placement_text(const struct placement *p, char *out, size_t n);
void placement_json(struct json *j, const struct placement *p);

/* The document's `provenance`: eel's build, the kernel, the NIC. */
void provenance_json(struct json *j, const struct eel_nic_info *nic);
/* "eel 0.1.0 (8f788a3), kernel 6.1.0-18-amd64; NIC firmware ..., driver ..." */
void provenance_text(const struct eel_nic_info *nic, char *out, size_t n);

#endif
