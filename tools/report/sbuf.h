/* SPDX-License-Identifier: MIT */
/* tools/report/sbuf.h — a growing text buffer (gnuplot scripts, the HTML page). */
#ifndef EEL_TOOLS_REPORT_SBUF_H
#define EEL_TOOLS_REPORT_SBUF_H

#include <stddef.h>

struct sbuf {
	char *s;        /* NUL-terminated; NULL until the first write */
	size_t n, cap;
	int oom;        /* a write failed for memory: the text is incomplete */
};

void sb_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_put(struct sbuf *b, const char *s, size_t n);
/* s with & < > " ' as entities, control bytes but \t \n dropped */
void sb_html(struct sbuf *b, const char *s);
/* s as the inside of a gnuplot "..." string: quotes and backslashes made harmless */
void sb_gpstr(struct sbuf *b, const char *s);
const char *sb_str(const struct sbuf *b);
void sb_free(struct sbuf *b);

#endif
