/* SPDX-License-Identifier: MIT */
/* bench/breakdown.c — where the time of one put goes, from the stamps.
 *
 * A traced put has a sender-side record (POST .. NIC_TX) at the sending end
 * and a receiver-side record (NIC_RX .. DETECT) at the other, both keyed by
 * the sender's message number. Stages within one record are differences of
 * one clock and always exact; a stage between the ends (wire: NIC_TX to
 * NIC_RX) and the whole one-way time need both ends to stamp with one clock
 * (EEL_CAP_SHARED_CLOCK: the software NIC, two processes on one machine).
 * Elsewhere the part between the ends is what EEL leaves of the others.
 *
 * Measured, not fitted (docs/methods.md). A traced message takes only POST and the
 * stamps around one (userlib/core/stamp_pick.c), so each stage is measured
 * on messages that carry little else. A stamp costs the path its own time:
 * how much longer the span between the stamps before and after it is with
 * it than without it (stamp_costs: two means, each on messages of their
 * own, never a figure solved from EEL); half of it comes off each part it
 * bounds (the split is not measured: the part's uncertainty holds it). A
 * NIC whose messages take every stamp (verbs; the firmware hosted by dpdk
 * or raw) is given a stamp's cost alone instead. Each part is its mean with
 * its 95% uncertainty; one within that of 0 is a bound, never negative.
 *
 * A NIC that does not take a stamp (the NIC's stamp_mask) does not let eel
 * tell the two stages around it apart: they are one part, named for both
 * ("fetch+tx"), never split by a guess. Where eel's firmware runs on the
 * host's core over a real NIC (EEL_CAP_HOSTED_FW: dpdk, raw), the stages are
 * named for what does them there: host software up to the NIC's own
 * doorbell, the NIC, then the receiving host's firmware.
 *
 * EEL is RTT/2 of the ping-pong (Bell et al. 2003 §4.1), so a round trip
 * holds two one-way trips and each end's turnaround: the host's loop from
 * seeing a message to posting the next (timed on the stamped rounds whose
 * messages took POST and DETECT, at each end on its own clock). Each part's
 * figure is its mean, as EEL is a mean of round trips: means add up where
 * medians do not. Their sum less the EEL of the unstamped runs is the
 * residual, a check that can fail (the one-way trip measured whole, against
 * its parts, another); the stamped rounds' RTT/2 less that EEL is the
 * perturbation. A record or a round longer than cut_ns (10x EEL and 5 us,
 * pingpong.c) was preempted and is left out whole, counted.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

const char *const stage_part_name[STAGE_PARTS] = {
	"post", "doorbell", "fetch", "tx", "wire", "rx", "dma", "detect",
};

/* The stamps by name, POST..DETECT (the JSON's keys for their costs). */
const char *const stamp_key[EEL_ST_COMPLETE] = {
	"post", "doorbell", "doorbell_done", "nic_fetch", "nic_tx", "nic_rx", "dma_start", "dma_done", "detect",
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
 * and, within one end, in order: raw (breakdown_finish takes the stamps' cost off).
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
	*ns = cyc_ns(s, (double)(int64_t)(b - a)); /* raw: breakdown_finish takes the stamps' cost off */
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

/* DETECT - POST, raw */
static double total_of(const struct session *s, const struct eel_trace *m)
{
	return cyc_ns(s, (double)(m->t[EEL_ST_DETECT] - m->t[EEL_ST_POST]));
}


/* Stamp k of record r if it asked for it and it was taken, else 0 (a
 * record is not cleared before reuse: struct eel_trace's want). */
static uint64_t stamp_of(const struct eel_trace *r, int k)
{
	return r && eel_trace_has(r, k) ? r->t[k] : 0;
}

/* Did the message choose its stamps (stamp_pick.c), or take every one? */
static int chose_stamps(const struct eel_trace *snd)
{
	return (snd->want & EEL_TRACE_CHOSEN) && (snd->want & EEL_TRACE_STAMPS) != EEL_TRACE_STAMPS;
}

/* The sample arrays, all or none: a failed allocation leaves every one
 * NULL (a later call would otherwise find v[0] and write through a NULL alt).
 * -1 said on stderr. */
static int samples_alloc(struct breakdown *bd)
{
	int ok = 1;

	bd->cap = 2 * 65536;
	for (int k = 0; k <= STAGE_PARTS; k++)
		ok &= (bd->v[k] = calloc((size_t)bd->cap, sizeof(double))) != NULL;
	ok &= (bd->alt = calloc((size_t)bd->cap, sizeof(double))) != NULL;
	if (ok)
		return 0;
	for (int k = 0; k <= STAGE_PARTS; k++) {
		free(bd->v[k]);
		bd->v[k] = NULL;
	}
	free(bd->alt);
	bd->alt = NULL;
	bd->cap = 0;
	return bench_oom("the breakdown's samples");
}

static int add_records(const struct session *s, struct breakdown *bd, const struct eel_trace *tx, int ntx,
		       const struct eel_trace *rx, int nrx)
{
	int shared = s->caps->flags & EEL_CAP_SHARED_CLOCK;
	int i = 0, j = 0;
	double ns;

	breakdown_spans(bd, s->caps);
	if (!bd->stamp_alone_ns)
		bd->stamp_alone_ns = cyc_ns(s, (double)s->clk->stamp_cycles);
	bd->q_ns = cyc_ns(s, (double)s->clk->resolution_cycles);
	for (int r = 0; r < ntx; r++)
		bd->chosen |= chose_stamps(&tx[r]);
	bd->nic_stamps = s->caps->nic_stamp_mask;
	bd->mask = s->caps->stamp_mask ? s->caps->stamp_mask : (1u << EEL_STAGES) - 1;
	if (!bd->v[0] && samples_alloc(bd))
		return -1;
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
				bd->alt[bd->nalt++] = cyc_ns(s, (double)(t1 - m.t[stamp_order[prev]]));
		}
		if (m.t[EEL_ST_POST] && m.t[EEL_ST_DETECT] > m.t[EEL_ST_POST])
			push(bd, STAGE_PARTS, total_of(s, &m));
		i++;
		j++;
	}
	return 0;
}

/* Copies of n records with only the stamps each asked for (want): a record
 * is not cleared before reuse. */
static struct eel_trace *records_taken(const struct eel_trace *r, int n)
{
	struct eel_trace *c = malloc(sizeof(*c) * (size_t)(n ? n : 1));

	for (int i = 0; c && i < n; i++) {
		c[i] = r[i];
		for (int k = 0; k < EEL_STAGES; k++)
			c[i].t[k] = stamp_of(&r[i], k);
	}
	return c;
}

/* One-way records (each end's, joined by number on one clock): the parts
 * they give, until the rounds' replace them (breakdown_rounds). */
int breakdown_add(const struct session *s, struct breakdown *bd, const struct eel_trace *tx, int ntx,
		  const struct eel_trace *rx, int nrx)
{
	struct eel_trace *ctx = records_taken(tx, ntx), *crx = records_taken(rx, nrx);
	int rc = ctx && crx ? add_records(s, bd, ctx, ntx, crx, nrx) : bench_oom("the stamps' records");

	free(ctx);
	free(crx);
	return rc;
}

static void merge_inverted(struct breakdown *bd);
static void rounds_measure(struct breakdown *bd, const struct session *s);

/* The record of message msg_id in a list in message order, from *at on. */
static const struct eel_trace *by_id(const struct eel_trace *r, int n, int *at, uint32_t msg_id)
{
	while (*at < n && (int32_t)(r[*at].msg_id - msg_id) < 0)
		(*at)++;
	return *at < n && r[*at].msg_id == msg_id ? &r[*at] : NULL;
}

/* One message: the stamps its sender's record holds (POST..NIC_TX), then
 * its receiver's (NIC_RX..DETECT), only those each asked for (want); rcv may
 * be NULL (a message that took no stamp at the receiving end). */
static void join(struct bd_msg *m, const struct eel_trace *snd, const struct eel_trace *rcv)
{
	memset(m, 0, sizeof(*m));
	for (int k = 0; k < EEL_STAGES; k++)
		m->t[k] = stamp_of(k >= EEL_ST_NIC_RX && k <= EEL_ST_DETECT ? rcv : snd, k);
	m->chosen = chose_stamps(snd);
	m->around = m->chosen ? eel_trace_around(snd->want) : -1;
	m->without = m->chosen && (snd->want & EEL_TRACE_WITHOUT);
}

/* Does a message take a stamp at its receiving end (a record there)? */
static int takes_rx(const struct eel_trace *snd)
{
	uint32_t rx = ((1u << (EEL_ST_DETECT + 1)) - 1) & ~((1u << EEL_ST_NIC_RX) - 1);

	return !snd->want || (snd->want & rx);
}

/* The ping-pong's stamped rounds, each joined whole: at the client (one
 * clock) round k's ping is the stamped put posted in [start, end), its pong
 * the stamped detection after it. At the server, the ping's detection and
 * the pong's put: by message number where both ends stamp with one clock
 * (the receiver's records carry the sender's number); else the server's k-th
 * stamped detection and the stamped put after it (both ends stamp the same
 * rounds: eel_set_stamp_every), and only when both ends saw as many rounds.
 * A message that chose stamps only at its sending end has no receiver's
 * record: its round is kept with the sender's alone. */
int breakdown_rounds(const struct session *s, struct breakdown *bd, const struct bd_rounds *rd,
		     const struct eel_trace *tx, int ntx, const struct eel_trace *rx, int nrx,
		     const struct eel_trace *peer_tx, int npeer_tx, const struct eel_trace *peer_rx, int npeer_rx)
{
	int i = 0, j = 0, pi = 0, pj = 0, first = bd->nround, pairs = 0;

	bd->shared = !!(s->caps->flags & EEL_CAP_SHARED_CLOCK);
	if (!bd->rounds && !(bd->rounds = calloc(MAX_ROUNDS, sizeof(*bd->rounds))))
		return bench_oom("the breakdown's rounds");
	for (int k = 0; k < rd->n && bd->nround < MAX_ROUNDS; k++) {
		struct bd_round *r = &bd->rounds[bd->nround];
		const struct eel_trace *ping, *pong, *ping_rx = NULL, *pong_tx = NULL;

		/* the client's stamped put in the round (every stamped put takes POST) */
		while (i < ntx && (!tx[i].t[EEL_ST_POST] || tx[i].t[EEL_ST_POST] < rd->start[k]))
			i++;
		ping = i < ntx && tx[i].t[EEL_ST_POST] < rd->end[k] ? &tx[i] : NULL;
		if (!ping) {
			bd->unjoined++;
			continue;
		}
		if (bd->shared) {
			/* its record at the server by number, the server's stamped put
			 * after it, that one's record here by number */
			while (pj < npeer_tx && peer_tx[pj].t[EEL_ST_POST] < ping->t[EEL_ST_POST])
				pj++;
			pong_tx = pj < npeer_tx && peer_tx[pj].t[EEL_ST_POST] < rd->end[k] ? &peer_tx[pj] : NULL;
			if (!pong_tx) {
				bd->unjoined++;
				continue;
			}
			ping_rx = by_id(peer_rx, npeer_rx, &pi, ping->msg_id);
			pong = by_id(rx, nrx, &j, pong_tx->msg_id);
			if ((!ping_rx && takes_rx(ping)) || (!pong && takes_rx(pong_tx))) {
				bd->unjoined++; /* its receiver's record is missing */
				continue;
			}
			join(&r->ab, ping, ping_rx);
			join(&r->ba, pong_tx, pong);
		} else {
			while (j < nrx && rx[j].t[EEL_ST_DETECT] < ping->t[EEL_ST_POST])
				j++;
			pong = j < nrx ? &rx[j] : NULL;
			if (!pong || !pong->t[EEL_ST_DETECT] || pong->t[EEL_ST_DETECT] > rd->end[k]) {
				bd->unjoined++;
				continue;
			}
			join(&r->ab, ping, NULL); /* the server's halves are filled in below */
			join(&r->ba, ping, pong);
			for (int st = EEL_ST_POST; st < EEL_ST_NIC_RX; st++)
				r->ba.t[st] = 0;
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
			for (int st = EEL_ST_NIC_RX; st <= EEL_ST_DETECT; st++)
				r->ab.t[st] = stamp_of(&peer_rx[i], st);
			for (int st = EEL_ST_POST; st <= EEL_ST_NIC_TX; st++)
				r->ba.t[st] = stamp_of(&peer_tx[j], st);
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
		rounds_measure(bd, s);
	return 0;
}

/* The stamps of mask around s: before it (dir -1) or after it (dir 1), -1: none. */
static int beside(uint32_t mask, int s, int dir)
{
	for (int t = s + dir; t >= 0 && t < EEL_ST_COMPLETE; t += dir)
		if (mask & (1u << t))
			return t;
	return -1;
}

/* The mean of n samples less their lowest and highest tenth (sorted in
 * place): a span across the wire now and then waits out something else
 * for microseconds, which would move a plain mean of a few dozen by tens of
 * ns; the variance of that mean in *var (the winsorised samples'). */
static double trimmed_mean(double *v, int n, double *var)
{
	int cut = n / 10, m = n - 2 * cut;
	double sum = 0, sq = 0, mean;

	stat_of(v, n); /* sorts */
	for (int i = cut; i < n - cut; i++)
		sum += v[i];
	mean = sum / m;
	for (int i = 0; i < n; i++) {
		double w = v[i < cut ? cut : i >= n - cut ? n - cut - 1 : i] - mean;

		sq += w * w;
	}
	*var = sq / (n - 1) / ((double)m / n * m / n) / n;
	return mean;
}

/* What each stamp costs the path in place. Where the messages chose their
 * stamps: for a stamp with one before and one after it, how much longer
 * the span between those two is with it than without it, each mean on
 * messages of their own (a difference of two measurements, not solved from
 * EEL); the first and the last stamp (POST, DETECT), never inside a span,
 * and one whose spans were not measured, the measured ones' mean. Where
 * every message takes every stamp: a stamp alone (eel_clock). A stamp read
 * off a NIC's clock costs the host nothing. */
static void stamp_costs(struct breakdown *bd)
{
	double sum = 0, var = 0;
	int n = 0;

	for (int st = 0; st < EEL_STAGES; st++) {
		double a, b, va, vb;

		bd->in_place[st] = bd->chosen && bd->span_n[0][st] >= 10 && bd->span_n[1][st] >= 10;
		if (!bd->in_place[st])
			continue;
		a = trimmed_mean(bd->span_v[0][st], bd->span_n[0][st], &va);
		b = trimmed_mean(bd->span_v[1][st], bd->span_n[1][st], &vb);
		bd->cost_ns[st] = fmax(b - a, 0); /* a stamp does not shorten the path: below 0 is noise */
		bd->cost_var[st] = va + vb;
		sum += bd->cost_ns[st];
		var += bd->cost_var[st];
		n++;
	}
	for (int st = 0; st < EEL_STAGES; st++) {
		if (bd->in_place[st])
			continue;
		bd->cost_ns[st] = bd->nic_stamps & (1u << st) ? 0 : n ? sum / n : bd->stamp_alone_ns;
		bd->cost_var[st] = bd->nic_stamps & (1u << st) || !n ? 0 : var / n / n;
	}
}

/* Every stamp taken: what those between POST and DETECT cost the whole trip. */
static double inside_cost(const struct breakdown *bd)
{
	double c = 0;

	for (int st = EEL_ST_POST + 1; !bd->chosen && st < EEL_ST_DETECT; st++)
		if (bd->mask & (1u << st))
			c += bd->cost_ns[st];
	return c;
}

/* What the stamps at the two ends of a span cost it: half of each (how a
 * stamp's cost splits between the span that ends at it and the one it
 * begins is not measured: the part's uncertainty holds the other split). */
static double ends_cost(const struct breakdown *bd, int a, int b)
{
	return (bd->cost_ns[a] + bd->cost_ns[b]) / 2;
}

static double ends_var(const struct breakdown *bd, int a, int b, int split)
{
	double v = (bd->cost_var[a] + bd->cost_var[b]) / 4;

	/* the split: anywhere from none to all of each stamp's cost, uniform */
	if (split)
		v += (bd->cost_ns[a] * bd->cost_ns[a] + bd->cost_ns[b] * bd->cost_ns[b]) / 12;
	return v;
}

/* The 95% half-width of a mean of n samples v (less a cost whose mean has
 * variance cvar): the samples' own spread, and at least the counter's step
 * (a difference of two reads is good to one step; their mean to about
 * step / sqrt(n)). */
static double unc_of(const struct breakdown *bd, const double *v, int n, double cvar)
{
	double m = 0, q = 0, var;

	if (n < 1)
		return NAN;
	for (int i = 0; i < n; i++)
		m += v[i];
	m /= n;
	for (int i = 0; i < n; i++)
		q += (v[i] - m) * (v[i] - m);
	var = n > 1 ? q / (n - 1) : 0;
	var = fmax(var, bd->q_ns * bd->q_ns / 6);
	return 2 * sqrt(var / n + cvar);
}

/* A sample of part k, or of the whole one-way trip (k = STAGE_PARTS), from
 * a joined message: the interval between the part's two stamps, raw. */
static int msg_part(const struct session *s, const struct breakdown *bd, const struct bd_msg *m, int k, double *ns)
{
	int a = k < STAGE_PARTS ? stamp_order[k] : EEL_ST_POST;
	int b = k < STAGE_PARTS ? stamp_order[k + bd->span_extra[k] + 1] : EEL_ST_DETECT;
	int across = k == STAGE_PARTS || part_side(bd, k) == 3;

	if (!m->t[a] || !m->t[b] || (across && !bd->shared) || (m->t[b] < m->t[a] && !across))
		return 0;
	/* with no stamp taken between its two (the whole trip: only where it
	 * was the choice; a message that took every stamp has them all) */
	for (int st = a + 1; m->chosen && st < b; st++)
		if (m->t[st])
			return 0;
	*ns = cyc_ns(s, (double)(int64_t)(m->t[b] - m->t[a]));
	return 1;
}

/* The span around stamp s in a message that chose it (with s or without),
 * raw: one sample of how much s lengthens it. */
static void span_of(const struct session *s, struct breakdown *bd, const struct bd_msg *m)
{
	int p = beside(bd->mask, m->around, -1), n = beside(bd->mask, m->around, 1);

	if (m->around < 0 || p < 0 || n < 0 || !m->t[p] || !m->t[n] || m->t[n] < m->t[p])
		return;
	if (!bd->shared && p <= EEL_ST_NIC_TX && n >= EEL_ST_NIC_RX)
		return;
	int with = !m->without;

	if (bd->span_v[with][m->around])
		bd->span_v[with][m->around][bd->span_n[with][m->around]++] = cyc_ns(s, (double)(m->t[n] - m->t[p]));
}

/* The stamped rounds measured (docs/library.md, the stamps): each
 * message's stamps give the parts they bound and the span around the stamp
 * its choice is about, with that stamp or without; the turnaround comes from
 * rounds whose ping and pong both took POST and DETECT; the rounds' RTT/2 is
 * kept raw: less the unstamped EEL it is the perturbation, a figure, not a
 * cost taken off anything. The costs come off in breakdown_finish. A round
 * longer than cut_ns was interrupted and is left out whole. */
static void rounds_measure(struct breakdown *bd, const struct session *s)
{
	for (int k = 0; k <= STAGE_PARTS; k++)
		bd->nv[k] = 0;
	memset(bd->span_n, 0, sizeof(bd->span_n));
	for (int w = 0; w < 2; w++)
		for (int st = 0; st < EEL_STAGES; st++) {
			free(bd->span_v[w][st]);
			bd->span_v[w][st] = calloc(2 * (size_t)bd->nround + 1, sizeof(double));
		}
	free(bd->rtt);
	free(bd->turn);
	bd->rtt = calloc((size_t)bd->nround + 1, sizeof(double));
	bd->turn = calloc((size_t)bd->nround + 1, sizeof(double));
	bd->interrupted = 0;
	bd->nrtt = 0;
	bd->chosen = 0;
	if (!bd->rtt || !bd->turn)
		return;
	for (int r = 0; r < bd->nround; r++) {
		const struct bd_round *x = &bd->rounds[r];
		const struct bd_msg *m[2] = { &x->ab, &x->ba };
		uint64_t p0 = x->ab.t[EEL_ST_POST], d0 = x->ab.t[EEL_ST_DETECT];
		uint64_t p1 = x->ba.t[EEL_ST_POST], d1 = x->ba.t[EEL_ST_DETECT];
		double half = cyc_ns(s, (double)(x->b - x->a)) / 2;

		if (bd->cut_ns > 0 && half > bd->cut_ns) {
			bd->interrupted++;
			continue;
		}
		bd->rtt[bd->nrtt++] = half;
		for (int i = 0; i < 2; i++) {
			double ns;

			bd->chosen |= m[i]->chosen;
			span_of(s, bd, m[i]);
			for (int k = 0; k <= STAGE_PARTS; k++)
				if ((k == STAGE_PARTS || !bd->absorbed[k]) && msg_part(s, bd, m[i], k, &ns) &&
				    bd->nv[k] < bd->cap)
					bd->v[k][bd->nv[k]++] = ns;
		}
		/* the client's turnaround (top to ping, pong to top) and the server's (ping to pong) */
		bd->turn[bd->nrtt - 1] = p0 && d0 && p1 && d1 && p0 >= x->a && x->b >= d1 ?
					 cyc_ns(s, (double)(p0 - x->a + x->b - d1) + (double)(int64_t)(p1 - d0)) / 2 : NAN;
	}
	bd->across_derived = 0;
	for (int k = 0; k < STAGE_PARTS; k++)
		if (!bd->absorbed[k] && part_side(bd, k) == 3 && !bd->shared)
			bd->across_derived = 1;
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

/* Samples v less a cost c, summarised (sorted in place). */
static struct stat less(double *v, int n, double c)
{
	for (int i = 0; i < n; i++)
		v[i] -= c;
	return stat_of(v, n);
}

/* A figure within its uncertainty of 0 is a bound, never a negative. */
static int resolve(double mean, double unc, double *bound)
{
	*bound = fmax(mean, 0) + (isfinite(unc) ? unc : 0);
	return isfinite(unc) && mean > unc;
}

void breakdown_finish(struct breakdown *bd)
{
	double sum = 0, var = 0, oneway = 0;
	int all = 1, across = -1, nturn = 0;

	if (bd->spans_set)
		merge_inverted(bd);
	stamp_costs(bd);
	for (int k = 0; k < STAGE_PARTS; k++) {
		int st = stamp_order[k], e = stamp_order[k + bd->span_extra[k] + 1];

		bd->have[k] = bd->nv[k] > 0;
		if (bd->absorbed[k])
			continue; /* inside an earlier part */
		if (bd->across_derived && part_side(bd, k) == 3) {
			across = k;
			continue;
		}
		bd->part_unc[k] = unc_of(bd, bd->v[k], bd->nv[k], ends_var(bd, st, e, 1));
		bd->part[k] = less(bd->v[k], bd->nv[k], ends_cost(bd, st, e));
		bd->part_resolved[k] = resolve(bd->part[k].mean, bd->part_unc[k], &bd->part_bound[k]);
		bd->part_trim[k] = bd->nv[k] ? trimmed_mean(bd->v[k], bd->nv[k], &(double){ 0 }) : NAN;
		sum += bd->part[k].mean;
		oneway += bd->part[k].mean;
		/* the sum's: the samples' and each stamp's cost once (the split cancels) */
		var += bd->have[k] ? pow(unc_of(bd, bd->v[k], bd->nv[k], 0) / 2, 2) + bd->cost_var[st] : 0;
		all &= bd->have[k];
	}
	bd->have[STAGE_PARTS] = bd->nv[STAGE_PARTS] > 0;
	bd->total_unc = unc_of(bd, bd->v[STAGE_PARTS], bd->nv[STAGE_PARTS], ends_var(bd, EEL_ST_POST, EEL_ST_DETECT, 1));
	bd->total = less(bd->v[STAGE_PARTS], bd->nv[STAGE_PARTS], ends_cost(bd, EEL_ST_POST, EEL_ST_DETECT) + inside_cost(bd));
	bd->have_rounds = bd->nrtt > 0;
	if (bd->have_rounds) {
		/* three intervals, each between two stamps, halved: the client's
		 * loop top (a stamp like the rest: the measured ones' mean) to POST,
		 * DETECT to the loop top, and at the server DETECT to POST */
		double c = (bd->cost_ns[EEL_ST_POST] + bd->cost_ns[EEL_ST_DETECT]) / 2 +
			   (bd->cost_ns[EEL_ST_POST] + bd->cost_ns[EEL_ST_DETECT]) / 4;
		double cv = (bd->cost_var[EEL_ST_POST] + bd->cost_var[EEL_ST_DETECT]) * 9 / 16;

		for (int r = 0; r < bd->nrtt; r++)
			if (isfinite(bd->turn[r]))
				bd->turn[nturn++] = bd->turn[r];
		bd->turn_unc = unc_of(bd, bd->turn, nturn, cv + c * c / 12);
		bd->turn_st = less(bd->turn, nturn, c);
		bd->turn_resolved = resolve(bd->turn_st.mean, bd->turn_unc, &bd->turn_bound);
		bd->round = stat_of(bd->rtt, bd->nrtt);
		all &= nturn > 0;
		sum += bd->turn_st.mean;
		var += nturn ? pow(unc_of(bd, bd->turn, nturn, cv), 2) / 4 : 0;
	}
	var += bd->cost_var[stamp_order[STAGE_PARTS]];
	/* the parts are checked against the unstamped runs' EEL, itself a
	 * figure of runs (pingpong.c, median_unc95): its uncertainty too */
	var += bd->eel_ref_unc_ns > 0 ? pow(bd->eel_ref_unc_ns / 2, 2) : 0;
	/* below 0 the stamped rounds came out faster than the unstamped runs:
	 * the runs' own variation (a cold first run, a preempted one), not what
	 * stamping added, which is then not separable here (NAN: null) */
	bd->perturbation_ns = bd->have_rounds && bd->eel_ref_ns > 0 ? bd->round.mean - bd->eel_ref_ns : NAN;
	if (bd->perturbation_ns < 0)
		bd->perturbation_ns = NAN;
	bd->oneway_gap_ns = bd->have[STAGE_PARTS] && all ? bd->total.mean - oneway : NAN;
	if (across >= 0 && all && bd->eel_ref_ns > 0) {
		/* no one clock: the part between the ends is what EEL leaves of the
		 * others; nothing is left to check it against */
		double v = bd->eel_ref_ns - sum;

		bd->nv[across] = 1;
		bd->v[across][0] = v;
		bd->part[across] = stat_of(bd->v[across], 1);
		bd->part_trim[across] = v;
		bd->have[across] = 1;
		bd->part_unc[across] = 2 * sqrt(var);
		bd->part_resolved[across] = resolve(v, bd->part_unc[across], &bd->part_bound[across]);
		sum += v;
	}
	bd->parts_sum_ns = all ? sum : NAN;
	bd->residual_unc_ns = 2 * sqrt(var);
	bd->residual_ns = !all || across >= 0 || !(bd->eel_ref_ns > 0) ? NAN : sum - bd->eel_ref_ns;
	/* (only with whole rounds: without the turnaround the parts are one
	 * way and do not add up to EEL at all, which a warning says) */
	bd->closes = !bd->have_rounds || !isfinite(bd->residual_ns) ? -1 :
		     fabs(bd->residual_ns) - bd->residual_unc_ns <= BD_CLOSE * bd->eel_ref_ns;
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
	for (int w = 0; w < 2; w++)
		for (int st = 0; st < EEL_STAGES; st++) {
			free(bd->span_v[w][st]);
			bd->span_v[w][st] = NULL;
		}
	free(bd->rtt);
	free(bd->turn);
	free(bd->rounds);
	bd->rtt = bd->turn = NULL;
	bd->rounds = NULL;
	bd->nrtt = bd->nround = 0;
}
