/* SPDX-License-Identifier: MIT */
/* tests/unit/test_wire_shm.c — the software NIC's shared-memory wire
 * (userlib/softnic/wire_shm.c): both sides attached in one process; frames in order,
 * a full ring refuses, the ring wraps (and its counters wrap 2^32), a frame
 * too large is refused, a slot with a length no peer could have written is
 * skipped, a bad object is not attached. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "userlib/softnic/wire_shm.h"

#define MAXF 300u

struct pair {
	struct shm_wire_hdr *shm;
	size_t len;
	struct shm_wire w0, w1;
};

static void pair_new(struct pair *p)
{
	p->len = shm_wire_size(MAXF);
	p->shm = aligned_alloc(4096, (p->len + 4095) & ~(size_t)4095);
	if (!p->shm)
		abort();
	shm_wire_format(p->shm, MAXF);
	CHECK(shm_wire_attach(&p->w0, p->shm, p->len, 0) == 0, "attach side 0");
	CHECK(shm_wire_attach(&p->w1, p->shm, p->len, 1) == 0, "attach side 1");
}

static int send(struct shm_wire *w, uint32_t len, uint32_t tag)
{
	uint8_t *f = shm_wire_ops.tx_alloc(w, len);

	if (!f)
		return -1;
	for (uint32_t i = 0; i < len; i++)
		f[i] = (uint8_t)(tag + i);
	if (len >= 4)
		memcpy(f, &tag, 4);
	shm_wire_ops.tx_send(w, f, len);
	return 0;
}

/* The next frame: its tag, or -1 when none; checks its length and bytes. */
static int64_t recv(struct shm_wire *w, uint32_t want_len)
{
	uint32_t len = 0, tag = 0;
	const uint8_t *f = shm_wire_ops.rx(w, &len);
	int ok = 1, more;

	if (!f)
		return -1;
	if (len >= 4)
		memcpy(&tag, f, 4);
	for (uint32_t i = 4; i < len; i++)
		ok &= f[i] == (uint8_t)(tag + i);
	CHECK(len == want_len && ok, "frame %u: len %u (want %u), bytes %s", tag, len, want_len, ok ? "ok" : "wrong");
	/* rx_done says whether another frame is waiting, as the next look would */
	more = shm_wire_ops.rx_done(w);
	f = shm_wire_ops.rx(w, &len);
	CHECK(more == (f != NULL), "after frame %u rx_done said %d, the next look found %s", tag, more,
	      f ? "a frame" : "none");
	return tag;
}

static void test_in_order(void)
{
	struct pair p;

	pair_new(&p);
	CHECK(recv(&p.w1, 0) == -1, "a frame on a fresh wire");
	for (uint32_t k = 0; k < 10; k++)
		CHECK(send(&p.w0, 40 + k, 1000 + k) == 0, "send %u", k);
	for (uint32_t k = 0; k < 3; k++)
		CHECK(send(&p.w1, 8, 2000 + k) == 0, "send back %u", k);
	for (uint32_t k = 0; k < 10; k++)
		CHECK(recv(&p.w1, 40 + k) == 1000 + k, "frame %u out of order", k);
	CHECK(recv(&p.w1, 0) == -1, "an extra frame");
	for (uint32_t k = 0; k < 3; k++)
		CHECK(recv(&p.w0, 8) == 2000 + k, "the other direction, frame %u", k);
	CHECK(recv(&p.w0, 0) == -1, "an extra frame back");
	/* a zero-length frame is a frame */
	CHECK(send(&p.w0, 0, 0) == 0, "send empty");
	{
		uint32_t len = 99;

		CHECK(shm_wire_ops.rx(&p.w1, &len) && len == 0, "empty frame: len %u", len);
		shm_wire_ops.rx_done(&p.w1);
	}
	/* the largest frame fits, one byte more does not */
	CHECK(send(&p.w0, MAXF, 7) == 0, "a frame of max_frame bytes refused");
	CHECK(shm_wire_ops.tx_alloc(&p.w0, MAXF + 1) == NULL, "a frame of max_frame + 1 bytes accepted");
	CHECK(recv(&p.w1, MAXF) == 7, "the largest frame");
	free(p.shm);
}

static void test_full_and_wrap(void)
{
	struct pair p;
	uint32_t next_rx = 0, next_tx = 0;

	pair_new(&p);
	while (send(&p.w0, 16 + next_tx % 200, next_tx) == 0)
		next_tx++;
	CHECK_EQ_U(next_tx, SHM_SLOTS);
	CHECK(recv(&p.w1, 16) == next_rx++, "first frame of a full ring");
	CHECK(send(&p.w0, 16 + next_tx % 200, next_tx) == 0, "a slot freed by the consumer was not reused");
	next_tx++;
	CHECK(send(&p.w0, 16, next_tx) == -1, "more than SHM_SLOTS frames in the ring");
	/* many passes over the ring, in uneven batches */
	for (int round = 0; round < 40; round++) {
		for (int k = 0; k < 37 + round % 5; k++)
			if (send(&p.w0, 16 + next_tx % 200, next_tx) == 0)
				next_tx++;
		for (int k = 0; k < 41; k++) {
			int64_t t = recv(&p.w1, 16 + next_rx % 200);

			if (t < 0)
				break;
			CHECK(t == next_rx, "round %d: frame %lld, want %u", round, (long long)t, next_rx);
			next_rx = (uint32_t)t + 1;
		}
	}
	while (recv(&p.w1, 16 + next_rx % 200) >= 0)
		next_rx++;
	CHECK(next_rx == next_tx && next_tx > 4 * SHM_SLOTS, "%u sent, %u received", next_tx, next_rx);
	free(p.shm);
}

/* The producer and consumer counts are 32 bits: start both just below 2^32. */
static void test_counter_wrap(void)
{
	struct pair p;
	uint32_t start = 0xffffffffu - 100, got = 0;

	pair_new(&p);
	p.w0.tx_prod = p.w0.tx_cons_seen = start;
	p.w1.rx_cons = start;
	*p.w1.rx_cons_pub = start;
	/* the slots as the previous pass left them: seq = that frame's count + 1 */
	for (uint32_t c = start - SHM_SLOTS; c != start; c++)
		((struct shm_slot *)(p.w0.tx_slots + (size_t)(c % SHM_SLOTS) * p.w0.slot_size))->seq = c + 1;
	for (uint32_t k = 0; k < 3 * SHM_SLOTS; k++) {
		CHECK(recv(&p.w1, 32) == -1, "a stale slot read as frame %u", k);
		CHECK(send(&p.w0, 32, k) == 0, "send %u across the wrap", k);
		if (recv(&p.w1, 32) == k)
			got++;
	}
	CHECK_EQ_U(got, 3 * SHM_SLOTS);
	CHECK(p.w0.tx_prod < 1000, "the producer count did not wrap: %u", p.w0.tx_prod);
	free(p.shm);
}

/* A slot whose length no peer could have written is skipped, and counted
 * consumed so the producer can reuse it. */
static void test_bogus_length(void)
{
	struct pair p;
	struct shm_slot *s;

	pair_new(&p);
	send(&p.w0, 20, 1);
	send(&p.w0, 20, 2);
	send(&p.w0, 20, 3);
	s = (struct shm_slot *)(p.w1.rx_slots + (size_t)1 * p.w1.slot_size);
	s->len = MAXF + 1;
	CHECK(recv(&p.w1, 20) == 1, "first frame");
	CHECK(recv(&p.w1, 20) == 3, "the bogus slot was not skipped");
	CHECK_EQ_U(*p.w1.rx_cons_pub, 3);
	s = (struct shm_slot *)(p.w1.rx_slots + (size_t)3 * p.w1.slot_size);
	send(&p.w0, 20, 4);
	s->len = 0xffffffffu;
	CHECK(recv(&p.w1, 0) == -1, "a lone bogus slot delivered");
	CHECK_EQ_U(*p.w1.rx_cons_pub, 4);
	CHECK(send(&p.w0, 20, 5) == 0 && recv(&p.w1, 20) == 5, "the wire works after a bogus slot");
	free(p.shm);
}

static void test_attach(void)
{
	struct pair p;
	struct shm_wire w;

	pair_new(&p);
	CHECK(shm_wire_attach(&w, p.shm, p.len - 1, 0) == -1, "attached to a short object");
	CHECK(shm_wire_attach(&w, p.shm, sizeof(*p.shm) - 1, 0) == -1, "attached to a header fragment");
	p.shm->version++;
	CHECK(shm_wire_attach(&w, p.shm, p.len, 0) == -1, "attached to another version");
	p.shm->version--;
	p.shm->slot_size += 64;
	CHECK(shm_wire_attach(&w, p.shm, p.len, 0) == -1, "attached with a slot size that does not match");
	p.shm->slot_size -= 64;
	p.shm->nslots = 128;
	CHECK(shm_wire_attach(&w, p.shm, p.len, 0) == -1, "attached with another slot count");
	p.shm->nslots = SHM_SLOTS;
	p.shm->magic = 0;
	CHECK(shm_wire_attach(&w, p.shm, p.len, 0) == -1, "attached to an unformatted object");
	p.shm->magic = SHM_WIRE_MAGIC;
	CHECK(shm_wire_attach(&w, p.shm, p.len, 1) == 0, "the restored object");
	/* an 8-byte put (slot header 16 + packet header 40 + 8) fills one cache line */
	CHECK_EQ_U(shm_wire_size(48), 4096 + 2 * (64 + SHM_SLOTS * 64));
	CHECK_EQ_U(p.shm->slot_size % 64, 0);
	free(p.shm);
}

int main(void)
{
	test_in_order();
	test_full_and_wrap();
	test_counter_wrap();
	test_bogus_length();
	test_attach();
	CHECK_DONE();
}
