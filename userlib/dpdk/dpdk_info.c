/* SPDX-License-Identifier: MIT */
/* userlib/dpdk/dpdk_info.c — eel_nic_info for a DPDK port: the PMD
 * (rte_eth_dev_info.driver_name), the port's firmware where the PMD reads
 * one (rte_eth_dev_fw_version_get: -ENOTSUP where it has none, as a virtual
 * port has), the device on its bus (rte_dev_bus, rte_dev_name,
 * rte_dev_bus_info), DPDK's version as running (rte_version()) and as built
 * (rte_version.h's RTE_VER_*). API: doc.dpdk.org/api-22.11 rte__ethdev_8h,
 * rte__dev_8h, rte__version_8h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_bus.h>
#include <rte_dev.h>
#include <rte_ethdev.h>
#include <rte_version.h>

#include <eel/eel.h>

#include "userlib/core/nic_info.h"
#include "userlib/dpdk/dpdk_port.h"

/* The port's firmware, or why it has none to read. */
static void fw_version(const struct dpdk_port *p, struct eel_nic_info *info)
{
	int rc = rte_eth_dev_fw_version_get(p->id, info->fw_version, sizeof(info->fw_version));

	if (rc == 0)
		return;
	info->fw_version[0] = 0;
	if (rc == -ENOTSUP)
		snprintf(info->fw_why, sizeof(info->fw_why), "the PMD %.32s has no firmware version to read "
			 "(rte_eth_dev_fw_version_get: -ENOTSUP)", p->driver);
	else if (rc > 0)
		snprintf(info->fw_why, sizeof(info->fw_why), "rte_eth_dev_fw_version_get: the version is %d "
			 "bytes, longer than eel keeps", rc);
	else
		snprintf(info->fw_why, sizeof(info->fw_why), "rte_eth_dev_fw_version_get failed: %s",
			 strerror(-rc));
}

void dpdk_port_info(const struct dpdk_port *p, struct eel_nic_info *info)
{
	struct rte_eth_dev_info di;
	const char *v = rte_version();
	char mod[32];

	snprintf(info->device, sizeof(info->device), "%s", p->dev.name);
	snprintf(info->driver, sizeof(info->driver), "%s", p->driver);
	snprintf(info->driver_from, sizeof(info->driver_from), "rte_eth_dev_info.driver_name");
	fw_version(p, info);
	if (!rte_eth_dev_info_get(p->id, &di) && di.device) {
		const struct rte_bus *bus = rte_dev_bus(di.device);
		const char *more = rte_dev_bus_info(di.device);

		snprintf(info->bus_info, sizeof(info->bus_info), "%s %s%s%s", bus ? rte_bus_name(bus) : "?",
			 rte_dev_name(di.device), more ? ", " : "", more ? more : "");
	}
	snprintf(info->stack, sizeof(info->stack), "DPDK");
	/* rte_version(): "DPDK 22.11.1" */
	snprintf(info->stack_version, sizeof(info->stack_version), "%s", strncmp(v, "DPDK ", 5) ? v : v + 5);
	snprintf(info->stack_built, sizeof(info->stack_built), "%d.%02d.%d", RTE_VER_YEAR, RTE_VER_MONTH,
		 RTE_VER_MINOR);
	if (!p->dev.is_pci) {
		snprintf(info->module_why, sizeof(info->module_why), "none: a virtual port (vdev) of DPDK");
		return;
	}
	/* a PCI port: its ids, and the kernel module it is bound to (vfio-pci, ...) */
	eel_info_pci_ids(info, p->dev.name);
	eel_sysfs_link(mod, sizeof(mod), "/sys/bus/pci/devices/%s/driver/module", p->dev.name);
	if (mod[0])
		eel_info_module(info, mod);
	else
		snprintf(info->module_why, sizeof(info->module_why), "the PCI function has no kernel driver bound");
}
