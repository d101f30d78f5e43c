/* SPDX-License-Identifier: MIT */
/* tests/unit/test_wire_faults.c — the fault layer (userlib/engine/wire_faults.c) over
 * the shared-memory wire, both ends in one process. Probabilities 0 and 1
 * give exact outcomes; the end-to-end CRC catches a flipped bit anywhere in
 * the frame; a delay holds frames until their due time (time here is the
 * cycle counter, so the delays are either tiny or huge, and the checks are
 * on order and holding, never on how long anything took); reorder holds one
 * frame back behind the next. */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include <eel/cycles.h>

#include "check.h"
#include "userlib/engine/wire_faults.h"
#include "userlib/softnic/wire_shm.h"

#define MAXF 200u

struct link {
	struct shm_wire_hdr *shm;
	struct shm_wire w0, w1;
	struct wire_faults tx, rx;   /* the sender's layer over side 0, the receiver's over side 1 */
};

static void link_new(struct link *l, struct wire_faults_opts o, int crc)
{
	size_t len = shm_wire_size(MAXF + 4);
	struct wire_faults_opts none = { 0 };

	l->shm = aligned_alloc(4096, (len + 4095) & ~(size_t)4095);
	if (!l->shm)
		abort();
	shm_wire_format(l->shm, MAXF + 4);
	if (shm_wire_attach(&l->w0, l->shm, len, 0) || shm_wire_attach(&l->w1, l->shm, len, 1))
		abort();
	if (wire_faults_init(&l->tx, &o, (struct wire){ .ops = &shm_wire_ops, .ctx = &l->w0 }, MAXF, crc) ||
	    wire_faults_init(&l->rx, &none, (struct wire){ .ops = &shm_wire_ops, .ctx = &l->w1 }, MAXF, crc))
		abort();
}

static void link_free(struct link *l)
{
	wire_faults_free(&l->tx);
	wire_faults_free(&l->rx);
	free(l->shm);
}

/* Frame k: 4-byte tag, then bytes derived from it; len from k. */
static uint32_t flen(uint32_t k)
{
	return 8 + k % 150;
}

static int send(struct link *l, uint32_t k)
{
	uint8_t *f = wire_faults_ops.tx_alloc(&l->tx, flen(k));

	if (!f)
		return -1;
	memcpy(f, &k, 4);
	for (uint32_t i = 4; i < flen(k); i++)
		f[i] = (uint8_t)(k * 31 + i);
	wire_faults_ops.tx_send(&l->tx, f, flen(k));
	return 0;
}

/* The next frame at the receiver: its tag, -1 when none, -2 when damaged. */
static int64_t recv(struct link *l)
{
	uint32_t len, k;
	const uint8_t *f = wire_faults_ops.rx(&l->rx, &len);
	int ok;

	if (!f)
		return -1;
	memcpy(&k, f, 4);
	ok = len == flen(k);
	for (uint32_t i = 4; ok && i < len; i++)
		ok = f[i] == (uint8_t)(k * 31 + i);
	wire_faults_ops.rx_done(&l->rx);
	return ok ? (int64_t)k : -2;
}

/* Let the sender's layer move held and delayed frames whose time has come
 * (it does so whenever it is used: here through its rx). */
static void pump(struct link *l)
{
	uint32_t len;

	CHECK(wire_faults_ops.rx(&l->tx, &len) == NULL, "a frame came back to the sender");
}

static void spin_cycles(uint64_t n)
{
	uint64_t t0 = eel_stamp();

	while (eel_stamp() - t0 <= n)
		;
}

static void test_clean(void)
{
	struct wire_faults_opts o = { 0 };
	struct link l;

	CHECK(!wire_faults_wanted(&o), "no faults wanted");
	o.dup = 0.5;
	CHECK(wire_faults_wanted(&o), "dup wanted");
	o.dup = 0;
	o.delay = 1;
	CHECK(wire_faults_wanted(&o), "delay wanted");
	o.delay = 0;
	for (int crc = 0; crc < 2; crc++) {
		link_new(&l, o, crc);
		for (uint32_t k = 0; k < 100; k++)
			send(&l, k);
		/* what is on the carrier: the frame, plus its CRC-32 when asked */
		{
			uint32_t len, c;
			const uint8_t *f = shm_wire_ops.rx(&l.w1, &len);

			CHECK(f && len == flen(0) + (crc ? 4 : 0), "crc %d: carrier frame of %u bytes", crc, len);
			if (f && crc) {
				memcpy(&c, f + len - 4, 4);
				CHECK(c == (uint32_t)crc32_z(0, f, len - 4), "the CRC is the frame's CRC-32");
			}
		}
		for (uint32_t k = 0; k < 100; k++)
			CHECK(recv(&l) == k, "crc %d: frame %u", crc, k);
		CHECK(recv(&l) == -1, "crc %d: an extra frame", crc);
		for (int c = 0; c < WF_COUNTERS; c++)
			CHECK(l.tx.cnt[c] == 0 && l.rx.cnt[c] == 0, "crc %d: counter %s", crc, wf_counter_names[c]);
		CHECK(wire_faults_ops.tx_alloc(&l.tx, MAXF + 1) == NULL, "a frame above max_frame accepted");
		CHECK(wire_faults_ops.tx_alloc(&l.tx, MAXF) != NULL, "a frame of max_frame bytes refused");
		link_free(&l);
	}
}

static void test_drop_dup(void)
{
	struct wire_faults_opts o = { .drop = 1 };
	struct link l;
	uint32_t got = 0;

	link_new(&l, o, 1);
	for (uint32_t k = 0; k < 50; k++)
		send(&l, k);
	CHECK(recv(&l) == -1, "drop = 1 delivered a frame");
	CHECK_EQ_U(l.tx.cnt[WF_DROPPED], 50);
	link_free(&l);

	o = (struct wire_faults_opts){ .dup = 1 };
	link_new(&l, o, 1);
	for (uint32_t k = 0; k < 50; k++) {
		send(&l, k);
		got += recv(&l) == k;
		got += recv(&l) == k;
		CHECK(recv(&l) == -1, "frame %u came more than twice", k);
	}
	CHECK_EQ_U(got, 100);
	CHECK_EQ_U(l.tx.cnt[WF_DUPLICATED], 50);
	link_free(&l);
}

/* reorder = 1: each frame is held and leaves right behind the next one, so
 * pairs swap; a last frame with nothing behind it leaves when its hold time
 * is over. */
static void test_reorder(void)
{
	struct wire_faults_opts o = { .reorder = 1 };
	struct link l;

	link_new(&l, o, 1);
	for (uint32_t k = 0; k < 7; k++)
		send(&l, k);
	CHECK(recv(&l) == 1 && recv(&l) == 0 && recv(&l) == 3 && recv(&l) == 2 && recv(&l) == 5 && recv(&l) == 4,
	      "pairs not swapped");
	CHECK_EQ_U(l.tx.cnt[WF_REORDERED], 4);
	spin_cycles(1000000); /* well past the hold time (20000 cycles) */
	pump(&l);
	CHECK(recv(&l) == 6, "the held frame did not leave");
	CHECK(recv(&l) == -1, "an extra frame");
	link_free(&l);
}

/* corrupt = 1 with the CRC: every frame dropped at the receiver, counted at
 * both ends; without the CRC: delivered with exactly one bit changed. */
static void test_corrupt(void)
{
	struct wire_faults_opts o = { .corrupt = 1 };
	struct link l;

	link_new(&l, o, 1);
	for (uint32_t k = 0; k < 50; k++)
		send(&l, k);
	CHECK(recv(&l) == -1, "a corrupted frame passed the CRC");
	CHECK_EQ_U(l.tx.cnt[WF_CORRUPTED], 50);
	CHECK_EQ_U(l.rx.cnt[WF_CRC_ERRORS], 50);
	link_free(&l);

	link_new(&l, o, 0);
	for (uint32_t k = 0; k < 50; k++) {
		uint8_t want[MAXF];
		uint32_t len, bits = 0;
		const uint8_t *f;

		send(&l, k);
		memcpy(want, &k, 4);
		for (uint32_t i = 4; i < flen(k); i++)
			want[i] = (uint8_t)(k * 31 + i);
		f = wire_faults_ops.rx(&l.rx, &len);
		CHECK(f && len == flen(k), "frame %u not delivered whole", k);
		for (uint32_t i = 0; f && i < len; i++)
			bits += (uint32_t)__builtin_popcount(f[i] ^ want[i]);
		CHECK(bits == 1, "frame %u: %u bits changed", k, bits);
		if (f)
			wire_faults_ops.rx_done(&l.rx);
	}
	link_free(&l);
}

/* The receiver's CRC check catches a bit flipped anywhere on the carrier,
 * in the frame or in the CRC itself, and lets the next good frame through. */
static void test_crc(void)
{
	struct wire_faults_opts o = { 0 };
	struct link l;
	uint32_t caught = 0, n = 8 * (flen(0) + 4);

	link_new(&l, o, 1);
	for (uint32_t bit = 0; bit < n; bit++) {
		struct shm_slot *s = (struct shm_slot *)(l.w1.rx_slots + (size_t)(l.w1.rx_cons % SHM_SLOTS) * l.w1.slot_size);

		send(&l, 0);
		send(&l, 1);
		s->frame[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		caught += recv(&l) == 1;
		CHECK(recv(&l) == -1, "bit %u: an extra frame", bit);
	}
	CHECK_EQ_U(caught, n);
	CHECK_EQ_U(l.rx.cnt[WF_CRC_ERRORS], n);
	/* a carrier frame too short to hold a CRC */
	{
		void *f = shm_wire_ops.tx_alloc(&l.w0, 3);

		shm_wire_ops.tx_send(&l.w0, f, 3);
		send(&l, 9);
		CHECK(recv(&l) == 9, "a 3-byte carrier frame was not dropped");
		CHECK_EQ_U(l.rx.cnt[WF_CRC_ERRORS], n + 1);
	}
	link_free(&l);
}

/* A delay holds frames, in order, until their due time. */
static void test_delay(void)
{
	struct wire_faults_opts o = { .delay = 1ull << 62 };
	struct link l;
	uint32_t n = 0;

	/* due in a century: held, never sent; the queue fills and then refuses */
	link_new(&l, o, 1);
	while (n < 1000 && send(&l, n) == 0)
		n++;
	CHECK_EQ_U(n, WF_QUEUE - 2);
	pump(&l);
	CHECK(recv(&l) == -1, "a frame left before its due time");
	link_free(&l);

	/* due in 2000 cycles: nothing is lost or reordered, all leave once due */
	o.delay = 2000;
	link_new(&l, o, 1);
	for (uint32_t k = 0; k < 20; k++)
		send(&l, k);
	spin_cycles(1000000);
	pump(&l);
	for (uint32_t k = 0; k < 20; k++)
		CHECK(recv(&l) == k, "delayed frame %u", k);
	CHECK(recv(&l) == -1, "an extra frame");
	link_free(&l);
}

/* The carrier is full: the layer queues, and frames leave in order as the
 * receiver makes room. */
static void test_backpressure(void)
{
	struct wire_faults_opts o = { 0 };
	struct link l;
	uint32_t sent = 0, got = 0;

	link_new(&l, o, 1);
	while (sent < SHM_SLOTS + 100 && send(&l, sent) == 0)
		sent++;
	CHECK_EQ_U(sent, SHM_SLOTS + 100);
	for (int round = 0; round < 10 && got < sent; round++) {
		int64_t k;

		while ((k = recv(&l)) >= 0)
			CHECK(k == got++, "frame %lld, want %u", (long long)k, got - 1);
		pump(&l);
	}
	CHECK_EQ_U(got, sent);
	link_free(&l);
}

int main(void)
{
	test_clean();
	test_drop_dup();
	test_reorder();
	test_corrupt();
	test_crc();
	test_delay();
	test_backpressure();
	CHECK_DONE();
}
