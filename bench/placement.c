/* SPDX-License-Identifier: MIT */
/* bench/placement.c — which core an end runs on: by default one on the NIC's
 * NUMA node, so its loads and stores to the NIC's queues and buffers do not
 * cross the socket link. The node is the NIC's PCI function's numa_node,
 * its cores the node's cpulist (sysfs: Documentation/ABI/testing/
 * sysfs-bus-pci, Documentation/ABI/stable/sysfs-devices-node). */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/provenance.h"
#include "bench/report/json.h"

/* The NIC's NUMA node from its PCI facts (nic_pci_get, libpci's numa_node),
 * -1 when unknown (no PCI function, the facts unread, or no NUMA). */
static int nic_node(const struct nic_pci *pci, char *why, size_t n)
{
	if (!pci->addr[0]) {
		snprintf(why, n, "the NIC has no PCI function: its NUMA node is unknown");
		return -1;
	}
	if (!pci->have) {
		snprintf(why, n, "%s's NUMA node is unknown (its PCI facts: %.100s)", pci->addr, pci->error);
		return -1;
	}
	if (pci->f.numa_node < 0) {
		snprintf(why, n, "%s's NUMA node is unknown (numa_node: -1)", pci->addr);
		return -1;
	}
	return pci->f.numa_node;
}

/* The node's cores, from its cpulist ("0-3,8-11"); -1 when unreadable. */
static int node_cpus(int node, cpu_set_t *set)
{
	char path[80], list[1024] = "";
	FILE *f;

	CPU_ZERO(set);
	snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist", node);
	if (!(f = fopen(path, "r")))
		return -1;
	if (!fgets(list, sizeof(list), f))
		list[0] = 0;
	fclose(f);
	for (char *p = list; *p && *p != '\n';) {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;

		if (end == p)
			return -1;
		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		for (long c = lo; c <= hi && c < CPU_SETSIZE; c++)
			CPU_SET(c, set);
		p = *end == ',' ? end + 1 : end;
	}
	return 0;
}

/* The nth core of the node this process may run on (sched_getaffinity), -1
 * when none. */
static int node_cpu(int node, int nth)
{
	cpu_set_t on, allowed;

	if (node_cpus(node, &on) || sched_getaffinity(0, sizeof(allowed), &allowed))
		return -1;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &on) && CPU_ISSET(c, &allowed) && nth-- == 0)
			return c;
	return -1;
}

int placement_choose(const struct nic_pci *pci, int asked, int pinned, int pair, int nth, struct placement *p)
{
	int core;

	memset(p, 0, sizeof(*p));
	p->nic_node = nic_node(pci, p->why, sizeof(p->why));
	p->core = pinned;
	p->by = pinned >= 0 ? (pair ? "--pair's default" : "--cpu") : "none";
	if (asked >= 0) {
		cpu_set_t on;

		p->core = asked;
		p->by = "--cpu";
		p->why[0] = 0;
		if (p->nic_node >= 0 && !node_cpus(p->nic_node, &on) && !CPU_ISSET(asked, &on))
			snprintf(p->why, sizeof(p->why), "--cpu %d is not on the NIC's NUMA node %d", asked,
				 p->nic_node);
		return asked;
	}
	if (p->nic_node < 0)
		return pinned;
	core = node_cpu(p->nic_node, nth);
	if (core < 0 || (pair && node_cpu(p->nic_node, !nth) < 0)) {
		snprintf(p->why, sizeof(p->why), "NUMA node %d has %s this process may run on", p->nic_node,
			 pair ? "fewer than two cores" : "no core");
		return pinned;
	}
	p->core = core;
	p->by = "the NIC's NUMA node";
	return core;
}

void placement_text(const struct placement *p, char *out, size_t n)
{
	char node[48] = "the NIC's NUMA node unknown";

	if (p->nic_node >= 0)
		snprintf(node, sizeof(node), "the NIC's NUMA node %d", p->nic_node);
	if (p->core < 0)
		snprintf(out, n, "not pinned: %s", p->why[0] ? p->why : node);
	else
		snprintf(out, n, "core %d, chosen by %s (%s)", p->core, p->by, p->why[0] ? p->why : node);
}

void placement_json(struct json *j, const struct placement *p)
{
	json_obj(j, "placement");
	if (p->core >= 0)
		json_u64(j, "core", (uint64_t)p->core);
	else
		json_none(j, "core");
	if (p->nic_node >= 0)
		json_u64(j, "nic_numa_node", (uint64_t)p->nic_node);
	else
		json_none(j, "nic_numa_node");
	json_str(j, "by", p->by ? p->by : "none");
	if (p->why[0])
		json_str(j, "why", p->why);
	else
		json_none(j, "why");
	json_obj_end(j);
}
