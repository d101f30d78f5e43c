/* SPDX-License-Identifier: MIT */
/* bench/report/safe_text.c — text from the user or the peer, made safe to print
 * (safe_text.h). */
#include <stdio.h>

#include "safe_text.h"

/* The user's text as one safe line: a control character (a terminal's
 * escape, a newline) or a byte that is not printable ASCII is shown as \xNN,
 * never sent to the terminal. */
const char *safe_text(const char *s, char *out, size_t n)
{
	size_t o = 0;

	for (; *s && o + 5 < n; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch >= 0x20 && ch < 0x7f && ch != '\\')
			out[o++] = (char)ch;
		else
			o += (size_t)snprintf(out + o, n - o, "\\x%02x", ch);
	}
	if (*s && o + 4 < n)
		o += (size_t)snprintf(out + o, n - o, "...");
	out[o] = 0;
	return out;
}

