/* SPDX-License-Identifier: MIT */
/* userlib/core/nic_info.h — what the backends share to fill struct
 * eel_nic_info (include/eel/eel.h): sysfs's one-line files and links, a
 * module's version, a PCI function's ids (nic_info.c). */
#ifndef EEL_USERLIB_NIC_INFO_H
#define EEL_USERLIB_NIC_INFO_H

#include <stddef.h>

#include <eel/eel.h>

/* The first line of a sysfs file, path made as printf does; "" when absent. */
void eel_sysfs_line(char *out, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The last part of a symbolic link's target ("driver" -> "mlx5_core"); ""
 * when it is no link. */
void eel_sysfs_link(char *out, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* info->module and its version from /sys/module/<module>/version (a
 * module's MODULE_VERSION), or module_why saying why there is none. */
void eel_info_module(struct eel_nic_info *info, const char *module);
/* A PCI function's vendor, device and revision ids from sysfs
 * (/sys/bus/pci/devices/<addr>/{vendor,device,revision}) into info. */
void eel_info_pci_ids(struct eel_nic_info *info, const char *addr);

#endif
