/* SPDX-License-Identifier: MIT */
/* tests/unit/test_longopt.c — long options only in full (method/longopt.h):
 * an exact name (with =value or its value next) passes; a prefix getopt_long
 * would take is refused naming the options it begins; a hint is said for an
 * option the program has not; a short option with a hint when unknown, or
 * when a number follows it; a value that looks like an option, and anything
 * after "--", are not options. And the marks of short messages (verify.h). */
#include <stdarg.h>
#include <string.h>

#include "bench.h"
#include "check.h"
#include "method/longopt.h"

static const struct option opts[] = {
	{ "sizes", required_argument, 0, 1 }, { "sig-samples", required_argument, 0, 2 },
	{ "iters", required_argument, 0, 'n' }, { "quiet", no_argument, 0, 'q' }, { "eal", required_argument, 0, 3 },
	{ 0, 0, 0, 0 },
};
static const struct longopt_hint hints[] = {
	{ "--size", "did you mean -s SIZE?", 0 }, { "-D", "perftest's -D", 0 }, { "-q", "quiet, not QPs", 1 },
	{ NULL, NULL, 0 },
};

/* the check's result on argv (NULL-terminated), its line in msg */
static int run(char *msg, size_t n, const char *a0, ...)
{
	char *argv[16];
	int argc = 0;
	va_list ap;

	va_start(ap, a0);
	for (const char *a = a0; a && argc < 15; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;
	msg[0] = 0;
	return longopt_check(argc, argv, "n:s:aqv", opts, hints, msg, n);
}

static void marks(void)
{
	uint8_t buf[16];
	uint64_t w;

	for (uint32_t size = 1; size < 8; size++)
		for (uint64_t tok = 1; tok < 70000; tok += 997) {
			memset(buf, 0, sizeof(buf));
			mark_put(buf, size, tok);
			memcpy(&w, buf, 8);
			CHECK(w == mark_value(tok, size) && w != 0 && w >> (8 * size) == 0,
			      "size %u, token %llu: the word %llx", size, (unsigned long long)tok, (unsigned long long)w);
			CHECK(mark_value(tok, size) != mark_value(tok + 1, size), "size %u: tokens in a row alike", size);
		}
	mark_put(buf, 16, 42);
	memcpy(&w, buf + 8, 8);
	CHECK(mark_offset(16) == 8 && w == 42, "16 bytes: the token is the last word");
}

int main(void)
{
	char m[400];

	CHECK(run(m, sizeof(m), "eel-bench", "--sizes", "64", "--iters=5", "-q", "host", NULL) == 0, "exact: %s", m);
	CHECK(run(m, sizeof(m), "eel-bench", "--size", "64", NULL) && strstr(m, "'--size' (did you mean -s SIZE?)"),
	      "--size: %s", m);
	CHECK(run(m, sizeof(m), "eel-bench", "--it", "5", NULL) &&
	      strstr(m, "'--it' (options are taken only in full: did you mean --iters?)"), "--it: %s", m);
	CHECK(run(m, sizeof(m), "eel-bench", "--si=8", NULL) && strstr(m, "--sizes or --sig-samples"), "--si: %s", m);
	CHECK(run(m, sizeof(m), "eel-bench", "--nothing", NULL) && !strcmp(m, "unknown option '--nothing'"),
	      "--nothing: %s", m);
	CHECK(run(m, sizeof(m), "eel-bench", "-D", "5", NULL) && strstr(m, "'-D' (perftest's -D)"), "-D: %s", m);
	CHECK(run(m, sizeof(m), "eel-bench", "-vq", "4", NULL) && strstr(m, "'-q 4': quiet, not QPs"), "-vq 4: %s", m);
	CHECK(run(m, sizeof(m), "eel-bench", "-q", "host4", NULL) == 0, "-q host4: %s", m);
	CHECK(run(m, sizeof(m), "eel-bench", "-X", NULL) == 0, "-X (no hint: getopt's to say): %s", m);
	CHECK(run(m, sizeof(m), "eel-bench", "--eal", "--no-huge", "-n", "--size", NULL) == 0,
	      "values that look like options: %s", m);
	CHECK(run(m, sizeof(m), "eel-bench", "-s4", "--", "--size", NULL) == 0, "after --: %s", m);
	marks();
	CHECK_DONE();
}
