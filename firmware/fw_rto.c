/* SPDX-License-Identifier: MIT */
/* firmware/fw_rto.c — the retransmission timer's value, after RFC 6298
 * ("Computing TCP's Retransmission Timer"), in integer arithmetic with the
 * scaled SRTT (x8) and RTTVAR (x4) of Jacobson 1988, as the RFC's rules are
 * written for: alpha = 1/8 and beta = 1/4 become shifts.
 *
 *   §2.1  before the first sample, RTO = the configured initial value (BAR0
 *         rto; rto_us, 4 ms by default on the software NIC).
 *   §2.2  the first sample R: SRTT = R, RTTVAR = R/2, RTO = SRTT + max(G, 4 RTTVAR).
 *   §2.3  each later R': RTTVAR = 3/4 RTTVAR + 1/4 |SRTT - R'| (with the old
 *         SRTT), then SRTT = 7/8 SRTT + 1/8 R', and RTO as in §2.2.
 *   §2.4  RTO is raised to a floor. The RFC's 1 s is for a host's coarse
 *         timers and a peer's delayed ACKs; this NIC's clock is fine-grained
 *         (G, the clock's granularity, one tick), but its peer is firmware
 *         run by a host process (or a host thread) which the host's
 *         scheduler may hold off its core for a time slice: on a busy
 *         machine a descheduled peer, not a lost packet. The floor is
 *         configured with the rest of the timer (BAR0 rto_min; the engine's
 *         rto_min_us, by default the initial rto_us: a scheduler's time
 *         slice and more), so it is a property of the wire the host knows.
 *   §2.5  a ceiling: the initial RTO doubled FW_RTO_BACKOFF times (the RFC's
 *         60 s is a WAN's).
 *   §3    Karn's rule: no sample from a PSN that was sent again (its ACK may
 *         answer either transmission). One PSN is timed at a time, as in
 *         Jacobson's code: a retransmission while it is timed ends the timing.
 *   §5.5  each expiry doubles RTO, up to the ceiling; §5.7's spirit: an ACK
 *         of new data ends the backoff (the RTO from SRTT and RTTVAR again).
 */
#include "fw_rto.h"

/* The sample, the RTO and an ACK's part (§2.2-2.5, §3, §5.7; once a
 * ping-pong's put) are inline in fw_rto.h. */

/* No samples yet: RTO is the initial value (§2.1). */
void fw_rto_init(struct fw *fw)
{
	fw->srtt8 = 0;
	fw->rttvar4 = 0;
	fw->rtt_on = 0;
	fw->rto_cur = fw->rto;
	fw->rto_backed = 0;
}

/* The timer expired: RTO doubles, up to the ceiling (§5.5), and what is
 * timed may be sent again: no sample from it (§3). */
void fw_rto_backoff(struct fw *fw)
{
	uint64_t max = fw_rto_max(fw);

	fw->rto_cur = fw->rto_cur >= max / 2 ? max : fw->rto_cur << 1;
	fw->rto_backed = 1;
	fw->rtt_on = 0;
}
