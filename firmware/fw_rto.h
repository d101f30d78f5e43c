/* SPDX-License-Identifier: MIT */
/* firmware/fw_rto.h — the retransmission timer's value (fw_rto.c): RFC 6298's
 * SRTT, RTTVAR and RTO from RTT samples, Karn's rule, backoff. */
#ifndef EEL_FW_RTO_H
#define EEL_FW_RTO_H

#include "fw.h"

void fw_rto_init(struct fw *fw);
void fw_rto_sample(struct fw *fw, uint64_t r);
void fw_rto_acked(struct fw *fw, uint32_t ack);
void fw_rto_backoff(struct fw *fw);

/* The timeout's ceiling (§2.5): the initial timeout, or the floor if
 * higher, backed off FW_RTO_BACKOFF times. Inline: read at each RTT
 * sample, once a ping-pong's put. */
static inline uint64_t fw_rto_max(const struct fw *fw)
{
	uint64_t base = fw->rto > fw->rto_min ? fw->rto : fw->rto_min;

	return base << FW_RTO_BACKOFF;
}

/* Time packet psn, sent at `now` (RFC 6298 §2: one RTT measurement at a time). */
static inline void fw_rto_time(struct fw *fw, uint32_t psn, uint64_t now)
{
	fw->rtt_on = 1;
	fw->rtt_psn = psn;
	fw->rtt_t0 = now;
}

/* Packet psn went out: time it when nothing is timed and this is its first
 * transmission; a retransmission while one is timed ends the timing (§3,
 * Karn's rule: its ACK could answer either transmission). Inline: once a
 * packet sent. */
static inline void fw_rto_sent(struct fw *fw, uint32_t psn, int first_tx)
{
	if (!first_tx)
		fw->rtt_on = 0;
	else if (!fw->rtt_on)
		fw_rto_time(fw, psn, hal_now(&fw->hal));
}

#endif
