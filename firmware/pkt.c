/* SPDX-License-Identifier: MIT */
/* firmware/pkt.c — reading and writing eel packet headers (firmware/pkt.h).
 * Everything received is checked here before any of it is believed. */
#include "fw.h"

int fw_pkt_parse(const void *frame, uint32_t frame_len, struct fw_pkt *hdr)
{
	if (frame_len < FW_PKT_HDR)
		return -1;                 /* runt */
	fw_copy(hdr, frame, FW_PKT_HDR);   /* the frame may be unaligned */
	if (hdr->magic != FW_WIRE_MAGIC)
		return -2;                 /* not eel, or another wire version */
	if (hdr->op == 0 || hdr->op > FW_PKT_OP_MAX)
		return -3;
	if (hdr->len != frame_len - FW_PKT_HDR || hdr->len > EEL_FW_MTU_MAX)
		return -4;                 /* length disagrees with the frame */
	switch (hdr->op) {
	case FW_PKT_EPUT:
	case FW_PKT_EGET_RESP:
		return hdr->len == 8 ? 0 : -5;
	case FW_PKT_EGET_REQ:
	case FW_PKT_ACK:
	case FW_PKT_NAK:
		return hdr->len == 0 ? 0 : -5;
	default:
		return 0;
	}
}

void fw_pkt_write(void *frame, const struct fw_pkt *hdr)
{
	fw_copy(frame, hdr, FW_PKT_HDR);
}
