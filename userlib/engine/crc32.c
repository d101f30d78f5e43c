/* userlib/engine/crc32.c — CRC-32 as Ethernet's FCS computes it (IEEE 802.3 §3.2.9:
 * polynomial 0x04C11DB7, reflected, initial value and final XOR all ones). */
#include "userlib/engine/crc32.h"

static uint32_t table[256];

static void make_table(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int k = 0; k < 8; k++)
			c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
		table[i] = c;
	}
}

uint32_t eel_crc32(const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint32_t c = 0xFFFFFFFFu;

	if (!table[1])
		make_table();
	while (len--)
		c = table[(c ^ *p++) & 0xff] ^ (c >> 8);
	return c ^ 0xFFFFFFFFu;
}
