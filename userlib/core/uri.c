/* SPDX-License-Identifier: MIT */
/* userlib/core/uri.c — parsing device URIs (userlib/core/uri.h). */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "userlib/core/dev.h"

static int copy(char *dst, size_t cap, const char *src, size_t n)
{
	if (n >= cap)
		return -1;
	memcpy(dst, src, n);
	dst[n] = 0;
	return 0;
}

int eel_uri_parse(const char *s, struct eel_uri *u)
{
	const char *q, *colon, *p;
	size_t n;

	memset(u, 0, sizeof(*u));
	if (!s || !*s)
		return eel_err(-EINVAL, "empty device URI: try softnic, verbs:<ibdev>, dpdk:<port> or raw:<pci-address>");
	if (copy(u->text, sizeof(u->text), s, strlen(s)))
		return eel_err(-EINVAL, "device URI longer than %zu characters", sizeof(u->text) - 1);
	q = strchr(s, '?');
	n = q ? (size_t)(q - s) : strlen(s);
	colon = memchr(s, ':', n);
	if (copy(u->scheme, sizeof(u->scheme), s, colon ? (size_t)(colon - s) : n) || !u->scheme[0])
		return eel_err(-EINVAL, "bad device URI '%s': it starts with a scheme (softnic, verbs, dpdk, raw)", s);
	if (colon && copy(u->path, sizeof(u->path), colon + 1, n - (size_t)(colon + 1 - s)))
		return eel_err(-EINVAL, "bad device URI '%s': device part too long", s);
	if (!q)
		return 0;
	for (p = q + 1; *p;) {
		const char *amp = strchr(p, '&'), *eq;
		size_t len = amp ? (size_t)(amp - p) : strlen(p);
		struct eel_uri_opt *o;

		eq = memchr(p, '=', len);
		if (!eq || eq == p)
			return eel_err(-EINVAL, "bad option '%.*s' in '%s': options are key=value, joined by &", (int)len, p, s);
		if (u->nopt == EEL_URI_MAX_OPTS)
			return eel_err(-EINVAL, "too many options in '%s' (at most %d)", s, EEL_URI_MAX_OPTS);
		o = &u->opt[u->nopt++];
		if (copy(o->key, sizeof(o->key), p, (size_t)(eq - p)) ||
		    copy(o->val, sizeof(o->val), eq + 1, len - (size_t)(eq + 1 - p)))
			return eel_err(-EINVAL, "option '%.*s' in '%s' is too long", (int)len, p, s);
		for (int i = 0; i < u->nopt - 1; i++)
			if (!strcmp(u->opt[i].key, o->key))
				return eel_err(-EINVAL, "option '%s' given twice in '%s'", o->key, s);
		/* no option takes an empty value or one that starts or ends with a
		 * space: bus= was no bus, mtu= 4096 a number (a preset file's path
		 * may hold a space inside) */
		if (!o->val[0])
			return eel_err(-EINVAL, "option '%s=' in '%s' has no value: give one (%s=VALUE), or leave "
				       "the option out", o->key, s, o->key);
		if (isspace((unsigned char)o->val[0]) || isspace((unsigned char)o->val[strlen(o->val) - 1]))
			return eel_err(-EINVAL, "option '%s=%s' in '%s': a space around the value: write %s=VALUE",
				       o->key, o->val, s, o->key);
		p += len + (amp ? 1 : 0);
	}
	return 0;
}

static struct eel_uri_opt *find(struct eel_uri *u, const char *key)
{
	for (int i = 0; i < u->nopt; i++)
		if (!strcmp(u->opt[i].key, key)) {
			u->opt[i].used = 1;
			return &u->opt[i];
		}
	return NULL;
}

const char *eel_uri_str(struct eel_uri *u, const char *key)
{
	struct eel_uri_opt *o = find(u, key);

	return o ? o->val : NULL;
}

int eel_uri_u64(struct eel_uri *u, const char *key, uint64_t min, uint64_t max, uint64_t *v)
{
	struct eel_uri_opt *o = find(u, key);
	char *end;
	unsigned long long x;

	if (!o)
		return 1;
	errno = 0;
	x = strtoull(o->val, &end, 10);
	if (errno || end == o->val || *end || !isdigit((unsigned char)o->val[0]) || x < min || x > max)
		return eel_err(-EINVAL, "option %s=%s: give a whole number from %llu to %llu",
			       key, o->val, (unsigned long long)min, (unsigned long long)max);
	*v = x;
	return 0;
}

int eel_uri_prob(struct eel_uri *u, const char *key, double *v)
{
	struct eel_uri_opt *o = find(u, key);
	char *end;
	double x;

	if (!o)
		return 1;
	errno = 0;
	x = strtod(o->val, &end);
	if (errno || end == o->val || *end || !(isdigit((unsigned char)o->val[0]) || o->val[0] == '.') ||
	    !(x >= 0.0 && x <= 1.0))
		return eel_err(-EINVAL, "option %s=%s: give a probability from 0 to 1 (0.01 is 1%%)", key, o->val);
	*v = x;
	return 0;
}

int eel_uri_check_unused(const struct eel_uri *u, const char *known)
{
	for (int i = 0; i < u->nopt; i++)
		if (!u->opt[i].used)
			return eel_err(-EINVAL, "unknown option '%s' for %s: known options are %s",
				       u->opt[i].key, u->scheme, known);
	return 0;
}
