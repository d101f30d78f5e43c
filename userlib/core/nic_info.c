/* SPDX-License-Identifier: MIT */
/* userlib/core/nic_info.c — eel_nic_info: what the NIC is and which versions
 * drive it. The core fills what every device has (its name, the commit
 * libeel was built from: EEL_GIT, tools/version.mk); each backend fills the
 * rest in its own file (struct eel_backend's nic_info). The sysfs files read
 * are the kernel's ABI (Documentation/ABI/stable/sysfs-bus-pci,
 * sysfs-module, sysfs-class-infiniband). */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "userlib/core/dev.h"
#include "userlib/core/nic_info.h"

#ifndef EEL_GIT
#define EEL_GIT "unknown"
#endif

void eel_sysfs_line(char *out, size_t n, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	FILE *f;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	out[0] = 0;
	if (!(f = fopen(path, "r")))
		return;
	if (fgets(out, (int)n, f))
		out[strcspn(out, "\n")] = 0;
	else
		out[0] = 0;
	fclose(f);
}

void eel_sysfs_link(char *out, size_t n, const char *fmt, ...)
{
	char path[PATH_MAX], target[PATH_MAX];
	const char *slash;
	va_list ap;
	ssize_t len;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	out[0] = 0;
	len = readlink(path, target, sizeof(target) - 1);
	if (len <= 0)
		return;
	target[len] = 0;
	slash = strrchr(target, '/');
	snprintf(out, n, "%s", slash ? slash + 1 : target);
}

void eel_info_module(struct eel_nic_info *info, const char *module)
{
	char path[PATH_MAX];

	snprintf(info->module, sizeof(info->module), "%s", module);
	eel_sysfs_line(info->module_version, sizeof(info->module_version), "/sys/module/%s/version", module);
	if (info->module_version[0])
		return;
	snprintf(path, sizeof(path), "/sys/module/%s", module);
	if (access(path, F_OK))
		snprintf(info->module_why, sizeof(info->module_why), "module %s is not loaded (no /sys/module/%s)",
			 module, module);
	else
		snprintf(info->module_why, sizeof(info->module_why), "module %s declares no MODULE_VERSION "
			 "(an in-tree module: the kernel's release is its version)", module);
}

void eel_info_pci_ids(struct eel_nic_info *info, const char *addr)
{
	char v[16];

	eel_sysfs_line(v, sizeof(v), "/sys/bus/pci/devices/%s/vendor", addr);
	info->vendor_id = (uint32_t)strtoul(v, NULL, 16);
	eel_sysfs_line(v, sizeof(v), "/sys/bus/pci/devices/%s/device", addr);
	info->part_id = (uint32_t)strtoul(v, NULL, 16);
	eel_sysfs_line(info->hw_version, sizeof(info->hw_version), "/sys/bus/pci/devices/%s/revision", addr);
}

int eel_nic_info(struct eel_dev *dev, struct eel_nic_info *info)
{
	if (!info)
		return eel_err(-EINVAL, "eel_nic_info: no place for the facts (info) given");
	memset(info, 0, sizeof(*info));
	snprintf(info->eel_commit, sizeof(info->eel_commit), "%s", EEL_GIT);
	snprintf(info->device, sizeof(info->device), "%s", dev->caps.name);
	if (!dev->be->nic_info) {
		snprintf(info->fw_why, sizeof(info->fw_why), "the %s backend does not say", dev->be->scheme);
		return 0;
	}
	return dev->be->nic_info(dev, info);
}
