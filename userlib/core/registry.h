/* SPDX-License-Identifier: MIT */
/* userlib/core/registry.h — the backends libeel was built with, by URI scheme
 * (registry.c). */
#ifndef EEL_USERLIB_REGISTRY_H
#define EEL_USERLIB_REGISTRY_H

#include "userlib/core/dev.h"

/* The backend answering to scheme (of uri, for the message): 0 and *be, or a negative errno with
 * eel_errmsg() naming the fix (-ENODEV: no such scheme; -ENOTSUP: this build
 * lacks that backend). */
int eel_backend_by_scheme(const char *scheme, const char *uri, const struct eel_backend **be);

#endif
