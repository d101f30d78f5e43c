/* SPDX-License-Identifier: MIT */
/* bench/launch/schedule.h — the round-robin schedule of all pairs (bench/launch/schedule.c). */
#ifndef EEL_BENCH_SCHEDULE_H
#define EEL_BENCH_SCHEDULE_H

/* Rounds that meet every pair of n ranks once (0 for n < 2). */
int rr_rounds(int n);
/* rank's partner in round (0 .. rr_rounds - 1), or -1: it sits out this round. */
int rr_partner(int n, int round, int rank);

#endif
