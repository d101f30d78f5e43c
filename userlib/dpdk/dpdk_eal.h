/* SPDX-License-Identifier: MIT */
/* userlib/dpdk/dpdk_eal.h — the DPDK backend's EAL: started once per process,
 * for the devices the URIs name (dpdk_eal.c).
 *
 * Names follow the DPDK API (doc.dpdk.org/api-22.11) and the Programmer's
 * Guide (doc.dpdk.org/guides-22.11/prog_guide), "Environment Abstraction
 * Layer".
 */
#ifndef EEL_USERLIB_DPDK_EAL_H
#define EEL_USERLIB_DPDK_EAL_H

/* What the device part of a dpdk: URI names. */
struct dpdk_devspec {
	char args[160];    /* as given: "0000:00:03.0" or "net_af_packet0,iface=veth0" */
	char name[64];     /* the ethdev's name: the PCI address, or the vdev's name */
	char iface[32];    /* a kernel interface behind a vdev (iface=), else "" */
	int is_pci;
};

/* Split a URI's device part; 0, or a negative errno with eel's message set. */
int dpdk_devspec_parse(const char *args, struct dpdk_devspec *d);

/* Initialise the EAL once per process (rte_eal_init), for the device d,
 * with the user's extra EAL arguments (whitespace-separated, may be NULL):
 * a file prefix of its own, --in-memory, one lcore (this thread's core; the
 * thread's own affinity is put back afterwards), logs kept in memory (the
 * library never prints). A later call for another device probes that one
 * (rte_dev_probe). 0, or a negative errno with eel's message set. */
int dpdk_eal_attach(const struct dpdk_devspec *d, const char *user_args);
/* The device is closed: remove it, so that it can be probed again. */
void dpdk_eal_detach(const struct dpdk_devspec *d);
/* What the EAL or a PMD logged at error level or worse since the last
 * attach: "first; last" line, or the one line, or "". */
const char *dpdk_eal_last_error(void);

#endif
