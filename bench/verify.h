/* SPDX-License-Identifier: MIT */
/* bench/verify.h — what --verify puts in every payload, and checks (the tokens that mark each message). */
#ifndef EEL_BENCH_VERIFY_H
#define EEL_BENCH_VERIFY_H

#include <stdint.h>

void pattern_fill(uint8_t *buf, uint32_t size, uint64_t point, uint32_t msg);
uint32_t pattern_check(const uint8_t *buf, uint32_t size, uint64_t point, uint32_t msg);
uint64_t pattern_token(uint64_t point, uint32_t msg);

/* A message's mark, how its receiver sees it arrive (as perftest polls the
 * last byte): a message of 8 bytes or more ends with its 8-byte token; a
 * shorter one (perftest's -a starts at 2 bytes) is the token folded into its
 * bytes (never 0), put at the start of an 8-byte word whose other bytes are 0
 * (the receiver zeroes the word first). mark_value: the word the receiver
 * waits for; mark_offset: where that word is in the message's place. */
uint64_t mark_value(uint64_t tok, uint32_t size);
uint32_t mark_offset(uint32_t size);
void mark_put(uint8_t *msg, uint32_t size, uint64_t tok);

#endif
