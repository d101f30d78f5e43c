/* SPDX-License-Identifier: MIT */
/* tools/json_read.c — the tools' JSON reader (json_read.h): jansson parses
 * the document (RFC 8259: strict grammar, UTF-8 strings, no repeated keys),
 * then one walk checks eel's limits (depth, values, the magnitude of
 * numbers) and lays the jr_val tree over jansson's values, whose strings
 * and keys it points into. */
#include "json_read.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <eel/eel.h>

#define DEF_MAX_BYTES ((size_t)16 << 20)
#define DEF_MAX_NODES ((size_t)2000000)
#define DEF_MAX_DEPTH 64

struct jr_doc {
	json_t *json;             /* jansson's document: holds every string and key */
	struct jr_val *root;
	struct jr_val *nodes;     /* all the values, one allocation */
	struct jr_val **kids;     /* all the members' pointers, one allocation */
};

/* The walk over jansson's tree: first to count and check, then to fill. */
struct walk {
	struct jr_limits lim;
	size_t nodes, kids;       /* counted, or (filling) used */
	struct jr_doc *d;         /* NULL while counting */
	char path[128];           /* where the walk is, for an error */
	char *err;
	size_t errlen;
};

void jr_free(struct jr_doc *d)
{
	if (!d)
		return;
	json_decref(d->json);
	free(d->nodes);
	free(d->kids);
	free(d);
}

void jr_printable(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
			*s = '?';
}

/* "byte N (line L, column C)" for the byte offset at of buf[0..n), counted from 1. */
static void where(const char *buf, size_t n, size_t at, char *out, size_t len)
{
	size_t line = 1, col = 1;

	for (size_t k = 0; k < at && k < n; k++) {
		if (buf[k] == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	snprintf(out, len, "byte %zu (line %zu, column %zu)", at, line, col);
}

/* One line from jansson's error: truncated (the input ended where more was
 * due: jansson's "premature end of input", or a token it could not finish
 * cut by the end: "invalid token near 'tr'", "invalid escape near '\"ab\\'",
 * a UTF-8 character), too deep, or malformed (a wrong byte, jansson's
 * position just past it). */
static void parse_error(const char *buf, size_t n, const json_error_t *e, char *err, size_t errlen)
{
	enum json_error_code code = json_error_code(e);
	size_t at = e->position < 0 ? 0 : (size_t)e->position > n ? n : (size_t)e->position;
	int cut = code == json_error_premature_end_of_input ||
		  (at == n && code == json_error_invalid_syntax &&
		   (!strncmp(e->text, "invalid token", 13) || !strncmp(e->text, "invalid escape", 14)));
	char w[96], text[JSON_ERROR_TEXT_LENGTH + 1];

	/* a UTF-8 character cut by the end: jansson names its lead byte */
	if (code == json_error_invalid_utf8 && at < n && (unsigned char)buf[at] >= 0xC2 && (unsigned char)buf[at] <= 0xF4) {
		unsigned char lead = (unsigned char)buf[at];

		cut = n - at < (size_t)(lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4);   /* RFC 3629 section 4 */
		for (size_t k = at + 1; k < n; k++)
			cut &= ((unsigned char)buf[k] & 0xC0) == 0x80;
	}

	snprintf(text, sizeof(text), "%s", e->text);
	jr_printable(text);
	where(buf, n, cut ? n : at, w, sizeof(w));
	if (code == json_error_out_of_memory)
		snprintf(err, errlen, "out of memory: the document needs more memory than this machine gave");
	else if (code == json_error_stack_overflow)
		snprintf(err, errlen, "too deep at %s: arrays and objects nested deeper than %d levels", w, DEF_MAX_DEPTH);
	else if (cut)
		snprintf(err, errlen, "truncated at %s: the document ends too soon (%s)", w, text);
	else
		snprintf(err, errlen, "malformed at %s: %s%s", w, text,
			 code == json_error_invalid_utf8 ? " (a string must be UTF-8)" :
			 code == json_error_duplicate_key ? " (an object may not repeat a key)" : "");
}

static int walk_fail(struct walk *w, const char *fmt, double x)
{
	char where_[sizeof(w->path)];

	snprintf(where_, sizeof(where_), "%s", w->path[0] ? w->path : "the top");
	if (strlen(w->path) + 1 >= sizeof(w->path))
		memcpy(where_ + sizeof(where_) - 4, "...", 4);   /* cut short */
	jr_printable(where_);
	snprintf(w->err, w->errlen, fmt, where_, x);
	return -1;
}

static int nk_container(const json_t *j)
{
	return json_is_array(j) || json_is_object(j);
}

/* Counts (w->d NULL) or fills (into *out) the value j at depth. */
static int walk(struct walk *w, json_t *j, int depth, struct jr_val **out)
{
	struct jr_val *v = NULL;
	size_t plen = strlen(w->path), nk = json_is_object(j) ? json_object_size(j) : json_is_array(j) ? json_array_size(j) : 0;
	struct jr_val **kids = NULL;

	if (nk_container(j) && depth >= w->lim.max_depth)
		return walk_fail(w, "too deep at %s: arrays and objects nested deeper than %.0f levels", w->lim.max_depth);
	if (w->nodes >= w->lim.max_nodes)
		return walk_fail(w, "too large at %s: more than %.0f values, the limit for one document",
				 (double)w->lim.max_nodes);
	if (w->d) {
		v = &w->d->nodes[w->nodes];
		*out = v;
		kids = w->d->kids + w->kids;
		v->len = nk;
		v->kids = nk ? kids : NULL;
	}
	w->nodes++;
	w->kids += nk;
	switch (json_typeof(j)) {
	case JSON_OBJECT: {
		const char *key;
		json_t *m;
		size_t k = 0;

		json_object_foreach(j, key, m) {
			snprintf(w->path + plen, sizeof(w->path) - plen, "%s%s", plen ? "." : "", key);
			if (walk(w, m, depth + 1, v ? &kids[k] : NULL))
				return -1;
			if (v)
				kids[k]->key = key;
			k++;
		}
		if (v)
			v->type = JR_OBJ;
		break;
	}
	case JSON_ARRAY:
		for (size_t k = 0; k < nk; k++) {
			snprintf(w->path + plen, sizeof(w->path) - plen, "[%zu]", k);
			if (walk(w, json_array_get(j, k), depth + 1, v ? &kids[k] : NULL))
				return -1;
		}
		if (v)
			v->type = JR_ARR;
		break;
	case JSON_STRING:
		if (v) {
			v->type = JR_STR;
			v->str = json_string_value(j);
			v->len = json_string_length(j);
		}
		break;
	case JSON_INTEGER:
	case JSON_REAL: {
		double x = json_number_value(j);

		/* nothing eel writes comes near this; beyond it, the plots' arithmetic
		 * (a range, a label's place) could overflow to inf, which gnuplot takes
		 * for an undefined variable */
		if (fabs(x) > JR_NUM_MAX)
			return walk_fail(w, "out of range at %s: the number %g is beyond 1e+30, more than eel ever writes", x);
		if (v) {
			v->type = JR_NUM;
			v->num = x;
		}
		break;
	}
	case JSON_TRUE:
	case JSON_FALSE:
		if (v) {
			v->type = JR_BOOL;
			v->num = json_is_true(j);
		}
		break;
	case JSON_NULL:
		if (v)
			v->type = JR_NULL;
		break;
	}
	w->path[plen] = 0;
	return 0;
}

struct jr_doc *jr_parse(const char *buf, size_t len, const struct jr_limits *lim, char *err, size_t errlen)
{
	static char dummy[1];
	struct walk w = { .err = err && errlen ? err : dummy, .errlen = err && errlen ? errlen : sizeof(dummy) };
	size_t lead;
	json_error_t e;
	struct jr_doc *d;

	w.lim.max_bytes = lim && lim->max_bytes ? lim->max_bytes : DEF_MAX_BYTES;
	w.lim.max_nodes = lim && lim->max_nodes ? lim->max_nodes : DEF_MAX_NODES;
	w.lim.max_depth = lim && lim->max_depth > 0 ? lim->max_depth : DEF_MAX_DEPTH;
	w.err[0] = 0;
	if (!buf)
		buf = "", len = 0;
	if (len > w.lim.max_bytes) {
		snprintf(w.err, w.errlen, "too large: %zu bytes, more than the limit of %zu bytes for one document", len,
			 w.lim.max_bytes);
		return NULL;
	}
	for (lead = 0; lead < len && strchr(" \t\r\n", buf[lead]) && buf[lead]; lead++)
		;
	if (lead == len) {
		char at[96];

		where(buf, len, len, at, sizeof(at));
		snprintf(w.err, w.errlen, "truncated at %s: the document is empty", at);
		return NULL;
	}
	if (!strchr("{[\"-0123456789tfn", buf[lead]) || !buf[lead]) {
		char at[96];
		unsigned char c = (unsigned char)buf[lead];

		/* no JSON value begins so (RFC 8259 section 2): a binary or another
		 * text file, not a document cut short */
		where(buf, len, lead, at, sizeof(at));
		if (len - lead >= 3 && !memcmp(buf + lead, "\xef\xbb\xbf", 3))
			snprintf(w.err, w.errlen, "not JSON: it begins with a byte order mark at %s (RFC 8259 section 8.1: "
				 "JSON text has none)", at);
		else if (c > 0x20 && c < 0x7f)
			snprintf(w.err, w.errlen, "not JSON: it begins with '%c' at %s", c, at);
		else
			snprintf(w.err, w.errlen, "not JSON: it begins with byte 0x%02x at %s (a binary file?)", c, at);
		return NULL;
	}
	d = calloc(1, sizeof(*d));
	if (!d) {
		snprintf(w.err, w.errlen, "out of memory");
		return NULL;
	}
	/* any value at the top (RFC 8259), every number a double (as jr_num gives
	 * them), \u0000 kept (jr_val.len), a repeated key refused */
	d->json = json_loadb(buf, len, JSON_DECODE_ANY | JSON_DECODE_INT_AS_REAL | JSON_ALLOW_NUL | JSON_REJECT_DUPLICATES,
			     &e);
	if (!d->json) {
		parse_error(buf, len, &e, w.err, w.errlen);
		jr_free(d);
		return NULL;
	}
	if (walk(&w, d->json, 0, NULL))
		goto fail;
	d->nodes = calloc(w.nodes, sizeof(*d->nodes));
	d->kids = calloc(w.kids ? w.kids : 1, sizeof(*d->kids));
	if (!d->nodes || !d->kids) {
		snprintf(w.err, w.errlen, "out of memory: the document needs more memory than this machine gave");
		goto fail;
	}
	w.d = d;
	w.nodes = w.kids = 0;
	if (walk(&w, d->json, 0, &d->root))
		goto fail;
	return d;
fail:
	jr_free(d);
	return NULL;
}

/* The file through eel_input_open (include/eel/eel.h): a regular file, not
 * empty, not over the limit, opened without blocking on a FIFO. */
struct jr_doc *jr_parse_file(const char *path, const struct jr_limits *lim, char *err, size_t errlen)
{
	size_t max = lim && lim->max_bytes ? lim->max_bytes : DEF_MAX_BYTES, len;
	char *buf, e[256];
	struct jr_doc *d;
	FILE *f;

	if (eel_input_open(path, max, &f)) {
		snprintf(err, errlen, "%s", eel_errmsg());
		return NULL;
	}
	buf = malloc(max + 1);
	if (!buf) {
		fclose(f);
		snprintf(err, errlen, "%s: out of memory", path);
		return NULL;
	}
	len = fread(buf, 1, max + 1, f);   /* max + 1: a file that grew past the limit */
	d = NULL;
	if (ferror(f))
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
	else if (len > max)
		snprintf(err, errlen, "%s: too large: more than the limit of %zu bytes for one document", path, max);
	else if (!(d = jr_parse(buf, len, lim, e, sizeof(e))))
		snprintf(err, errlen, "%s: %s", path, e);
	fclose(f);
	free(buf);
	return d;
}

const struct jr_val *jr_root(const struct jr_doc *d)
{
	return d ? d->root : NULL;
}

/* ---- lookups ---- */

static const struct jr_val *key_n(const struct jr_val *obj, const char *key, size_t klen)
{
	if (!obj || obj->type != JR_OBJ)
		return NULL;
	for (size_t k = 0; k < obj->len; k++) {
		const char *mk = obj->kids[k]->key;

		if (!strncmp(mk, key, klen) && mk[klen] == 0)
			return obj->kids[k];
	}
	return NULL;
}

const struct jr_val *jr_key(const struct jr_val *obj, const char *key)
{
	return key ? key_n(obj, key, strlen(key)) : NULL;
}

const struct jr_val *jr_at(const struct jr_val *arr, size_t i)
{
	if (!arr || arr->type != JR_ARR || i >= arr->len)
		return NULL;
	return arr->kids[i];
}

const struct jr_val *jr_get(const struct jr_val *v, const char *path)
{
	const char *s = path ? path : "";
	int first = 1;

	while (v && *s) {
		if (*s == '[') {
			size_t idx = 0;
			const char *d = ++s;

			while (*s >= '0' && *s <= '9') {
				if (idx > (SIZE_MAX - 9) / 10)
					return NULL;
				idx = idx * 10 + (size_t)(*s++ - '0');
			}
			if (s == d || *s != ']')
				return NULL;
			s++;
			v = jr_at(v, idx);
		} else {
			size_t l;

			if (*s == '.') {
				if (first)
					return NULL;
				s++;
			}
			l = strcspn(s, ".[");
			if (!l)
				return NULL;
			v = key_n(v, s, l);
			s += l;
		}
		first = 0;
	}
	return v;
}

int jr_num(const struct jr_val *v, const char *path, double *out)
{
	const struct jr_val *x = jr_get(v, path);

	if (!x || x->type != JR_NUM)
		return 0;
	if (out)
		*out = x->num;
	return 1;
}

int jr_bool(const struct jr_val *v, const char *path, int *out)
{
	const struct jr_val *x = jr_get(v, path);

	if (!x || x->type != JR_BOOL)
		return 0;
	if (out)
		*out = x->num != 0;
	return 1;
}

const char *jr_str(const struct jr_val *v, const char *path)
{
	const struct jr_val *x = jr_get(v, path);

	return x && x->type == JR_STR ? x->str : NULL;
}

size_t jr_len(const struct jr_val *v, const char *path)
{
	const struct jr_val *x = jr_get(v, path);

	return x && (x->type == JR_ARR || x->type == JR_OBJ) ? x->len : 0;
}

const char *jr_type_name(enum jr_type t)
{
	switch (t) {
	case JR_NULL: return "null";
	case JR_BOOL: return "a boolean";
	case JR_NUM: return "a number";
	case JR_STR: return "a string";
	case JR_ARR: return "an array";
	case JR_OBJ: return "an object";
	}
	return "?";
}
