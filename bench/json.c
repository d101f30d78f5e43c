/* bench/json.c — the JSON writer (bench/json.h). Non-finite numbers are
 * written as null: JSON has no NaN. */
#include <math.h>

#include "json.h"

static void indent(struct json *j)
{
	fputc('\n', j->f);
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->f);
}

/* The length of the well-formed UTF-8 sequence at s (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF), or 0. */
static int utf8_len(const unsigned char *s)
{
	int n = s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC2 && s[0] <= 0xDF ? 2 : 0;

	if (s[0] >= 0xF5)
		return 0;
	for (int k = 1; k < n; k++)
		if ((s[k] & 0xC0) != 0x80)
			return 0;
	if ((s[0] == 0xE0 && s[1] < 0xA0) || (s[0] == 0xED && s[1] >= 0xA0) || (s[0] == 0xF0 && s[1] < 0x90) ||
	    (s[0] == 0xF4 && s[1] >= 0x90))
		return 0;
	return n;
}

/* A JSON string. Text that is not UTF-8 (a file name in another encoding
 * given on the command line) would make the document invalid JSON: each
 * byte of an ill-formed sequence is written as the character of that value
 * (\u00XX), so the document stays valid and the byte can be read back. */
static void string(FILE *f, const char *s)
{
	fputc('"', f);
	while (*s) {
		const unsigned char *u = (const unsigned char *)s;
		int n = *u >= 0x80 ? utf8_len(u) : 1;

		if (*u == '"' || *u == '\\')
			fprintf(f, "\\%c", *u);
		else if (*u < 0x20 || *u == 0x7f || !n)
			fprintf(f, "\\u%04x", *u);
		else
			fwrite(s, 1, (size_t)n, f);
		s += n ? n : 1;
	}
	fputc('"', f);
}

static void member(struct json *j, const char *key)
{
	if (!j->first[j->depth])
		fputc(',', j->f);
	j->first[j->depth] = 0;
	indent(j);
	if (key) {
		string(j->f, key);
		fputs(": ", j->f);
	}
}

static void open(struct json *j, const char *key, char c)
{
	member(j, key);
	fputc(c, j->f);
	j->first[++j->depth] = 1;
}

static void close_(struct json *j, char c)
{
	int empty = j->first[j->depth];

	j->depth--;
	if (!empty)
		indent(j);
	fputc(c, j->f);
}

void json_begin(struct json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->first[0] = 1;
	fputc('{', f);
	j->first[++j->depth] = 1;
}

void json_end(struct json *j)
{
	close_(j, '}');
	fputc('\n', j->f);
}

void json_obj(struct json *j, const char *key) { open(j, key, '{'); }
void json_obj_end(struct json *j) { close_(j, '}'); }
void json_arr(struct json *j, const char *key) { open(j, key, '['); }
void json_arr_end(struct json *j) { close_(j, ']'); }

void json_num(struct json *j, const char *key, double v)
{
	member(j, key);
	if (isfinite(v))
		fprintf(j->f, "%.10g", v);
	else
		fputs("null", j->f);
}

void json_u64(struct json *j, const char *key, uint64_t v)
{
	member(j, key);
	fprintf(j->f, "%llu", (unsigned long long)v);
}

void json_str(struct json *j, const char *key, const char *v)
{
	member(j, key);
	string(j->f, v ? v : "");
}

void json_bool(struct json *j, const char *key, int v)
{
	member(j, key);
	fputs(v ? "true" : "false", j->f);
}
