/* SPDX-License-Identifier: MIT */
/* userlib/core/registry.h — the backends libeel was built with, by URI scheme
 * (registry.c). */
#ifndef EEL_USERLIB_REGISTRY_H
#define EEL_USERLIB_REGISTRY_H

#include "userlib/core/dev.h"

/* The backend answering to scheme, or NULL. */
const struct eel_backend *eel_backend_by_scheme(const char *scheme);

#endif
