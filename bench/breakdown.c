/* bench/breakdown.c — where the time of one put goes, from the stamps.
 *
 * A traced put has a sender-side record (POST .. NIC_TX) at the sending end
 * and a receiver-side record (NIC_RX .. DETECT) at the other, both keyed by
 * the sender's message number. Stages within one record are differences of
 * one clock and always exact; a stage between the ends (wire: NIC_TX to
 * NIC_RX) and the whole one-way time need both ends to stamp with one clock
 * (EEL_CAP_SHARED_CLOCK: the software NIC, two processes on one machine).
 * Elsewhere those are left to the decomposition (decompose.c), which takes
 * them as what remains of the measured EEL. A stamp read on the host costs
 * the path its own time (eel_clock()->stamp_cycles): each stage is given
 * less the cost of the stamp that ends it, the total less all of them, as
 * the timer's cost is taken off every timed run.
 *
 * A NIC that does not take a stamp (the NIC's stamp_mask) does not let eel
 * tell the two stages around it apart: they are one part, named for both
 * ("fetch+tx"), never split by a guess. Where eel's firmware runs on the
 * host's core over a real NIC (EEL_CAP_HOSTED_FW: dpdk, raw), the stages are
 * named for what does them there: host software up to the NIC's own
 * doorbell, the NIC, then the receiving host's firmware.
 *
 * The parts add up to EEL. EEL is RTT/2 of the ping-pong (Bell et al. 2003 §4.1), so
 * a round trip holds two one-way trips and each end's turnaround: the host's
 * loop from seeing a message to posting the next (breakdown_rounds times it
 * on the same stamped rounds, at each end on its own clock). Each part's
 * figure is its mean, as EEL is a mean of round trips: means add up where
 * medians do not. Where the two ends have no one clock, the part between
 * them is what the round leaves of every other part, both directions' mean
 * (a difference of means of the same rounds, not a guess). A record or a
 * round longer than cut_ns (10x EEL and 5 us, pingpong.c) was preempted
 * and is left out whole, counted: dropping single parts would leave the
 * others' means without it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

const char *const stage_part_name[STAGE_PARTS] = {
	"post", "doorbell", "fetch", "tx", "wire", "rx", "dma", "detect",
};

static const char *const what_nic[STAGE_PARTS] = {
	"host software: put call to doorbell store",
	"doorbell store issued to retired",
	"NIC sees the doorbell, fetches the descriptor",
	"NIC reads the payload, builds and sends the packet",
	"on the wire, to the receiving NIC",
	"receiving NIC: parse, key and bounds checks",
	"payload DMA into host memory",
	"receiving host notices the data",
};

/* eel's firmware on the host's core over a real NIC (dpdk, raw) */
static const char *const what_hosted[STAGE_PARTS] = {
	"host software: put call and eel's firmware, to the NIC's doorbell",
	"the NIC's doorbell (tail register) written to returned",
	"NIC fetches the descriptor and the frame",
	"NIC sends the frame (to its descriptor-done bit)",
	"on the wire, into the receiving NIC, until eel's firmware reads it",
	"eel's firmware on the receiving core: parse, key and bounds checks",
	"eel's firmware copies the payload into host memory",
	"receiving host notices the data",
};

/* The stamps, for a part that runs over several stages */
static const char *const stamp_nic[STAGE_PARTS + 1] = {
	"the put call", "the doorbell store", "the doorbell's retirement", "the descriptor fetch", "the packet sent",
	"the packet in", "the checks done", "the payload in memory", "the data seen",
};

static const char *const stamp_hosted[STAGE_PARTS + 1] = {
	"the put call", "the NIC's doorbell", "the doorbell's return", "the descriptor fetch", "the descriptor done",
	"eel's firmware reading the frame", "the checks done", "the payload in memory", "the data seen",
};

/* Stages in order: part k runs from stamp k to stamp k + 1. */
static const int stamp_order[STAGE_PARTS + 1] = {
	EEL_ST_POST, EEL_ST_DOORBELL, EEL_ST_DOORBELL_DONE, EEL_ST_NIC_FETCH, EEL_ST_NIC_TX,
	EEL_ST_NIC_RX, EEL_ST_DMA_START, EEL_ST_DMA_DONE, EEL_ST_DETECT,
};

/* Which parts this NIC tells apart, and their names: part k runs from stamp
 * k to the next stamp the NIC takes. Idempotent. */
void breakdown_spans(struct breakdown *bd, const struct eel_caps *caps)
{
	int hosted = caps->flags & EEL_CAP_HOSTED_FW;
	const char *const *what = hosted ? what_hosted : what_nic;
	const char *const *stamp = hosted ? stamp_hosted : stamp_nic;
	uint32_t mask = caps->stamp_mask ? caps->stamp_mask : (1u << EEL_STAGES) - 1;

	if (bd->spans_set)
		return;
	bd->stage_what = what;
	for (int k = 0; k < STAGE_PARTS;) {
		int e = k;

		while (e + 1 < STAGE_PARTS && !(mask & (1u << stamp_order[e + 1])))
			e++;
		bd->span_extra[k] = e - k;
		snprintf(bd->name[k], sizeof(bd->name[k]), "%s", stage_part_name[k]);
		for (int i = k + 1; i <= e; i++) {
			size_t n = strlen(bd->name[k]);

			bd->absorbed[i] = 1;
			snprintf(bd->name[k] + n, sizeof(bd->name[k]) - n, "+%s", stage_part_name[i]);
		}
		if (e == k)
			snprintf(bd->what[k], sizeof(bd->what[k]), "%s", what[k]);
		else
			snprintf(bd->what[k], sizeof(bd->what[k]), "from %s to %s (not told apart here)", stamp[k],
				 stamp[e + 1]);
		k = e + 1;
	}
	bd->spans_set = 1;
}

/* What stage k (one of the nominal eight) is, on this NIC. */
const char *breakdown_stage_what(const struct breakdown *bd, int k)
{
	return (bd->stage_what ? bd->stage_what : what_nic)[k];
}

static void push(struct breakdown *bd, int k, double ns)
{
	if (bd->nv[k] < bd->cap)
		bd->v[k][bd->nv[k]++] = ns;
}

/* The host's cost of the stamp that ends at stamp_order[e] (none for a
 * stamp read off the NIC's clock). */
static double stamp_cost(const struct breakdown *bd, int e)
{
	return bd->nic_stamps & (1u << stamp_order[e]) ? 0 : bd->stamp_ns;
}

/* Which records part k needs: the sender's (1), the receiver's (2) or both,
 * joined on one clock (3). */
static int part_side(const struct breakdown *bd, int k)
{
	int end = k + bd->span_extra[k] + 1; /* its last stamp, in stamp_order */

	return end <= STAGE_WIRE ? 1 : k > STAGE_WIRE ? 2 : 3;
}

int part_between_ends(const struct breakdown *bd, int k)
{
	return part_side(bd, k) == 3;
}

/* Part k of a record (to the end of its span), if both its stamps are there
 * and, within one end, in order: less the cost of the stamp that ends it.
 * Between the ends (part_side 3) the two stamps come from two cores, whose
 * counters may disagree by a few ns (the limit test bounds it): a short part
 * then comes out below zero now and then, and is kept as measured, so that
 * its mean is not biased upwards and the parts' means still add up. */
static int part_of(const struct session *s, const struct breakdown *bd, const struct eel_trace *m, int k,
		   double *ns)
{
	int across = part_side(bd, k) == 3;
	int e = k + bd->span_extra[k] + 1;
	uint64_t a = m->t[stamp_order[k]], b = m->t[stamp_order[e]];

	if (!a || !b || (b < a && !across))
		return 0;
	*ns = cyc_ns(s, (double)(int64_t)(b - a)) - stamp_cost(bd, e);
	return 1;
}

/* A record whose stamps span more than cut_ns was interrupted: none of its
 * parts is kept. */
static int interrupted(const struct session *s, const struct breakdown *bd, const struct eel_trace *m)
{
	uint64_t lo = 0, hi = 0;

	for (int e = 0; e <= STAGE_PARTS; e++) {
		uint64_t t = m->t[stamp_order[e]];

		if (!t)
			continue;
		lo = lo ? lo : t;
		hi = t > hi ? t : hi;
	}
	return bd->cut_ns > 0 && lo && cyc_ns(s, (double)(hi - lo)) > bd->cut_ns;
}

/* DETECT - POST less the cost of every host stamp after POST on the way */
static double total_of(const struct session *s, const struct breakdown *bd, const struct eel_trace *m)
{
	double ns = cyc_ns(s, (double)(m->t[EEL_ST_DETECT] - m->t[EEL_ST_POST]));

	for (int e = 1; e <= STAGE_PARTS; e++)
		if (m->t[stamp_order[e]])
			ns -= stamp_cost(bd, e);
	return ns;
}


int breakdown_add(const struct session *s, struct breakdown *bd, const struct eel_trace *tx, int ntx,
		  const struct eel_trace *rx, int nrx)
{
	int shared = s->caps->flags & EEL_CAP_SHARED_CLOCK;
	int i = 0, j = 0;
	double ns;

	breakdown_spans(bd, s->caps);
	if (!bd->stamp_alone_ns)
		bd->stamp_ns = bd->stamp_alone_ns = cyc_ns(s, (double)s->clk->stamp_cycles);
	bd->nic_stamps = s->caps->nic_stamp_mask;
	if (!bd->v[0]) {
		bd->cap = 2 * 65536;
		for (int k = 0; k <= STAGE_PARTS; k++)
			if (!(bd->v[k] = calloc((size_t)bd->cap, sizeof(double))))
				return -1;
		if (!(bd->alt = calloc((size_t)bd->cap, sizeof(double))))
			return -1;
	}
	/* within one end: the sender's stages, then the receiver's */
	for (i = 0; i < ntx; i++) {
		bd->samples++;
		if (interrupted(s, bd, &tx[i])) {
			bd->interrupted++;
			continue;
		}
		for (int k = 0; k < STAGE_PARTS; k++)
			if (!bd->absorbed[k] && part_side(bd, k) == 1 && part_of(s, bd, &tx[i], k, &ns))
				push(bd, k, ns);
	}
	for (j = 0; j < nrx; j++) {
		if (interrupted(s, bd, &rx[j])) {
			bd->interrupted++;
			continue;
		}
		for (int k = 0; k < STAGE_PARTS; k++)
			if (!bd->absorbed[k] && part_side(bd, k) == 2 && part_of(s, bd, &rx[j], k, &ns))
				push(bd, k, ns);
	}
	if (!shared)
		return 0;
	/* between the ends, one clock: join on msg_id (both lists in message order) */
	for (i = 0, j = 0; i < ntx && j < nrx;) {
		const struct eel_trace *a = &tx[i], *b = &rx[j];
		struct eel_trace m;

		if (a->msg_id != b->msg_id) {
			if ((int32_t)(a->msg_id - b->msg_id) < 0)
				i++;
			else
				j++;
			continue;
		}
		m = *a;
		for (int k = EEL_ST_NIC_RX; k <= EEL_ST_DETECT; k++)
			m.t[k] = b->t[k];
		if (interrupted(s, bd, &m)) { /* counted above, at one end or the other, or here */
			bd->interrupted += !interrupted(s, bd, a) && !interrupted(s, bd, b);
			i++;
			j++;
			continue;
		}
		for (int k = 1; k < STAGE_PARTS; k++) {
			int prev = k - 1;
			uint64_t t0, t1;

			if (bd->absorbed[k] || part_side(bd, k) != 3)
				continue;
			if (part_of(s, bd, &m, k, &ns))
				push(bd, k, ns);
			while (prev > 0 && bd->absorbed[prev])
				prev--;
			t0 = m.t[stamp_order[k]];
			t1 = m.t[stamp_order[k + bd->span_extra[k] + 1]];
			bd->inverted += t0 && t1 && t1 < t0;
			if (m.t[stamp_order[prev]] && t1 > m.t[stamp_order[prev]] && bd->nalt < bd->cap)
				bd->alt[bd->nalt++] = cyc_ns(s, (double)(t1 - m.t[stamp_order[prev]])) -
						      stamp_cost(bd, k + bd->span_extra[k] + 1) -
						      (t0 ? stamp_cost(bd, k) : 0);
		}
		if (m.t[EEL_ST_POST] && m.t[EEL_ST_DETECT] > m.t[EEL_ST_POST])
			push(bd, STAGE_PARTS, total_of(s, bd, &m));
		i++;
		j++;
	}
	return 0;
}

static void merge_inverted(struct breakdown *bd);
static void rounds_to_parts(struct breakdown *bd, const struct session *s);

/* The host's cost of every stamp of one message, POST to DETECT. */
static double message_stamps_ns(const struct session *s, const struct breakdown *bd)
{
	uint32_t mask = s->caps->stamp_mask ? s->caps->stamp_mask : (1u << EEL_STAGES) - 1;
	double ns = 0;

	for (int e = 0; e <= STAGE_PARTS; e++)
		if (mask & (1u << stamp_order[e]))
			ns += stamp_cost(bd, e);
	return ns;
}

/* The record of message msg_id in a list in message order, from *at on. */
static const struct eel_trace *by_id(const struct eel_trace *r, int n, int *at, uint32_t msg_id)
{
	while (*at < n && (int32_t)(r[*at].msg_id - msg_id) < 0)
		(*at)++;
	return *at < n && r[*at].msg_id == msg_id ? &r[*at] : NULL;
}

static void join(struct eel_trace *m, const struct eel_trace *snd, const struct eel_trace *rcv)
{
	*m = *snd;
	for (int k = EEL_ST_NIC_RX; k <= EEL_ST_DETECT; k++)
		m->t[k] = rcv->t[k];
}

/* The ping-pong's stamped rounds, each joined whole: at the client (one
 * clock) round k's ping is the stamped put posted in [start, end), its pong
 * the stamped detection after it. At the server, the ping's detection and
 * the pong's put: by message number where both ends stamp with one clock
 * (the receiver's records carry the sender's number); else the server's k-th
 * stamped detection and the stamped put after it (both ends stamp the same
 * rounds: eel_set_stamp_every), and only when both ends saw as many rounds. */
int breakdown_rounds(const struct session *s, struct breakdown *bd, const struct bd_rounds *rd,
		     const struct eel_trace *tx, int ntx, const struct eel_trace *rx, int nrx,
		     const struct eel_trace *peer_tx, int npeer_tx, const struct eel_trace *peer_rx, int npeer_rx)
{
	int i = 0, j = 0, pi = 0, pj = 0, first = bd->nround, pairs = 0;

	bd->shared = !!(s->caps->flags & EEL_CAP_SHARED_CLOCK);
	bd->ns_per_cycle = s->clk->ns_per_cycle;
	if (!bd->rounds && !(bd->rounds = calloc(MAX_ROUNDS, sizeof(*bd->rounds))))
		return -1;
	for (int k = 0; k < rd->n && bd->nround < MAX_ROUNDS; k++) {
		struct bd_round *r = &bd->rounds[bd->nround];
		const struct eel_trace *ping, *pong, *ping_rx = NULL, *pong_tx = NULL;
		uint64_t post, detect;

		while (i < ntx && tx[i].t[EEL_ST_POST] < rd->start[k])
			i++;
		while (j < nrx && rx[j].t[EEL_ST_DETECT] < rd->start[k])
			j++;
		ping = i < ntx ? &tx[i] : NULL;
		pong = j < nrx ? &rx[j] : NULL;
		post = ping ? ping->t[EEL_ST_POST] : 0;
		detect = pong ? pong->t[EEL_ST_DETECT] : 0;
		if (!post || post >= rd->end[k] || !detect || detect < post || detect > rd->end[k]) {
			bd->unjoined++;
			continue;
		}
		if (bd->shared) {
			ping_rx = by_id(peer_rx, npeer_rx, &pi, ping->msg_id);
			pong_tx = by_id(peer_tx, npeer_tx, &pj, pong->msg_id);
			if (!ping_rx || !pong_tx) {
				bd->unjoined++;
				continue;
			}
			join(&r->ab, ping, ping_rx);
			join(&r->ba, pong_tx, pong);
		} else {
			r->ab = *ping;  /* the server's half is filled in below */
			r->ba = *pong;
		}
		r->a = rd->start[k];
		r->b = rd->end[k];
		bd->nround++;
	}
	if (bd->shared)
		goto parts;
	/* two clocks: the server's k-th stamped detection and the put after it */
	for (i = 0, j = 0; i < npeer_rx; i++) {
		uint64_t detect = peer_rx[i].t[EEL_ST_DETECT], next = i + 1 < npeer_rx ?
				  peer_rx[i + 1].t[EEL_ST_DETECT] : UINT64_MAX;
		struct bd_round *r = &bd->rounds[first + pairs];

		while (j < npeer_tx && peer_tx[j].t[EEL_ST_POST] < detect)
			j++;
		if (!detect || j == npeer_tx || peer_tx[j].t[EEL_ST_POST] >= next)
			continue;
		if (first + pairs < bd->nround) {
			struct eel_trace ping = r->ab, pong = r->ba;

			join(&r->ab, &ping, &peer_rx[i]);
			join(&r->ba, &peer_tx[j], &pong);
		}
		pairs++;
	}
	if (first + pairs != bd->nround) {  /* a round missing at one end: no way to tell which */
		bd->unjoined += bd->nround - first;
		bd->nround = first;
	}
parts:
	merge_inverted(bd);
	if (bd->nround)  /* else the one-way records' parts stand (breakdown_add) */
		rounds_to_parts(bd, s);
	return 0;
}

/* Host stamps in one message, POST to DETECT (those off a NIC's clock cost nothing). */
int host_stamps_of(const struct session *s, const struct breakdown *bd)
{
	uint32_t mask = s->caps->stamp_mask ? s->caps->stamp_mask : (1u << EEL_STAGES) - 1;
	int n = 0;

	for (int e = 0; e <= STAGE_PARTS; e++)
		n += (mask & (1u << stamp_order[e])) && !(bd->nic_stamps & (1u << stamp_order[e]));
	return n;
}

/* What a stamp costs on this path, in place: a stamp read among other work
 * costs less than alone (here 11 cycles in a loop, 23 back to back), and a
 * stamp's store can miss. The stamped rounds' RTT/2 less the EEL of the
 * unstamped runs beside them is the cost of their stamps: 2 x host_stamps + 1
 * (the loop top) a round trip, so host_stamps + 1/2 a message. Each is taken
 * to cost the same (on this VM: ~10-12 ns with its two processes on one
 * core's two threads, ~19 ns on two cores, against ~9 ns alone). That
 * estimate is used only within 1/2x..3x the cost
 * alone: outside it, the two kinds of run saw different machines (a NIC whose
 * runs vary by 2x: af_packet in this VM) more than stamping changed, and the
 * cost alone is used (the table says which). */
static void stamp_in_place(struct breakdown *bd, const struct session *s)
{
	double sum = 0, per = host_stamps_of(s, bd) + 0.5;
	int n = 0;

	bd->stamp_ns = bd->stamp_alone_ns;
	bd->stamp_in_place_ns = NAN;
	for (int r = 0; r < bd->nround; r++) {
		double half = cyc_ns(s, (double)(bd->rounds[r].b - bd->rounds[r].a)) / 2;

		if (bd->cut_ns <= 0 || half <= bd->cut_ns) {
			sum += half;
			n++;
		}
	}
	if (n)
		bd->round_alone_ns = sum / n - per * bd->stamp_alone_ns;
	if (n && bd->eel_ref_ns > 0)
		bd->stamp_in_place_ns = (sum / n - bd->eel_ref_ns) / per;
	if (bd->stamp_in_place_ns >= bd->stamp_alone_ns / 2 && bd->stamp_in_place_ns <= 3 * bd->stamp_alone_ns)
		bd->stamp_ns = bd->stamp_in_place_ns;
}

/* Each round's parts (on the spans as they stand after merge_inverted), its
 * RTT/2 and turnaround, each less the stamps' cost: a round missing a stamp
 * any part needs, or longer than cut_ns, is left out whole. The part between
 * the ends, without one clock: the round less every other part. */
static void rounds_to_parts(struct breakdown *bd, const struct session *s)
{
	double per_msg, post_cost;
	int across = -1;

	stamp_in_place(bd, s);
	per_msg = message_stamps_ns(s, bd);
	post_cost = stamp_cost(bd, 0);
	for (int k = 0; k < STAGE_PARTS; k++)
		if (!bd->absorbed[k] && part_side(bd, k) == 3)
			across = k;
	for (int k = 0; k <= STAGE_PARTS; k++)
		bd->nv[k] = 0;
	free(bd->rtt);
	free(bd->turn);
	bd->rtt = calloc((size_t)bd->nround + 1, sizeof(double));
	bd->turn = calloc((size_t)bd->nround + 1, sizeof(double));
	bd->interrupted = 0;
	if (!bd->rtt || !bd->turn)
		return;
	for (int r = 0, n = 0; r < bd->nround; r++) {
		const struct bd_round *x = &bd->rounds[r];
		const struct eel_trace *m[2] = { &x->ab, &x->ba };
		double v[STAGE_PARTS] = { 0 }, rest, rtt, turn;
		int ok = 1;

		rtt = (cyc_ns(s, (double)(x->b - x->a)) - bd->stamp_ns - 2 * per_msg) / 2;
		/* the client's turnaround (top to ping, pong to top) and the server's (ping to pong) */
		turn = (cyc_ns(s, (double)(x->ab.t[EEL_ST_POST] - x->a + x->b - x->ba.t[EEL_ST_DETECT])) -
			post_cost - bd->stamp_ns +
			cyc_ns(s, (double)(int64_t)(x->ba.t[EEL_ST_POST] - x->ab.t[EEL_ST_DETECT])) - post_cost) / 2;
		if (bd->cut_ns > 0 && cyc_ns(s, (double)(x->b - x->a)) / 2 > bd->cut_ns) {
			bd->interrupted++;
			continue;
		}
		rest = rtt - turn;
		for (int k = 0; k < STAGE_PARTS && ok; k++) {
			double ns[2];

			if (bd->absorbed[k] || (k == across && !bd->shared))
				continue;
			ok = part_of(s, bd, m[0], k, &ns[0]) && part_of(s, bd, m[1], k, &ns[1]);
			v[k] = (ns[0] + ns[1]) / 2;
			rest -= v[k];
		}
		if (!ok || !x->ab.t[EEL_ST_DETECT] || !x->ba.t[EEL_ST_POST])
			continue;
		if (across >= 0 && !bd->shared)
			v[across] = rest;
		for (int k = 0; k < STAGE_PARTS; k++)
			if (!bd->absorbed[k])
				bd->v[k][bd->nv[k]++] = v[k];
		if (bd->shared)
			bd->v[STAGE_PARTS][bd->nv[STAGE_PARTS]++] = (total_of(s, bd, m[0]) + total_of(s, bd, m[1])) / 2;
		bd->rtt[n] = rtt;
		bd->turn[n++] = turn;
		bd->nrtt = n;
	}
	bd->across_derived = across >= 0 && !bd->shared;
}

/* The part between the ends came before the end of the part before it in
 * most puts: the two are one part, from the earlier one's start. */
static void merge_inverted(struct breakdown *bd)
{
	const char *const *stamp;
	char what[200];
	int k, prev;
	size_t n;

	for (k = 1; k < STAGE_PARTS && (bd->absorbed[k] || part_side(bd, k) != 3); k++)
		;
	if (k == STAGE_PARTS || 2 * bd->inverted <= bd->nv[k])
		return;
	for (prev = k - 1; prev > 0 && bd->absorbed[prev]; prev--)
		;
	bd->span_extra[prev] += 1 + bd->span_extra[k];
	bd->absorbed[k] = 1;
	snprintf(what, sizeof(what), "%s+%s", bd->name[prev], bd->name[k]);
	n = strlen(what) < sizeof(bd->name[prev]) ? strlen(what) : sizeof(bd->name[prev]) - 1;
	memcpy(bd->name[prev], what, n);
	bd->name[prev][n] = 0;
	stamp = bd->stage_what == what_hosted ? stamp_hosted : stamp_nic;
	snprintf(what, sizeof(what), "from %s to %s (the call returns after the frame is in)", stamp[prev],
		 stamp[prev + bd->span_extra[prev] + 1]);
	memcpy(bd->what[prev], what, sizeof(what)); /* both 200 bytes */
	memcpy(bd->v[prev], bd->alt, (size_t)bd->nalt * sizeof(double));
	bd->nv[prev] = bd->nalt;
	bd->nv[k] = 0;
	bd->inverted = 0;
}

void breakdown_finish(struct breakdown *bd)
{
	double sum = 0;
	int all = 1;

	if (bd->spans_set)
		merge_inverted(bd);
	for (int k = 0; k <= STAGE_PARTS; k++) {
		bd->have[k] = bd->nv[k] > 0;
		if (k < STAGE_PARTS) {
			if (bd->absorbed[k])
				continue; /* inside an earlier part */
			bd->part[k] = stat_of(bd->v[k], bd->nv[k]);
			sum += bd->part[k].mean;
			all &= bd->have[k];
		} else {
			bd->total = stat_of(bd->v[k], bd->nv[k]);
		}
	}
	bd->have_rounds = bd->nrtt > 0;
	if (bd->have_rounds) {
		bd->round = stat_of(bd->rtt, bd->nrtt);
		bd->turn_st = stat_of(bd->turn, bd->nrtt);
		sum += bd->turn_st.mean;
	}
	bd->parts_sum_ns = all ? sum : NAN;
	bd->residual_ns = !all ? NAN : bd->have_rounds ? bd->round.mean - sum :
			  bd->have[STAGE_PARTS] ? bd->total.mean - sum : NAN;
	bd->done = bd->samples > 0;
}

void breakdown_free(struct breakdown *bd)
{
	for (int k = 0; k <= STAGE_PARTS; k++) {
		free(bd->v[k]);
		bd->v[k] = NULL;
	}
	free(bd->alt);
	bd->alt = NULL;
	free(bd->rtt);
	free(bd->turn);
	free(bd->rounds);
	bd->rtt = bd->turn = NULL;
	bd->rounds = NULL;
	bd->nrtt = bd->nround = 0;
}
