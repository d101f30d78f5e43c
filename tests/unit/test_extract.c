/* SPDX-License-Identifier: MIT */
/* tests/unit/test_extract.c — the parameters eel-bench extracts, from
 * synthetic timelines with known answers:
 *   breakdown_add + breakdown_finish   stage figures from joined trace records
 *   flood_derive                       g, G, bandwidth and M (Bell et al. 2003 §4.2, §5.5)
 *   overlap_sweep                      o from the knee of t(D) (Bell et al. 2003 §4.3)
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "check.h"

static struct eel_clock clk2 = { .hz = 2e9, .ns_per_cycle = 0.5 }; /* exact in binary */

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median_of(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_d);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* ---- the stage breakdown ---- */

/* Cycles of stage k of message i: a different cycle of values per stage. */
static uint64_t stage_cycles(int k, uint32_t i)
{
	return (uint64_t)(10 * (k + 1)) * (1 + (i * (uint32_t)(k + 3)) % 7);
}

static const int order[STAGE_PARTS + 1] = {
	EEL_ST_POST, EEL_ST_DOORBELL, EEL_ST_DOORBELL_DONE, EEL_ST_NIC_FETCH, EEL_ST_NIC_TX,
	EEL_ST_NIC_RX, EEL_ST_DMA_START, EEL_ST_DMA_DONE, EEL_ST_DETECT,
};

/* Sender and receiver records of message i (msg_id id), stamped from t0. */
static void timeline(struct eel_trace *tx, struct eel_trace *rx, uint32_t id, uint32_t i, uint64_t t0)
{
	uint64_t t = t0;

	memset(tx, 0, sizeof(*tx));
	memset(rx, 0, sizeof(*rx));
	tx->msg_id = rx->msg_id = id;
	tx->valid = rx->valid = 1;
	for (int k = 0; k <= STAGE_PARTS; k++) {
		struct eel_trace *r = order[k] >= EEL_ST_NIC_RX ? rx : tx;

		r->t[order[k]] = t;
		if (k < STAGE_PARTS)
			t += stage_cycles(k, i);
	}
	tx->t[EEL_ST_COMPLETE] = t0 + 5;         /* not a stage of the one-way timeline */
	rx->t[EEL_ST_NIC_FETCH] = 1;             /* the other end's stamps are ignored */
}

#define NMSG 300

/* What each part should hold, built alongside the records. */
static double want[STAGE_PARTS + 1][2 * NMSG];
static int nwant[STAGE_PARTS + 1];

static void expect(int k, double ns)
{
	want[k][nwant[k]++] = ns;
}

/* Records of two directions; returns how many sender records there are.
 * Each direction loses some records on one side (the other side holds them
 * alone: nothing to join), and has records with a stamp missing or stamps
 * out of order, and a message that took 1000x longer on the wire. The second
 * direction's message numbers wrap around 2^32 next to a lone record. Parts
 * within one record count wherever their two stamps are there and in order;
 * the wire stage and the total need the join (and, for the total, POST). */
static int records(int dir, struct eel_trace *tx, int *ntx, struct eel_trace *rx, int *nrx, int shared)
{
	uint32_t base = dir ? 0xfffffffcu : 0; /* message 3, alone at the sender, is 0xffffffff */

	*ntx = *nrx = 0;
	for (uint32_t i = 0; i < NMSG; i++) {
		struct eel_trace a, b;
		int has_tx = i % 13 != 5;          /* the sender's record was lost */
		int has_rx = i % 11 != 3;          /* the receiver's record was overwritten */
		int no_post = i % 29 == 4;         /* the first stamp missing */
		int no_dma = i % 17 == 2;          /* a receive stage not stamped */
		int disorder = i % 19 == 7;        /* fetch stamped after tx */
		uint64_t slow = i % 23 == 9 ? 1000000 : 0, sum = slow;

		timeline(&a, &b, base + i, i, 1000000 + 10000 * (uint64_t)i);
		if (no_post)
			a.t[EEL_ST_POST] = 0;
		if (no_dma)
			b.t[EEL_ST_DMA_START] = 0;
		if (disorder)
			a.t[EEL_ST_NIC_FETCH] = a.t[EEL_ST_NIC_TX] + 1;
		for (int k = EEL_ST_NIC_RX; k <= EEL_ST_DETECT; k++)
			b.t[k] += slow;
		if (has_tx)
			tx[(*ntx)++] = a;
		if (has_rx)
			rx[(*nrx)++] = b;
		for (int k = 0; k < STAGE_PARTS; k++) {
			uint64_t c = stage_cycles(k, i);

			sum += c;
			if (k < STAGE_WIRE && has_tx && !(k == 0 && no_post) && !(k == 3 && disorder))
				expect(k, 0.5 * (double)(k == 2 && disorder ? c + stage_cycles(3, i) + 1 : c));
			if (k == STAGE_WIRE && shared && has_tx && has_rx)
				expect(k, 0.5 * (double)(c + slow));
			if (k > STAGE_WIRE && has_rx && !(no_dma && (k == 5 || k == 6)))
				expect(k, 0.5 * (double)c);
		}
		if (shared && has_tx && has_rx && !no_post)
			expect(STAGE_PARTS, 0.5 * (double)sum);
	}
	return *ntx;
}

static void test_breakdown(void)
{
	static struct eel_trace tx[NMSG], rx[NMSG];
	struct session s = { 0 };
	int ntx = 0, nrx = 0;

	s.caps = &s.caps_copy;
	s.clk = &clk2;
	for (int shared = 1; shared >= 0; shared--) {
		struct breakdown bd = { 0 };
		int senders = 0;

		s.caps_copy.flags = shared ? EEL_CAP_SHARED_CLOCK : EEL_CAP_NIC_CLOCK;
		memset(nwant, 0, sizeof(nwant));
		for (int dir = 0; dir < 2; dir++) {
			senders += records(dir, tx, &ntx, rx, &nrx, shared);
			CHECK(breakdown_add(&s, &bd, tx, ntx, rx, nrx) == 0, "breakdown_add failed");
		}
		CHECK_EQ_U(bd.samples, senders);
		breakdown_finish(&bd);
		CHECK(bd.done, "shared %d: not done", shared);
		{
			double means = 0;

			for (int k = 0; k <= STAGE_PARTS; k++) {
				const struct stat *st = k < STAGE_PARTS ? &bd.part[k] : &bd.total;

				CHECK(st->n == nwant[k] && bd.have[k] == (nwant[k] > 0), "shared %d, part %d: %d samples, want %d",
				      shared, k, st->n, nwant[k]);
				if (!nwant[k])
					continue;
				CHECK_EQ_D(st->median, median_of(want[k], nwant[k]), 0);
				CHECK_EQ_D(st->min, want[k][0], 0);
				CHECK_EQ_D(st->max, want[k][nwant[k] - 1], 0);
				if (k < STAGE_PARTS)
					means += st->mean;
			}
			/* the parts' figures are means: means add up, medians do not;
			 * the one-way trip measured whole is checked against them, and
			 * without the ping-pong's EEL there is no residual */
			if (shared)
				CHECK_EQ_D(bd.oneway_gap_ns, bd.total.mean - means, 1e-9);
			else
				CHECK(bd.oneway_gap_ns != bd.oneway_gap_ns, "no one clock, yet a gap: %g", bd.oneway_gap_ns);
			CHECK(bd.residual_ns != bd.residual_ns, "no EEL, yet a residual: %g", bd.residual_ns);
		}
		/* two ends with their own clocks: no stage crosses between them */
		if (!shared)
			CHECK(!bd.have[STAGE_WIRE] && !bd.have[STAGE_PARTS] && bd.have[0] && bd.have[STAGE_PARTS - 1],
			      "without one clock: wire %d total %d", bd.have[STAGE_WIRE], bd.have[STAGE_PARTS]);
		breakdown_free(&bd);
	}
}

/* ---- flood: g, G, bandwidth, M ---- */

static struct flood_point point(uint32_t size, uint32_t q, double g, double G)
{
	struct flood_point p = { .size = size, .q = q, .msgs = 100 };
	double t = g + G * (size - 8);

	p.t.n = 10;
	p.t.min = t;
	p.t.median = p.t.p25 = p.t.p75 = p.t.max = p.t.mean = t * 1.5; /* only the minimum counts */
	return p;
}

static void test_flood(void)
{
	struct session s = { 0 };
	struct flood_res f = { 0 };
	static const uint32_t sizes[] = { 8, 64, 1024, 131072 };
	static const struct { uint32_t q; double g, G; } depth[] = {
		{ 1, 2000, 0.5 }, { 4, 500, 0.25 }, { 16, 400, 0.3 },
	};
	struct flood_point pts[12];
	int n = 0;

	s.plan.nsizes = 4;
	memcpy(s.plan.sizes, sizes, sizeof(sizes));
	s.plan.ndepths = 3;
	for (int k = 0; k < 3; k++)
		s.plan.depths[k] = depth[k].q;
	/* points in no particular order */
	for (int a = 3; a >= 0; a--)
		for (int k = 0; k < 3; k++)
			pts[n++] = point(sizes[a], depth[k].q, depth[k].g, depth[k].G);
	f.pt = pts;
	f.npt = n;
	flood_derive(&s, &f);
	CHECK_EQ_D(f.g_ns, 400, 0);        /* the best 8-byte gap over the depths */
	CHECK_EQ_U(f.g_q, 16);
	/* G at the depth that gave g (Bell et al. 2003 4.2; it was the smallest over
	 * the depths: 0.25 at q = 4), M = g/G from that same depth */
	CHECK_EQ_D(f.G_ns_per_byte, 0.3, 1e-12);
	CHECK_EQ_U(f.G_q, 16);
	CHECK_EQ_D(f.bw_bytes_per_ns, 1 / 0.3, 1e-9);
	CHECK_EQ_D(f.M_bytes, 400 / 0.3, 1e-9);

	/* g's depth has no large-size point: G from the depth with the next best
	 * 8-byte gap that gives one, and it says which */
	f.npt = 0;
	n = 0;
	pts[n++] = point(8, 1, 1000, 0.125);
	pts[n++] = point(131072, 1, 1000, 0.125);
	pts[n++] = point(8, 4, 300, 0.01);     /* no 131072-byte point at q = 4 */
	f.pt = pts;
	f.npt = n;
	flood_derive(&s, &f);
	CHECK_EQ_D(f.g_ns, 300, 0);
	CHECK(f.G_ns_per_byte == 0.125 && f.G_q == 1 && f.g_q == 4, "G at the next depth: G %g at q %u, g at q %u",
	      f.G_ns_per_byte, f.G_q, f.g_q);

	/* no per-byte cost at all: G, bandwidth and M are 0, not infinite */
	n = 0;
	pts[n++] = point(8, 1, 1000, 0);
	pts[n++] = point(131072, 1, 1000, 0);
	f.npt = n;
	flood_derive(&s, &f);
	CHECK(f.g_ns == 1000 && f.G_ns_per_byte == 0 && f.bw_bytes_per_ns == 0 && f.M_bytes == 0,
	      "flat: g %g G %g bw %g M %g", f.g_ns, f.G_ns_per_byte, f.bw_bytes_per_ns, f.M_bytes);
	CHECK(f.G_runs.n == 0, "flat: no G run by run either (%d)", f.G_runs.n);

	/* the least-squares slope over the bandwidth-bound sizes, not a difference
	 * of the largest and the smallest: flat at 1000 ns up to 1024 B, then
	 * 0.25 ns a byte. The two largest give G = 0.25, M = 4000 B: the fit runs
	 * over 4096 B and up and finds 0.25 exactly (the largest less the
	 * smallest gave 0.2481) */
	{
		static const uint32_t many[] = { 8, 64, 1024, 4096, 16384, 65536, 131072 };
		struct flood_point lin[7];
		struct session s7 = { 0 };

		s7.plan.nsizes = 7;
		memcpy(s7.plan.sizes, many, sizeof(many));
		s7.plan.ndepths = 1;
		s7.plan.depths[0] = 8;
		for (int i = 0; i < 7; i++) {
			lin[i] = point(many[i], 8, 1000, 0);
			if (many[i] > 1024)
				lin[i].t.min = 1000 + 0.25 * (many[i] - 1024);
		}
		memset(&f, 0, sizeof(f));
		f.pt = lin;
		f.npt = 7;
		flood_derive(&s7, &f);
		CHECK_EQ_D(f.G_ns_per_byte, 0.25, 1e-12);
		CHECK_EQ_U(f.G_min_size, 4096);
		CHECK_EQ_D(f.M_bytes, 4000, 1e-9);
	}

	/* G run by run: the same fit on run r of each size */
	{
		double lo[4] = { 1000, 1010, 990, 1000 }, hi[4] = { 1000 + 0.125 * 131064, 1010 + 0.25 * 131064,
								    990 + 0.125 * 131064, 1000 + 0.5 * 131064 };

		n = 0;
		pts[n] = point(8, 1, 990, 0);
		pts[n].run = lo;
		pts[n++].nrun = 4;
		pts[n] = point(131072, 1, 990, 0.125);
		pts[n].run = hi;
		pts[n++].nrun = 4;
		f.pt = pts;
		f.npt = n;
		flood_derive(&s, &f);
		CHECK(f.G_runs.n == 4, "four runs give four G: %d", f.G_runs.n);
		CHECK_EQ_D(f.G_runs.min, 0.125, 1e-12);
		CHECK_EQ_D(f.G_runs.max, 0.5, 1e-12);
		CHECK_EQ_D(f.G_runs.median, (0.125 + 0.25) / 2, 1e-12);
		CHECK_EQ_D(f.bw_runs.max, 8, 1e-9);
		CHECK_EQ_D(f.M_runs.max, 1000 / 0.125, 1e-6); /* run 0: g 1000 over G 0.125 */
	}
}

/* ---- overlap: the knee ---- */

static double ov_g, ov_o;
static int ov_calls;

/* Bell et al. 2003 §4.3: each message costs the gap, or the sender's overhead plus
 * the inserted computation once that is longer. */
static double ov_floor; /* the least computation a point can insert (its spin's own cost) */

/* A point whose inserted computation is d and the spin's own cost ov_floor
 * (but 0 for d = 0: no spin at all), as measured; past the knee, o + that. */
static int knee(struct session *s, double d_ns, uint32_t n, double *t_ns, double *da_ns)
{
	(void)s;
	CHECK(n == 100, "the sweep asked for %u messages", n);
	*da_ns = d_ns > 0 ? d_ns + ov_floor : 0;
	*t_ns = ov_o + *da_ns > ov_g ? ov_o + *da_ns : ov_g;
	ov_calls++;
	return 0;
}

static int failing(struct session *s, double d_ns, uint32_t n, double *t_ns, double *da_ns)
{
	(void)s;
	(void)n;
	*t_ns = 1000;
	*da_ns = d_ns;
	return d_ns > 500 ? -1 : 0;
}

static void test_overlap(void)
{
	static const double cases[][2] = {
		{ 1000, 300 }, { 1000, 700 }, { 1000, 50 }, { 2500, 100 }, { 800, 799 }, { 1000, 1000 },
		{ 333, 111 }, { 5000, 4000 },
	};
	struct session s = { 0 };
	struct overlap_curve c;

	s.plan.overlap_runs = 1;
	s.plan.overlap_msgs = 100;
	s.clk = &clk2;
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double tol;

		ov_g = cases[i][0];
		ov_o = cases[i][1];
		ov_calls = 0;
		memset(&c, 0, sizeof(c));
		CHECK(overlap_sweep(&s, knee, &c) == 0, "sweep failed");
		/* the coarse step is g/16, then 4 halvings: the edge to g/256 */
		tol = ov_g / 256;
		CHECK_EQ_D(c.g_ns, ov_g, 0);
		CHECK_EQ_D(c.o_ns, ov_o, tol);
		CHECK_EQ_D(c.dmax_ns, ov_g - ov_o, tol);
		CHECK(c.n == ov_calls && c.n <= OV_MAX_STEPS, "curve of %d points for %d measurements", c.n, ov_calls);
		for (int k = 1; k < c.n; k++)
			CHECK(c.d_ns[k] >= c.d_ns[k - 1], "(g %g, o %g): the curve is not in order of D", ov_g, ov_o);
		for (int k = 0; k < c.n; k++)
			CHECK_EQ_D(c.t_ns[k], ov_o + c.d_ns[k] > ov_g ? ov_o + c.d_ns[k] : ov_g, 0);
	}
	/* a spin costs d and its clock reads, 24 ns: the knee and the curve
	 * are where the computation measured puts them, not the D asked for
	 * (which put D_max 24 ns low, o 24 ns high) */
	ov_floor = 24;
	ov_g = 1000;
	ov_o = 900;
	memset(&c, 0, sizeof(c));
	CHECK(overlap_sweep(&s, knee, &c) == 0, "sweep failed");
	CHECK_EQ_D(c.o_ns, 900, 1000.0 / 256);
	for (int k = 1; k < c.n; k++)
		CHECK(c.d_ns[k] >= 24, "a point at D %g below the floor it measured", c.d_ns[k]);
	ov_o = 990; /* a knee under the spin's least cost: found from the rise past it */
	memset(&c, 0, sizeof(c));
	CHECK(overlap_sweep(&s, knee, &c) == 0, "sweep failed");
	CHECK(c.dmax_extrapolated, "a knee at 10 ns under a floor of 24 is extrapolated");
	CHECK_EQ_D(c.o_ns, 990, 1000.0 / 256);
	/* a small g: the halvings go under the spin's least cost; taken for
	 * the D asked for, the rise came out at D ~ 1 ns and no knee was left:
	 * o = g (400). Measured: the knee at 5 ns */
	ov_g = 400;
	ov_o = 395;
	memset(&c, 0, sizeof(c));
	CHECK(overlap_sweep(&s, knee, &c) == 0, "sweep failed");
	CHECK(!c.rose_at_first, "a knee at 5 ns taken for o = g");
	CHECK_EQ_D(c.o_ns, 395, 400.0 / 256);
	ov_floor = 0;
	/* every D raises the time: o = g */
	ov_g = 1000;
	ov_o = 1000;
	memset(&c, 0, sizeof(c));
	CHECK(overlap_sweep(&s, knee, &c) == 0, "sweep failed");
	CHECK(c.rose_at_first, "o = g: the first step must count as a rise");
	CHECK_EQ_D(c.o_ns, 1000, 1000.0 / 256);
	/* a failing measurement fails the sweep */
	memset(&c, 0, sizeof(c));
	CHECK(overlap_sweep(&s, failing, &c) == -1, "a failed point was ignored");
}

/* Between the ends, two cores' counters: a wire shorter than their skew comes
 * out below zero in some records. Those are kept as measured (the parts'
 * means still add up to the total's, and the wire's mean is not raised);
 * only when most records are inverted (a doorbell call that returns after
 * the frame is in) is the wire merged with the part before it. */
static void test_breakdown_skew(void)
{
	static struct eel_trace tx[NMSG], rx[NMSG];
	struct session s = { 0 };

	s.caps = &s.caps_copy;
	s.clk = &clk2;
	s.caps_copy.flags = EEL_CAP_SHARED_CLOCK;
	s.caps_copy.stamp_mask = (1u << EEL_STAGES) - 1;
	for (int most = 0; most < 2; most++) {
		struct breakdown bd = { 0 };
		double sum = 0;
		int inverted = 0;

		for (uint32_t i = 0; i < NMSG; i++) {
			int inv = most ? i % 4 != 0 : i % 50 == 7;

			timeline(&tx[i], &rx[i], i, i, 1000000 + 10000 * (uint64_t)i);
			if (inv) { /* NIC_RX 20 cycles before NIC_TX: the later stamps move with it */
				uint64_t back = rx[i].t[EEL_ST_NIC_RX] - (tx[i].t[EEL_ST_NIC_TX] - 20);

				for (int k = EEL_ST_NIC_RX; k <= EEL_ST_DETECT; k++)
					rx[i].t[k] -= back;
				inverted++;
			}
		}
		CHECK(breakdown_add(&s, &bd, tx, NMSG, rx, NMSG) == 0, "breakdown_add failed");
		breakdown_finish(&bd);
		if (!most) {
			CHECK(!bd.absorbed[STAGE_WIRE] && !strcmp(bd.name[STAGE_WIRE], "wire"),
			      "%d of %d inverted: the wire stays its own part (%s)", inverted, NMSG, bd.name[STAGE_WIRE]);
			CHECK(bd.part[STAGE_WIRE].n == NMSG && bd.part[STAGE_WIRE].min == -10,
			      "every record's wire kept, the inverted ones below zero: n %d, min %g",
			      bd.part[STAGE_WIRE].n, bd.part[STAGE_WIRE].min);
			for (int k = 0; k < STAGE_PARTS; k++)
				sum += bd.part[k].mean;
			CHECK(fabs(sum - bd.total.mean) < 1e-9 * bd.total.mean, "the parts' means %.9g add up to the total's %.9g",
			      sum, bd.total.mean);
		} else {
			CHECK(bd.absorbed[STAGE_WIRE] && !strcmp(bd.name[STAGE_WIRE - 1], "tx+wire"),
			      "%d of %d inverted: tx and the wire are one part (%s)", inverted, NMSG, bd.name[STAGE_WIRE - 1]);
			CHECK(bd.part[STAGE_WIRE - 1].min >= 0, "the merged part is never below zero: min %g",
			      bd.part[STAGE_WIRE - 1].min);
		}
		breakdown_free(&bd);
	}
}

int main(void)
{
	test_breakdown();
	test_breakdown_skew();
	test_flood();
	test_overlap();
	CHECK_DONE();
}
