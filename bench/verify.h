/* SPDX-License-Identifier: MIT */
/* bench/verify.h — what --verify puts in every payload, and checks (the tokens that mark each message). */
#ifndef EEL_BENCH_VERIFY_H
#define EEL_BENCH_VERIFY_H

#include <stdint.h>

void pattern_fill(uint8_t *buf, uint32_t size, uint64_t point, uint32_t msg);
uint32_t pattern_check(const uint8_t *buf, uint32_t size, uint64_t point, uint32_t msg);
uint64_t pattern_token(uint64_t point, uint32_t msg);

#endif
