/* SPDX-License-Identifier: MIT */
/* tools/probe_map.h — eel-probe's map of the machine (probe_map.c): for a
 * PCI function, its network devices and RDMA devices and the eel-bench -d
 * URI of each backend that can drive it; the soft RDMA devices (rxe, siw)
 * on network devices. From sysfs only (a dump has none of it). */
#ifndef EEL_TOOLS_PROBE_MAP_H
#define EEL_TOOLS_PROBE_MAP_H

#include <eel/pci_facts.h>

#define PROBE_MAX 8

struct probe_uri {
	char uri[128];       /* eel-bench -d ... */
	const char *backend; /* "verbs", "dpdk", "raw" */
	char needs[128];     /* what to do first ("" nothing) */
};

struct probe_map {
	char netdevs[PROBE_MAX][32];
	int nnet;
	char rdma[PROBE_MAX][64];
	int nrdma;
	struct probe_uri uris[3 * PROBE_MAX];
	int nuri;
};

/* A soft RDMA device: no bus device of its own, on a network device. */
struct probe_soft {
	char dev[64];
	char netdev[32];
	const char *driver;  /* "rdma_rxe" (RoCE) or "siw" (iWARP) */
	char uri[80];
};

/* The function's netdevs, RDMA devices and URIs (network class, or any
 * function with an RDMA device or a netdev). */
void probe_map_get(const struct eel_pci_facts *f, struct probe_map *m);
/* Every soft RDMA device of this machine, up to max. */
int probe_soft_rdma(struct probe_soft *out, int max);

#endif
