/* SPDX-License-Identifier: MIT */
/* userlib/core/uri.h — device URIs: scheme[:path][?key=value&key=value...] */
#ifndef EEL_USERLIB_URI_H
#define EEL_USERLIB_URI_H

#include <stdint.h>

#define EEL_URI_MAX_OPTS 24

struct eel_uri_opt {
	char key[32];
	char val[96];
	int used;
};

struct eel_uri {
	char text[256];    /* the URI as given, for messages */
	char scheme[16];
	char path[160];    /* after "scheme:", before "?" (may be empty) */
	struct eel_uri_opt opt[EEL_URI_MAX_OPTS];
	int nopt;
};

int eel_uri_parse(const char *s, struct eel_uri *u);
/* Option lookups: 0 and *v set when present, 1 when absent, negative (with
 * the message set) when present but malformed or out of [min, max]. */
int eel_uri_u64(struct eel_uri *u, const char *key, uint64_t min, uint64_t max, uint64_t *v);
int eel_uri_prob(struct eel_uri *u, const char *key, double *v);
const char *eel_uri_str(struct eel_uri *u, const char *key);
/* After a backend looked up what it knows: any option left unused is an
 * error naming it and listing `known`. */
int eel_uri_check_unused(const struct eel_uri *u, const char *known);

#endif
