/* SPDX-License-Identifier: MIT */
/* userlib/core/error.c — the last error of each thread, as one line for a person. */
#include <errno.h>
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

const char *eel_strerror(int err)
{
	switch (-err) {
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
		return strerror(-err);
	}
}
