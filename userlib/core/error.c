/* SPDX-License-Identifier: MIT */
/* userlib/core/error.c — the last error of each thread, as one line for a person. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "userlib/core/dev.h"

static _Thread_local char last[512];

int eel_err(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last, sizeof(last), fmt, ap);
	va_end(ap);
	return code;
}

const char *eel_errmsg(void)
{
	return last[0] ? last : "no error";
}

/* A static string for every code (strerrordesc_np: glibc 2.32, never
 * freed nor overwritten, as strerror's buffer is by the next call), the
 * code negative as eel returns it or positive as errno holds it. */
const char *eel_strerror(int err)
{
	const char *s;

	if (err == INT_MIN)
		return "unknown error";
	switch (err < 0 ? -err : err) {
	case 0:
		return "success";
	case ETIMEDOUT:
		return "timed out";
	case ECONNRESET:
		return "peer gone";
	case EREMOTEIO:
		return "refused by the peer";
	case EPROTO:
		return "protocol mismatch";
	case EAGAIN:
		return "queue full, try again";
	default:
		s = strerrordesc_np(err < 0 ? -err : err);
		return s ? s : "unknown error";
	}
}
