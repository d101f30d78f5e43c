/* SPDX-License-Identifier: MIT */
/* tests/unit/test_fw_stress.c — exactly once, under every fault at once.
 *
 * Two firmwares on a fake HAL (fakenic.h) put thousands of NOTIFY puts at
 * each other (0 .. 700 bytes, some inline, some multi-packet) while their
 * E-registers store and load; the wire drops, duplicates, delays (so
 * reorders) and damages frames at random. Damage is confined to the magic
 * byte, which fw_pkt_parse always rejects: arbitrary damage is the CRC's job
 * (test_wire_faults.c; test_fw_faults.c shows what each header bit does —
 * even a flipped op bit can turn one valid header-only packet into another).
 * Every imm must arrive exactly once and in order, with its length; every
 * byte must land; every load must return the last store.
 */
#include "check.h"
#include "fakenic.h"

#define N 3000u
#define MAXLEN 700u
#define SLOT 704u
#define EREGS 4u
#ifndef SEED
#define SEED 0
#endif
#ifndef RECOVERY
#define RECOVERY EEL_FW_RECOVERY_GBN /* test_fw_stress_sr.c: selective repeat */
#endif

struct side {
	struct fn_nic *n;
	uint8_t *src, *dst;          /* dst: where the peer's puts land */
	uint32_t lkey, peer_rkey;
	uint8_t *peer_dst;
	uint32_t len[N];
	uint32_t posted, notified, completed;
	uint64_t *ewin;              /* the peer's E-register words */
	uint32_t ekey;
	int estate[EREGS];           /* 0 idle, 1 store issued, 2 load issued */
	uint64_t evalue[EREGS];
	uint32_t loads, stores;
	uint64_t rng;
};

static void side_init(struct side *s, struct fn_nic *n, struct fn_nic *peer, uint64_t *peer_words, uint64_t seed)
{
	s->n = n;
	s->rng = seed;
	s->src = malloc(N * SLOT);
	s->dst = calloc(N, SLOT);
	if (!s->src || !s->dst)
		abort();
	for (uint32_t i = 0; i < N * SLOT; i++)
		s->src[i] = (uint8_t)(fn_rand(&s->rng) >> 56);
	for (uint32_t k = 0; k < N; k++)
		s->len[k] = (uint32_t)(fn_rand(&s->rng) % (MAXLEN + 1));
	s->lkey = fn_mr(n, 1, s->src, N * SLOT, EEL_FW_MR_LOCAL_READ);
	fn_mr(n, 2, s->dst, N * SLOT, EEL_FW_MR_REMOTE_WRITE);
	s->ewin = peer_words;
	s->ekey = fn_mr(peer, 3, peer_words, EREGS * 8, EEL_FW_MR_REMOTE_WRITE | EEL_FW_MR_REMOTE_READ);
}

static void side_post(struct side *s, const struct side *peer)
{
	while (s->posted < N && !fn_sq_full(s->n)) {
		uint32_t k = s->posted, len = s->len[k];
		uint8_t flags = EEL_FW_SQE_NOTIFY | (k % 4 == 0 ? EEL_FW_SQE_SIGNALED : 0) |
				(len <= EEL_FW_MAX_INLINE && k % 2 ? EEL_FW_SQE_INLINE : 0);
		struct eel_fw_sqe d = fn_put_desc(s->lkey, s->src + k * SLOT, len, EEL_FW_KEY(2, peer->n->mrt[2].tag),
						  peer->dst + k * SLOT, flags, k, k);

		fn_post(s->n, &d);
		s->posted++;
	}
}

static void side_poll(struct side *s, const struct side *peer)
{
	struct eel_fw_cqe e;

	while (fn_poll(s->n, &e)) {
		if (e.opcode == EEL_FW_CQE_NOTIFY) {
			CHECK(e.status == EEL_FW_OK && e.imm == s->notified && s->notified < N &&
			      e.len == peer->len[e.imm < N ? e.imm : 0],
			      "%s: NOTIFY imm %u len %u status %u, want imm %u", s->n->name, e.imm, e.len, e.status,
			      s->notified);
			s->notified++;
		} else {
			CHECK(e.status == EEL_FW_OK && e.wr_id % 4 == 0 && e.wr_id >= s->completed,
			      "%s: put completion wr_id %llu status %u", s->n->name, (unsigned long long)e.wr_id,
			      e.status);
			s->completed = (uint32_t)e.wr_id + 1;
		}
	}
}

/* Each E-register stores a fresh value, then loads it back. */
static void side_eregs(struct side *s)
{
	for (uint32_t r = 0; r < EREGS; r++) {
		int st = s->estate[r] ? fn_ereg_status(s->n, r) : EEL_FW_OK;

		if (st < 0)
			continue;
		CHECK(st == EEL_FW_OK, "%s: E-register %u status %d", s->n->name, r, st);
		if (s->estate[r] == 2) {
			CHECK(s->n->bar.ereg[r].value == s->evalue[r], "%s: E-register %u loaded %llx, stored %llx",
			      s->n->name, r, (unsigned long long)s->n->bar.ereg[r].value,
			      (unsigned long long)s->evalue[r]);
			s->loads++;
		}
		if (s->estate[r] != 1) {
			s->evalue[r] = fn_rand(&s->rng);
			fn_ereg(s->n, r, EEL_FW_EREG_PUT, s->ekey, &s->ewin[r], s->evalue[r]);
			s->estate[r] = 1;
			s->stores++;
		} else {
			fn_ereg(s->n, r, EEL_FW_EREG_GET, s->ekey, &s->ewin[r], 0);
			s->estate[r] = 2;
		}
	}
}

static void faults(struct fn_link *l)
{
	l->drop = 0.03;
	l->dup = 0.03;
	l->delay = 0.05;
	l->delay_max = 20;
	l->corrupt = 0.02;
	l->corrupt_bytes = 1;
}

int main(void)
{
	static uint64_t words_a[EREGS], words_b[EREGS];
	struct fn_config c = fn_defaults();
	struct fn_pair *p;
	struct side a = { 0 }, b = { 0 };
	long steps = 0;

	c.rto = 64;
	c.recovery = RECOVERY;
	p = fn_pair_new(&c);
	side_init(&a, &p->a, &p->b, words_b, 11 + SEED);
	side_init(&b, &p->b, &p->a, words_a, 12 + SEED);
	p->ab.rng += SEED;
	p->ba.rng += SEED;
	faults(&p->ab);
	faults(&p->ba);

	while ((a.notified < N || b.notified < N || a.posted < N || b.posted < N) && steps < 2000000) {
		side_post(&a, &b);
		side_post(&b, &a);
		if (a.posted < N)
			side_eregs(&a);
		if (b.posted < N)
			side_eregs(&b);
		fn_step(p);
		side_poll(&a, &b);
		side_poll(&b, &a);
		steps++;
	}
	/* the last E-register commands finish */
	for (int i = 0; i < 100000; i++) {
		int busy = 0;

		for (uint32_t r = 0; r < EREGS; r++)
			busy |= fn_ereg_status(&p->a, r) < 0 || fn_ereg_status(&p->b, r) < 0;
		if (!busy)
			break;
		fn_step(p);
	}
	fn_settle(p, 100000);
	printf("%ld steps; wire a->b: %llu sent, %llu dropped, %llu duplicated, %llu delayed, %llu damaged; "
	       "loads %u + %u\n", steps, (unsigned long long)p->ab.sent, (unsigned long long)p->ab.dropped,
	       (unsigned long long)p->ab.duplicated, (unsigned long long)p->ab.delayed,
	       (unsigned long long)p->ab.corrupted, a.loads, b.loads);
	CHECK(a.notified == N && b.notified == N, "NOTIFY completions: a %u, b %u of %u", a.notified, b.notified, N);
	for (uint32_t k = 0; k < N; k++) {
		CHECK(memcmp(a.src + k * SLOT, b.dst + k * SLOT, a.len[k]) == 0, "a -> b put %u (%u bytes)", k, a.len[k]);
		CHECK(memcmp(b.src + k * SLOT, a.dst + k * SLOT, b.len[k]) == 0, "b -> a put %u (%u bytes)", k, b.len[k]);
	}
	CHECK(a.loads > 50 && b.loads > 50, "E-register loads: %u, %u", a.loads, b.loads);
	/* each put and each E-register store delivered exactly once */
	CHECK_EQ_U(fn_counter(&p->b, EEL_FW_CNT_RX_MSGS), N + a.stores);
	CHECK_EQ_U(fn_counter(&p->a, EEL_FW_CNT_RX_MSGS), N + b.stores);
	/* every kind of trouble happened, and was survived */
	for (int i = 0; i < 2; i++) {
		const struct fn_nic *n = i ? &p->b : &p->a;

		CHECK(fn_counter(n, EEL_FW_CNT_DUPS) && fn_counter(n, EEL_FW_CNT_OOO) + fn_counter(n, EEL_FW_CNT_OOO_KEPT) &&
		      fn_counter(n, EEL_FW_CNT_BAD) &&
		      fn_counter(n, EEL_FW_CNT_RETRANSMITS) && fn_counter(n, EEL_FW_CNT_NAKS_RX),
		      "%s: dups %llu ooo %llu kept %llu bad %llu retransmits %llu naks %llu", n->name,
		      (unsigned long long)fn_counter(n, EEL_FW_CNT_DUPS), (unsigned long long)fn_counter(n, EEL_FW_CNT_OOO),
		      (unsigned long long)fn_counter(n, EEL_FW_CNT_OOO_KEPT),
		      (unsigned long long)fn_counter(n, EEL_FW_CNT_BAD),
		      (unsigned long long)fn_counter(n, EEL_FW_CNT_RETRANSMITS),
		      (unsigned long long)fn_counter(n, EEL_FW_CNT_NAKS_RX));
		CHECK_EQ_U(n->status.error, 0);
		CHECK_EQ_U(n->dma_violations, 0);
	}
	/* the timer is for a lost tail only, which one side or the other meets
	 * under these faults: it fired, and was survived (a side whose every
	 * loss was shown by a later packet needs none) */
	CHECK(fn_counter(&p->a, EEL_FW_CNT_TIMEOUTS) + fn_counter(&p->b, EEL_FW_CNT_TIMEOUTS),
	      "no timer expiry on either side: a %llu, b %llu", (unsigned long long)fn_counter(&p->a, EEL_FW_CNT_TIMEOUTS),
	      (unsigned long long)fn_counter(&p->b, EEL_FW_CNT_TIMEOUTS));
	free(a.src);
	free(a.dst);
	free(b.src);
	free(b.dst);
	fn_pair_free(p);
	CHECK_DONE();
}
