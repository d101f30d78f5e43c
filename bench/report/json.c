/* SPDX-License-Identifier: MIT */
/* bench/report/json.c — the JSON writer (bench/report/json.h) over jansson. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

#define MAX_DEPTH ((int)(sizeof(((struct json *)0)->open) / sizeof(((struct json *)0)->open[0])))

/* s as valid UTF-8 (RFC 3629), in a new buffer the caller frees. jansson
 * refuses strings that are not (json_string returns NULL), and a file name
 * given on the command line may be in another encoding: each byte that does
 * not begin a sequence jansson takes is written as the character U+00XX of
 * its value (two bytes). The test of each sequence is jansson's own. */
static char *utf8_text(const char *s)
{
	size_t n = strlen(s), o = 0;
	char *out = malloc(2 * n + 1);

	if (!out)
		return NULL;
	for (size_t i = 0; i < n;) {
		unsigned char b = (unsigned char)s[i];
		size_t len = b < 0x80 ? 1 : 0;

		for (size_t k = 2; !len && k <= 4 && i + k <= n; k++) {
			json_t *t = json_stringn(s + i, k);

			if (t)
				len = k;
			json_decref(t);
		}
		if (len) {
			memcpy(out + o, s + i, len);
			o += len;
			i += len;
		} else {
			out[o++] = (char)(0xC0 | b >> 6);
			out[o++] = (char)(0x80 | (b & 0x3F));
			i++;
		}
	}
	out[o] = 0;
	return out;
}

/* Adds v (a new reference, taken) to the open container under key. */
static json_t *add(struct json *j, const char *key, json_t *v)
{
	json_t *parent = j->depth > 0 ? j->open[j->depth - 1] : NULL;
	int rc = -1;

	if (!v || !parent) {
		json_decref(v);
		j->failed = 1;
		return NULL;
	}
	if (json_is_array(parent)) {
		rc = json_array_append_new(parent, v);
	} else if (key) {
		char *k = utf8_text(key);

		rc = k ? json_object_set_new(parent, k, v) : (json_decref(v), -1);
		free(k);
	} else {
		json_decref(v);   /* an object's member needs a key */
	}
	if (rc) {
		j->failed = 1;
		return NULL;
	}
	return v;
}

static void open_(struct json *j, const char *key, json_t *c)
{
	c = add(j, key, c);
	if (!c)
		return;
	if (j->depth == MAX_DEPTH) {
		j->failed = 1;
		return;
	}
	j->open[j->depth++] = c;   /* borrowed: the parent holds it */
}

static void close_(struct json *j)
{
	if (j->depth > 1)
		j->depth--;
	else
		j->failed = 1;
}

void json_begin(struct json *j, FILE *f)
{
	j->f = f;
	j->failed = 0;
	j->open[0] = json_object();
	j->depth = 1;
	if (!j->open[0])
		j->failed = 1;
}

int json_end(struct json *j)
{
	json_t *doc = j->open[0];
	int rc = -1;

	/* A write that fails (a full disk, a FIFO whose reader left) is not a
	 * document that could not be built: it is left in ferror(f), for the
	 * caller to say with errno's words, and 0 returned. */
	if (!j->failed && j->depth == 1 && doc) {
		int bad = json_dumpf(doc, j->f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));

		if (!bad)
			fputc('\n', j->f);
		rc = bad && !ferror(j->f) ? -1 : 0;
	}
	json_decref(doc);
	j->open[0] = NULL;
	j->depth = 0;
	return rc;
}

void json_obj(struct json *j, const char *key) { open_(j, key, json_object()); }
void json_obj_end(struct json *j) { close_(j); }
void json_arr(struct json *j, const char *key) { open_(j, key, json_array()); }
void json_arr_end(struct json *j) { close_(j); }

/* Ten significant digits, as "%.10g": a whole number is written as one
 * (jansson would write a real 8 as "8.0"), anything else as a real that
 * jansson prints at the same precision. */
void json_num(struct json *j, const char *key, double v)
{
	char t[32];

	if (!isfinite(v)) {
		add(j, key, json_null());
		return;
	}
	snprintf(t, sizeof(t), "%.10g", v);
	if (strspn(t, "-0123456789") == strlen(t))
		add(j, key, json_integer(strtoll(t, NULL, 10)));
	else
		add(j, key, json_real(strtod(t, NULL)));
}

void json_none(struct json *j, const char *key)
{
	add(j, key, json_null());
}

void json_u64(struct json *j, const char *key, uint64_t v)
{
	add(j, key, v <= INT64_MAX ? json_integer((json_int_t)v) : json_real((double)v));
}

void json_str(struct json *j, const char *key, const char *v)
{
	char *t = utf8_text(v ? v : "");

	add(j, key, t ? json_string(t) : NULL);
	free(t);
}

void json_bool(struct json *j, const char *key, int v)
{
	add(j, key, json_boolean(v));
}
