/* SPDX-License-Identifier: MIT */
/* tests/unit/test_api_args.c — libeel's calls with arguments a lab's
 * program may get wrong, on a software NIC opened (not connected): each
 * returns an error with its message, never a crash or a region that a
 * peer's put would turn into one (a black-box audit's findings: memory not
 * mapped, read-only or too long registered; another device's region
 * deregistered; NULL pointers; eel_strerror's buffer; fw_cpu ignored). */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <eel/eel.h>

#include "check.h"

#define PAGE 4096

static int has(const char *what)
{
	return strstr(eel_errmsg(), what) != NULL;
}

/* eel_mr_reg takes only memory this process has, with the access asked. */
static void regions(struct eel_dev *d)
{
	struct eel_mr *mr = (struct eel_mr *)1;
	char *p = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	REQUIRE(p != MAP_FAILED, "mmap");
	CHECK(eel_mr_reg(d, p, PAGE, 0, NULL) == -EINVAL && has("no place"), "mr NULL: %s", eel_errmsg());
	CHECK(eel_mr_reg(NULL, p, PAGE, 0, &mr) == -EINVAL && has("no device"), "dev NULL: %s", eel_errmsg());
	CHECK(eel_mr_reg(d, p, SIZE_MAX, 0, &mr) == -EINVAL && !mr && has("past the end of the address space"),
	      "a length that wraps: %s", eel_errmsg());
	/* page 3 unmapped, page 2 read-only: a VMA of its own each */
	REQUIRE(!munmap(p + 2 * PAGE, PAGE) && !mprotect(p + PAGE, PAGE, PROT_READ), "munmap, mprotect");
	CHECK(eel_mr_reg(d, p + 2 * PAGE, PAGE, 0, &mr) == -EFAULT && !mr && has("byte 0 of the 4096") &&
	      has("not readable memory"), "unmapped: %s", eel_errmsg());
	CHECK(eel_mr_reg(d, p, 2 * PAGE, EEL_ACCESS_REMOTE_WRITE, &mr) == -EFAULT && has("byte 4096 of the 8192") &&
	      has("not writable memory"), "read-only page, REMOTE_WRITE: %s", eel_errmsg());
	CHECK(eel_mr_reg(d, p, 3 * PAGE, 0, &mr) == -EFAULT && has("byte 8192 of the 12288"),
	      "past the mapping's end: %s", eel_errmsg());
	/* read-only memory is a put's source and a window the peer reads; two
	 * mappings side by side are one region */
	CHECK(eel_mr_reg(d, p, 2 * PAGE, EEL_ACCESS_REMOTE_READ, &mr) == 0 && mr, "read-only, read: %s", eel_errmsg());
	CHECK(eel_mr_dereg(d, mr) == 0, "dereg: %s", eel_errmsg());
	munmap(p, 2 * PAGE);
}

/* A region is deregistered on its own device only; elsewhere it stays. */
static void other_device(struct eel_dev *d1, struct eel_dev *d2)
{
	static char b1[PAGE], b2[PAGE];
	struct eel_mr *m1, *m2, *m3 = NULL;

	REQUIRE(!eel_mr_reg(d1, b1, PAGE, EEL_ACCESS_REMOTE_WRITE, &m1) &&
		!eel_mr_reg(d2, b2, PAGE, EEL_ACCESS_REMOTE_WRITE, &m2), "mr_reg: %s", eel_errmsg());
	CHECK(eel_mr_dereg(d2, m1) == -EINVAL && has("not a region of this NIC"), "another device's: %s",
	      eel_errmsg());
	/* m1 is still d1's (and its handle valid), m2 still d2's */
	CHECK(m1->addr == b1 && eel_mr_dereg(d1, m1) == 0, "m1 on d1: %s", eel_errmsg());
	CHECK(eel_mr_dereg(d2, m2) == 0, "m2 on d2: %s", eel_errmsg());
	/* a region of this device deregistered and its entry taken again: the
	 * old key no longer names it (a copy of the stale handle) */
	REQUIRE(!eel_mr_reg(d2, b2, PAGE, 0, &m2), "mr_reg: %s", eel_errmsg());
	struct eel_mr stale = *m2;
	CHECK(eel_mr_dereg(d2, m2) == 0 && !eel_mr_reg(d2, b1, PAGE, 0, &m3), "dereg, reg: %s", eel_errmsg());
	CHECK(eel_mr_dereg(d2, &stale) == -EINVAL, "a stale copy of a handle: %s", eel_errmsg());
	CHECK(eel_mr_dereg(d2, m3) == 0, "m3: %s", eel_errmsg());
}

/* NULL where a call needs a place to write or read (eel_put's and
 * eel_wait_u64's pointers are the data path's, not checked: eel.h). */
static void null_args(struct eel_dev *d)
{
	struct eel_window w = { 0 };
	uint64_t v;

	CHECK(eel_poll(d, NULL, 1) == -EINVAL && has("eel_poll"), "poll: %s", eel_errmsg());
	CHECK(eel_poll(d, NULL, 0) == 0, "poll of none: %s", eel_errmsg());
	CHECK(eel_counters(d, NULL, 4) == -EINVAL && has("eel_counters"), "counters: %s", eel_errmsg());
	CHECK(eel_trace_drain(d, EEL_TRACE_TX, NULL, 4) == -EINVAL, "trace_drain: %s", eel_errmsg());
	CHECK(eel_nic_info(d, NULL) == -EINVAL && has("eel_nic_info"), "nic_info: %s", eel_errmsg());
	CHECK(eel_put(d, NULL, &v, 8, &w, 0, EEL_PUT_INLINE, 0, 0) == -ENOTCONN, "put before connect: %s",
	      eel_errmsg());
	CHECK(eel_mr_dereg(NULL, (struct eel_mr *)&w) == -EINVAL, "dereg, dev NULL: %s", eel_errmsg());
}

/* The URI's and the struct's options, each refused by name. */
static void options(void)
{
	struct eel_opts o;
	struct eel_dev *d = NULL;

	eel_opts_default(&o);
	o.sq_depth = 1;
	CHECK(eel_open("softnic", &o, &d) == -EINVAL && has("sq_depth 1: give a power of two from 16 to 4096"),
	      "opts.sq_depth 1: %s", eel_errmsg());
	CHECK(eel_open("softnic?sq_depth=17", NULL, &d) == -EINVAL && has("sq_depth 17"), "sq_depth=17: %s",
	      eel_errmsg());
	/* fw_cpu pins thread mode's firmware thread: not in inline mode, and
	 * only on a CPU this process may use */
	CHECK(eel_open("softnic?fw_cpu=0", NULL, &d) == -EINVAL && has("open the NIC in thread mode"), "fw_cpu inline: %s",
	      eel_errmsg());
	CHECK(eel_open("softnic:thread?oversubscribe=1&fw_cpu=1000", NULL, &d) == -EINVAL &&
	      has("may not run on CPU 1000"), "fw_cpu=1000: %s", eel_errmsg());
	CHECK(!d, "nothing opened");
}

/* eel_strerror: a static string, for a code of either sign. */
static void strerror_static(void)
{
	const char *a = eel_strerror(-EIO), *b = eel_strerror(EIO), *c = eel_strerror(-9999);

	CHECK(!strcmp(a, "Input/output error") && a == b, "EIO: '%s' '%s'", a, b);
	CHECK(!strcmp(c, "unknown error"), "-9999: '%s'", c);
	CHECK(!strcmp(a, "Input/output error"), "still valid after another call: '%s'", a);
	CHECK(!strcmp(eel_strerror(ETIMEDOUT), "timed out"), "ETIMEDOUT positive");
}

/* A message of a type not asked for is dropped whole: the next recv reads
 * the next message (the channel was out of step: the dropped message's
 * payload was read as the next header, "does not speak eel's protocol"). */
static void oob_out_of_step(void)
{
	struct eel_oob_listener *l;
	struct eel_oob *o;
	char buf[16] = "";
	uint32_t n = 0;
	uint16_t port;
	pid_t child;
	int st = -1;

	REQUIRE(!eel_oob_listen("127.0.0.1", 0, &l), "listen: %s", eel_errmsg());
	port = eel_oob_listener_port(l);
	child = fork();
	REQUIRE(child >= 0, "fork");
	if (!child) {
		if (eel_oob_accept(l, 5000, 5000, &o) || eel_oob_send(o, EEL_OOB_USER + 1, "abcdefgh", 8) ||
		    eel_oob_send(o, EEL_OOB_USER + 2, "12345678", 8))
			_exit(1);
		eel_oob_recv(o, EEL_OOB_USER, buf, sizeof(buf), &n, 5000, NULL); /* until the parent closes */
		_exit(0);
	}
	eel_oob_listener_close(l);
	REQUIRE(!eel_oob_connect("127.0.0.1", port, 5000, &o), "connect: %s", eel_errmsg());
	CHECK(eel_oob_recv(o, EEL_OOB_USER + 2, buf, sizeof(buf), &n, 5000, NULL) == -EPROTO && has("dropped"),
	      "another type first: %s", eel_errmsg());
	CHECK(eel_oob_recv(o, EEL_OOB_USER + 2, buf, sizeof(buf), &n, 5000, NULL) == 0 && n == 8 &&
	      !memcmp(buf, "12345678", 8), "the next message, whole: %s", eel_errmsg());
	CHECK(eel_oob_recv(o, EEL_OOB_USER, NULL, 8, &n, 100, NULL) == -EINVAL && has("no place"), "buf NULL: %s",
	      eel_errmsg());
	eel_oob_close(o);
	waitpid(child, &st, 0);
	/* the channel's calls name what is wrong: no host, an address not this host's */
	CHECK(eel_oob_connect(NULL, port, 100, &o) == -EINVAL && has("no host"), "connect(NULL): %s", eel_errmsg());
	CHECK(eel_oob_listen("192.0.2.1", 0, &l) < 0 && has("cannot listen on 192.0.2.1 port 0") &&
	      has("not an address of this host"), "listen on another's address: %s", eel_errmsg());
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the peer's end: status %d", st);
}

int main(void)
{
	struct eel_dev *d1 = NULL, *d2 = NULL;

	if (eel_open("softnic", NULL, &d1) || eel_open("softnic", NULL, &d2)) {
		CHECK(0, "eel_open: %s", eel_errmsg());
		CHECK_DONE();
	}
	regions(d1);
	other_device(d1, d2);
	null_args(d1);
	eel_close(d1);
	eel_close(d2);
	options();
	strerror_static();
	oob_out_of_step();
	CHECK_DONE();
}
