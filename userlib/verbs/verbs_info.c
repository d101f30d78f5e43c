/* SPDX-License-Identifier: MIT */
/* userlib/verbs/verbs_info.c — eel_nic_info for an RDMA device: what
 * ibv_query_device(3) says of it (fw_ver, hw_ver, vendor_id, vendor_part_id,
 * node_guid), what drives it (sysfs: the PCI function's driver and its
 * module; a soft device, rxe or siw, has no bus device: its kernel module),
 * and rdma-core's version: as built (pkg-config --modversion libibverbs,
 * verbs.mk) and as running (the file name of the libibverbs this process
 * loaded, libibverbs.so.1.14.44.0: rdma-core 44). */
#include <dlfcn.h>
#include <endian.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "userlib/core/nic_info.h"
#include "userlib/verbs/verbs.h"

#ifndef EEL_IBVERBS_VERSION
#define EEL_IBVERBS_VERSION ""
#endif

#define SYSFS_IB "/sys/class/infiniband"

/* The loaded libibverbs's version, from its file's name (dladdr(3)). */
static void running_libibverbs(struct eel_nic_info *info)
{
	Dl_info dl;
	char real[PATH_MAX];
	const char *v;

	if (!dladdr((void *)ibv_get_device_list, &dl) || !dl.dli_fname || !realpath(dl.dli_fname, real)) {
		snprintf(info->stack_why, sizeof(info->stack_why), "the loaded libibverbs's file was not found");
		return;
	}
	v = strstr(real, "libibverbs.so.");
	if (v)
		snprintf(info->stack_version, sizeof(info->stack_version), "%s", v + strlen("libibverbs.so."));
	else
		snprintf(info->stack_why, sizeof(info->stack_why), "libibverbs is linked statically: only the "
			 "version built against is known");
}

/* What drives the device: the PCI function's driver and its module, or, for
 * a soft device, the kernel module that makes it (rdma_rxe, siw). */
static void driver(const struct verbs *v, struct eel_nic_info *info)
{
	char mod[32], desc[64];

	if (!v->software) {
		snprintf(info->driver, sizeof(info->driver), "%s", v->driver);
		snprintf(info->driver_from, sizeof(info->driver_from), SYSFS_IB "/%.32s/device/driver", v->ibdev);
		snprintf(info->bus_info, sizeof(info->bus_info), "pci %s", v->pci);
		eel_info_pci_ids(info, v->pci);
		eel_sysfs_link(mod, sizeof(mod), SYSFS_IB "/%s/device/driver/module", v->ibdev);
		eel_info_module(info, mod[0] ? mod : v->driver);
		return;
	}
	/* rxe (RoCE) and siw (iWARP) are the kernel's two soft RDMA drivers;
	 * node_desc is what the module wrote ("rxe", "Software iWARP stack") */
	eel_sysfs_line(desc, sizeof(desc), SYSFS_IB "/%s/node_desc", v->ibdev);
	snprintf(info->driver, sizeof(info->driver), "%s", v->iwarp ? "siw" : "rdma_rxe");
	snprintf(info->driver_from, sizeof(info->driver_from), "soft %s device (no bus device), node_desc '%.32s'",
		 v->iwarp ? "iWARP" : "RoCE", desc);
	snprintf(info->bus_info, sizeof(info->bus_info), "netdev %s", v->netdev[0] ? v->netdev : "?");
	eel_info_module(info, info->driver);
}

int vb_nic_info(struct eel_dev *dev, struct eel_nic_info *info)
{
	struct verbs *v = VERBS(dev);
	struct ibv_device_attr a;
	uint64_t g;
	int rc;

	snprintf(info->device, sizeof(info->device), "%s", v->ibdev);
	driver(v, info);
	snprintf(info->stack, sizeof(info->stack), "rdma-core");
	snprintf(info->stack_built, sizeof(info->stack_built), "libibverbs %s", EEL_IBVERBS_VERSION);
	running_libibverbs(info);
	if ((rc = ibv_query_device(v->ctx, &a))) {
		snprintf(info->fw_why, sizeof(info->fw_why), "ibv_query_device failed: %s", strerror(rc));
		return 0;
	}
	snprintf(info->fw_version, sizeof(info->fw_version), "%s", a.fw_ver);
	if (!a.fw_ver[0])
		snprintf(info->fw_why, sizeof(info->fw_why), "ibv_query_device's fw_ver is empty: %s gives none",
			 v->ibdev);
	snprintf(info->hw_version, sizeof(info->hw_version), "%u", a.hw_ver);
	info->vendor_id = a.vendor_id;
	info->part_id = a.vendor_part_id;
	g = be64toh(a.node_guid);
	snprintf(info->node_guid, sizeof(info->node_guid), "%04x:%04x:%04x:%04x", (unsigned)(g >> 48) & 0xffff,
		 (unsigned)(g >> 32) & 0xffff, (unsigned)(g >> 16) & 0xffff, (unsigned)g & 0xffff);
	return 0;
}
