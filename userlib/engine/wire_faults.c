/* SPDX-License-Identifier: MIT */
/* userlib/engine/wire_faults.c — the fault layer (userlib/engine/wire_faults.h). */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include <eel/cycles.h>

#include "userlib/engine/wire_faults.h"

const char *const wf_counter_names[WF_COUNTERS] = {
	[WF_DROPPED] = "wire_dropped", [WF_DUPLICATED] = "wire_duplicated",
	[WF_REORDERED] = "wire_reordered", [WF_CORRUPTED] = "wire_corrupted",
	[WF_CRC_ERRORS] = "wire_crc_errors",
};

#define HOLD_CYCLES 20000 /* a held frame with nothing behind it leaves after this */

int wire_faults_wanted(const struct wire_faults_opts *o)
{
	return o->drop > 0 || o->dup > 0 || o->reorder > 0 || o->corrupt > 0 || o->delay;
}

int wire_faults_init(struct wire_faults *wf, const struct wire_faults_opts *o, struct wire lower,
		     uint32_t max_frame, int crc)
{
	memset(wf, 0, sizeof(*wf));
	wf->lower = lower;
	wf->o = *o;
	wf->crc = crc;
	wf->max_frame = max_frame;
	wf->rng = o->seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull;
	wf->stage = malloc(max_frame + 4);
	wf->held.buf = malloc(max_frame + 4);
	for (int i = 0; i < WF_QUEUE; i++)
		if (!(wf->q[i].buf = malloc(max_frame + 4)))
			break;
	if (!wf->stage || !wf->held.buf || !wf->q[WF_QUEUE - 1].buf) {
		wire_faults_free(wf);
		return -1;
	}
	return 0;
}

void wire_faults_free(struct wire_faults *wf)
{
	free(wf->stage);
	free(wf->held.buf);
	for (int i = 0; i < WF_QUEUE; i++)
		free(wf->q[i].buf);
	memset(wf, 0, sizeof(*wf));
}

static double rnd(struct wire_faults *wf)
{
	/* xorshift64* (Vigna 2016) */
	wf->rng ^= wf->rng >> 12;
	wf->rng ^= wf->rng << 25;
	wf->rng ^= wf->rng >> 27;
	return (double)((wf->rng * 0x2545F4914F6CDD1Dull) >> 11) * (1.0 / 9007199254740992.0);
}

static void enqueue(struct wire_faults *wf, const uint8_t *frame, uint32_t len, uint64_t now)
{
	struct wf_frame *f = &wf->q[wf->tail++ % WF_QUEUE];

	memcpy(f->buf, frame, len);
	f->len = len;
	f->due = now + wf->o.delay;
}

/* Frames whose time has come go onto the carrier, in order, while it has room. */
static void pump(struct wire_faults *wf, uint64_t now)
{
	if (wf->held.len && now - wf->held.due > HOLD_CYCLES) {
		enqueue(wf, wf->held.buf, wf->held.len, now);
		wf->held.len = 0;
	}
	while (wf->head != wf->tail) {
		struct wf_frame *f = &wf->q[wf->head % WF_QUEUE];
		void *out;

		if (now < f->due || !(out = wf->lower.ops->tx_alloc(wf->lower.ctx, f->len)))
			return;
		memcpy(out, f->buf, f->len);
		wf->lower.ops->tx_send(wf->lower.ctx, out, f->len);
		wf->head++;
	}
}

static void *wf_tx_alloc(void *ctx, uint32_t len)
{
	struct wire_faults *wf = ctx;

	if (len > wf->max_frame || wf->tail - wf->head > WF_QUEUE - 3) {
		pump(wf, eel_stamp());
		if (len > wf->max_frame || wf->tail - wf->head > WF_QUEUE - 3)
			return NULL;
	}
	return wf->stage;
}

static void wf_tx_send(void *ctx, void *frame, uint32_t len)
{
	struct wire_faults *wf = ctx;
	uint8_t *b = frame;
	uint64_t now = eel_stamp();

	if (rnd(wf) < wf->o.drop) {
		wf->cnt[WF_DROPPED]++;
		goto out;
	}
	if (wf->crc) {
		/* the FCS: CRC-32 as IEEE 802.3 section 3.2.9 (polynomial 0x04C11DB7,
		 * reflected, initial value and final XOR all ones) is zlib's crc32 */
		uint32_t c = (uint32_t)crc32_z(0, b, len);

		memcpy(b + len, &c, 4);
		len += 4;
	}
	if (rnd(wf) < wf->o.corrupt) {
		uint32_t bit = (uint32_t)(rnd(wf) * (len - (wf->crc ? 4 : 0)) * 8);

		b[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		wf->cnt[WF_CORRUPTED]++;
	}
	if (!wf->held.len && rnd(wf) < wf->o.reorder) {
		memcpy(wf->held.buf, b, len); /* it goes out after the next frame */
		wf->held.len = len;
		wf->held.due = now;
		wf->cnt[WF_REORDERED]++;
		goto out;
	}
	enqueue(wf, b, len, now);
	if (rnd(wf) < wf->o.dup) {
		enqueue(wf, b, len, now);
		wf->cnt[WF_DUPLICATED]++;
	}
	if (wf->held.len) {
		enqueue(wf, wf->held.buf, wf->held.len, now);
		wf->held.len = 0;
	}
out:
	pump(wf, now);
}

static const void *wf_rx(void *ctx, uint32_t *len)
{
	struct wire_faults *wf = ctx;
	const uint8_t *f;

	if (wf->head != wf->tail || wf->held.len)
		pump(wf, eel_stamp());
	while ((f = wf->lower.ops->rx(wf->lower.ctx, len))) {
		uint32_t c;

		if (!wf->crc)
			return f;
		if (*len >= 4) {
			memcpy(&c, f + *len - 4, 4);
			if (c == (uint32_t)crc32_z(0, f, *len - 4)) {   /* the FCS, as sent */
				*len -= 4;
				return f;
			}
		}
		wf->cnt[WF_CRC_ERRORS]++;
		wf->lower.ops->rx_done(wf->lower.ctx);
	}
	return NULL;
}

/* Another frame may be waiting: the carrier's word, unless frames held
 * here are due onto it (wf_rx pumps them). */
static int wf_rx_done(void *ctx)
{
	struct wire_faults *wf = ctx;

	return wf->lower.ops->rx_done(wf->lower.ctx) | (wf->head != wf->tail) | (wf->held.len != 0);
}

const struct wire_ops wire_faults_ops = {
	.tx_alloc = wf_tx_alloc,
	.tx_send = wf_tx_send,
	.rx = wf_rx,
	.rx_done = wf_rx_done,
};
