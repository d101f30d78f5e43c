/* SPDX-License-Identifier: MIT */
/* method/longopt.h — long options taken only in full, for every eel program
 * (eel-bench, eel-report, eel-compare, eel-probe, eel-mpi).
 *
 * getopt_long takes any unambiguous prefix of a long option ("--size 64"
 * became --sizes 64 and started the whole suite). longopt_check runs before
 * it and refuses an argument that names no option exactly, with a hint: the
 * options it is a prefix of, or the program's word for an option that means
 * something else in perftest (linux-rdma/perftest), whose users come with its
 * options in their fingers. Header-only: in method/, the one folder both
 * bench/ and tools/ may include (ARCHITECTURE.md), and linked into no
 * program that does not call it.
 */
#ifndef EEL_METHOD_LONGOPT_H
#define EEL_METHOD_LONGOPT_H

#include <getopt.h>
#include <stdio.h>
#include <string.h>

struct longopt_hint {
	const char *opt;   /* as typed: "--size", or a short option "-D" */
	const char *hint;  /* one clause: what the user likely meant */
	int number_after;  /* a short option this program has: refused only when a number follows it
			    * (eel-bench's -q is quiet, perftest's -q N a count that would become the host) */
};

static inline const struct longopt_hint *longopt_hint_for(const struct longopt_hint *h, const char *opt, size_t len)
{
	for (; h && h->opt; h++)
		if (strlen(h->opt) == len && !strncmp(h->opt, opt, len))
			return h;
	return NULL;
}

static inline int longopt_all_digits(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

/* "--name[=v]" that is no option: the options it begins, or its hint, into msg. */
static inline int longopt_unknown(const char *arg, size_t len, const struct option *opts,
				  const struct longopt_hint *hints, char *msg, size_t n)
{
	const struct longopt_hint *h = longopt_hint_for(hints, arg, len);
	size_t at = (size_t)snprintf(msg, n, "unknown option '%.*s'", (int)(len > 64 ? 64 : len), arg);
	int k = 0;

	if (h) {
		snprintf(msg + at, n - at, " (%s)", h->hint);
		return -1;
	}
	for (const struct option *o = opts; o->name && at < n; o++)
		if (len > 2 && !strncmp(o->name, arg + 2, len - 2))
			at += (size_t)snprintf(msg + at, n - at, "%s--%s", k++ ? " or " : " (options are taken only in "
					       "full: did you mean ", o->name);
	if (k && at < n)
		snprintf(msg + at, n - at, "?)");
	return -1;
}

/* Every option in argv[1..] (up to "--") named exactly, as getopt_long would
 * read them (a value after an option that takes one is skipped): 0, or -1
 * with one line in msg (without the program's name). */
static inline int longopt_check(int argc, char **argv, const char *shortopts, const struct option *opts,
				const struct longopt_hint *hints, char *msg, size_t n)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--"))
			return 0;
		if (a[0] != '-' || !a[1])
			continue;
		if (a[1] == '-') {
			size_t len = strcspn(a, "=");
			const struct option *o = opts;

			while (o->name && (strlen(o->name) != len - 2 || strncmp(o->name, a + 2, len - 2)))
				o++;
			if (!o->name)
				return longopt_unknown(a, len, opts, hints, msg, n);
			i += o->has_arg == required_argument && !a[len];
			continue;
		}
		for (const char *p = a + 1; *p; p++) {
			const char *d = *p == ':' ? NULL : strchr(shortopts, *p);
			char opt[3] = { '-', *p, 0 };
			const struct longopt_hint *h = longopt_hint_for(hints, opt, 2);

			if (!d && h) {
				snprintf(msg, n, "unknown option '-%c' (%s)", *p, h->hint);
				return -1;
			}
			if (d && h && h->number_after && !p[1] && i + 1 < argc && longopt_all_digits(argv[i + 1])) {
				snprintf(msg, n, "'-%c %.20s': %s", *p, argv[i + 1], h->hint);
				return -1;
			}
			if (!d)
				break;   /* getopt_long says it */
			if (d[1] == ':') {
				i += !p[1];
				break;
			}
		}
	}
	return 0;
}

#endif
