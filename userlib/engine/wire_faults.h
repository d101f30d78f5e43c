/* SPDX-License-Identifier: MIT */
/* userlib/engine/wire_faults.h — a bad wire on demand: drop, duplicate, reorder and
 * corrupt frames, and delay them, on whatever carries them.
 *
 * Faults act on what this end sends. Corruption flips one bit after an
 * end-to-end CRC-32 was appended (like RoCE's invariant CRC: a carrier's own
 * FCS is computed after the damage and cannot see it); the receiving end
 * checks the CRC and drops a bad frame, as a MAC drops a frame with a bad FCS.
 * Both ends carry the CRC when either end injects faults (negotiated when
 * connecting).
 */
#ifndef EEL_USERLIB_WIRE_FAULTS_H
#define EEL_USERLIB_WIRE_FAULTS_H

#include <stdint.h>

#include "userlib/engine/wire.h"

struct wire_faults_opts {
	double drop, dup, reorder, corrupt; /* probabilities per frame */
	uint64_t seed;
	uint64_t delay;                     /* cycles on the wire */
};

enum wf_counter {
	WF_DROPPED,    /* frames dropped by fault injection */
	WF_DUPLICATED,
	WF_REORDERED,
	WF_CORRUPTED,
	WF_CRC_ERRORS, /* received frames dropped for a bad CRC */
	WF_COUNTERS
};

extern const char *const wf_counter_names[WF_COUNTERS];

#define WF_QUEUE 256   /* frames on the wire (delayed or held), at most */

struct wf_frame {
	uint32_t len;
	uint64_t due;  /* cycle count at which it leaves */
	uint8_t *buf;
};

struct wire_faults {
	struct wire lower;
	struct wire_faults_opts o;
	int crc;
	uint64_t rng;
	uint32_t max_frame;
	uint8_t *stage;          /* the frame the firmware is building */
	struct wf_frame q[WF_QUEUE];
	uint32_t head, tail;     /* frames waiting to go out, in order */
	struct wf_frame held;    /* a frame held back to be reordered */
	uint64_t cnt[WF_COUNTERS];
};

/* Does this set of options need the layer at all? */
int wire_faults_wanted(const struct wire_faults_opts *o);
/* Set up over lower, for frames up to max_frame bytes (without the CRC). */
int wire_faults_init(struct wire_faults *wf, const struct wire_faults_opts *o, struct wire lower,
		     uint32_t max_frame, int crc);
void wire_faults_free(struct wire_faults *wf);

extern const struct wire_ops wire_faults_ops; /* ctx: struct wire_faults */

#endif
