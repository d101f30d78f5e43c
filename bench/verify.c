/* SPDX-License-Identifier: MIT */
/* bench/verify.c — what --verify puts in every payload, and checks.
 *
 * Word j of message m at measurement point p is a hash of (p, m, j); the last
 * word of every message is its token, which the receiver waits for (a
 * message under 8 bytes is all mark: mark_put). So a
 * lost, misplaced, stale (an earlier point's) or corrupted word is found,
 * and a duplicate that lands late over newer data is found too. */
#include <string.h>

#include "bench.h"

uint64_t pattern_token(uint64_t point, uint32_t msg)
{
	return point << 32 | (uint64_t)(msg + 1);
}

static uint64_t word(uint64_t point, uint32_t msg, uint32_t j)
{
	/* splitmix64 finaliser (Steele et al. 2014) */
	uint64_t z = point * 0x9E3779B97F4A7C15ull ^ (uint64_t)msg << 20 ^ j;

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

uint64_t mark_value(uint64_t tok, uint32_t size)
{
	return size >= 8 ? tok : 1 + tok % ((1ull << (8 * size)) - 1);
}

uint32_t mark_offset(uint32_t size)
{
	return size >= 8 ? size - 8 : 0;
}

/* little-endian, as the hosts eel runs on: the word's low bytes are the message */
void mark_put(uint8_t *msg, uint32_t size, uint64_t tok)
{
	uint64_t v = mark_value(tok, size);

	memcpy(msg + mark_offset(size), &v, size >= 8 ? 8 : size);
}

void pattern_fill(uint8_t *buf, uint32_t size, uint64_t point, uint32_t msg)
{
	uint32_t words = size / 8;

	for (uint32_t j = 0; j + 1 < words; j++) {
		uint64_t w = word(point, msg, j);

		memcpy(buf + 8 * j, &w, 8);
	}
	mark_put(buf, size, pattern_token(point, msg));
}

uint32_t pattern_check(const uint8_t *buf, uint32_t size, uint64_t point, uint32_t msg)
{
	uint32_t words = size / 8, bad = 0;
	uint64_t w = 0;

	for (uint32_t j = 0; j + 1 < words; j++) {
		memcpy(&w, buf + 8 * j, 8);
		bad += w != word(point, msg, j);
	}
	memcpy(&w, buf + mark_offset(size), size >= 8 ? 8 : size);
	return bad + (w != mark_value(pattern_token(point, msg), size));
}
