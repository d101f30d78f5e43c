/* SPDX-License-Identifier: MIT */
/* userlib/core/registry.c — the backends libeel was built with, by URI scheme,
 * and the optional ones it was built without (their dependency was missing at
 * build time: userlib/<name>/<name>.mk sets EEL_HAVE_<NAME>).
 * A new backend adds its ops table here and in backends.h. */
#include <errno.h>
#include <string.h>

#include "userlib/core/backends.h"
#include "userlib/core/dev.h"
#include "userlib/core/registry.h"

#ifndef EEL_HAVE_DPDK
#define EEL_HAVE_DPDK 0
#endif
#ifndef EEL_HAVE_VERBS
#define EEL_HAVE_VERBS 0
#endif

/* Every backend eel has; ops is NULL when this build lacks it. */
static const struct known {
	const char *scheme;
	const struct eel_backend *ops;
	const char *needs;  /* the development files it is built from */
	const char *group;  /* tools/setup's group that installs them */
} known[] = {
	{ "softnic", &eel_backend_softnic, NULL, NULL },
#if EEL_HAVE_DPDK
	{ "dpdk", &eel_backend_dpdk, NULL, NULL },
#else
	{ "dpdk", NULL, "DPDK (pkg-config libdpdk)", "dpdk" },
#endif
#if EEL_HAVE_VERBS
	{ "verbs", &eel_backend_verbs, NULL, NULL },
#else
	{ "verbs", NULL, "rdma-core (pkg-config libibverbs librdmacm)", "verbs" },
#endif
	{ "raw", &eel_backend_raw_e1000, NULL, NULL },
};

#define N_KNOWN (sizeof(known) / sizeof(known[0]))

int eel_backend_by_scheme(const char *scheme, const char *uri, const struct eel_backend **be)
{
	*be = NULL;
	for (size_t i = 0; i < N_KNOWN; i++) {
		if (strcmp(known[i].scheme, scheme))
			continue;
		if (!known[i].ops)
			return eel_err(-ENOTSUP, "'%s': this libeel was built without the %s backend (%s was "
				       "missing): run `sudo tools/setup %s`, then rebuild eel (make)", uri, scheme,
				       known[i].needs, known[i].group);
		*be = known[i].ops;
		return 0;
	}
	return eel_err(-ENODEV, "unknown NIC type '%s' in '%s': use softnic, verbs:<ibdev>, "
		       "dpdk:<port> or raw:<pci-address>", scheme, uri);
}

const char *eel_backend_name(int i, int *built)
{
	if (i < 0 || (size_t)i >= N_KNOWN)
		return NULL;
	if (built)
		*built = known[i].ops != NULL;
	return known[i].scheme;
}
