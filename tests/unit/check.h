/* SPDX-License-Identifier: MIT */
/* tests/unit/check.h — the unit tests' assertion harness: nothing but stdio.
 *
 *   CHECK(cond, fmt, ...)   counts a check; when cond is false, prints
 *                           file:line, the condition and the message (with
 *                           the values that matter) and counts a failure
 *   CHECK_EQ_U(a, b)        unsigned equality, both values printed
 *   CHECK_EQ_D(a, b, tol)   |a - b| <= tol, both values printed
 *   CHECK_DONE()            the last line of main: prints the summary and
 *                           returns the exit status (0 only when every check
 *                           passed and at least one ran)
 *
 * A check never stops the test: the remaining checks still run, so one run
 * shows every failure. REQUIRE is CHECK that returns from the calling
 * function on failure, for when what follows would make no sense.
 */
#ifndef EEL_TESTS_CHECK_H
#define EEL_TESTS_CHECK_H

#include <stdio.h>

static int check_runs, check_fails;

#define CHECK(cond, ...)                                                              \
	do {                                                                          \
		check_runs++;                                                         \
		if (!(cond)) {                                                        \
			check_fails++;                                                \
			fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, #cond); \
			fprintf(stderr, __VA_ARGS__);                                 \
			fputc('\n', stderr);                                          \
		}                                                                     \
	} while (0)

#define REQUIRE(cond, ...)                                                            \
	do {                                                                          \
		int check_before_ = check_fails;                                      \
		CHECK(cond, __VA_ARGS__);                                             \
		if (check_fails != check_before_)                                     \
			return;                                                       \
	} while (0)

#define CHECK_EQ_U(a, b)                                                              \
	do {                                                                          \
		unsigned long long check_a_ = (unsigned long long)(a);                \
		unsigned long long check_b_ = (unsigned long long)(b);                \
		CHECK(check_a_ == check_b_, "%s = %llu (0x%llx), %s = %llu (0x%llx)", #a, \
		      check_a_, check_a_, #b, check_b_, check_b_);                    \
	} while (0)

#define CHECK_EQ_D(a, b, tol)                                                         \
	do {                                                                          \
		double check_a_ = (double)(a), check_b_ = (double)(b);                \
		double check_d_ = check_a_ > check_b_ ? check_a_ - check_b_ : check_b_ - check_a_; \
		CHECK(check_d_ <= (double)(tol), "%s = %.17g, %s = %.17g (tolerance %.3g)", #a, \
		      check_a_, #b, check_b_, (double)(tol));                         \
	} while (0)

#define CHECK_DONE()                                                                  \
	do {                                                                          \
		fprintf(check_fails || !check_runs ? stderr : stdout,                 \
			"%s: %d checks, %d failed\n", __FILE__, check_runs, check_fails); \
		return check_fails || !check_runs ? 1 : 0;                            \
	} while (0)

#endif
