/* SPDX-License-Identifier: MIT */
/* tests/unit/test_breakdown_rounds.c — the breakdown of rounds whose
 * messages take every stamp (a NIC whose traced messages cannot choose:
 * verbs, eel's firmware hosted by dpdk or raw), breakdown_rounds +
 * breakdown_finish, on synthetic ping-pong rounds with known stages,
 * turnarounds and stamp cost:
 *   - each part is its mean less a stamp's cost alone (the only cost known
 *     there), never a cost solved from EEL: where a stamp costs more in
 *     place (STAMP against 4 cycles alone), the residual says by how much;
 *   - without one clock at both ends, the part between them is what EEL
 *     leaves of the others, and the residual is not separable (none);
 *   - a round missing a record, or preempted, is left out whole.
 * (The messages that choose their stamps: test_breakdown_chosen.c.)
 */
#include <math.h>
#include <string.h>

#include "bench.h"
#include "check.h"

/* exact in binary; a stamp costs 4 cycles alone, 6 in place (STAMP): within
 * the 1/2x..2x the in-place estimate is taken in */
static struct eel_clock clk2 = { .hz = 2e9, .ns_per_cycle = 0.5, .stamp_cycles = 4 };

static const int order[STAGE_PARTS + 1] = {
	EEL_ST_POST, EEL_ST_DOORBELL, EEL_ST_DOORBELL_DONE, EEL_ST_NIC_FETCH, EEL_ST_NIC_TX,
	EEL_ST_NIC_RX, EEL_ST_DMA_START, EEL_ST_DMA_DONE, EEL_ST_DETECT,
};

#define NR 200      /* rounds */
#define STAMP 6     /* cycles a stamp costs in place */

/* True cycles of stage k of message m (0: ping, 1: pong) of round r. */
static uint64_t stage(int k, int m, int r)
{
	return (uint64_t)(4 * (k + 1) + 3 * m) * (1 + (uint64_t)(r * (k + 2)) % 5);
}

static uint64_t turn(int which, int r) /* 0, 1: the client's two halves; 2: the server's */
{
	return (uint64_t)(5 + 7 * which) * (1 + (uint64_t)r % 3);
}

/* One message from `post` on: its sender's and receiver's records; returns
 * DETECT. Every stamp costs STAMP cycles on the stage it ends. */
static uint64_t message(struct eel_trace *snd, struct eel_trace *rcv, uint32_t id, uint32_t rid, uint64_t post,
			int m, int r)
{
	uint64_t t = post;

	memset(snd, 0, sizeof(*snd));
	memset(rcv, 0, sizeof(*rcv));
	snd->msg_id = id;
	rcv->msg_id = rid;
	snd->valid = rcv->valid = 1;
	for (int k = 0; k <= STAGE_PARTS; k++) {
		(order[k] >= EEL_ST_NIC_RX ? rcv : snd)->t[order[k]] = t;
		if (k < STAGE_PARTS)
			t += stage(k, m, r) + STAMP;
	}
	return rcv->t[EEL_ST_DETECT];
}

static struct eel_trace ctx[NR], crx[NR], stx[NR], srx[NR];
static uint64_t start[NR], end[NR];

/* Build NR rounds; returns the true mean RTT/2 in ns. Round `lost` has no
 * pong record at the client; round `preempted` is stretched by 1 ms. */
static double rounds(int lost, int preempted, double want[STAGE_PARTS], double *want_turn)
{
	double sum = 0;
	int used = 0;

	memset(want, 0, sizeof(double) * STAGE_PARTS);
	*want_turn = 0;
	for (int r = 0; r < NR; r++) {
		uint64_t a = 1000000 + 100000 * (uint64_t)r, post, detect, true_rtt;

		start[r] = a;
		post = a + turn(0, r) + STAMP;                                      /* ends with POST */
		detect = message(&ctx[r], &srx[r], (uint32_t)r, (uint32_t)r, post, 0, r);
		post = detect + turn(2, r) + STAMP;
		detect = message(&stx[r], &crx[r], (uint32_t)r, (uint32_t)r, post, 1, r);
		end[r] = detect + turn(1, r) + STAMP + (r == preempted ? 2000000 : 0); /* ends with the top */
		true_rtt = turn(0, r) + turn(1, r) + turn(2, r);
		for (int k = 0; k < STAGE_PARTS; k++)
			true_rtt += stage(k, 0, r) + stage(k, 1, r);
		if (r == lost || r == preempted)
			continue;
		used++;
		sum += 0.5 * (double)true_rtt / 2;
		for (int k = 0; k < STAGE_PARTS; k++)
			want[k] += 0.5 * (double)(stage(k, 0, r) + stage(k, 1, r)) / 2;
		*want_turn += 0.5 * (double)(turn(0, r) + turn(1, r) + turn(2, r)) / 2;
	}
	for (int k = 0; k < STAGE_PARTS; k++)
		want[k] /= used;
	*want_turn /= used;
	return sum / used;
}

static void check_mode(int shared)
{
	struct session s = { 0 };
	struct breakdown bd = { 0 };
	struct bd_rounds rd = { start, end, NR, NR };
	double want[STAGE_PARTS], want_turn, eel, sum = 0;
	int lost = 17, preempted = 55, ncrx = 0;
	static struct eel_trace crx_kept[NR];

	s.caps = &s.caps_copy;
	s.clk = &clk2;
	s.caps_copy.flags = shared ? EEL_CAP_SHARED_CLOCK : 0;
	s.caps_copy.stamp_mask = (1u << EEL_STAGES) - 1;
	eel = rounds(lost, preempted, want, &want_turn);
	for (int r = 0; r < NR; r++)
		if (r != lost)
			crx_kept[ncrx++] = crx[r];
	if (!shared) /* the server's detections are its own count, not the sender's number */
		for (int r = 0; r < NR; r++)
			srx[r].msg_id = 1000 + (uint32_t)r;
	bd.eel_ref_ns = eel;
	bd.cut_ns = 10 * eel;
	CHECK(breakdown_add(&s, &bd, ctx, NR, srx, NR) == 0 && breakdown_add(&s, &bd, stx, NR, crx_kept, ncrx) == 0,
	      "breakdown_add failed");
	CHECK(breakdown_rounds(&s, &bd, &rd, ctx, NR, crx_kept, ncrx, stx, NR, srx, NR) == 0, "breakdown_rounds failed");
	breakdown_finish(&bd);
	if (!shared) {
		/* two clocks and a round missing at one end: which server pair
		 * belongs to which round cannot be told, so none is used */
		CHECK(!bd.have_rounds && bd.unjoined > 0, "shared %d: %d rounds used with one missing at the client",
		      shared, bd.nrtt);
		breakdown_free(&bd);
		return;
	}
	CHECK(bd.have_rounds && bd.nrtt == NR - 2, "shared %d: %d rounds used, want %d", shared, bd.nrtt, NR - 2);
	CHECK(bd.interrupted == 1, "shared %d: %d rounds left out as preempted, want 1", shared, bd.interrupted);
	/* each stamp costs STAMP (6 cycles) on the part it ends, 4 are taken
	 * off: each part comes out 1 ns long, the turnaround (three intervals,
	 * halved) 1.5 ns, and the residual says so: 9.5 ns */
	for (int k = 0; k < STAGE_PARTS; k++) {
		CHECK(fabs(bd.part[k].mean - (want[k] + 1)) < 1e-6, "shared %d, part %d: %.9g ns, want %.9g", shared, k,
		      bd.part[k].mean, want[k] + 1);
		sum += bd.part[k].mean;
	}
	CHECK(fabs(bd.turn_st.mean - (want_turn + 1.5)) < 1e-6, "shared %d: turnaround %.9g, want %.9g", shared,
	      bd.turn_st.mean, want_turn + 1.5);
	CHECK(fabs(bd.parts_sum_ns - (sum + bd.turn_st.mean)) < 1e-6 && fabs(bd.residual_ns - 9.5) < 1e-6,
	      "shared %d: the parts add to %.9g, residual %.9g, want 9.5", shared, bd.parts_sum_ns, bd.residual_ns);
	CHECK(fabs(bd.perturbation_ns - (bd.round.mean - eel)) < 1e-9 && bd.round.mean > eel,
	      "shared %d: perturbation %.9g (rounds %.9g, EEL %.9g)", shared, bd.perturbation_ns, bd.round.mean, eel);
	/* the same records against an EEL known to +-40 ns: the residual's
	 * uncertainty holds it (two measurements compared), in quadrature */
	{
		struct breakdown wide = { 0 };

		wide.eel_ref_ns = eel;
		wide.eel_ref_unc_ns = 40;
		wide.cut_ns = 10 * eel;
		CHECK(breakdown_add(&s, &wide, ctx, NR, srx, NR) == 0 &&
		      breakdown_add(&s, &wide, stx, NR, crx_kept, ncrx) == 0 &&
		      breakdown_rounds(&s, &wide, &rd, ctx, NR, crx_kept, ncrx, stx, NR, srx, NR) == 0,
		      "breakdown_add or _rounds failed");
		breakdown_finish(&wide);
		CHECK(fabs(wide.residual_ns - bd.residual_ns) < 1e-9 &&
		      fabs(wide.residual_unc_ns * wide.residual_unc_ns -
			   (bd.residual_unc_ns * bd.residual_unc_ns + 40 * 40)) < 1e-6,
		      "shared %d: residual +-%.9g with EEL +-40, +-%.9g without", shared, wide.residual_unc_ns,
		      bd.residual_unc_ns);
		breakdown_free(&wide);
	}
	/* no round joined (the one-way records alone): the same parts, each
	 * less its stamps' cost once (here 2 ns: taken twice, 2 ns short) */
	{
		struct breakdown one = { 0 };

		one.eel_ref_ns = eel;
		one.cut_ns = 10 * eel;
		CHECK(breakdown_add(&s, &one, ctx, NR, srx, NR) == 0 &&
		      breakdown_add(&s, &one, stx, NR, crx_kept, ncrx) == 0, "breakdown_add failed");
		breakdown_finish(&one);
		for (int k = 0; k < STAGE_PARTS; k++)
			CHECK(fabs(one.part[k].mean - bd.part[k].mean) < 0.5, "shared %d, part %d of the one-way records: "
			      "%.3g ns, of the rounds %.3g", shared, k, one.part[k].mean, bd.part[k].mean);
		breakdown_free(&one);
	}
	breakdown_free(&bd);
}

/* Two clocks, every round there: the part between the ends is what the
 * round leaves, both directions' mean (here the server's clock is offset). */
static void check_two_clocks(void)
{
	struct session s = { 0 };
	struct breakdown bd = { 0 };
	struct bd_rounds rd = { start, end, NR, NR };
	double want[STAGE_PARTS], want_turn, eel, sum = 0;

	s.caps = &s.caps_copy;
	s.clk = &clk2;
	s.caps_copy.flags = 0;
	s.caps_copy.stamp_mask = (1u << EEL_STAGES) - 1;
	eel = rounds(-1, -1, want, &want_turn);
	for (int r = 0; r < NR; r++) {
		for (int k = 0; k < EEL_STAGES; k++) {
			if (srx[r].t[k])
				srx[r].t[k] += 777777;
			if (stx[r].t[k])
				stx[r].t[k] += 777777;
		}
		srx[r].msg_id = 5000 + (uint32_t)r;
	}
	bd.eel_ref_ns = eel;
	CHECK(breakdown_add(&s, &bd, ctx, NR, srx, NR) == 0 && breakdown_add(&s, &bd, stx, NR, crx, NR) == 0,
	      "breakdown_add failed");
	CHECK(breakdown_rounds(&s, &bd, &rd, ctx, NR, crx, NR, stx, NR, srx, NR) == 0, "breakdown_rounds failed");
	breakdown_finish(&bd);
	CHECK(bd.have_rounds && bd.nrtt == NR && bd.across_derived, "two clocks: %d rounds, derived %d", bd.nrtt,
	      bd.across_derived);
	/* the other parts' excess (1 ns each, the turnaround's 1.5) is taken
	 * out of the wire: nothing can check it there */
	CHECK(fabs(bd.part[STAGE_WIRE].mean - (want[STAGE_WIRE] - 8.5)) < 1e-6, "two clocks: the wire %.9g, want %.9g",
	      bd.part[STAGE_WIRE].mean, want[STAGE_WIRE] - 8.5);
	for (int k = 0; k < STAGE_PARTS; k++)
		sum += bd.part[k].mean;
	CHECK(fabs(sum + bd.turn_st.mean - eel) < 1e-6 && isnan(bd.residual_ns),
	      "two clocks: the parts add to %.9g, want %.9g; residual %g, want none (not separable)",
	      sum + bd.turn_st.mean, eel, bd.residual_ns);
	breakdown_free(&bd);
}

int main(void)
{
	check_mode(1);
	check_mode(0);
	check_two_clocks();
	CHECK_DONE();
}
