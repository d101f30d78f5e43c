/* SPDX-License-Identifier: MIT */
/* tools/compare_tail.h — what one run's tail (parameters.eel_tail: every round
 * trip in a histogram, docs/json.md) can tell eel-compare about its own
 * quantiles: how well its rounds pin each one. Not how it moves from run to
 * run: a tail is one histogram per run, with no spread over runs. */
#ifndef EEL_TOOLS_COMPARE_TAIL_H
#define EEL_TOOLS_COMPARE_TAIL_H

#include "tools/json_read.h"

/* The threshold (%) the tails are judged at when --threshold is lower: four
 * identical runs of the software NIC on the 2-vCPU VM (10^5 rounds each) put
 * p99 at 622..763 ns, 10% either side of their middle; p99.9 moved 1000x. */
#define TAIL_THRESHOLD 25.0

/* The q-quantile's distribution-free 95% interval from the order statistics
 * of the tail's histogram (count n: ranks n q -+ 1.96 sqrt(n q (1 - q))),
 * each rank's value as the tail's quantiles are given (its bucket's high_ns,
 * within min..max); *noise: the wider side of it from the quantile at q.
 * 1 when the tail has a histogram of count rounds, else 0. */
int tail_quantile_noise(const struct jr_val *tail, double q, double *noise);

#endif
