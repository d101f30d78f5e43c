/* SPDX-License-Identifier: MIT */
/* tests/unit/test_json_read.c — the tools' JSON reader (tools/json_read.c):
 * values and lookups on known documents; strings decoded (escapes, UTF-16
 * pairs, NUL); numbers by the RFC 8259 grammar; every malformed shape refused
 * with where jansson found it; a repeated key refused; every cut-short prefix
 * of a document called truncated at its end; depth, size, node and magnitude
 * limits; files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "tools/json_read.h"

static struct jr_doc *parse(const char *s, char *err, size_t len)
{
	return jr_parse(s, strlen(s), NULL, err, len);
}

/* The error for s, "" when it parsed. */
static const char *error_of(const char *s, size_t n, const struct jr_limits *lim)
{
	static char err[256];
	struct jr_doc *d = jr_parse(s, n, lim, err, sizeof(err));

	if (d) {
		jr_free(d);
		return "";
	}
	return err;
}

static void values(void)
{
	char err[256] = "";
	const char *doc = "{\"schema\": \"eel.run\", \"schema_version\": 2,\n"
			  " \"parameters\": {\"eel\": {\"ns\": {\"min\": 404.75, \"median\": 409.9, \"n\": 10}}},\n"
			  " \"curves\": {\"flood\": [{\"size\": 8, \"q\": 1}, {\"size\": 16, \"q\": 64}]},\n"
			  " \"flags\": [true, false, null], \"empty\": {}, \"none\": [], \"neg\": -0.5e-3,\n"
			  " \"a.b\": 7, \"nan\": null}";
	struct jr_doc *d = parse(doc, err, sizeof(err));
	const struct jr_val *r = jr_root(d), *v;
	double x = 0;
	int b = -1;

	REQUIRE(d, "parse failed: %s", err);
	CHECK(r->type == JR_OBJ && r->len == 10, "root type %d with %zu members", r->type, r->len);
	CHECK(!strcmp(jr_str(r, "schema"), "eel.run"), "schema");
	CHECK(jr_num(r, "schema_version", &x) && x == 2, "schema_version %g", x);
	CHECK(jr_num(r, "parameters.eel.ns.min", &x) && x == 404.75, "eel min %g", x);
	CHECK(jr_num(r, "parameters.eel.ns.median", &x) && x == 409.9, "eel median %g", x);
	CHECK(jr_len(r, "curves.flood") == 2, "flood points");
	CHECK(jr_num(r, "curves.flood[1].q", &x) && x == 64, "flood[1].q %g", x);
	CHECK(jr_num(jr_get(r, "curves.flood"), "[0].size", &x) && x == 8, "[0].size from the array");
	CHECK(jr_bool(r, "flags[0]", &b) && b == 1, "flags[0]");
	CHECK(jr_bool(r, "flags[1]", &b) && b == 0, "flags[1]");
	v = jr_get(r, "flags[2]");
	CHECK(v && v->type == JR_NULL, "flags[2] is null");
	CHECK(!jr_num(r, "nan", &x), "null is not a number");
	CHECK(!jr_get(r, "flags[3]"), "index past the end");
	CHECK(jr_get(r, "empty") && jr_len(r, "empty") == 0 && jr_get(r, "empty")->type == JR_OBJ, "empty object");
	CHECK(jr_get(r, "none") && jr_len(r, "none") == 0 && jr_get(r, "none")->type == JR_ARR, "empty array");
	CHECK(jr_num(r, "neg", &x) && x == -0.5e-3, "neg %g", x);
	CHECK(!jr_get(r, "a.b"), "a path splits at '.'");
	CHECK(jr_key(r, "a.b") && jr_key(r, "a.b")->num == 7, "jr_key reaches a key with a '.'");
	CHECK(r->kids[0]->key && !strcmp(r->kids[0]->key, "schema") && !strcmp(r->kids[9]->key, "nan"),
	      "members in document order");
	/* wrong types and malformed paths */
	CHECK(!jr_num(r, "schema", &x), "a string is not a number");
	CHECK(!jr_str(r, "schema_version"), "a number is not a string");
	CHECK(!jr_get(r, "schema.x"), "a key into a string");
	CHECK(!jr_get(r, "flags.x"), "a key into an array");
	CHECK(!jr_get(r, "parameters[0]"), "an index into an object");
	CHECK(!jr_get(r, ".schema"), "a leading '.'");
	CHECK(!jr_get(r, "parameters..eel"), "an empty key");
	CHECK(!jr_get(r, "curves.flood[x]"), "a non-numeric index");
	CHECK(!jr_get(r, "curves.flood[1"), "an unclosed index");
	CHECK(!jr_get(r, "curves.flood[]"), "an empty index");
	CHECK(!jr_get(r, "curves.flood[99999999999999999999999]"), "an index that overflows");
	CHECK(jr_get(r, "") == r && jr_get(r, NULL) == r, "the empty path is the value itself");
	CHECK(!jr_get(NULL, "schema") && !jr_num(NULL, "x", &x) && !jr_str(NULL, "x") && !jr_len(NULL, "x"),
	      "NULL in, NULL out");
	jr_free(d);
}

static void strings(void)
{
	char err[256] = "";
	struct jr_doc *d =
		parse("[\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\", \"\\u00e9\\u20AC\", \"\\uD83D\\uDE00\", \"x\\u0000y\", "
		      "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\", \"\"]",
		      err, sizeof(err));
	const struct jr_val *r = jr_root(d);

	REQUIRE(d, "parse failed: %s", err);
	CHECK(!strcmp(jr_str(r, "[0]"), "a\"b\\c/d\b\f\n\r\t"), "simple escapes: %s", jr_str(r, "[0]"));
	CHECK(!strcmp(jr_str(r, "[1]"), "\xc3\xa9\xe2\x82\xac"), "\\u to UTF-8");
	CHECK(!strcmp(jr_str(r, "[2]"), "\xf0\x9f\x98\x80"), "a UTF-16 pair to one 4-byte UTF-8 character");
	CHECK(jr_get(r, "[3]")->len == 3 && !memcmp(jr_get(r, "[3]")->str, "x\0y", 3), "\\u0000 kept, len 3");
	CHECK(!strcmp(jr_str(r, "[4]"), "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"), "raw UTF-8 kept");
	CHECK(jr_str(r, "[5]") && jr_get(r, "[5]")->len == 0, "empty string");
	jr_free(d);
}

static void numbers(void)
{
	static const struct { const char *s; double v; } ok[] = {
		{ "0", 0 }, { "-0", -0.0 }, { "7", 7 }, { "-12", -12 }, { "1.5", 1.5 }, { "1e3", 1000 },
		{ "1E+3", 1000 }, { "2.5e-3", 0.0025 }, { "123456789012345678", 123456789012345678.0 },
		{ "0.000000000000000000000000000000000000000000000000000000000000000000000000000001", 1e-78 },
		{ "1e-400", 0 },
	};
	static const char *bad[] = { "01", "-", "+1", ".5", "1.", "1.e3", "1e", "1e+", "-a", "0x10", "1e400",
				     "-1e999", "Infinity", "NaN", "1.5.2" };

	for (size_t k = 0; k < sizeof(ok) / sizeof(ok[0]); k++) {
		char err[256] = "";
		struct jr_doc *d = parse(ok[k].s, err, sizeof(err));
		double x = -99;

		CHECK(d && jr_num(jr_root(d), "", &x) && x == ok[k].v, "%s -> %.17g (%s)", ok[k].s, x, err);
		jr_free(d);
	}
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		const char *e = error_of(bad[k], strlen(bad[k]), NULL);

		CHECK(*e, "%s was accepted", bad[k]);
	}
	/* cut short in a number: truncated; a wrong byte: malformed */
	CHECK(!strncmp(error_of("-", 1, NULL), "truncated at byte 1", 19), "%s", error_of("-", 1, NULL));
	CHECK(!strncmp(error_of("[1e", 3, NULL), "truncated at byte 3", 19), "%s", error_of("[1e", 3, NULL));
	CHECK(!strncmp(error_of("01", 2, NULL), "malformed at byte 1", 19), "%s", error_of("01", 2, NULL));
	CHECK(strstr(error_of("[1e400]", 7, NULL), "real number overflow") != NULL, "%s",
	      error_of("[1e400]", 7, NULL));
	CHECK(!*error_of("[1e30, -1e30]", 13, NULL), "1e30 is allowed: %s", error_of("[1e30, -1e30]", 13, NULL));
	CHECK(strstr(error_of("[1.0000001e30]", 14, NULL), "more than eel ever writes") != NULL, "%s",
	      error_of("[1.0000001e30]", 14, NULL));
}

/* Each malformed document: the error's first words, to the byte. The byte is
 * jansson's position (just past the token it could not take); "truncated"
 * when the input ended where more was due. */
static void malformed(void)
{
	static const struct { const char *doc; size_t len; const char *want; } c[] = {
		{ "", 0, "truncated at byte 0 (line 1, column 1): the document is empty" },
		{ "  \n ", 4, "truncated at byte 4 (line 2, column 2): the document is empty" },
		{ "{\"a\":1", 6, "truncated at byte 6 (line 1, column 7): the document ends too soon ('}' expected" },
		{ "[1,2", 4, "truncated at byte 4 (line 1, column 5): the document ends too soon (']' expected" },
		{ "[\"abc", 5, "truncated at byte 5 (line 1, column 6): the document ends too soon (premature end" },
		{ "[\"ab\\", 5, "truncated at byte 5 (line 1, column 6): the document ends too soon (invalid escape" },
		{ "{\"a\":tr", 7, "truncated at byte 7 (line 1, column 8): the document ends too soon (invalid token near 'tr')" },
		{ "{\"a\":", 5, "truncated at byte 5 (line 1, column 6): the document ends too soon" },
		{ "{\"a\" 1}", 7, "malformed at byte 6 (line 1, column 7): ':' expected near '1'" },
		{ "{a:1}", 5, "malformed at byte 2 (line 1, column 3): string or '}' expected near 'a'" },
		{ "[1,]", 4, "malformed at byte 4 (line 1, column 5): unexpected token near ']'" },
		{ "{\"a\":1,}", 8, "malformed at byte 8 (line 1, column 9): string or '}' expected near '}'" },
		{ "[1 2]", 5, "malformed at byte 4 (line 1, column 5): ']' expected near '2'" },
		{ "{\"a\":1 \"b\":2}", 13, "malformed at byte 10 (line 1, column 11): '}' expected" },
		{ "[1]\n x", 6, "malformed at byte 6 (line 2, column 3): end of file expected near 'x'" },
		{ "[1]]", 4, "malformed at byte 4 (line 1, column 5): end of file expected near ']'" },
		{ "[tru]", 5, "malformed at byte 4 (line 1, column 5): invalid token near 'tru'" },
		{ "[nulL]", 6, "malformed at byte 5 (line 1, column 6): invalid token near 'nulL'" },
		{ "[\"a\tb\"]", 7, "malformed at byte 3 (line 1, column 4): control character 0x9" },
		{ "[\"\\x\"]", 6, "malformed at byte 4 (line 1, column 5): invalid escape" },
		{ "[\"\\u12G4\"]", 10, "malformed at byte 7 (line 1, column 8): invalid escape" },
		{ "[\"\\u12\"]", 8, "malformed at byte 7 (line 1, column 8): invalid escape" },
		{ "[\"\\uD800\"]", 10, "malformed at byte 9 (line 1, column 10): invalid Unicode '\\uD800'" },
		{ "[\"\\uD800\\u0041\"]", 16, "malformed at byte 15 (line 1, column 16): invalid Unicode '\\uD800\\u0041'" },
		{ "[\"\\uDC00\"]", 10, "malformed at byte 9 (line 1, column 10): invalid Unicode '\\uDC00'" },
		{ "[\"\xc0\x80\"]", 6, "malformed at byte 2 (line 1, column 3): unable to decode byte 0xc0" },
		{ "[\"\xed\xa0\x80\"]", 7, "malformed at byte 2 (line 1, column 3): unable to decode byte 0xed" },
		{ "[\"\xf4\x90\x80\x80\"]", 8, "malformed at byte 2 (line 1, column 3): unable to decode byte 0xf4" },
		{ "[\"\xe2\x82\"]", 6, "malformed at byte 2 (line 1, column 3): unable to decode byte 0xe2" },
		{ "[\"\xe2\x82", 4, "truncated at byte 4 (line 1, column 5): the document ends too soon (unable to decode byte 0xe2" },
		{ "[\"\x80\"]", 5, "malformed at byte 2 (line 1, column 3): unable to decode byte 0x80 near '\"' (a string must be UTF-8)" },
		{ "\xef\xbb\xbf{}", 5, "not JSON: it begins with a byte order mark at byte 0 (line 1, column 1) (RFC 8259" },
		/* no JSON value begins so: a binary or another text, not a document cut short */
		{ "\0\1\2", 3, "not JSON: it begins with byte 0x00 at byte 0 (line 1, column 1) (a binary file?)" },
		{ "\x7f" "ELF\2\1", 6, "not JSON: it begins with byte 0x7f at byte 0 (line 1, column 1) (a binary file?)" },
		{ "\n Name:\tcat", 12, "not JSON: it begins with 'N' at byte 2 (line 2, column 2)" },
		{ "[1]\0", 4, "malformed at byte 4 (line 1, column 5): end of file expected" },
		{ "{\"a\":1}\n{", 9, "malformed at byte 9 (line 2, column 2): end of file expected near '{'" },
		{ "{\"a\":1,\"a\":2}", 13, "malformed at byte 10 (line 1, column 11): duplicate object key near '\"a\"' (an object may not repeat a key)" },
		{ "{\"p\":[1,{\"q\":-2e30}]}", 21, "out of range at p[1].q: the number -2e+30 is beyond 1e+30, more than eel ever writes" },
	};

	for (size_t k = 0; k < sizeof(c) / sizeof(c[0]); k++) {
		const char *e = error_of(c[k].doc, c[k].len, NULL);

		CHECK(!strncmp(e, c[k].want, strlen(c[k].want)), "case %zu: got \"%s\", want \"%s...\"", k, e, c[k].want);
	}
}

/* Every strict prefix of a document is "truncated at byte <its length>". */
static void prefixes(void)
{
	const char *doc = "{\"schema\":\"eel.run\",\"v\":[1,-2.5e-3,true,false,null,{\"k\":\"\\u00e9\\n\"}],"
			  "\"o\":{\"p\":[[],{}],\"q\":\"\xe2\x82\xac\"}, \"n\": 12345 }";
	size_t n = strlen(doc), bad = 0;
	char want[64];

	CHECK(!*error_of(doc, n, NULL), "the whole document: %s", error_of(doc, n, NULL));
	for (size_t len = 0; len < n; len++) {
		const char *e = error_of(doc, len, NULL);

		snprintf(want, sizeof(want), "truncated at byte %zu ", len);
		if (strncmp(e, want, strlen(want))) {
			if (bad++ < 5)
				CHECK(0, "prefix of %zu bytes: \"%s\"", len, e);
		}
	}
	CHECK(bad == 0, "%zu of %zu prefixes not called truncated at their end", bad, n);
}

static void limits(void)
{
	char deep[200];
	struct jr_limits lim = { .max_depth = 64 };
	struct jr_limits small = { .max_bytes = 10 }, few = { .max_nodes = 5 };
	const char *e;

	memset(deep, '[', 64);
	memset(deep + 64, ']', 64);
	CHECK(!*error_of(deep, 128, &lim), "64 levels are allowed: %s", error_of(deep, 128, &lim));
	memset(deep, '[', 65);
	memset(deep + 65, ']', 65);
	e = error_of(deep, 130, &lim);
	CHECK(!strncmp(e, "too deep at [0][0]", 18), "65 levels: %s", e);
	e = error_of(deep, 130, NULL);
	CHECK(!strncmp(e, "too deep at ", 12), "the default depth is 64: %s", e);
	memset(deep, '[', sizeof(deep));
	e = error_of(deep, sizeof(deep), NULL);
	CHECK(!strncmp(e, "truncated at byte 200 ", 22), "200 open brackets: %s", e);
	{
		/* deeper than jansson's own limit (2048): refused while parsing */
		char *deeper = malloc(6000);

		REQUIRE(deeper, "malloc");
		memset(deeper, '[', 3000);
		memset(deeper + 3000, ']', 3000);
		e = error_of(deeper, 6000, NULL);
		CHECK(!strncmp(e, "too deep at byte ", 17), "3000 levels: %s", e);
		free(deeper);
	}
	e = error_of("[1,2,3,4,5,6]", 13, &small);
	CHECK(!strncmp(e, "too large: 13 bytes", 19), "size limit: %s", e);
	CHECK(!*error_of("[1,2,3,4]", 9, &few), "5 values under a limit of 5");
	e = error_of("[1,2,3,4,5]", 11, &few);
	CHECK(!strncmp(e, "too large at [4]: more than 5 values", 36), "node limit: %s", e);
	/* a wide document */
	{
		size_t n = 200000, k = 0;
		char *big = malloc(n * 2 + 2);
		struct jr_doc *d;
		char err[256] = "";

		REQUIRE(big, "malloc");
		big[k++] = '[';
		for (size_t i = 0; i < n; i++) {
			big[k++] = '7';
			big[k++] = i + 1 < n ? ',' : ']';
		}
		d = jr_parse(big, k, NULL, err, sizeof(err));
		CHECK(d && jr_len(jr_root(d), "") == n && jr_root(d)->kids[n - 1]->num == 7, "200000 elements: %s", err);
		jr_free(d);
		free(big);
	}
}

static void files(void)
{
	char dir[] = "/tmp/eel-jr-XXXXXX", path[64], err[512] = "";
	struct jr_doc *d;
	FILE *f;

	REQUIRE(mkdtemp(dir), "mkdtemp");
	snprintf(path, sizeof(path), "%s/run.json", dir);
	d = jr_parse_file(path, NULL, err, sizeof(err));
	CHECK(!d && strstr(err, "run.json: cannot open: No such file"), "missing file: %s", err);
	d = jr_parse_file(dir, NULL, err, sizeof(err));
	CHECK(!d && strstr(err, "is a folder"), "a folder: %s", err);
	f = fopen(path, "w");
	REQUIRE(f, "fopen");
	fputs("{\"schema\": \"eel.run\",\n \"x\": [1, 2", f);
	fclose(f);
	d = jr_parse_file(path, NULL, err, sizeof(err));
	CHECK(!d && strstr(err, "/run.json: truncated at byte 33 (line 2, column 12): the document ends too soon (']' expected"),
	      "truncated file: %s", err);
	f = fopen(path, "w");
	REQUIRE(f, "fopen");
	fputs("{\"schema\": \"eel.run\", \"x\": [1, 2]}\n", f);
	fclose(f);
	d = jr_parse_file(path, NULL, err, sizeof(err));
	CHECK(d && jr_len(jr_root(d), "x") == 2, "a good file: %s", err);
	jr_free(d);
	/* a kernel's file says size 0 and is read as what it holds; an empty one is empty */
	d = jr_parse_file("/proc/self/status", NULL, err, sizeof(err));
	CHECK(!d && strstr(err, "/proc/self/status: not JSON: it begins with 'N' at byte 0"), "/proc file: %s", err);
	f = fopen(path, "w");
	REQUIRE(f, "fopen");
	fclose(f);
	d = jr_parse_file(path, NULL, err, sizeof(err));
	CHECK(!d && strstr(err, "/run.json: is empty: give a file with something in it"), "empty file: %s", err);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	values();
	strings();
	numbers();
	malformed();
	prefixes();
	limits();
	files();
	CHECK_DONE();
}
