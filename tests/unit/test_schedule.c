/* SPDX-License-Identifier: MIT */
/* tests/unit/test_schedule.c — allpairs' round-robin schedule (bench/launch/schedule.c):
 * for n = 2..64, every round pairs ranks disjointly and symmetrically, every
 * pair meets exactly once, n - 1 rounds for even n (nobody sits out) and n
 * for odd n (one rank out a round, each once); and the median absolute
 * deviation that flags a pair (method/stats.c mad_of). */
#include <string.h>

#include "check.h"
#include "bench/launch/schedule.h"
#include "method/stats.h"

static void test_rounds(int n)
{
	static int met[64][64];
	int rounds = rr_rounds(n), out[64] = { 0 };

	memset(met, 0, sizeof(met));
	CHECK_EQ_U(rounds, n % 2 ? n : n - 1);
	for (int r = 0; r < rounds; r++) {
		int idle = 0;

		for (int x = 0; x < n; x++) {
			int p = rr_partner(n, r, x);

			if (p < 0) {
				idle++;
				out[x]++;
				continue;
			}
			CHECK(p != x && p < n, "n %d round %d: rank %d meets %d", n, r, x, p);
			CHECK(rr_partner(n, r, p) == x, "n %d round %d: %d meets %d, who meets %d", n, r, x, p,
			      rr_partner(n, r, p));
			met[x][p]++;
		}
		CHECK_EQ_U(idle, n % 2);
	}
	for (int a = 0; a < n; a++) {
		CHECK_EQ_U(out[a], n % 2);
		for (int b = 0; b < n; b++)
			CHECK(met[a][b] == (a != b), "n %d: %d met %d %d times", n, a, b, met[a][b]);
	}
}

static void test_edges(void)
{
	CHECK_EQ_U(rr_rounds(1), 0);
	CHECK_EQ_U(rr_rounds(0), 0);
	CHECK(rr_partner(1, 0, 0) == -1, "one rank meets nobody");
	CHECK(rr_partner(4, 3, 0) == -1, "no round 3 of 4 ranks");
	CHECK(rr_partner(4, 0, 4) == -1, "no rank 4 of 4");
	CHECK(rr_partner(2, 0, 0) == 1 && rr_partner(2, 0, 1) == 0, "two ranks: one round");
}

static void test_mad(void)
{
	double v[] = { 100, 101, 99, 102, 98, 500, 100 }; /* one far from the rest */
	double med, mad = mad_of(v, 7, &med);

	CHECK_EQ_D(med, 100, 0);
	CHECK_EQ_D(mad, 1, 0);     /* deviations 0 1 1 2 2 400 0: median 1 */
	CHECK(500 > med + 3 * mad && 102 <= med + 3 * mad, "the far one alone beyond median + 3 MAD");
	CHECK_EQ_D(mad_of(v, 0, &med), 0, 0);
	CHECK_EQ_D(med, 0, 0);
}

int main(void)
{
	for (int n = 2; n <= 64; n++)
		test_rounds(n);
	test_edges();
	test_mad();
	CHECK_DONE();
}
