/* SPDX-License-Identifier: MIT */
/* bench/report/safe_text.h — text from outside (a command line, a URI, a peer's
 * message, a library error that quotes them) as one line a terminal prints
 * as it is: control characters (escape sequences, newlines) and bytes that
 * are not printable ASCII shown as \xNN. */
#ifndef EEL_BENCH_SAFE_TEXT_H
#define EEL_BENCH_SAFE_TEXT_H

#include <stddef.h>

/* s made safe into out (n bytes; "..." where it was cut); returns out. */
const char *safe_text(const char *s, char *out, size_t n);

#endif
