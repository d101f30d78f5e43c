/* userlib/engine/crc32.h — CRC-32 (IEEE 802.3 FCS polynomial), for the software wire. */
#ifndef EEL_USERLIB_CRC32_H
#define EEL_USERLIB_CRC32_H

#include <stddef.h>
#include <stdint.h>

uint32_t eel_crc32(const void *buf, size_t len);

#endif
