/* SPDX-License-Identifier: MIT */
/* tools/report/hist.c — reading data/historical.csv (hist.h): RFC 4180 CSV
 * with a header naming the columns. */
#include "hist.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "eel/eel.h"

#define MAX_FIELDS 16
#define MAX_ROWS   4096

static const char *const column[] = { "machine", "software", "measurement", "size_bytes", "value", "unit",
				      "orig_value", "orig_unit", "source", "note" };
#define NCOL (sizeof(column) / sizeof(column[0]))

/* One CSV record from f into fields (NUL-terminated, in buf). Returns the
 * number of fields, 0 at the end of the file, -1 when malformed. */
static int record(FILE *f, char *buf, size_t len, char **field, int *line)
{
	size_t o = 0;
	int n = 0, c, quoted = 0, start = 1;

	c = getc(f);
	if (c == EOF)
		return 0;
	field[n++] = buf;
	for (;; c = getc(f)) {
		if (c == EOF) {
			if (quoted)
				return -1;
			break;
		}
		if (quoted) {
			if (c == '"') {
				int d = getc(f);

				if (d != '"') {
					quoted = 0;
					ungetc(d, f);
					continue;
				}
			}
			if (c == '\n')
				(*line)++;
		} else if (c == '"' && start) {
			quoted = 1;
			start = 0;
			continue;
		} else if (c == ',') {
			if (o + 1 >= len || n == MAX_FIELDS)
				return -1;
			buf[o++] = 0;
			field[n++] = buf + o;
			start = 1;
			continue;
		} else if (c == '\n') {
			break;
		} else if (c == '\r') {
			continue;
		}
		if (o + 1 >= len)
			return -1;
		buf[o++] = (char)c;
		start = 0;
	}
	buf[o] = 0;
	(*line)++;
	return n;
}

static int number(const char *s, double *v)
{
	char *end;

	if (!*s) {
		*v = NAN;
		return 0;
	}
	*v = strtod(s, &end);
	return *end || !isfinite(*v) ? -1 : 0;
}

/* The table is a few hundred rows; this is far beyond any. */
#define HIST_MAX_BYTES (16u << 20)

static int load(struct hist *h, const char *path, char *err, size_t errlen)
{
	FILE *f;
	char buf[2048], *field[MAX_FIELDS];
	int idx[NCOL], n, line = 0;

	/* a regular file, not empty, of at most 16 MiB: a FIFO or a device
	 * given as --historical is refused, never waited on or read forever */
	if (eel_input_open(path, HIST_MAX_BYTES, &f)) {
		snprintf(err, errlen, "%s", eel_errmsg());
		return -1;
	}
	if (!realpath(path, h->path))
		snprintf(h->path, sizeof(h->path), "%s", path);
	n = record(f, buf, sizeof(buf), field, &line);
	for (size_t k = 0; k < NCOL; k++) {
		idx[k] = -1;
		for (int i = 0; i < n; i++)
			if (!strcmp(field[i], column[k]))
				idx[k] = i;
		if (idx[k] < 0) {
			snprintf(err, errlen, "%s: line 1: no column \"%s\": the header must name machine, software, "
				 "measurement, size_bytes, value, unit, orig_value, orig_unit, source, note", path, column[k]);
			fclose(f);
			return -1;
		}
	}
	h->row = calloc(MAX_ROWS, sizeof(*h->row));
	if (!h->row) {
		snprintf(err, errlen, "%s: out of memory", path);
		fclose(f);
		return -1;
	}
	while ((n = record(f, buf, sizeof(buf), field, &line)) != 0) {
		struct hist_row *r = &h->row[h->n];
		const char *v[NCOL];

		if (n == 1 && !field[0][0])
			continue;   /* a blank line */
		if (n < 0 || n < (int)NCOL) {
			snprintf(err, errlen, "%s: line %d: %s: every row has the %zu columns of the header", path, line,
				 n < 0 ? "a malformed field (an unclosed quote or a line too long)" : "too few fields", NCOL);
			goto bad;
		}
		if (h->n == MAX_ROWS) {
			snprintf(err, errlen, "%s: more than %d rows", path, MAX_ROWS);
			goto bad;
		}
		for (size_t k = 0; k < NCOL; k++)
			v[k] = field[idx[k]];
		snprintf(r->machine, sizeof(r->machine), "%s", v[0]);
		snprintf(r->software, sizeof(r->software), "%s", v[1]);
		snprintf(r->measurement, sizeof(r->measurement), "%s", v[2]);
		snprintf(r->unit, sizeof(r->unit), "%s", v[5]);
		snprintf(r->orig, sizeof(r->orig), "%s", v[6]);
		snprintf(r->orig_unit, sizeof(r->orig_unit), "%s", v[7]);
		snprintf(r->source, sizeof(r->source), "%s", v[8]);
		snprintf(r->note, sizeof(r->note), "%s", v[9]);
		if (number(v[3], &r->size) || number(v[4], &r->value) || isnan(r->value)) {
			snprintf(err, errlen, "%s: line %d: size_bytes \"%s\" or value \"%s\" is not a number", path, line,
				 v[3], v[4]);
			goto bad;
		}
		if (!r->machine[0] || !r->measurement[0] || !r->source[0]) {
			snprintf(err, errlen, "%s: line %d: machine, measurement and source may not be empty "
				 "(every row cites its paper)", path, line);
			goto bad;
		}
		h->n++;
	}
	fclose(f);
	return 0;
bad:
	fclose(f);
	hist_free(h);
	return -1;
}

int hist_load(struct hist *h, const char *path, char *err, size_t errlen)
{
	char found[PATH_MAX];

	memset(h, 0, sizeof(*h));
	if (path)
		return load(h, path, err, errlen);
	if (eel_data_path("historical.csv", found, sizeof(found)) == 0)
		return load(h, found, err, errlen);
	snprintf(err, errlen, "%s", eel_errmsg());
	return 1;
}

void hist_free(struct hist *h)
{
	free(h->row);
	h->row = NULL;
	h->n = 0;
}

double hist_value(const struct hist *h, const char *machine, const char *software, const char *measurement)
{
	for (int i = 0; i < h->n; i++)
		if (!strcmp(h->row[i].machine, machine) && !strcmp(h->row[i].software, software) &&
		    !strcmp(h->row[i].measurement, measurement))
			return h->row[i].value;
	return NAN;
}
