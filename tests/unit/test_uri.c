/* SPDX-License-Identifier: MIT */
/* tests/unit/test_uri.c — device URIs (userlib/core/uri.c): scheme, path and
 * options; lookups with bounds; the errors a person sees. */
#include <errno.h>
#include <string.h>

#include <eel/eel.h>

#include "check.h"
#include "userlib/core/dev.h"

static void test_shapes(void)
{
	struct eel_uri u;

	CHECK(eel_uri_parse("softnic", &u) == 0 && !strcmp(u.scheme, "softnic") && !u.path[0] && u.nopt == 0,
	      "softnic: scheme '%s' path '%s' nopt %d", u.scheme, u.path, u.nopt);
	CHECK(eel_uri_parse("softnic:thread", &u) == 0 && !strcmp(u.scheme, "softnic") && !strcmp(u.path, "thread"),
	      "softnic:thread: '%s' '%s'", u.scheme, u.path);
	CHECK(eel_uri_parse("raw:0000:00:03.0", &u) == 0 && !strcmp(u.scheme, "raw") && !strcmp(u.path, "0000:00:03.0"),
	      "a path with colons: '%s' '%s'", u.scheme, u.path);
	CHECK(eel_uri_parse("softnic:?drop=0.1", &u) == 0 && !u.path[0] && u.nopt == 1, "empty path with options");
	CHECK(eel_uri_parse("softnic?mtu=1024&seed=7", &u) == 0 && u.nopt == 2 && !strcmp(u.opt[0].key, "mtu") &&
	      !strcmp(u.opt[0].val, "1024") && !strcmp(u.opt[1].key, "seed") && !strcmp(u.opt[1].val, "7"),
	      "two options: %d", u.nopt);
	CHECK(eel_uri_parse("softnic?x=1&", &u) == 0 && u.nopt == 1, "a trailing &");
	CHECK(eel_uri_parse("softnic?", &u) == 0 && u.nopt == 0, "a bare ?");
	CHECK(eel_uri_parse("dpdk:net_null0?a=b:c=d", &u) == 0 && !strcmp(u.path, "net_null0") &&
	      !strcmp(u.opt[0].val, "b:c=d"), "':' and '=' inside a value: '%s'", u.opt[0].val);
	/* no option takes an empty value or spaces (bus= was taken as no bus, mtu= 4096 as 4096) */
	CHECK(eel_uri_parse("verbs:rxe0?k=", &u) == -EINVAL && strstr(eel_errmsg(), "option 'k=' in 'verbs:rxe0?k=' has no value"),
	      "an empty value: %s", eel_errmsg());
	CHECK(eel_uri_parse("softnic?mtu= 4096", &u) == -EINVAL && strstr(eel_errmsg(), "a space around the value"),
	      "a space before a value: %s", eel_errmsg());
	CHECK(eel_uri_parse("softnic?bus=/tmp/my bus.bus", &u) == 0 && !strcmp(u.opt[0].val, "/tmp/my bus.bus"),
	      "a space inside a value (a file's path): %s", eel_errmsg());
}

static void bad(const char *s, const char *words)
{
	struct eel_uri u;
	int rc = eel_uri_parse(s, &u);

	CHECK(rc == -EINVAL, "'%s': rc %d", s ? s : "(null)", rc);
	CHECK(rc != -EINVAL || strstr(eel_errmsg(), words), "'%s': message '%s' lacks '%s'", s ? s : "(null)",
	      eel_errmsg(), words);
}

static void test_errors(void)
{
	char longs[400];

	bad(NULL, "empty");
	bad("", "empty");
	bad(":thread", "scheme");
	bad("?x=1", "scheme");
	bad("averyveryverylongscheme:x", "scheme");
	bad("softnic?x", "key=value");
	bad("softnic?=1", "key=value");
	bad("softnic?&", "key=value");
	bad("softnic?a=1&&b=2", "key=value");
	bad("softnic?a=1&a=2", "twice");
	memset(longs, 'a', sizeof(longs) - 1);
	longs[sizeof(longs) - 1] = 0;
	bad(longs, "longer than");
	memcpy(longs, "raw:", 4);
	longs[4 + 160] = 0;
	bad(longs, "too long");
	strcpy(longs, "softnic?");
	memset(longs + 8, 'k', 32);
	strcpy(longs + 40, "=1");
	bad(longs, "too long");
	strcpy(longs, "softnic?k=");
	memset(longs + 10, 'v', 96);
	longs[106] = 0;
	bad(longs, "too long");
	strcpy(longs, "s?");
	for (int i = 0; i < EEL_URI_MAX_OPTS + 1; i++)
		sprintf(longs + strlen(longs), "%c%d=1", i ? '&' : ' ', i);
	longs[2] = 'x';
	bad(longs, "too many");
}

static void test_lookups(void)
{
	struct eel_uri u;
	uint64_t v = 12345;
	double d = -1;

	CHECK(eel_uri_parse("softnic?mtu=1024&drop=0.25&neg=-1&big=99999999999999999999&junk=12x&p=1.5&"
			    "max=18446744073709551615&name=eth0&plus=+4096&pp=+0.5",
			    &u) == 0, "parse: %s", eel_errmsg());
	CHECK(eel_uri_u64(&u, "mtu", 256, 8192, &v) == 0 && v == 1024, "mtu: %llu", (unsigned long long)v);
	v = 7;
	CHECK(eel_uri_u64(&u, "absent", 0, 10, &v) == 1 && v == 7, "an absent option leaves v");
	CHECK(eel_uri_u64(&u, "mtu", 2048, 8192, &v) == -EINVAL && v == 7 && strstr(eel_errmsg(), "2048"),
	      "below min: %s", eel_errmsg());
	CHECK(eel_uri_u64(&u, "mtu", 0, 1000, &v) == -EINVAL, "above max");
	CHECK(eel_uri_u64(&u, "neg", 0, UINT64_MAX, &v) == -EINVAL, "negative");
	CHECK(eel_uri_u64(&u, "big", 0, UINT64_MAX, &v) == -EINVAL, "overflow");
	CHECK(eel_uri_u64(&u, "junk", 0, UINT64_MAX, &v) == -EINVAL, "trailing junk");
	CHECK(eel_uri_u64(&u, "plus", 0, UINT64_MAX, &v) == -EINVAL, "a sign: +4096");
	CHECK(eel_uri_prob(&u, "pp", &d) == -EINVAL, "a sign: +0.5");
	CHECK(eel_uri_u64(&u, "max", 0, UINT64_MAX, &v) == 0 && v == UINT64_MAX, "UINT64_MAX");
	CHECK(eel_uri_prob(&u, "drop", &d) == 0 && d == 0.25, "drop: %g", d);
	CHECK(eel_uri_prob(&u, "p", &d) == -EINVAL && d == 0.25, "probability above 1");
	CHECK(eel_uri_prob(&u, "neg", &d) == -EINVAL, "negative probability");
	CHECK(eel_uri_prob(&u, "junk", &d) == -EINVAL, "probability with junk");
	CHECK(eel_uri_prob(&u, "nothere", &d) == 1, "absent probability");
	CHECK(eel_uri_str(&u, "name") && !strcmp(eel_uri_str(&u, "name"), "eth0"), "string option");
	CHECK(eel_uri_str(&u, "nothere") == NULL, "absent string");

	/* every option above was looked up: none is unknown */
	CHECK(eel_uri_check_unused(&u, "mtu drop ...") == 0, "unused: %s", eel_errmsg());
	CHECK(eel_uri_parse("softnic?mtu=1024&tpyo=1", &u) == 0, "parse");
	eel_uri_u64(&u, "mtu", 0, 8192, &v);
	CHECK(eel_uri_check_unused(&u, "mtu seed") == -EINVAL && strstr(eel_errmsg(), "tpyo") &&
	      strstr(eel_errmsg(), "mtu seed"), "unknown option message: %s", eel_errmsg());
	{
		struct eel_uri w;

		CHECK(eel_uri_parse("softnic?nan=nan&inf=inf", &w) == 0, "parse");
		CHECK(eel_uri_prob(&w, "nan", &d) == -EINVAL, "NaN is not a probability");
		CHECK(eel_uri_prob(&w, "inf", &d) == -EINVAL, "inf is not a probability");
	}
}

/* The library returns errors, NULL arguments too (they crashed: eel_open
 * wrote through out before looking, eel_connect read the channel). */
static void test_null_args(void)
{
	struct eel_dev *dev = (struct eel_dev *)1;

	CHECK(eel_open("softnic", NULL, NULL) == -EINVAL && strstr(eel_errmsg(), "out is NULL"), "eel_open(out NULL): %s",
	      eel_errmsg());
	CHECK(eel_open(NULL, NULL, &dev) == -EINVAL && !dev && strstr(eel_errmsg(), "URI is NULL"),
	      "eel_open(uri NULL): %s", eel_errmsg());
	CHECK(eel_connect(NULL, NULL) == -EINVAL && strstr(eel_errmsg(), "the NIC is NULL"), "eel_connect(NULL): %s",
	      eel_errmsg());
}

int main(void)
{
	test_null_args();
	test_shapes();
	test_errors();
	test_lookups();
	CHECK_DONE();
}
