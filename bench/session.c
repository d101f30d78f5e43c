/* SPDX-License-Identifier: MIT */
/* bench/session.c — one end of a measurement session: its memory, the peer's
 * windows, and the out-of-band handshakes around each measurement point. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "bench.h"
#include "bench/report/safe_text.h"

int verbose;
char bench_who[160];

/* Print what failed and why (the library's last message), return -1; under
 * a launcher, first which ranks (bench_who). */
int bench_fail(const char *what)
{
	char safe[512];

	fprintf(stderr, "eel-bench: %s%s%s: %s\n", bench_who, bench_who[0] ? ": " : "", what,
		safe_text(eel_errmsg(), safe, sizeof(safe)));
	return -1;
}

/* An allocation that failed: one line, -1 (the caller gives up the test). */
int bench_oom(const char *what)
{
	fprintf(stderr, "eel-bench: %s%sout of memory for %s: free some memory, or run fewer iterations or "
		"smaller tests\n", bench_who, bench_who[0] ? ": " : "", what);
	return -1;
}

double cyc_ns(const struct session *s, double cycles)
{
	return cycles * s->clk->ns_per_cycle;
}

uint64_t token(struct session *s, uint32_t i)
{
	return pattern_token(s->point, i);
}

/* The data region must hold the largest flood run and the overlap runs:
 * every message of a run has its own destination (--verify checks them all).
 * The patterns of many ranks flood too (allpairs' g, k-to-1, 1-to-many);
 * the size sweep's ping-pong and flood at each size (sweep.h). */
size_t session_data_bytes(const struct plan *p)
{
	size_t need = (size_t)p->overlap_msgs * 8;

	if (p->tests & T_BULK)
		for (uint32_t k = 0; k < p->nbulk; k++)
			need = 2 * (size_t)p->bulk_sizes[k] > need ? 2 * (size_t)p->bulk_sizes[k] : need;

	if (p->tests & (T_FLOOD | T_ALLPAIRS | T_KTO1 | T_ONE_TO_MANY))
		for (uint32_t k = 0; k < p->nsizes; k++) {
			size_t b = (size_t)flood_msgs_for(p, p->sizes[k]) * p->sizes[k];

			need = b > need ? b : need;
		}
	if (p->tests & T_SWEEP)
		for (uint32_t k = 0; k < p->nsweep; k++)
			need = sweep_data_bytes(p, p->sweep_sizes[k]) > need ? sweep_data_bytes(p, p->sweep_sizes[k]) : need;
	return (need + 4095) & ~(size_t)4095;
}

int session_setup(struct session *s)
{
	struct eel_window mine[2], theirs[2];
	size_t ctrl_len = CTRL_SLOTS * 64;
	uint32_t n;
	unsigned acc = EEL_ACCESS_REMOTE_WRITE | EEL_ACCESS_REMOTE_READ;

	s->caps_copy = *eel_caps(s->dev);
	s->caps = &s->caps_copy;
	s->clk = eel_clock();
	s->ctrl = aligned_alloc(4096, 4096);
	s->data_len = session_data_bytes(&s->plan);
	s->data = mmap(NULL, s->data_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!s->ctrl || s->data == MAP_FAILED) {
		s->data = NULL;
		fprintf(stderr, "eel-bench: out of memory for %zu bytes of buffers\n", s->data_len);
		return -1;
	}
	memset(s->ctrl, 0, 4096);
	memset(s->data, 0, s->data_len);
	if (eel_mr_reg(s->dev, s->ctrl, ctrl_len, acc, &s->ctrl_mr) ||
	    eel_mr_reg(s->dev, s->data, s->data_len, acc, &s->data_mr))
		return bench_fail("registering buffers");
	mine[0] = s->ctrl_mr->win;
	mine[1] = s->data_mr->win;
	if (eel_oob_send(s->oob, OOB_WINDOWS, mine, sizeof(mine)) ||
	    eel_oob_recv(s->oob, OOB_WINDOWS, theirs, sizeof(theirs), &n, s->plan.timeout_ms, s->dev))
		return bench_fail("exchanging memory windows");
	if (n != sizeof(theirs) || theirs[1].len < s->data_len) {
		fprintf(stderr, "eel-bench: the peer's buffers do not match this plan: run the same eel-bench "
			"version on both ends\n");
		return -1;
	}
	s->peer_ctrl = theirs[0];
	s->peer_data = theirs[1];
	return 0;
}

void session_teardown(struct session *s)
{
	if (s->dev) {
		eel_mr_dereg(s->dev, s->data_mr);
		eel_mr_dereg(s->dev, s->ctrl_mr);
	}
	if (s->data)
		munmap(s->data, s->data_len);
	free(s->ctrl);
	s->data = NULL;
	s->ctrl = NULL;
}

/* Around each point: the server says it is ready (its buffers poisoned),
 * the client measures, the server reports how its side went. */
int server_ready(struct session *s)
{
	return eel_oob_send(s->oob, OOB_READY, NULL, 0) ? bench_fail("telling the client to start") : 0;
}

int client_await_ready(struct session *s)
{
	uint32_t n;

	if (eel_oob_recv(s->oob, OOB_READY, NULL, 0, &n, s->plan.timeout_ms, s->dev))
		return bench_fail("waiting for the server");
	return 0;
}

/* The point's outcome to the client. A failure is said here too when the
 * client runs elsewhere (its terminal is not this one) or cannot be told;
 * said once: a client that cannot be told of a failure is usually the
 * failure's cause (it died), and the failure's line already names it. */
int server_done(struct session *s, const struct point_done *d)
{
	int rc = eel_oob_send(s->oob, OOB_DONE, d, sizeof(*d));

	if (d->status) {
		if (!s->pair || rc)
			fprintf(stderr, "eel-bench: %.*s\n", (int)sizeof(d->msg), d->msg);
		return rc ? -1 : 0;
	}
	return rc ? bench_fail("reporting to the client") : 0;
}

int client_await_done(struct session *s, struct point_done *d)
{
	char safe[512];

	if (eel_oob_recv(s->oob, OOB_DONE, d, sizeof(*d), NULL, s->plan.timeout_ms, s->dev))
		return bench_fail("waiting for the server's report");
	d->msg[sizeof(d->msg) - 1] = 0;
	if (d->status) {  /* the peer's text: made safe to print */
		fprintf(stderr, "eel-bench: the server failed: %s\n", safe_text(d->msg, safe, sizeof(safe)));
		return -1;
	}
	if (d->bad_words) {
		fprintf(stderr, "eel-bench: --verify: %s\n", safe_text(d->msg, safe, sizeof(safe)));
		return -1;
	}
	return 0;
}
