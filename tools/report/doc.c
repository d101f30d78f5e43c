/* SPDX-License-Identifier: MIT */
/* tools/report/doc.c — opening an eel.run document (doc.h). */
#include "doc.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A string holding a NUL (\u0000): the reader keeps it (json_read.h), but
 * the tools print and plot strings as C strings, which would cut it there.
 * eel-bench never writes one, so a document with one is refused whole. */
static int has_nul(const struct jr_val *v)
{
	if (v->type == JR_STR)
		return strlen(v->str) != v->len;
	if (v->type == JR_ARR || v->type == JR_OBJ)
		for (size_t i = 0; i < v->len; i++)
			if (has_nul(v->kids[i]))   /* keys: jansson refuses a NUL in one */
				return 1;
	return 0;
}

int run_open(struct run *r, const char *path, const char *tool, char *err, size_t errlen)
{
	char e[512];
	const char *schema;
	double v;

	memset(r, 0, sizeof(*r));
	r->path = path;
	r->doc = jr_parse_file(path, NULL, e, sizeof(e));
	if (!r->doc) {
		const char *fix = "give it the file eel-bench --json wrote";

		if (strstr(e, ": give "))   /* the file's open said its own fix */
			fix = NULL;
		else if (strstr(e, ": truncated at "))
			fix = "the file was cut short (did the run stop while writing it?): run eel-bench --json again";
		else if (strstr(e, ": cannot open: "))
			fix = "check the path";
		snprintf(err, errlen, "%s: %s%s%s", tool, e, fix ? ": " : "", fix ? fix : "");
		return -1;
	}
	r->root = jr_root(r->doc);
	if (r->root->type != JR_OBJ) {
		snprintf(err, errlen, "%s: %s: not an eel.run document (the JSON is %s, not an object): "
			 "give it the file eel-bench --json wrote", tool, path, jr_type_name(r->root->type));
		goto fail;
	}
	schema = jr_str(r->root, "schema");
	if (!schema || strcmp(schema, "eel.run")) {
		snprintf(err, errlen, "%s: %s: not an eel.run document (%s%.40s%s): give it the file eel-bench --json wrote",
			 tool, path, schema ? "its \"schema\" is \"" : "it has no \"schema\"", schema ? schema : "",
			 schema ? "\"" : "");
		goto fail;
	}
	if (!jr_num(r->root, "schema_version", &v) || v != floor(v) || v < 1) {
		snprintf(err, errlen, "%s: %s: \"schema_version\" is missing or not a whole number >= 1: "
			 "the file is damaged; run eel-bench --json again", tool, path);
		goto fail;
	}
	if (v > RUN_SCHEMA_MAX) {
		snprintf(err, errlen, "%s: %s: schema_version %.0f is newer than this %s reads (1..%d): "
			 "use the %s of the eel that wrote it", tool, path, v, tool, RUN_SCHEMA_MAX, tool);
		goto fail;
	}
	if (has_nul(r->root)) {
		snprintf(err, errlen, "%s: %s: a string in it holds a NUL character (\\u0000), which eel-bench never "
			 "writes: the file is damaged or not eel's; run eel-bench --json again", tool, path);
		goto fail;
	}
	r->version = (int)v;
	return 0;
fail:
	jr_free(r->doc);
	r->doc = NULL;
	r->root = NULL;
	return -1;
}

void run_close(struct run *r)
{
	jr_free(r->doc);
	r->doc = NULL;
	r->root = NULL;
}

int stat_at(const struct jr_val *v, const char *path, struct stat5 *s)
{
	const struct jr_val *o = jr_get(v, path);

	if (!o || o->type != JR_OBJ || !jr_num(o, "min", &s->min))
		return 0;
	s->p25 = num_at(o, "p25");
	s->median = num_at(o, "median");
	s->p75 = num_at(o, "p75");
	s->max = num_at(o, "max");
	s->mean = num_at(o, "mean");
	s->n = num_at(o, "n");
	return 1;
}

double num_at(const struct jr_val *v, const char *path)
{
	double x;

	return jr_num(v, path, &x) ? x : NAN;
}

void run_nic_name(const struct run *r, char *buf, size_t len)
{
	const char *uri = jr_str(r->root, "nic.uri"), *name = jr_str(r->root, "nic.name");

	if (uri && name && strcmp(uri, name))
		snprintf(buf, len, "%s (%s)", uri, name);
	else if (uri || name)
		snprintf(buf, len, "%s", uri ? uri : name);
	else
		snprintf(buf, len, "an unnamed NIC");
}
