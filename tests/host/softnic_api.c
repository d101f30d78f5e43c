/* SPDX-License-Identifier: MIT */
/* tests/host/softnic_api.c — the one API on a software NIC pair (two
 * processes, the real shared-memory wire), in inline and thread mode:
 * puts of 1 B .. 1 MB at unaligned addresses with every flag, E-register
 * puts and gets, and the access errors (bad key, out of range: an error at
 * the sender, nothing written at the target, the connection failed). */
#include "pair.h"

#define REGION (3u << 20)
#define BASE 256            /* where puts land in the peer's region */
#define SENTINEL 0xEE

static const size_t sizes[] = { 1, 7, 8, 9, 16, 17, 63, 64, 65, 1000, 4095, 4096, 4097, 8193,
				65536, 300001, 1u << 20 };
static const size_t offs[] = { 0, 1, 3, 7 };
static const unsigned flag_sets[] = {
	0, EEL_PUT_SIGNALED, EEL_PUT_INLINE, EEL_PUT_NOTIFY, EEL_PUT_SIGNALED | EEL_PUT_NOTIFY,
	EEL_PUT_INLINE | EEL_PUT_SIGNALED,
};

struct put_case {
	uint32_t k;
	uint32_t flags;
	uint64_t dst_off;
	uint64_t size;
};

static uint8_t pat(uint32_t k, size_t j)
{
	return (uint8_t)(k * 131u + j * 7u + (j >> 8));
}

/* Wait for one completion of the given kind; returns it. */
static struct eel_cqe one_cqe(struct pair *p, uint32_t kind)
{
	struct eel_cqe c;
	uint64_t end = eel_cycles() + (uint64_t)(eel_clock()->hz * 10);

	for (;;) {
		int n = eel_poll(p->dev, &c, 1);

		if (n < 0)
			pair_die(p, "eel_poll");
		if (n == 1 && c.kind == kind)
			return c;
		if (n == 1) {
			fprintf(stderr, "unexpected completion kind %u\n", c.kind);
			c.status = -999;
			return c;
		}
		if (eel_cycles() > end) {
			c.status = -ETIMEDOUT;
			return c;
		}
	}
}

static int puts_client(struct pair *p)
{
	int failures = 0;
	uint32_t k = 0;

	for (size_t a = 0; a < sizeof(sizes) / sizeof(sizes[0]); a++)
		for (size_t b = 0; b < sizeof(offs) / sizeof(offs[0]); b++)
			for (size_t f = 0; f < sizeof(flag_sets) / sizeof(flag_sets[0]); f++) {
				struct put_case c = { k, flag_sets[f], BASE + (offs[b] * 5) % 8, sizes[a] };
				uint8_t *src = p->buf + 64 + offs[b];
				char ready;
				int ok, rc;

				if ((c.flags & EEL_PUT_INLINE) && c.size > eel_caps(p->dev)->max_inline)
					continue;
				pair_send(p, &c, sizeof(c));
				pair_recv(p, &ready, 1);
				for (size_t j = 0; j < c.size; j++)
					src[j] = pat(k, j);
				rc = eel_put(p->dev, p->mr, src, c.size, &p->peer, c.dst_off, c.flags, k, k);
				EXPECT(rc == 0, "put %u of %llu bytes: %s", k, (unsigned long long)c.size, eel_errmsg());
				if (c.flags & EEL_PUT_INLINE)
					memset(src, 0, c.size); /* inline: the source is free at once */
				if (!rc && (c.flags & EEL_PUT_SIGNALED)) {
					struct eel_cqe e = one_cqe(p, EEL_CQE_PUT);

					EXPECT(e.status == 0 && e.wr_id == k, "completion of put %u: status %d wr_id %llu",
					       k, e.status, (unsigned long long)e.wr_id);
				}
				EXPECT(eel_quiet(p->dev) == 0, "quiet after put %u: %s", k, eel_errmsg());
				pair_send(p, "d", 1);
				pair_recv(p, &ok, sizeof(ok));
				EXPECT(ok, "put %u (%llu bytes, flags %u, offset %llu) arrived wrong", k,
				       (unsigned long long)c.size, c.flags, (unsigned long long)c.dst_off);
				k++;
			}
	pair_send(p, &(struct put_case){ UINT32_MAX, 0, 0, 0 }, sizeof(struct put_case));
	return failures;
}

static int puts_server(struct pair *p)
{
	int failures = 0;

	for (;;) {
		struct put_case c;
		char done;
		int ok = 1;

		pair_recv(p, &c, sizeof(c));
		if (c.k == UINT32_MAX)
			break;
		memset(p->buf, SENTINEL, BASE + (1u << 20) + 64);
		pair_send(p, "r", 1);
		pair_recv(p, &done, 1);
		if (c.flags & EEL_PUT_NOTIFY) {
			struct eel_cqe e = one_cqe(p, EEL_CQE_NOTIFY);

			EXPECT(e.status == 0 && e.imm == c.k && e.len == c.size,
			       "notify of put %u: status %d imm %u len %u", c.k, e.status, e.imm, e.len);
			ok &= e.status == 0 && e.imm == c.k && e.len == c.size;
		}
		for (size_t j = 0; j < c.size; j++)
			ok &= p->buf[c.dst_off + j] == pat(c.k, j);
		ok &= p->buf[c.dst_off - 1] == SENTINEL && p->buf[c.dst_off + c.size] == SENTINEL;
		pair_send(p, &ok, sizeof(ok));
	}
	return failures;
}

/* E-register stores and loads (Bell et al. 2003 §2, T3E): many, over every register. */
static int eregs(struct pair *p)
{
	int failures = 0, ok;
	uint64_t *word = (uint64_t *)(p->buf + 8 * 200);

	if (p->server) {
		*word = 0x5eed5eed5eed5eedull;
		pair_send(p, "r", 1);
		pair_recv(p, &ok, sizeof(ok));
		return failures;
	}
	pair_recv(p, &(char){ 0 }, 1);
	for (uint64_t i = 0; i < 100; i++) {
		uint64_t v = 0x1122334455667788ull + i, got = 0;

		EXPECT(eel_eput(p->dev, &p->peer, 8 * (100 + i % 8), v) == 0, "eput %llu: %s",
		       (unsigned long long)i, eel_errmsg());
		if (i % 8 == 7) {
			EXPECT(eel_quiet(p->dev) == 0, "quiet: %s", eel_errmsg());
			for (uint64_t j = i - 7; j <= i; j++) {
				EXPECT(eel_eget(p->dev, &p->peer, 8 * (100 + j % 8), &got) == 0, "eget: %s", eel_errmsg());
				EXPECT(got == 0x1122334455667788ull + j, "eget read %llx, expected %llx",
				       (unsigned long long)got, (unsigned long long)(0x1122334455667788ull + j));
			}
		}
	}
	uint64_t got = 0;
	EXPECT(eel_eget(p->dev, &p->peer, 8 * 200, &got) == 0 && got == 0x5eed5eed5eed5eedull,
	       "eget of the server's own word: %llx", (unsigned long long)got);
	ok = 1;
	pair_send(p, &ok, sizeof(ok));
	return failures;
}

/* A refused access: the sender sees the error, the target is untouched, and
 * the connection has failed on both ends. */
enum { BAD_KEY, OUT_OF_RANGE, BAD_EGET };

static int refused(const char *uri, int kind)
{
	struct pair p;
	int failures = 0, rc;
	const size_t len = 1u << 16;

	pair_start(&p, uri, len, 5000);
	if (p.server) {
		uint8_t canary[16];
		int bad = 0;

		memset(p.buf, SENTINEL, len);
		memcpy(canary, p.buf + len - 16, 16);
		pair_send(&p, "r", 1);
		pair_recv(&p, &rc, sizeof(rc));
		for (size_t j = 0; j < len; j++)
			bad += p.buf[j] != SENTINEL;
		EXPECT(bad == 0, "%d bytes written at the target by a refused access", bad);
		rc = eel_quiet(p.dev);
		EXPECT(rc == -EREMOTEIO, "the target's connection should have failed: quiet gave %d", rc);
		return pair_end(&p, failures);
	}
	pair_recv(&p, &(char){ 0 }, 1);
	if (kind == BAD_EGET) {
		struct eel_window w = p.peer;
		uint64_t v;

		w.rkey ^= 1;
		rc = eel_eget(p.dev, &w, 0, &v);
		EXPECT(rc == -EREMOTEIO, "eget with a bad key gave %d (%s)", rc, eel_errmsg());
	} else {
		struct eel_window w = p.peer;
		uint64_t v = 0x0123456789abcdefull;
		uint64_t off = kind == OUT_OF_RANGE ? p.peer.len - 8 : 0;
		size_t n = kind == OUT_OF_RANGE ? 16 : 8;
		struct eel_cqe c;

		if (kind == BAD_KEY)
			w.rkey ^= 1;
		memcpy(p.buf, &v, 8);
		memcpy(p.buf + 8, &v, 8);
		rc = eel_put(p.dev, p.mr, p.buf, n, &w, off, 0, 7, 0); /* unsignalled */
		EXPECT(rc == 0, "posting: %s", eel_errmsg());
		c = one_cqe(&p, EEL_CQE_PUT);
		EXPECT(c.status == -EREMOTEIO && c.wr_id == 7, "the refused put's completion: status %d wr_id %llu",
		       c.status, (unsigned long long)c.wr_id);
		rc = eel_put(p.dev, p.mr, p.buf, 8, &p.peer, 0, 0, 8, 0);
		EXPECT(rc == -EREMOTEIO && strstr(eel_errmsg(), "refused"),
		       "a put after the failure gave %d: %s", rc, eel_errmsg());
	}
	pair_send(&p, &rc, sizeof(rc));
	return pair_end(&p, failures);
}

static int run(const char *uri)
{
	struct pair p;
	int failures;

	pair_start(&p, uri, REGION, 10000);
	failures = p.server ? puts_server(&p) : puts_client(&p);
	failures += eregs(&p);
	failures = pair_end(&p, failures);
	for (int kind = BAD_KEY; kind <= BAD_EGET; kind++)
		failures += refused(uri, kind);
	printf("%s: %s\n", uri, failures ? "FAILED" : "ok");
	return failures;
}

int main(void)
{
	int failures = run("softnic:inline");

	failures += run("softnic:thread?oversubscribe=1");
	return failures != 0;
}
