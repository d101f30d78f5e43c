/* SPDX-License-Identifier: MIT */
/* tests/unit/test_fcs_crc32.c — the software wire's FCS is zlib's crc32 (issue
 * 16; it was eel's own table-driven CRC until then): the values on the wire
 * must not change. Known vectors of CRC-32 as IEEE 802.3 section 3.2.9 defines
 * it (polynomial 0x04C11DB7, reflected, initial value and final XOR all ones;
 * the catalogue's CRC-32/ISO-HDLC, check value 0xCBF43926 for "123456789"),
 * and zlib against the bit-at-a-time definition on 2000 pseudo-random frames
 * of 0..2047 bytes, with the split-and-continue form the wire could use. */
#include <stdint.h>
#include <string.h>
#include <zlib.h>

#include "check.h"

/* IEEE 802.3 section 3.2.9, one bit at a time (reflected: 0xEDB88320 is 0x04C11DB7 bit-reversed). */
static uint32_t fcs_bitwise(const uint8_t *p, size_t n)
{
	uint32_t c = 0xFFFFFFFFu;

	while (n--) {
		c ^= *p++;
		for (int k = 0; k < 8; k++)
			c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
	}
	return c ^ 0xFFFFFFFFu;
}

int main(void)
{
	static const struct { const char *s; uint32_t crc; } v[] = {
		{ "", 0x00000000u },
		{ "a", 0xE8B7BE43u },
		{ "123456789", 0xCBF43926u },
		{ "The quick brown fox jumps over the lazy dog", 0x414FA339u },
	};
	static uint8_t buf[2048];
	uint64_t x = 0x9E3779B97F4A7C15ull;

	for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++) {
		uint32_t z = (uint32_t)crc32_z(0, (const Bytef *)v[k].s, strlen(v[k].s));

		CHECK(z == v[k].crc, "zlib crc32(\"%s\") = 0x%08X, want 0x%08X", v[k].s, z, v[k].crc);
		CHECK(fcs_bitwise((const uint8_t *)v[k].s, strlen(v[k].s)) == v[k].crc, "the bitwise reference on \"%s\"",
		      v[k].s);
	}
	for (int t = 0; t < 2000; t++) {
		size_t n, cut;
		uint32_t want, z;

		for (size_t i = 0; i < sizeof(buf); i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;   /* xorshift64 */
			buf[i] = (uint8_t)x;
		}
		n = (size_t)(x % sizeof(buf));
		cut = n ? (size_t)(x >> 32) % n : 0;
		want = fcs_bitwise(buf, n);
		z = (uint32_t)crc32_z(0, buf, n);
		CHECK(z == want, "frame %d of %zu bytes: zlib 0x%08X, IEEE 802.3 0x%08X", t, n, z, want);
		z = (uint32_t)crc32_z(crc32_z(0, buf, cut), buf + cut, n - cut);
		CHECK(z == want, "frame %d in two parts at %zu: 0x%08X", t, cut, z);
	}
	CHECK_DONE();
}
