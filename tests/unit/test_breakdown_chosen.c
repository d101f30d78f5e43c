/* SPDX-License-Identifier: MIT */
/* tests/unit/test_breakdown_chosen.c — the breakdown measured from messages
 * that each take POST and a few stamps around one (eel_stamp_pick,
 * breakdown_rounds + breakdown_finish), on synthetic ping-pong rounds with
 * known stages, turnarounds and stamp costs:
 *   - each stamp costs the path STAMP(st) cycles, half before its read and
 *     half after; the span around it with it and without it measures that:
 *     every part, the turnaround and the one-way trip come back as their
 *     true means, and the residual is 0;
 *   - the perturbation is what the stamps added to the stamped rounds;
 *   - records are not cleared: stamps a message did not ask for hold stale
 *     values, which must not be read;
 *   - the residual can fail: bookkeeping on the traced path that no span
 *     measures (here 20 cycles in post) comes back as a residual of
 *     that size, not hidden in a fitted cost;
 *   - a part within its uncertainty of 0 is a bound, never a negative.
 */
#include <math.h>
#include <string.h>

#include "bench.h"
#include "check.h"
#include "userlib/core/dev.h"

/* exact in binary: 2 GHz, a stamp alone 4 cycles */
static struct eel_clock clk2 = { .hz = 2e9, .ns_per_cycle = 0.5, .stamp_cycles = 4 };

#define NP_MAX 32
#define CYCLES 40   /* rounds of each choice */
/* cycles stamp st costs the path, in place: each its own, so that a cost
 * taken off the wrong part shows; POST and DETECT (and the client's loop
 * top), never inside a span, cost the mean of the others, as the bench
 * takes them to */
#define STAMP(st) ((st) == EEL_ST_POST || (st) == EEL_ST_DETECT ? (uint64_t)12 : 4 + 2 * (uint64_t)(st))

static int np;      /* the choices (eel_stamp_pick) */
static struct eel_stamp_turn pick_turn = { .mask = (1u << EEL_ST_COMPLETE) - 1, .shared = 1 };

/* True cycles of stage k of message m (0: ping, 1: pong) of round r: the
 * same for every choice of stamps in one cycle through them. */
static uint64_t stage(int k, int m, int r)
{
	int c = r / np;

	return k == STAGE_PARTS - 2 ? 0 : (uint64_t)(4 * (k + 1) + 3 * m) * (1 + (uint64_t)(c * (k + 2)) % 5);
}

static uint64_t turn(int which, int r) /* 0, 1: the client's two halves; 2: the server's */
{
	return (uint64_t)(5 + 7 * which) * (1 + (uint64_t)(r / np) % 3);
}

#define NR (NP_MAX * CYCLES)
static struct eel_trace ctx[NR], crx[NR], stx[NR], srx[NR];
static int ncrx, nsrx;
static uint64_t start[NR], end[NR];

/* One message from t on, taking the stamps in want (POST and one stage, or
 * a span without its middle stamp), each costing STAMP(st); book: cycles
 * of tracing bookkeeping after POST that no span measures. Fills the sender's
 * record and, when it takes a receiver's stamp, the receiver's. Returns the
 * time after DETECT (and its stamp's cost, which the turnaround holds). */
static uint64_t message(struct eel_trace *snd, struct eel_trace *rcv, int *has_rcv, uint32_t id, uint64_t t,
			uint32_t want, int m, int r, uint64_t book)
{
	for (int k = 0; k < EEL_STAGES; k++)
		snd->t[k] = rcv->t[k] = 0xdead0000u + (uint64_t)k; /* stale: never read */
	snd->msg_id = rcv->msg_id = id;
	snd->valid = rcv->valid = 1;
	snd->want = want;
	rcv->want = (want & (EEL_TRACE_STAMPS & ~((1u << EEL_ST_NIC_RX) - 1))) | EEL_TRACE_CHOSEN;
	*has_rcv = !!(rcv->want & EEL_TRACE_STAMPS);
	for (int st = 0; st <= EEL_ST_DETECT; st++) {
		struct eel_trace *rec = st >= EEL_ST_NIC_RX ? rcv : snd;

		if (want & (1u << st)) {
			t += STAMP(st) / 2;
			rec->t[st] = t;
			t += STAMP(st) / 2;
		}
		if (st == EEL_ST_POST)
			t += book;
		if (st < EEL_ST_DETECT)
			t += stage(st, m, r);
	}
	return t;
}

struct truth {
	double part[STAGE_PARTS], turn, eel, oneway, stamped;
};

/* NR rounds, round r's ping and pong taking choice r % np; book as above. */
static void rounds(uint64_t book, struct truth *w)
{
	int n = np * CYCLES, h;

	memset(w, 0, sizeof(*w));
	ncrx = nsrx = 0;
	for (int r = 0; r < n; r++) {
		uint32_t want = eel_stamp_pick(&pick_turn, (uint32_t)r);
		uint64_t a = 1000000 + 100000 * (uint64_t)r, t, d;
		double rtt = 0;

		start[r] = a;
		t = a + STAMP(EEL_ST_POST) / 2 + turn(0, r); /* the loop top's stamp (costing POST's), the client's half */
		d = message(&ctx[r], &srx[nsrx], &h, (uint32_t)r, t, want, 0, r, book);
		nsrx += h;
		t = d + turn(2, r);
		d = message(&stx[r], &crx[ncrx], &h, 1000 + (uint32_t)r, t, want, 1, r, book);
		ncrx += h;
		end[r] = d + turn(1, r) + STAMP(EEL_ST_POST) / 2;
		for (int k = 0; k < STAGE_PARTS; k++) {
			double one = 0.5 * (double)(stage(k, 0, r) + stage(k, 1, r)) / 2;

			w->part[k] += one;
			rtt += one;
			w->oneway += one;
		}
		w->turn += 0.5 * (double)(turn(0, r) + turn(1, r) + turn(2, r)) / 2;
		rtt += 0.5 * (double)(turn(0, r) + turn(1, r) + turn(2, r)) / 2;
		w->eel += rtt;
		w->stamped += 0.5 * (double)(end[r] - start[r]) / 2;
	}
	for (int k = 0; k < STAGE_PARTS; k++)
		w->part[k] /= n;
	w->turn /= n;
	w->eel /= n;
	w->oneway /= n;
	w->stamped /= n;
}

/* The table of bd (breakdown_table): whether it says the parts do not add
 * up to EEL (apart: it must), and gives their shares of the parts' sum. */
static void table_says(const struct breakdown *bd, int apart)
{
	static struct results r;
	struct session s = { 0 };
	char buf[8192] = "";
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");

	REQUIRE(f, "fmemopen failed");
	s.caps = &s.caps_copy;
	snprintf(s.caps_copy.clock, sizeof(s.caps_copy.clock), "%s", "a test clock");
	r.bd = *bd; /* a copy for the table: bd keeps its samples and frees them */
	breakdown_table(f, &s, &r);
	fclose(f);
	CHECK(!strstr(buf, "the parts do not add up to EEL within 5 %") == !apart &&
	      !strstr(buf, "% of the parts' sum: they do not add up to EEL") == !apart,
	      "the table %s that the parts do not add up (residual %.9g +- %.9g):\n%s", apart ? "does not say" : "says",
	      bd->residual_ns, bd->residual_unc_ns, buf);
}

static void run(struct breakdown *bd, double eel)
{
	struct session s = { 0 };
	struct bd_rounds rd = { start, end, np * CYCLES, NR };

	s.caps = &s.caps_copy;
	s.clk = &clk2;
	s.caps_copy.flags = EEL_CAP_SHARED_CLOCK;
	s.caps_copy.stamp_mask = (1u << EEL_STAGES) - 1;
	memset(bd, 0, sizeof(*bd));
	bd->eel_ref_ns = eel;
	bd->cut_ns = 1e9;
	CHECK(breakdown_add(&s, bd, ctx, np * CYCLES, srx, nsrx) == 0 &&
	      breakdown_add(&s, bd, stx, np * CYCLES, crx, ncrx) == 0, "breakdown_add failed");
	CHECK(breakdown_rounds(&s, bd, &rd, ctx, np * CYCLES, crx, ncrx, stx, np * CYCLES, srx, nsrx) == 0,
	      "breakdown_rounds failed");
	breakdown_finish(bd);
}

int main(void)
{
	struct breakdown bd;
	struct truth w;
	double sum = 0;

	for (np = 1; np < NP_MAX && eel_stamp_pick(&pick_turn, (uint32_t)np) != eel_stamp_pick(&pick_turn, 0); np++)
		;
	CHECK(np == 15, "%d choices of stamps for 9 stamps on one clock, want 7 x (around one, with and without) "
	      "+ the whole", np);

	rounds(0, &w);
	run(&bd, w.eel);
	CHECK(bd.chosen && bd.have_rounds && bd.nrtt == np * CYCLES, "rounds used %d of %d (chosen %d)", bd.nrtt,
	      np * CYCLES, bd.chosen);
	for (int st = 0; st < EEL_ST_COMPLETE; st++)
		CHECK(fabs(bd.cost_ns[st] - 0.5 * (double)STAMP(st)) < 1e-9 &&
		      bd.in_place[st] == (st != EEL_ST_POST && st != EEL_ST_DETECT),
		      "stamp %s costs %.9g ns in place (measured %d), want %g", stamp_key[st], bd.cost_ns[st],
		      bd.in_place[st], 0.5 * (double)STAMP(st));
	for (int k = 0; k < STAGE_PARTS; k++) {
		CHECK(fabs(bd.part[k].mean - w.part[k]) < 1e-9, "part %s: %.9g ns, want %.9g", stage_part_name[k],
		      bd.part[k].mean, w.part[k]);
		sum += bd.part[k].mean;
	}
	CHECK(fabs(bd.turn_st.mean - w.turn) < 1e-9, "turnaround %.9g, want %.9g", bd.turn_st.mean, w.turn);
	CHECK(fabs(sum + bd.turn_st.mean - bd.parts_sum_ns) < 1e-9, "the parts %.9g and the turn %.9g add to %.9g",
	      sum, bd.turn_st.mean, bd.parts_sum_ns);
	CHECK(fabs(bd.total.mean - w.oneway) < 1e-9 && fabs(bd.oneway_gap_ns) < 1e-9,
	      "one way whole %.9g, want %.9g (gap %.9g)", bd.total.mean, w.oneway, bd.oneway_gap_ns);
	CHECK(fabs(bd.residual_ns) < 1e-9 && bd.closes == 1, "residual %.9g with every cost measured in place (closes %d)",
	      bd.residual_ns, bd.closes);
	CHECK(fabs(bd.perturbation_ns - (w.stamped - w.eel)) < 1e-9 && bd.perturbation_ns > 0,
	      "perturbation %.9g, want %.9g", bd.perturbation_ns, w.stamped - w.eel);
	/* dma is 0 here: within its uncertainty of 0, a bound */
	CHECK(!bd.part_resolved[STAGE_PARTS - 2] && bd.part_bound[STAGE_PARTS - 2] >= 0,
	      "a part of 0 ns: resolved %d, bound %g", bd.part_resolved[STAGE_PARTS - 2], bd.part_bound[STAGE_PARTS - 2]);
	CHECK(bd.part_resolved[0] && bd.part_resolved[STAGE_WIRE], "post and wire resolved");
	breakdown_free(&bd);

	/* bookkeeping no span measures: the residual shows it */
	rounds(20, &w);
	run(&bd, w.eel);
	CHECK(fabs(bd.residual_ns - 0.5 * 20) < 1e-9, "residual %.9g with 20 cycles unseen in post, want 10 ns",
	      bd.residual_ns);
	CHECK(fabs(bd.part[0].mean - (w.part[0] + 10)) < 1e-9, "post %.9g holds them, want %.9g", bd.part[0].mean,
	      w.part[0] + 10);
	breakdown_free(&bd);

	/* bookkeeping of 2000 cycles (1000 ns) a message that no span
	 * measures, on an EEL of a few hundred ns: the parts do not close, and
	 * the table says they are the stamped path's, its shares of their sum */
	rounds(2000, &w);
	run(&bd, w.eel);
	CHECK(bd.closes == 0 && bd.residual_ns > 900, "closes %d with a residual %.9g +- %.9g of EEL %.9g", bd.closes,
	      bd.residual_ns, bd.residual_unc_ns, w.eel);
	table_says(&bd, 1);
	breakdown_free(&bd);
	rounds(0, &w);
	run(&bd, w.eel);
	table_says(&bd, 0);
	breakdown_free(&bd);
	CHECK_DONE();
}
