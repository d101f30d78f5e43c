/* SPDX-License-Identifier: MIT */
/* tests/unit/test_verify.c — the --verify payloads (bench/verify.c): what
 * pattern_fill writes pattern_check accepts; a flipped bit, a word from
 * another message or an earlier point (stale data), a lost token are found
 * and counted by the word. */
#include <string.h>

#include "bench.h"
#include "check.h"

int main(void)
{
	static const uint32_t sizes[] = { 8, 16, 24, 64, 1000, 4096, 131072 };
	static uint8_t buf[131072 + 8], other[131072];

	for (unsigned k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		uint32_t size = sizes[k], words = size / 8;
		uint64_t tok;

		memset(buf, 0xA5, sizeof(buf));
		pattern_fill(buf, size, 77, 5);
		CHECK(pattern_check(buf, size, 77, 5) == 0, "size %u: a fresh fill fails its check", size);
		memcpy(&tok, buf + size - 8, 8);
		CHECK(tok == pattern_token(77, 5) && tok == (77ull << 32 | 6), "size %u: the last word is the token", size);
		CHECK(buf[size] == 0xA5, "size %u: fill wrote past the end", size);

		/* one flipped bit, anywhere: one bad word */
		for (uint32_t bit = 0; bit < 8 * size; bit += 8 * size / 16 + 3) {
			buf[bit / 8] ^= (uint8_t)(1u << (bit % 8));
			CHECK(pattern_check(buf, size, 77, 5) == 1, "size %u: bit %u flipped: %u bad", size, bit,
			      pattern_check(buf, size, 77, 5));
			buf[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		}

		/* the previous point's data for the same message: every word stale */
		pattern_fill(other, size, 76, 5);
		CHECK(pattern_check(other, size, 77, 5) == words, "size %u: stale point: %u bad of %u", size,
		      pattern_check(other, size, 77, 5), words);
		/* another message of the same point: every word wrong */
		pattern_fill(other, size, 77, 6);
		CHECK(pattern_check(other, size, 77, 5) == words, "size %u: wrong message: %u bad", size,
		      pattern_check(other, size, 77, 5));
		/* a stale tail: only the first half arrived this time */
		if (words >= 2) {
			pattern_fill(other, size, 76, 5);
			memcpy(other, buf, (words / 2) * 8);
			CHECK(pattern_check(other, size, 77, 5) == words - words / 2, "size %u: half stale: %u bad",
			      size, pattern_check(other, size, 77, 5));
		}
	}
	/* tokens never repeat across points and messages */
	CHECK(pattern_token(1, 0) != pattern_token(0, 1) && pattern_token(1, 0xffffffffu - 1) != pattern_token(2, 0),
	      "tokens collide");
	CHECK_DONE();
}
