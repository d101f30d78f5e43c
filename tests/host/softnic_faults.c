/* SPDX-License-Identifier: MIT */
/* tests/host/softnic_faults.c — exactly once over a bad wire: 10^5 puts of
 * 1..256 bytes with NOTIFY (the receiver gets one completion per put, carrying
 * the put's number) over a software NIC pair whose wires drop, duplicate,
 * reorder and corrupt 1% of frames each, both ways. Every put must arrive
 * once, in order, with every byte right; the NIC counters must show that the
 * faults happened and were repaired. Inline and thread mode. */
#include "pair.h"

#define SLOT 256u
#define SLOTS 4096u
#define CREDIT_OFF ((size_t)SLOTS * SLOT)   /* client: the server's progress */

struct fault_case {
	const char *uri;
	uint32_t n;
};

static uint32_t size_of(uint32_t i)
{
	return 1 + (i * 37u) % SLOT;
}

static uint8_t pat(uint32_t i, uint32_t j)
{
	return (uint8_t)(i * 151u + j * 13u + 1);
}

static uint64_t counter(struct eel_dev *d, const char *name)
{
	struct eel_counter c[64];
	int n = eel_counters(d, c, 64);

	for (int i = 0; i < n; i++)
		if (!strcmp(c[i].name, name))
			return c[i].value;
	return 0;
}

static int client(struct pair *p, uint32_t n)
{
	volatile uint64_t *credit = (volatile uint64_t *)(p->buf + CREDIT_OFF);
	struct eel_cqe c[64];
	int failures = 0;

	for (uint32_t i = 0; i < n; i++) {
		uint8_t *src = p->buf + (size_t)(i % SLOTS) * SLOT;
		int rc;

		/* the server must have checked put i - SLOTS before its slot is reused */
		while (i >= *credit + SLOTS)
			if (eel_poll(p->dev, c, 64) < 0)
				pair_die(p, "poll");
		for (uint32_t j = 0; j < size_of(i); j++)
			src[j] = pat(i, j);
		while ((rc = eel_put(p->dev, p->mr, src, size_of(i), &p->peer, (uint64_t)(i % SLOTS) * SLOT,
				     EEL_PUT_NOTIFY, i, i)) == -EAGAIN)
			if (eel_poll(p->dev, c, 64) < 0)
				pair_die(p, "poll");
		if (rc)
			pair_die(p, "put");
	}
	EXPECT(eel_quiet(p->dev) == 0, "quiet: %s", eel_errmsg());
	pair_send(p, "d", 1);
	EXPECT(counter(p->dev, "wire_dropped") && counter(p->dev, "wire_duplicated") &&
	       counter(p->dev, "wire_reordered") && counter(p->dev, "wire_corrupted"),
	       "every fault kind should have happened on the client's wire");
	EXPECT(counter(p->dev, "retransmits") > 0, "no retransmission with 1%% drops");
	return failures;
}

static int server(struct pair *p, uint32_t n)
{
	uint32_t next = 0;
	int failures = 0, bad = 0;
	char done;

	while (next < n) {
		struct eel_cqe c[64];
		int k = eel_poll(p->dev, c, 64);

		if (k < 0)
			pair_die(p, "poll");
		for (int x = 0; x < k; x++) {
			const uint8_t *dst = p->buf + (size_t)(c[x].imm % SLOTS) * SLOT;

			if (c[x].kind != EEL_CQE_NOTIFY || c[x].imm != next || c[x].len != size_of(next)) {
				if (bad++ < 5)
					fprintf(stderr, "server: completion %u: kind %u imm %u len %u (expected put %u of %u bytes)\n",
						next, c[x].kind, c[x].imm, c[x].len, next, size_of(next));
				next = c[x].imm;
			}
			for (uint32_t j = 0; j < size_of(next); j++)
				if (dst[j] != pat(next, j) && bad++ < 5)
					fprintf(stderr, "server: put %u byte %u is %u, expected %u\n", next, j, dst[j],
						pat(next, j));
			next++;
			if (next % 256 == 0 && eel_eput(p->dev, &p->peer, CREDIT_OFF, next))
				pair_die(p, "credit");
		}
	}
	pair_recv(p, &done, 1);
	/* nothing more may arrive: a duplicate would complete twice */
	for (int i = 0; i < 1000; i++) {
		struct eel_cqe c;
		int k = eel_poll(p->dev, &c, 1);

		if (k > 0 && c.kind == EEL_CQE_NOTIFY) {
			fprintf(stderr, "server: a put completed twice (imm %u)\n", c.imm);
			bad++;
		}
		usleep(100);
	}
	EXPECT(bad == 0, "%d puts arrived wrong, twice, or out of order", bad);
	EXPECT(counter(p->dev, "rx_messages") == n, "the NIC delivered %llu messages, not %u",
	       (unsigned long long)counter(p->dev, "rx_messages"), n);
	EXPECT(counter(p->dev, "wire_crc_errors") > 0, "corrupted frames should have been caught by the CRC");
	return failures;
}

int main(void)
{
	static const struct fault_case cases[] = {
		{ "softnic:inline?drop=0.01&dup=0.01&reorder=0.01&corrupt=0.01&rto_us=200&seed=7", 100000 },
		{ "softnic:thread?oversubscribe=1&drop=0.01&dup=0.01&reorder=0.01&corrupt=0.01&rto_us=2000&seed=9", 20000 },
	};
	int failures = 0;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pair p;
		int f;

		pair_start(&p, cases[i].uri, CREDIT_OFF + 64, 30000);
		f = p.server ? server(&p, cases[i].n) : client(&p, cases[i].n);
		f = pair_end(&p, f);
		printf("%u puts over %s: %s\n", cases[i].n, cases[i].uri, f ? "FAILED" : "every byte once, in order");
		failures += f;
	}
	return failures != 0;
}
