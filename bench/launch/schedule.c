/* SPDX-License-Identifier: MIT */
/* bench/launch/schedule.c — the round-robin schedule of all pairs (the "circle
 * method" of round-robin tournaments): n ranks meet in rounds of disjoint
 * pairs, every pair exactly once; n - 1 rounds of n/2 pairs for even n, n
 * rounds with one rank sitting out each for odd n. Rank m-1 (m = n rounded up
 * to even) stays put; the others turn: in round r, rank m-1 meets r and every
 * other x meets (2r - x) mod (m - 1). */
#include "schedule.h"

int rr_rounds(int n)
{
	return n < 2 ? 0 : n % 2 ? n : n - 1;
}

int rr_partner(int n, int round, int rank)
{
	int m = n % 2 ? n + 1 : n, p;

	if (n < 2 || round < 0 || round >= m - 1 || rank < 0 || rank >= n)
		return -1;
	if (rank == m - 1)
		p = round;
	else if (rank == round)
		p = m - 1;
	else
		p = ((2 * round - rank) % (m - 1) + (m - 1)) % (m - 1);
	return p < n ? p : -1; /* the odd one out's partner is the one that is not there */
}
