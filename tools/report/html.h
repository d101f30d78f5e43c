/* SPDX-License-Identifier: MIT */
/* tools/report/html.h — the report's one HTML page: the terminal table's
 * content and every plot inline (SVG), self-contained: no scripts, no
 * external files. */
#ifndef EEL_TOOLS_REPORT_HTML_H
#define EEL_TOOLS_REPORT_HTML_H

#include <stddef.h>

#include "plots.h"

struct plot_out {
	const struct plot *plot;
	int made;                /* 1: DIR/NAME.svg exists */
	struct sbuf caption;     /* what it shows, or why it is missing */
};

/* Writes DIR/index.html. On failure one line in err, -1. */
int html_write(const char *dir, const struct report *r, const struct plot_out *out, size_t n, char *err,
	       size_t errlen);

#endif
