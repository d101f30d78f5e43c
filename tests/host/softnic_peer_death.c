/* SPDX-License-Identifier: MIT */
/* tests/host/softnic_peer_death.c — a peer that dies mid-run gives the other
 * end a clear error within its timeout, never a hang: killed (its process and
 * its out-of-band socket gone: seen at once), or stopped (silent: seen at
 * the timeout). Every blocking call is tried: wait, quiet, eget. */
#include <time.h>

#include "pair.h"

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

enum how { KILLED, STOPPED };
enum call { WAIT, QUIET, EGET };

static int scenario(const char *uri, enum how how, enum call call)
{
	const uint32_t timeout_ms = 1500;
	volatile uint64_t *slot;
	struct pair p;
	int failures = 0, rc = 0;
	double t0, dt;

	pair_start(&p, uri, 4096, timeout_ms);
	slot = (volatile uint64_t *)p.buf;
	/* a few good round trips first: the connection works */
	for (uint64_t i = 1; i <= 100; i++) {
		if (!p.server && (eel_put(p.dev, NULL, &i, 8, &p.peer, 0, EEL_PUT_INLINE, 0, 0) ||
				  eel_wait_u64(p.dev, slot, i)))
			pair_die(&p, "round trip");
		if (p.server && (eel_wait_u64(p.dev, slot, i) ||
				 eel_put(p.dev, NULL, &i, 8, &p.peer, 0, EEL_PUT_INLINE, 0, 0)))
			pair_die(&p, "round trip");
	}
	if (p.server) {
		eel_quiet(p.dev);
		pair_send(&p, "x", 1);
		raise(how == KILLED ? SIGKILL : SIGSTOP);
		pause();
		_exit(0);
	}
	pair_recv(&p, &(char){ 0 }, 1);
	usleep(20000); /* let the signal land */
	t0 = now_s();
	if (call == WAIT) {
		rc = eel_wait_u64(p.dev, slot, 12345);
	} else if (call == QUIET) {
		uint64_t v = 1;

		/* a put the dead peer never acknowledges */
		if (eel_put(p.dev, NULL, &v, 8, &p.peer, 8, EEL_PUT_INLINE, 0, 0))
			pair_die(&p, "put");
		rc = eel_quiet(p.dev);
	} else {
		uint64_t v;

		rc = eel_eget(p.dev, &p.peer, 0, &v);
	}
	dt = now_s() - t0;
	if (how == KILLED) {
		EXPECT(rc == -ECONNRESET && strstr(eel_errmsg(), "peer"), "rc %d: %s", rc, eel_errmsg());
		EXPECT(dt < timeout_ms / 1000.0, "a killed peer was noticed only after %.2f s", dt);
	} else {
		EXPECT(rc == -ETIMEDOUT && strstr(eel_errmsg(), "timeout_ms"), "rc %d: %s", rc, eel_errmsg());
		EXPECT(dt >= timeout_ms / 1000.0 * 0.9 && dt < 5 * timeout_ms / 1000.0,
		       "a silent peer timed out after %.2f s, the limit is %.1f s", dt, timeout_ms / 1000.0);
	}
	printf("%s, peer %s, %s: %s after %.3f s (%s)\n", uri, how == KILLED ? "killed" : "stopped",
	       call == WAIT ? "eel_wait_u64" : call == QUIET ? "eel_quiet" : "eel_eget",
	       failures ? "FAILED" : "ok", dt, eel_errmsg());
	kill(p.child, SIGKILL);
	waitpid(p.child, NULL, 0);
	eel_mr_dereg(p.dev, p.mr);
	munmap(p.buf, p.len);
	eel_close(p.dev);
	eel_oob_close(p.oob);
	return failures;
}

int main(void)
{
	const char *uris[] = { "softnic:inline", "softnic:thread?oversubscribe=1" };
	int failures = 0;

	for (int u = 0; u < 2; u++)
		for (int how = KILLED; how <= STOPPED; how++)
			for (int call = WAIT; call <= EGET; call++)
				failures += scenario(uris[u], how, call);
	return failures != 0;
}
