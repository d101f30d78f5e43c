/* SPDX-License-Identifier: MIT */
/* userlib/core/backends.h — each backend's ops table, defined in its own
 * folder (userlib/<name>/backend_<name>.c) and listed by registry.c. */
#ifndef EEL_USERLIB_BACKENDS_H
#define EEL_USERLIB_BACKENDS_H

#include "userlib/core/dev.h"

extern const struct eel_backend eel_backend_softnic;
extern const struct eel_backend eel_backend_dpdk;
extern const struct eel_backend eel_backend_verbs;
extern const struct eel_backend eel_backend_raw_e1000;

#endif
