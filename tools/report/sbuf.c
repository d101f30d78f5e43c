/* SPDX-License-Identifier: MIT */
/* tools/report/sbuf.c — a growing text buffer (sbuf.h). */
#include "sbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int grow(struct sbuf *b, size_t more)
{
	char *s;
	size_t cap;

	if (b->oom)
		return -1;
	if (b->n + more + 1 <= b->cap)
		return 0;
	cap = b->cap ? b->cap : 4096;
	while (cap < b->n + more + 1)
		cap *= 2;
	s = realloc(b->s, cap);
	if (!s) {
		b->oom = 1;
		return -1;
	}
	b->s = s;
	b->cap = cap;
	return 0;
}

void sb_put(struct sbuf *b, const char *s, size_t n)
{
	if (grow(b, n))
		return;
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = 0;
}

void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || grow(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->s + b->n, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->n += (size_t)n;
}

void sb_html(struct sbuf *b, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': sb_put(b, "&amp;", 5); break;
		case '<': sb_put(b, "&lt;", 4); break;
		case '>': sb_put(b, "&gt;", 4); break;
		case '"': sb_put(b, "&quot;", 6); break;
		case '\'': sb_put(b, "&#39;", 5); break;
		default:
			if ((unsigned char)*s >= 0x20 || *s == '\t' || *s == '\n')
				sb_put(b, s, 1);
		}
	}
}

/* Text for a double-quoted gnuplot string that nothing in it can leave or
 * turn into a command: gnuplot runs `backquoted` text inside double quotes
 * as a shell command (checked: gnuplot 5.4); a quote or a backslash would end
 * the string or escape out of it. Each is replaced by a harmless look-alike,
 * and control characters (a newline would end the command) are dropped. */
void sb_gpstr(struct sbuf *b, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '"' || *s == '`')
			sb_put(b, "'", 1);
		else if (*s == '\\')
			sb_put(b, "/", 1);
		else if ((unsigned char)*s >= 0x20 && *s != 0x7f)
			sb_put(b, s, 1);
	}
}

const char *sb_str(const struct sbuf *b)
{
	return b->s ? b->s : "";
}

void sb_free(struct sbuf *b)
{
	free(b->s);
	memset(b, 0, sizeof(*b));
}
