/* SPDX-License-Identifier: MIT */
/* firmware/fw_rto.h — the retransmission timer's value (fw_rto.c): RFC 6298's
 * SRTT, RTTVAR and RTO from RTT samples, Karn's rule, backoff. */
#ifndef EEL_FW_RTO_H
#define EEL_FW_RTO_H

#include "fw.h"

void fw_rto_init(struct fw *fw);
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

/* The RTO arithmetic (fw_rto.c's comment gives the sections). */
#define FW_RTO_G 1u /* G: the NIC clock's granularity, in ticks */

/* RTO = SRTT + max(G, 4 RTTVAR) (§2.2, §2.3), within the floor (§2.4) and
 * the ceiling (§2.5). rttvar4 is 4 RTTVAR already. */
static inline uint64_t fw_rto_of(const struct fw *fw)
{
	uint64_t v = fw->rttvar4 > FW_RTO_G ? fw->rttvar4 : FW_RTO_G;
	uint64_t rto = (fw->srtt8 >> 3) + v, max = fw_rto_max(fw);

	if (rto < fw->rto_min)
		rto = fw->rto_min; /* §2.4 */
	return rto < max ? rto : max; /* §2.5 */
}

/* An RTT sample r, in ticks (§2.2, §2.3). */
static inline __attribute__((always_inline)) void fw_rto_sample(struct fw *fw, uint64_t r)
{
	if (!r)
		r = 1;
	if (!fw->srtt8) {
		fw->srtt8 = r << 3;   /* §2.2: SRTT = R */
		fw->rttvar4 = r << 1; /* RTTVAR = R/2, x4 */
	} else {
		uint64_t srtt = fw->srtt8 >> 3;
		uint64_t neg = -(uint64_t)(r < srtt); /* |r - srtt| without a branch: */
		uint64_t err = ((r - srtt) ^ neg) - neg; /* the same count each sample (tools/eel-cost) */

		/* §2.3: RTTVAR first, from the old SRTT; then SRTT */
		fw->rttvar4 = fw->rttvar4 - (fw->rttvar4 >> 2) + err;
		fw->srtt8 = fw->srtt8 - (fw->srtt8 >> 3) + r;
	}
	fw->rto_cur = fw_rto_of(fw);
	fw->rto_backed = 0;
}

/* An ACK of new data, everything before ack: a sample if it covers the PSN
 * timed, and the backoff ends (§5.7; RTO from SRTT and RTTVAR, or the
 * initial value before any sample, §2.1): rto_cur is computed again only
 * when a backoff moved it, as nothing else does between samples. Inline, as
 * the sample and RTO arithmetic: once a ping-pong's put, and their calls
 * were a fifth of it. */
static inline __attribute__((always_inline)) void fw_rto_acked(struct fw *fw, uint32_t ack)
{
	if (fw->rtt_on && fw_psn_before(fw->rtt_psn, ack)) {
		fw->rtt_on = 0;
		fw_rto_sample(fw, hal_now(&fw->hal) - fw->rtt_t0);
		return;
	}
	if (fw->rto_backed) /* else rto_cur is what it would be set to */
		fw->rto_cur = fw->srtt8 ? fw_rto_of(fw) : fw->rto;
	fw->rto_backed = 0;
}

#endif
