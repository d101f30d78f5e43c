/* SPDX-License-Identifier: MIT */
/* tests/fuzz/fuzz_oob.c — libFuzzer target: the out-of-band channel's
 * receive side (eel_oob_recv, userlib/core/oob.c) reading arbitrary bytes from
 * its peer.
 *
 * Input: 2 bytes of expected message type (bit 15: the caller wants an
 * exact size, len == NULL), 2 bytes of buffer capacity, then the bytes the
 * peer sends before it closes. Each message either arrives whole, within
 * the buffer, or the call fails with a negative code and a message; it never
 * writes past the buffer (ASan) and never waits (the peer has closed). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "userlib/core/dev.h"

#define ASSERT(c) do { if (!(c)) __builtin_trap(); } while (0)

/* userlib/core/oob.c's channel; eel_oob_is_server() below checks the layout. */
struct eel_oob {
	int fd;
	int server;
};

/* Only called with a device to keep running; this target passes none. */
int eel_progress(struct eel_dev *dev)
{
	(void)dev;
	__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct eel_oob o;
	uint16_t type;
	uint32_t cap, len;
	uint8_t *buf;
	int sv[2], exact;

	if (size < 4 || size > 60000)
		return 0;
	type = (uint16_t)(data[0] | (data[1] & 0x7f) << 8);
	exact = data[1] >> 7;
	cap = (uint32_t)(data[2] | data[3] << 8);
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		abort();
	if (size > 4 && write(sv[1], data + 4, size - 4) != (ssize_t)(size - 4))
		abort();
	shutdown(sv[1], SHUT_WR);
	o.fd = sv[0];
	o.server = 7;
	ASSERT(eel_oob_is_server(&o) == 7);
	buf = malloc(cap ? cap : 1);
	if (!buf)
		abort();
	for (int m = 0; m < 16; m++) {
		int rc;

		len = 0xdeadbeef;
		rc = eel_oob_recv(&o, type, buf, cap, exact ? NULL : &len, 5000, NULL);
		if (rc) {
			ASSERT(rc < 0 && rc != -ETIMEDOUT);
			ASSERT(strlen(eel_errmsg()) > 0);
			break;
		}
		ASSERT(exact || len <= cap);
		ASSERT(!exact || len == 0xdeadbeef);
	}
	free(buf);
	close(sv[0]);
	close(sv[1]);
	return 0;
}
