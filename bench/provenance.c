/* SPDX-License-Identifier: MIT */
/* bench/provenance.c — the document's `provenance` (docs/json.md): eel's
 * build (its release, the commit, the compiler and flags and the optional
 * parts, stamped at build time by tools/version.mk), the kernel (uname(2)),
 * and what the NIC is (eel_nic_info): what eel-compare names first when two
 * runs differ in it. */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "bench/provenance.h"
#include "bench/report/json.h"

#ifndef EEL_GIT
#define EEL_GIT "unknown"
#endif
#ifndef EEL_CC
#define EEL_CC "unknown"
#endif
#ifndef EEL_CC_VERSION
#define EEL_CC_VERSION "unknown"
#endif
#ifndef EEL_CFLAGS
#define EEL_CFLAGS "unknown"
#endif
#ifndef EEL_FEATURES
#define EEL_FEATURES "unknown"
#endif

/* A text, or null where it is "" (not known). */
static void text(struct json *j, const char *key, const char *v)
{
	if (v[0])
		json_str(j, key, v);
	else
		json_none(j, key);
}

static void id(struct json *j, const char *key, uint32_t v)
{
	char hex[16];

	snprintf(hex, sizeof(hex), "0x%04x", v);
	text(j, key, v ? hex : "");
}

static void nic(struct json *j, const struct eel_nic_info *n)
{
	json_obj(j, "nic");
	text(j, "device", n->device);
	text(j, "driver", n->driver);
	text(j, "driver_from", n->driver_from);
	text(j, "fw_version", n->fw_version);
	text(j, "fw_why", n->fw_version[0] ? "" : n->fw_why);
	if (n->fw_abi)
		json_u64(j, "fw_abi", n->fw_abi);
	else
		json_none(j, "fw_abi");
	text(j, "hw_version", n->hw_version);
	id(j, "vendor_id", n->vendor_id);
	id(j, "part_id", n->part_id);
	text(j, "node_guid", n->node_guid);
	text(j, "bus_info", n->bus_info);
	text(j, "stack", n->stack);
	text(j, "stack_version", n->stack_version);
	text(j, "stack_built", n->stack_built);
	text(j, "stack_why", n->stack_version[0] ? "" : n->stack_why);
	text(j, "module", n->module);
	text(j, "module_version", n->module_version);
	text(j, "module_why", n->module_version[0] ? "" : n->module_why);
	text(j, "libeel_commit", n->eel_commit);
	json_obj_end(j);
}

void provenance_json(struct json *j, const struct eel_nic_info *n)
{
	struct utsname u;

	uname(&u);
	json_obj(j, "provenance");
	json_obj(j, "eel");
	json_str(j, "version", EEL_VERSION);
	json_str(j, "commit", EEL_GIT);
	json_str(j, "cc", EEL_CC);
	json_str(j, "cc_version", EEL_CC_VERSION);
	json_str(j, "cflags", EEL_CFLAGS);
	json_str(j, "features", EEL_FEATURES);
	json_obj_end(j);
	json_obj(j, "kernel");
	json_str(j, "release", u.release);
	json_str(j, "version", u.version);
	json_str(j, "machine", u.machine);
	json_obj_end(j);
	nic(j, n);
	json_obj_end(j);
}

void provenance_text(const struct eel_nic_info *n, char *out, size_t len)
{
	struct utsname u;

	uname(&u);
	snprintf(out, len, "eel %s (%s), kernel %s; NIC %s: driver %s, firmware %s%s%s%s%s", EEL_VERSION, EEL_GIT,
		 u.release, n->device[0] ? n->device : "?", n->driver[0] ? n->driver : "?",
		 n->fw_version[0] ? n->fw_version : "unknown", n->stack[0] ? ", " : "", n->stack,
		 n->stack_version[0] ? " " : "", n->stack_version);
}
