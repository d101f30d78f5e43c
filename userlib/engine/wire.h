/* SPDX-License-Identifier: MIT */
/* userlib/engine/wire.h — what carries the firmware's frames to the peer's NIC:
 * the carriers' header.
 *
 * A carrier — the software NIC's shared-memory rings (wire_shm.c), a DPDK
 * port (wire_dpdk.c), an e1000 driven by eel's raw driver (wire_e1000.c), the
 * fault layer over any of them (wire_faults.c) — fills in the firmware's
 * struct wire_ops, which firmware/hal.h says once: the firmware's HAL wire
 * calls reach the carrier's ops directly. Frames are the firmware's packets;
 * a carrier adds and strips its own framing.
 */
#ifndef EEL_USERLIB_WIRE_H
#define EEL_USERLIB_WIRE_H

#include "firmware/hal.h"

#endif
