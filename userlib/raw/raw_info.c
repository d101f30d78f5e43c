/* SPDX-License-Identifier: MIT */
/* userlib/raw/raw_info.c — eel_nic_info for an e1000 under eel's own driver:
 * the PCI function's ids and revision (sysfs: the kernel's copy of config
 * space's Vendor ID, Device ID and Revision ID, PCI Local Bus Spec 6.2.1),
 * the kernel driver it is bound to (eel_pci or uio_pci_generic) and that
 * module's version (/sys/module/eel_pci/version, driver/'s MODULE_VERSION).
 * The 8254x has no firmware to ask ([SDM] 82540EM: its MAC is fixed logic;
 * its EEPROM holds settings, not code): eel's firmware runs on this core,
 * its ABI in fw_abi. */
#include <stdio.h>

#include "userlib/core/nic_info.h"
#include "userlib/raw/e1000.h"

void e1000_info(const struct e1000 *nic, struct eel_nic_info *info)
{
	const struct raw_pci *p = &nic->pci;

	snprintf(info->device, sizeof(info->device), "%s", p->addr);
	eel_sysfs_link(info->driver, sizeof(info->driver), "/sys/bus/pci/devices/%s/driver", p->addr);
	snprintf(info->driver_from, sizeof(info->driver_from), "/sys/bus/pci/devices/%s/driver", p->addr);
	snprintf(info->fw_why, sizeof(info->fw_why), "the Intel %s has no firmware of its own: eel's firmware "
		 "runs on this core (fw_abi)", nic->model->chip);
	snprintf(info->bus_info, sizeof(info->bus_info), "pci %s (Intel %s)", p->addr, nic->model->chip);
	eel_info_pci_ids(info, p->addr);
	snprintf(info->stack, sizeof(info->stack), "eel");
	snprintf(info->stack_version, sizeof(info->stack_version), "%s", EEL_VERSION);
	snprintf(info->stack_built, sizeof(info->stack_built), "%s", EEL_VERSION);
	eel_info_module(info, p->via == RAW_VIA_UIO ? "uio_pci_generic" : "eel_pci");
}
