/* SPDX-License-Identifier: MIT */
/* userlib/engine/wire.h — what carries the firmware's frames to the peer's NIC.
 *
 * The firmware's HAL (firmware/hal.h) sends and receives frames through a
 * wire: the software NIC's shared-memory rings (wire_shm.c), a DPDK port, an
 * e1000 driven by eel's raw driver. The fault layer (wire_faults.c) can sit
 * in between, on any of them. Frames are the firmware's packets (wire.h in
 * firmware/); a carrier adds and strips its own framing.
 */
#ifndef EEL_USERLIB_WIRE_H
#define EEL_USERLIB_WIRE_H

#include <stdint.h>

struct wire_ops {
	/* A buffer for a frame of up to len bytes, or NULL when the wire is full. */
	void *(*tx_alloc)(void *ctx, uint32_t len);
	/* Send the frame last allocated, len bytes. */
	void (*tx_send)(void *ctx, void *frame, uint32_t len);
	/* The next received frame, or NULL; valid until rx_done. */
	const void *(*rx)(void *ctx, uint32_t *len);
	void (*rx_done)(void *ctx);
};

struct wire {
	const struct wire_ops *ops;
	void *ctx;
};

#endif
