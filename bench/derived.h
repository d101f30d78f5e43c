/* SPDX-License-Identifier: MIT */
/* bench/derived.h — a figure derived from others (L, EEL - (o_s + o_r)) as this NIC lets it be stated. */
#ifndef EEL_BENCH_DERIVED_H
#define EEL_BENCH_DERIVED_H

#include <stddef.h>
#include <stdint.h>
#include <eel/eel.h>
#include "method/stats.h"

struct session;
struct results;
struct json;
struct signature_res;

/* derived.c: a figure derived from others (L = RTT/2 - o_s - o_r, EEL -
 * (o_s + o_r)) as it can be stated on this NIC: not separable where the NIC
 * runs on the host's CPU (its work is in o_s and o_r), a bound where it is
 * not resolved from 0; never a negative duration. */
struct derived {
	int separable;      /* the overheads in it are the host CPU's own (overheads_separable) */
	int resolved;       /* separable, and above 0 by more than its uncertainty */
	double ns;          /* the figure when resolved, else NAN */
	double u_ns;        /* its uncertainty (half-width), NAN where not separable */
	double bound_ns;    /* separable, not resolved: the figure is at most this (NAN: no bound,
			     * its parts contradict each other) */
	const char *why;    /* not separable, or not resolved: why, one line (NULL when resolved) */
};

/* derived.c */
/* Are Bell et al. 2003 4.3's o_s and o_r the host CPU's own work here? Not
 * where the NIC runs on the host's CPU (EEL_CAP_NEEDS_CALLER,
 * EEL_CAP_HOSTED_FW): *why says so in one line. */
int overheads_separable(const struct eel_caps *c, const char **why);
/* raw, with uncertainty u: resolved above 0 by more than u, else a bound
 * (raw + u); none_at_zero: a figure below 0 beyond u means none (bound 0),
 * else that its parts contradict each other (no bound) */
struct derived derived_of(const struct eel_caps *c, double raw, double u, int none_at_zero);
struct derived sig_L(const struct eel_caps *c, const struct signature_res *g);
/* EEL - (o_s + o_r), Bell et al. 2003 5.2, of the three medians */
struct derived overlap_potential(const struct session *s, const struct results *r);
/* Two stats of one quantity differ beyond their spread: their medians apart
 * by more than both interquartile ranges together, and by more than 10% */
int stats_differ(const struct stat *a, const struct stat *b);
/* the names of the tests in t (enum test_bit), comma-separated, that a run runs in that order */
void test_names(uint32_t t, char *out, size_t n);

#endif
