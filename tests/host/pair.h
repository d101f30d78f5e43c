/* SPDX-License-Identifier: MIT */
/* tests/host/pair.h — two ends of a connection in two processes, for the host
 * integration tests: the child is the server, the parent the client; both
 * open the same URI, connect over the out-of-band channel and swap windows.
 * Header-only, so each test program is one file. */
#ifndef EEL_TEST_PAIR_H
#define EEL_TEST_PAIR_H

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <eel/eel.h>

struct pair {
	int server;
	pid_t child;
	struct eel_dev *dev;
	struct eel_oob *oob;
	uint8_t *buf;          /* this end's registered region */
	size_t len;
	struct eel_mr *mr;
	struct eel_window peer;
};

#define PAIR_MSG (EEL_OOB_USER + 50)

/* A failed expectation: say where and what, count it, go on. */
#define EXPECT(cond, ...) do { if (!(cond)) { \
	fprintf(stderr, "%s:%d: expected %s: ", __FILE__, __LINE__, #cond); \
	fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); failures++; } } while (0)

static inline void pair_die(struct pair *p, const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", p->server ? "server" : "client", what, eel_errmsg());
	if (p->server)
		_exit(1);
	if (p->child > 0) {
		kill(p->child, SIGKILL);
		waitpid(p->child, NULL, 0);
	}
	exit(1);
}

/* Fork, open uri on both ends, connect, register len bytes each, swap windows. */
static inline void pair_start(struct pair *p, const char *uri, size_t len, uint32_t timeout_ms)
{
	struct eel_oob_listener *l;
	struct eel_opts o;
	uint32_t n;

	memset(p, 0, sizeof(*p));
	if (eel_oob_listen("127.0.0.1", 0, &l))
		pair_die(p, "listen");
	fflush(NULL);
	p->child = fork();
	p->server = p->child == 0;
	eel_opts_default(&o);
	o.timeout_ms = timeout_ms;
	if (eel_open(uri, &o, &p->dev))
		pair_die(p, "eel_open");
	if (p->server ? eel_oob_accept(l, timeout_ms, timeout_ms, &p->oob)
		      : eel_oob_connect("127.0.0.1", eel_oob_listener_port(l), timeout_ms, &p->oob))
		pair_die(p, "out-of-band connect");
	eel_oob_listener_close(l);
	if (eel_connect(p->dev, p->oob))
		pair_die(p, "eel_connect");
	p->len = len;
	p->buf = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p->buf == MAP_FAILED)
		pair_die(p, "mmap");
	if (eel_mr_reg(p->dev, p->buf, len, EEL_ACCESS_REMOTE_WRITE | EEL_ACCESS_REMOTE_READ, &p->mr))
		pair_die(p, "eel_mr_reg");
	if (eel_oob_send(p->oob, PAIR_MSG, &p->mr->win, sizeof(p->mr->win)) ||
	    eel_oob_recv(p->oob, PAIR_MSG, &p->peer, sizeof(p->peer), &n, timeout_ms, p->dev))
		pair_die(p, "swapping windows");
}

/* Typed messages between the test's two ends (the NIC keeps running). */
static inline void pair_send(struct pair *p, const void *m, uint32_t len)
{
	if (getenv("PAIR_DEBUG")) fprintf(stderr, "%s send %u\n", p->server ? "S" : "C", len);
	if (eel_oob_send(p->oob, PAIR_MSG, m, len))
		pair_die(p, "pair_send");
}

static inline void pair_recv(struct pair *p, void *m, uint32_t len)
{
	if (getenv("PAIR_DEBUG")) fprintf(stderr, "%s recv %u\n", p->server ? "S" : "C", len);
	if (eel_oob_recv(p->oob, PAIR_MSG, m, len, NULL, 20000, p->dev))
		pair_die(p, "pair_recv");
}

/* Both ends: done. The client returns the combined result (0 = both passed). */
static inline int pair_end(struct pair *p, int failures)
{
	int st = 0, peer;

	pair_send(p, &failures, sizeof(failures));
	pair_recv(p, &peer, sizeof(peer));
	eel_mr_dereg(p->dev, p->mr);
	munmap(p->buf, p->len);
	eel_close(p->dev);
	eel_oob_close(p->oob);
	if (p->server)
		_exit(failures ? 1 : 0);
	waitpid(p->child, &st, 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		failures++;
	return failures + peer;
}

#endif
