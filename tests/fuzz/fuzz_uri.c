/* SPDX-License-Identifier: MIT */
/* tests/fuzz/fuzz_uri.c — libFuzzer target: device URIs (userlib/core/uri.c).
 *
 * Any string either parses into a URI whose parts are bounded,
 * NUL-terminated and taken from the string, or is refused with -EINVAL and a
 * message; every lookup on a parsed URI returns a documented code; once every
 * option has been looked up, none is left unknown. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "userlib/core/dev.h"

#define ASSERT(c) do { if (!(c)) __builtin_trap(); } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int bounded(const char *s, size_t cap)
{
	return memchr(s, 0, cap) != NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char s[1024];
	struct eel_uri u;
	int rc;

	if (size >= sizeof(s))
		size = sizeof(s) - 1;
	memcpy(s, data, size);
	s[size] = 0;
	rc = eel_uri_parse(s, &u);
	if (rc) {
		ASSERT(rc == -EINVAL);
		ASSERT(strcmp(eel_errmsg(), "no error") != 0 && strlen(eel_errmsg()) > 0);
		return 0;
	}
	ASSERT(bounded(u.text, sizeof(u.text)) && !strcmp(u.text, s));
	ASSERT(bounded(u.scheme, sizeof(u.scheme)) && u.scheme[0] && !strchr(u.scheme, '?'));
	ASSERT(!strncmp(s, u.scheme, strlen(u.scheme)));
	ASSERT(bounded(u.path, sizeof(u.path)) && !strchr(u.path, '?'));
	ASSERT(u.nopt >= 0 && u.nopt <= EEL_URI_MAX_OPTS);
	for (int i = 0; i < u.nopt; i++) {
		struct eel_uri_opt *o = &u.opt[i];
		uint64_t v = 0;
		double d = 0;
		const char *str;

		ASSERT(bounded(o->key, sizeof(o->key)) && bounded(o->val, sizeof(o->val)));
		ASSERT(o->key[0] && !strchr(o->key, '=') && !strchr(o->key, '&') && !strchr(o->val, '&'));
		for (int k = 0; k < i; k++)
			ASSERT(strcmp(u.opt[k].key, o->key) != 0);
		rc = eel_uri_u64(&u, o->key, 0, UINT64_MAX, &v);
		ASSERT(rc == 0 || rc == -EINVAL);
		rc = eel_uri_u64(&u, o->key, 10, 20, &v);
		ASSERT(rc == -EINVAL || (rc == 0 && v >= 10 && v <= 20));
		rc = eel_uri_prob(&u, o->key, &d);
		ASSERT(rc == -EINVAL || (rc == 0 && d >= 0 && d <= 1));
		str = eel_uri_str(&u, o->key);
		ASSERT(str && !strcmp(str, o->val));
	}
	ASSERT(eel_uri_str(&u, "") == NULL);
	ASSERT(eel_uri_check_unused(&u, "all") == 0);
	return 0;
}
