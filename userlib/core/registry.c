/* SPDX-License-Identifier: MIT */
/* userlib/core/registry.c — the backends libeel was built with, by URI scheme.
 * A new backend adds its ops table here and in backends.h. */
#include <string.h>

#include "userlib/core/backends.h"
#include "userlib/core/registry.h"

static const struct eel_backend *const backends[] = {
	&eel_backend_softnic,
	&eel_backend_dpdk,
	&eel_backend_verbs,
	&eel_backend_raw_e1000,
};

const struct eel_backend *eel_backend_by_scheme(const char *scheme)
{
	for (size_t i = 0; i < sizeof(backends) / sizeof(backends[0]); i++)
		if (!strcmp(backends[i]->scheme, scheme))
			return backends[i];
	return NULL;
}
