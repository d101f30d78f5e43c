/* SPDX-License-Identifier: MIT */
/* tests/fuzz/fuzz_json.c — libFuzzer target: the tools' JSON reader
 * (tools/json_read.c, included here so tests/fuzz.mk's one-file rule builds it).
 *
 * Any bytes either parse or are refused with one line of the documented
 * shape ("truncated at byte N", always at the end of the input; "malformed
 * at byte N" within it; "not JSON: it begins with" a byte no value begins
 * with "at byte N", the first not blank; "too deep", "too large", "out of
 * range at PATH"). What
 * parses is a well-formed tree (strings valid UTF-8 of their stated length, by
 * jansson's own check; members with keys exactly in objects; numbers within
 * JR_NUM_MAX), every member is found again by its path, and the tree written
 * back out as JSON parses to the same tree. */
#include "tools/json_read.c"

#define ASSERT(c) do { if (!(c)) __builtin_trap(); } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct out {
	char *b;
	size_t n, cap;
};

static void put(struct out *o, const char *s, size_t n)
{
	if (o->n + n + 1 > o->cap) {
		o->cap = (o->n + n + 1) * 2;
		o->b = realloc(o->b, o->cap);
		ASSERT(o->b);
	}
	memcpy(o->b + o->n, s, n);
	o->n += n;
}

static void put_str(struct out *o, const char *s, size_t n)
{
	put(o, "\"", 1);
	for (size_t k = 0; k < n; k++) {
		unsigned char c = (unsigned char)s[k];
		char e[8];

		if (c == '"' || c == '\\') {
			e[0] = '\\';
			e[1] = (char)c;
			put(o, e, 2);
		} else if (c < 0x20) {
			snprintf(e, sizeof(e), "\\u%04x", c);
			put(o, e, 6);
		} else {
			put(o, (const char *)&s[k], 1);
		}
	}
	put(o, "\"", 1);
}

static void write_val(struct out *o, const struct jr_val *v)
{
	char num[40];

	switch (v->type) {
	case JR_NULL: put(o, "null", 4); break;
	case JR_BOOL: put(o, v->num ? "true" : "false", v->num ? 4 : 5); break;
	case JR_NUM: put(o, num, (size_t)snprintf(num, sizeof(num), "%.17g", v->num)); break;
	case JR_STR: put_str(o, v->str, v->len); break;
	case JR_ARR:
	case JR_OBJ:
		put(o, v->type == JR_ARR ? "[" : "{", 1);
		for (size_t k = 0; k < v->len; k++) {
			if (k)
				put(o, ",", 1);
			if (v->type == JR_OBJ) {
				put_str(o, v->kids[k]->key, strlen(v->kids[k]->key));
				put(o, ":", 1);
			}
			write_val(o, v->kids[k]);
		}
		put(o, v->type == JR_ARR ? "]" : "}", 1);
		break;
	}
}

static void same(const struct jr_val *a, const struct jr_val *b)
{
	ASSERT(a->type == b->type);
	switch (a->type) {
	case JR_NUM: ASSERT(a->num == b->num || (a->num != a->num && b->num != b->num)); break;
	case JR_BOOL: ASSERT(a->num == b->num); break;
	case JR_STR: ASSERT(a->len == b->len && !memcmp(a->str, b->str, a->len)); break;
	case JR_ARR:
	case JR_OBJ:
		ASSERT(a->len == b->len);
		for (size_t k = 0; k < a->len; k++) {
			if (a->type == JR_OBJ)
				ASSERT(!strcmp(a->kids[k]->key, b->kids[k]->key));
			same(a->kids[k], b->kids[k]);
		}
		break;
	case JR_NULL: break;
	}
}

/* Checks the tree under v; path is v's path from the root (or "" when it cannot be written as one). */
static void check_tree(const struct jr_val *root, const struct jr_val *v, int depth, char *path, size_t plen)
{
	ASSERT(depth <= 64);
	if (v->type == JR_STR) {
		json_t *t = json_stringn(v->str, v->len);

		ASSERT(v->str && v->str[v->len] == 0 && t);
		json_decref(t);
	}
	if (v->type == JR_NUM)
		ASSERT(fabs(v->num) <= JR_NUM_MAX);
	if (v->type != JR_ARR && v->type != JR_OBJ) {
		ASSERT(v->len == 0 || v->type == JR_STR);
		return;
	}
	ASSERT(v->len == 0 || v->kids);
	for (size_t k = 0; k < v->len; k++) {
		const struct jr_val *m = v->kids[k];
		size_t n = plen;

		ASSERT(m);
		ASSERT(v->type == JR_OBJ ? m->key != NULL : m->key == NULL);
		if (v->type == JR_OBJ)
			ASSERT(jr_key(v, m->key) == m);   /* a repeated key is refused */
		else
			ASSERT(jr_at(v, k) == m);
		if (plen != (size_t)-1 && plen + 40 + (m->key ? strlen(m->key) : 0) < 4096) {
			if (v->type == JR_ARR)
				n += (size_t)sprintf(path + plen, "[%zu]", k);
			else if (m->key[0] && !strpbrk(m->key, ".[") && jr_key(v, m->key) == m)   /* not behind a repeated key */
				n += (size_t)sprintf(path + plen, "%s%s", plen ? "." : "", m->key);
			else
				n = (size_t)-1;
			if (n != (size_t)-1) {
				const struct jr_val *f = jr_get(root, path);

				/* by path: this member, or (a repeated key) the first with its key */
				ASSERT(f);
				if (v->type == JR_ARR)
					ASSERT(f == m);
				else
					ASSERT(f->key && !strcmp(f->key, m->key));
			}
		} else {
			n = (size_t)-1;
		}
		check_tree(root, m, depth + 1, path, n);
		if (plen != (size_t)-1)
			path[plen] = 0;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256], err2[256], path[4096] = "";
	struct jr_doc *d = jr_parse((const char *)data, size, NULL, err, sizeof(err));
	struct out o = { 0 };
	struct jr_doc *d2;

	if (!d) {
		unsigned long at = 0;

		ASSERT(err[0] && strlen(err) < sizeof(err) - 1 && !strchr(err, '\n'));
		if (sscanf(err, "truncated at byte %lu ", &at) == 1)
			ASSERT(at == size);
		else if (sscanf(err, "malformed at byte %lu ", &at) == 1 || sscanf(err, "too deep at byte %lu ", &at) == 1)
			ASSERT(at <= size);
		else if (!strncmp(err, "not JSON: it begins with ", 25) && strstr(err, " at byte ") &&
			 sscanf(strstr(err, " at byte ") + 9, "%lu ", &at) == 1)
			ASSERT(at < size && (!data[at] || !strchr("{[\"-0123456789tfn \t\r\n", data[at])));
		else
			ASSERT(!strncmp(err, "too large", 9) || !strncmp(err, "too deep at ", 12) ||
			       !strncmp(err, "out of range at ", 16));
		return 0;
	}
	check_tree(jr_root(d), jr_root(d), 0, path, 0);
	write_val(&o, jr_root(d));
	d2 = jr_parse(o.b, o.n, NULL, err2, sizeof(err2));
	ASSERT(d2);
	same(jr_root(d), jr_root(d2));
	jr_free(d2);
	jr_free(d);
	free(o.b);
	return 0;
}
