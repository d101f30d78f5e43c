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

static void string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
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
