/* SPDX-License-Identifier: MIT */
/* tests/unit/test_json.c — the JSON writer (bench/report/json.c, over jansson): what
 * it writes is JSON (RFC 8259, checked by the strict little reader below, not
 * jansson's), strings are escaped and come back as given, text that is not
 * UTF-8 comes back byte for byte as U+0080..U+00FF, non-finite numbers are
 * null, nesting and empty containers are right, calls out of place write
 * nothing. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "bench/report/json.h"

/* ---- a strict reader: validates, and records every leaf as path = value ---- */

enum { J_NULL, J_BOOL, J_NUM, J_STR };

struct leaf {
	char path[96];
	char val[160];   /* strings decoded (UTF-8), numbers and literals as written */
	int type;
};

struct reader {
	const char *s;
	size_t i, n;
	struct leaf leaf[128];
	int nleaf;
	const char *err;
};

static void ws(struct reader *r)
{
	while (r->i < r->n && strchr(" \t\r\n", r->s[r->i]))
		r->i++;
}

static int fail(struct reader *r, const char *why)
{
	if (!r->err)
		r->err = why;
	return -1;
}

static int put_utf8(char *out, size_t *o, size_t cap, unsigned cp)
{
	char b[4];
	size_t k = 0;

	if (cp < 0x80) {
		b[k++] = (char)cp;
	} else if (cp < 0x800) {
		b[k++] = (char)(0xC0 | cp >> 6);
		b[k++] = (char)(0x80 | (cp & 0x3F));
	} else {
		b[k++] = (char)(0xE0 | cp >> 12);
		b[k++] = (char)(0x80 | ((cp >> 6) & 0x3F));
		b[k++] = (char)(0x80 | (cp & 0x3F));
	}
	if (*o + k >= cap)
		return -1;
	memcpy(out + *o, b, k);
	*o += k;
	return 0;
}

static int string(struct reader *r, char *out, size_t cap)
{
	size_t o = 0;

	if (r->i >= r->n || r->s[r->i] != '"')
		return fail(r, "string expected");
	r->i++;
	while (r->i < r->n && r->s[r->i] != '"') {
		unsigned char c = (unsigned char)r->s[r->i++];

		if (c < 0x20)
			return fail(r, "raw control character in a string");
		if (c == '\\') {
			char e = r->i < r->n ? r->s[r->i++] : 0;
			const char *map = strchr("\"\"\\\\//b\bf\fn\nr\rt\t", e);
			unsigned cp = 0;

			if (e == 'u') {
				for (int k = 0; k < 4; k++) {
					char h = r->i < r->n ? r->s[r->i++] : 0;

					if (!strchr("0123456789abcdefABCDEF", h) || !h)
						return fail(r, "bad \\u escape");
					cp = cp * 16 + (unsigned)(h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10);
				}
			} else if (e && map && (map - "\"\"\\\\//b\bf\fn\nr\rt\t") % 2 == 0) {
				cp = (unsigned char)map[1];
			} else {
				return fail(r, "bad escape");
			}
			if (put_utf8(out, &o, cap, cp))
				return fail(r, "string too long for the test");
			continue;
		}
		if (o + 1 >= cap)
			return fail(r, "string too long for the test");
		out[o++] = (char)c;
	}
	if (r->i >= r->n)
		return fail(r, "unterminated string");
	r->i++;
	out[o] = 0;
	return 0;
}

static int digits(struct reader *r)
{
	size_t i0 = r->i;

	while (r->i < r->n && r->s[r->i] >= '0' && r->s[r->i] <= '9')
		r->i++;
	return r->i > i0 ? 0 : -1;
}

static int number(struct reader *r)
{
	if (r->i < r->n && r->s[r->i] == '-')
		r->i++;
	if (r->i < r->n && r->s[r->i] == '0')
		r->i++;
	else if (digits(r))
		return fail(r, "bad number");
	if (r->i < r->n && r->s[r->i] == '.') {
		r->i++;
		if (digits(r))
			return fail(r, "bad fraction");
	}
	if (r->i < r->n && (r->s[r->i] == 'e' || r->s[r->i] == 'E')) {
		r->i++;
		if (r->i < r->n && (r->s[r->i] == '+' || r->s[r->i] == '-'))
			r->i++;
		if (digits(r))
			return fail(r, "bad exponent");
	}
	return 0;
}

static int value(struct reader *r, const char *path);

static int add_leaf(struct reader *r, const char *path, int type, const char *v, size_t len)
{
	struct leaf *l;

	if (r->nleaf == (int)(sizeof(r->leaf) / sizeof(r->leaf[0])) || len >= sizeof(l->val))
		return fail(r, "too many leaves for the test");
	l = &r->leaf[r->nleaf++];
	snprintf(l->path, sizeof(l->path), "%s", path);
	memcpy(l->val, v, len);
	l->val[len] = 0;
	l->type = type;
	return 0;
}

static int container(struct reader *r, const char *path, char close)
{
	int k = 0;

	r->i++;
	ws(r);
	if (r->i < r->n && r->s[r->i] == close) {
		r->i++;
		return add_leaf(r, path, J_NULL, close == '}' ? "{}" : "[]", 2);
	}
	for (;;) {
		char sub[96], key[64];

		ws(r);
		if (close == '}') {
			if (string(r, key, sizeof(key)))
				return -1;
			ws(r);
			if (r->i >= r->n || r->s[r->i++] != ':')
				return fail(r, "':' expected");
			snprintf(sub, sizeof(sub), "%s/%s", path, key);
		} else {
			snprintf(sub, sizeof(sub), "%s/%d", path, k);
		}
		k++;
		if (value(r, sub))
			return -1;
		ws(r);
		if (r->i < r->n && r->s[r->i] == ',') {
			r->i++;
			continue;
		}
		if (r->i < r->n && r->s[r->i] == close) {
			r->i++;
			return 0;
		}
		return fail(r, "',' or a close expected");
	}
}

static int value(struct reader *r, const char *path)
{
	size_t i0;
	char buf[160];

	ws(r);
	if (r->i >= r->n)
		return fail(r, "value expected");
	i0 = r->i;
	switch (r->s[r->i]) {
	case '{':
		return container(r, path, '}');
	case '[':
		return container(r, path, ']');
	case '"':
		if (string(r, buf, sizeof(buf)))
			return -1;
		return add_leaf(r, path, J_STR, buf, strlen(buf));
	case 't':
	case 'f':
	case 'n': {
		static const char *const lit[] = { "true", "false", "null" };

		for (int k = 0; k < 3; k++)
			if (r->n - r->i >= strlen(lit[k]) && !strncmp(r->s + r->i, lit[k], strlen(lit[k]))) {
				r->i += strlen(lit[k]);
				return add_leaf(r, path, k == 2 ? J_NULL : J_BOOL, lit[k], strlen(lit[k]));
			}
		return fail(r, "bad literal");
	}
	default:
		if (number(r))
			return -1;
		return add_leaf(r, path, J_NUM, r->s + i0, r->i - i0);
	}
}

static int parse(struct reader *r, const char *s, size_t n)
{
	memset(r, 0, sizeof(*r));
	r->s = s;
	r->n = n;
	if (value(r, ""))
		return -1;
	ws(r);
	return r->i == n ? 0 : fail(r, "text after the value");
}

static const struct leaf *get(const struct reader *r, const char *path)
{
	for (int i = 0; i < r->nleaf; i++)
		if (!strcmp(r->leaf[i].path, path))
			return &r->leaf[i];
	return NULL;
}

/* ---- the tests ---- */

static void check_str(const struct reader *r, const char *path, const char *want)
{
	const struct leaf *l = get(r, path);

	CHECK(l && l->type == J_STR && !strcmp(l->val, want), "%s: '%s', want '%s'", path, l ? l->val : "(missing)",
	      want);
}

static void check_num(const struct reader *r, const char *path, double want, double rel)
{
	const struct leaf *l = get(r, path);
	double v = l ? strtod(l->val, NULL) : 0;

	CHECK(l && l->type == J_NUM && (v == want || (v - want) * (v - want) <= rel * rel * want * want),
	      "%s: %s, want %.17g", path, l ? l->val : "(missing)", want);
}

static void check_lit(const struct reader *r, const char *path, int type, const char *want)
{
	const struct leaf *l = get(r, path);

	CHECK(l && l->type == type && !strcmp(l->val, want), "%s: %s, want %s", path, l ? l->val : "(missing)", want);
}

static void test_document(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct json j;
	struct reader *r = malloc(sizeof(*r));
	double zero = 0;

	if (!f || !r)
		abort();
	json_begin(&j, f);
	json_str(&j, "plain", "eel");
	json_str(&j, "quote\"key", "say \"hi\"");
	json_str(&j, "escapes", "back\\slash / tab\t nl\n cr\r bell\a \x01 \x1f end");
	json_str(&j, "utf8", "caf\xc3\xa9 \xe2\x82\xac");
	json_str(&j, "not_utf8", "r\xff\xfe.json \xc3( \xed\xa0\x80 \xe2\x82");
	json_str(&j, "key \xff", "a key that is not UTF-8");
	json_str(&j, "empty", "");
	json_str(&j, "null_string", NULL);
	json_num(&j, "half", 1.5);
	json_num(&j, "neg", -2);
	json_num(&j, "zero", 0);
	json_num(&j, "big", 1e300);
	json_num(&j, "tiny", 1.25e-300);
	json_num(&j, "nan", zero / zero);
	json_num(&j, "inf", 1 / zero);
	json_num(&j, "minf", -1 / zero);
	json_num(&j, "pi", 3.14159265358979);
	json_u64(&j, "u64max", UINT64_MAX);
	json_u64(&j, "i64max", INT64_MAX);
	json_bool(&j, "yes", 1);
	json_bool(&j, "no", 0);
	json_arr(&j, "empty_arr");
	json_arr_end(&j);
	json_obj(&j, "empty_obj");
	json_obj_end(&j);
	json_arr(&j, "list");
	for (int i = 0; i < 3; i++)
		json_num(&j, NULL, i * 10);
	json_obj(&j, NULL);
	json_str(&j, "in", "an object in an array");
	json_arr(&j, "deeper");
	json_bool(&j, NULL, 1);
	json_arr_end(&j);
	json_obj_end(&j);
	json_arr_end(&j);
	CHECK(json_end(&j) == 0, "json_end failed");
	fclose(f);

	CHECK(parse(r, text, len) == 0, "not JSON (%s at byte %zu):\n%s", r->err, r->i, text);
	check_str(r, "/plain", "eel");
	check_str(r, "/quote\"key", "say \"hi\"");
	check_str(r, "/escapes", "back\\slash / tab\t nl\n cr\r bell\a \x01 \x1f end");
	check_str(r, "/utf8", "caf\xc3\xa9 \xe2\x82\xac");
	/* each byte of an ill-formed sequence (a lone 0xff, a lead byte with no
	 * continuation, a UTF-16 surrogate, a cut sequence) as U+00XX */
	check_str(r, "/not_utf8", "r\xc3\xbf\xc3\xbe.json \xc3\x83( \xc3\xad\xc2\xa0\xc2\x80 \xc3\xa2\xc2\x82");
	check_str(r, "/key \xc3\xbf", "a key that is not UTF-8");
	check_str(r, "/empty", "");
	check_str(r, "/null_string", "");
	check_num(r, "/half", 1.5, 0);
	check_num(r, "/neg", -2, 0);
	check_num(r, "/zero", 0, 0);
	check_num(r, "/big", 1e300, 1e-6);
	check_num(r, "/tiny", 1.25e-300, 1e-6);
	check_lit(r, "/nan", J_NULL, "null");
	check_lit(r, "/inf", J_NULL, "null");
	check_lit(r, "/minf", J_NULL, "null");
	check_num(r, "/pi", 3.14159265358979, 1e-6); /* %.10g: ten significant digits */
	check_num(r, "/u64max", 18446744073709551615.0, 1e-9); /* above INT64_MAX: a real, 10 digits */
	check_lit(r, "/i64max", J_NUM, "9223372036854775807");
	check_lit(r, "/half", J_NUM, "1.5");
	check_lit(r, "/neg", J_NUM, "-2");   /* a whole number is written as one, not -2.0 */
	check_lit(r, "/yes", J_BOOL, "true");
	check_lit(r, "/no", J_BOOL, "false");
	check_lit(r, "/empty_arr", J_NULL, "[]");
	check_lit(r, "/empty_obj", J_NULL, "{}");
	check_num(r, "/list/0", 0, 0);
	check_num(r, "/list/2", 20, 0);
	check_str(r, "/list/3/in", "an object in an array");
	check_lit(r, "/list/3/deeper/0", J_BOOL, "true");
	CHECK(!get(r, "/list/4"), "an extra array element");
	CHECK(len && text[len - 1] == '\n', "the document ends with a newline");
	free(text);
	free(r);
}

/* The reader itself refuses what is not JSON, or the test above proves nothing. */
static void test_reader(void)
{
	static const char *const bad[] = {
		"", "{", "{\"a\":1,}", "{\"a\" 1}", "[1 2]", "{\"a\":nan}", "{\"a\":inf}", "{\"a\":01}",
		"{\"a\":1.}", "{\"a\":\"x\ty\"}", "{\"a\":\"\\x\"}", "{\"a\":\"\\u12\"}", "{} {}", "{\"a\":tru}",
		"{a:1}", "[1,]", "{\"a\":-}", "{\"a\":1e}",
	};
	static const char *const good[] = { "{}", "[]", "{\"a\":[1,-0.5e+3,{\"b\":null}],\"c\":\"\\u00e9\\n\"}", " 1 " };
	struct reader *r = malloc(sizeof(*r));

	if (!r)
		abort();
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(parse(r, bad[i], strlen(bad[i])) != 0, "the reader took '%s'", bad[i]);
	for (unsigned i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		CHECK(parse(r, good[i], strlen(good[i])) == 0, "the reader refused '%s': %s", good[i], r->err);
	CHECK(parse(r, good[2], strlen(good[2])) == 0 && get(r, "/c") && !strcmp(get(r, "/c")->val, "\xc3\xa9\n"),
	      "\\u00e9 decoded");
	free(r);
}

/* Calls out of place (a container closed twice, a member with no key in an
 * object, one left open) make json_end fail and write nothing. */
static void test_misuse(void)
{
	for (int k = 0; k < 3; k++) {
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);
		struct json j;

		if (!f)
			abort();
		json_begin(&j, f);
		json_num(&j, "a", 1);
		if (k == 0) {
			json_obj(&j, "o");
			json_obj_end(&j);
			json_obj_end(&j);
		} else if (k == 1) {
			json_num(&j, NULL, 2);
		} else {
			json_arr(&j, "open");
		}
		CHECK(json_end(&j) == -1, "case %d: json_end did not fail", k);
		fclose(f);
		CHECK(len == 0, "case %d: %zu bytes written: %s", k, len, text);
		free(text);
	}
}

int main(void)
{
	test_reader();
	test_document();
	test_misuse();
	CHECK_DONE();
}
