/* SPDX-License-Identifier: MIT */
/* tests/vm/verbs_errors.c — the verbs backend's errors, and the calls the
 * bench does not make, between two hosts over a real RDMA device (run by
 * tests/vm/guest-verbs.sh in two VMs over Soft-RoCE).
 *
 *   verbs_errors server PORT URI        the target: owns the window, checks it
 *   verbs_errors client HOST PORT URI   the initiator
 *
 * One fresh connection per scenario (a failed put ends its RC connection):
 *   api        eput, eget, a notified put (WRITE_WITH_IMM), 3x the send queue of
 *              unsignalled puts (selective signalling keeps it from overflowing), quiet
 *   bad_rkey   a put with a wrong rkey: refused, said clearly, nothing written
 *   past_end   8 bytes just past the window's end: the same
 *   straddle   3 KB from 1 KB before the end (three packets at MTU 1024, the
 *              first inside the window): refused whole, nothing written
 *   version    a peer of another connection version: refused at connect
 *   not_verbs  a peer that is no verbs device: refused at connect
 *   nic_closed the peer closes its NIC but stays: our puts end with "stopped answering"
 *   peer_dies  the peer's process exits: our wait ends with "gone", not a timeout
 * Every check prints "ok: ..." or "FAIL: ..."; exit 0 only when all passed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <eel/eel.h>

#include "userlib/verbs/verbs.h"

#define WIN 4096
#define GUARD 0x5a
#define OOB_CONN 2 /* the message type eel_connect exchanges connection info with (userlib/core/eel.c) */
enum { MSG_WIN = EEL_OOB_USER + 1, MSG_DONE, MSG_VERDICT };

static int failures;
static const char *role = "?";

#define OK(...) (printf("verbs_errors %s: ok: ", role), printf(__VA_ARGS__), printf("\n"), fflush(stdout))
#define FAIL(...)                                                               \
	(printf("verbs_errors %s: FAIL: ", role), printf(__VA_ARGS__), printf("\n"), \
	 fflush(stdout), failures++)

struct end {
	struct eel_dev *dev;
	struct eel_oob *oob;
	struct eel_mr *mr;
	uint8_t *buf;
	struct eel_window peer;
};

static const char *uri;
static uint16_t port;
static const char *host;
static struct eel_oob_listener *listener;

static int oob_up(struct end *e)
{
	int rc = host ? eel_oob_connect(host, port, 60000, &e->oob) : eel_oob_accept(listener, 60000, 60000, &e->oob);

	if (rc)
		FAIL("out-of-band channel: %s", eel_errmsg());
	return rc;
}

/* Open, connect, register the window, swap windows. */
static int up(struct end *e, const char *u)
{
	memset(e, 0, sizeof(*e));
	if (oob_up(e))
		return -1;
	if (eel_open(u, NULL, &e->dev) || eel_connect(e->dev, e->oob)) {
		FAIL("connecting over %s: %s", u, eel_errmsg());
		return -1;
	}
	e->buf = aligned_alloc(4096, WIN);
	memset(e->buf, GUARD, WIN);
	if (eel_mr_reg(e->dev, e->buf, WIN, EEL_ACCESS_REMOTE_WRITE | EEL_ACCESS_REMOTE_READ, &e->mr) ||
	    eel_oob_send(e->oob, MSG_WIN, &e->mr->win, sizeof(e->mr->win)) ||
	    eel_oob_recv(e->oob, MSG_WIN, &e->peer, sizeof(e->peer), NULL, 60000, NULL)) {
		FAIL("setting up the window: %s", eel_errmsg());
		return -1;
	}
	return 0;
}

static void down(struct end *e)
{
	if (e->dev) {
		eel_mr_dereg(e->dev, e->mr);
		eel_close(e->dev);
	}
	eel_oob_close(e->oob);
	free(e->buf);
	memset(e, 0, sizeof(*e));
}

/* The client says it is done; the server then checks its window. */
static void client_done(struct end *e)
{
	int32_t verdict = -1;

	if (eel_oob_send(e->oob, MSG_DONE, NULL, 0) ||
	    eel_oob_recv(e->oob, MSG_VERDICT, &verdict, sizeof(verdict), NULL, 60000, NULL))
		FAIL("waiting for the server's verdict: %s", eel_errmsg());
	else if (verdict)
		FAIL("the server found its window written (see its output)");
}

/* Poll until a completion (or an error), for at most 30 s. */
static int poll_some(struct end *e, struct eel_cqe *c, int max)
{
	uint64_t end = eel_cycles() + (uint64_t)(30 * eel_clock()->hz);
	int n = 0;

	while (n == 0 && eel_cycles() < end)
		n = eel_poll(e->dev, c, max);
	return n;
}

static int untouched(const struct end *e, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		if (e->buf[i] != GUARD)
			return 0;
	return 1;
}

static void server_check(struct end *e, const char *what)
{
	int32_t verdict;
	uint32_t n;

	if (eel_oob_recv(e->oob, MSG_DONE, NULL, 0, &n, 60000, NULL)) {
		FAIL("%s: waiting for the client: %s", what, eel_errmsg());
		return;
	}
	verdict = untouched(e, 0, WIN) ? 0 : 1;
	if (verdict)
		FAIL("%s: the refused put wrote into the window", what);
	else
		OK("%s: nothing written: all %d bytes of the window still hold the guard", what, WIN);
	eel_oob_send(e->oob, MSG_VERDICT, &verdict, sizeof(verdict));
}

/* ---- api: the calls that work ---- */

static void api_client(void)
{
	struct end e;
	char u[256];
	struct eel_cqe c[8];
	uint64_t v = 0, src = 0;
	int n;

	snprintf(u, sizeof(u), "%s%csq_depth=16", uri, strchr(uri, '?') ? '&' : '?');
	if (up(&e, u))
		return;
	/* eput to slot 0, quiet: delivered */
	if (eel_eput(e.dev, &e.peer, 0, 0x1122334455667788ull) || eel_quiet(e.dev))
		FAIL("api: eput + quiet: %s", eel_errmsg());
	/* eget of slot 1, which the server set to a known value before sending its window */
	if (eel_eget(e.dev, &e.peer, 8, &v) || v != 0xfeedfacecafebeefull)
		FAIL("api: eget read 0x%llx: %s", (unsigned long long)v, eel_errmsg());
	else
		OK("api: eget read 0x%llx back", (unsigned long long)v);
	/* 3x the send queue of unsignalled puts to slot 2, then quiet */
	for (uint64_t i = 1; i <= 48; i++) {
		int rc;

		src = i;
		while ((rc = eel_put(e.dev, NULL, &src, 8, &e.peer, 16, EEL_PUT_INLINE, 0, 0)) == -EAGAIN)
			eel_poll(e.dev, c, 8);
		if (rc) {
			FAIL("api: unsignalled put %llu: %s", (unsigned long long)i, eel_errmsg());
			break;
		}
	}
	if (eel_quiet(e.dev))
		FAIL("api: quiet after 48 unsignalled puts: %s", eel_errmsg());
	/* a notified put to slot 3 */
	src = 0xabcdef;
	if (eel_put(e.dev, NULL, &src, 8, &e.peer, 24, EEL_PUT_INLINE | EEL_PUT_NOTIFY | EEL_PUT_SIGNALED, 77,
		    0x5eed))
		FAIL("api: notified put: %s", eel_errmsg());
	n = poll_some(&e, c, 8);
	if (n != 1 || c[0].kind != EEL_CQE_PUT || c[0].wr_id != 77 || c[0].status)
		FAIL("api: the signalled put's completion: n=%d kind=%u wr_id=%llu status=%d (%s)", n, c[0].kind,
		     (unsigned long long)c[0].wr_id, c[0].status, eel_errmsg());
	client_done(&e);
	down(&e);
}

static void api_server(void)
{
	struct end e;
	struct eel_cqe c[8];
	int n;

	memset(&e, 0, sizeof(e));
	if (oob_up(&e))
		return;
	if (eel_open(uri, NULL, &e.dev) || eel_connect(e.dev, e.oob)) {
		FAIL("api: connecting: %s", eel_errmsg());
		return;
	}
	e.buf = aligned_alloc(4096, WIN);
	memset(e.buf, 0, WIN);
	((uint64_t *)e.buf)[1] = 0xfeedfacecafebeefull;
	if (eel_mr_reg(e.dev, e.buf, WIN, EEL_ACCESS_REMOTE_WRITE | EEL_ACCESS_REMOTE_READ, &e.mr) ||
	    eel_oob_send(e.oob, MSG_WIN, &e.mr->win, sizeof(e.mr->win)) ||
	    eel_oob_recv(e.oob, MSG_WIN, &e.peer, sizeof(e.peer), NULL, 60000, NULL)) {
		FAIL("api: windows: %s", eel_errmsg());
		return;
	}
	if (eel_wait_u64(e.dev, (volatile uint64_t *)e.buf, 0x1122334455667788ull))
		FAIL("api: the eput did not land: %s", eel_errmsg());
	else
		OK("api: eput landed");
	if (eel_wait_u64(e.dev, (volatile uint64_t *)e.buf + 2, 48))
		FAIL("api: the 48th unsignalled put did not land: %s", eel_errmsg());
	else
		OK("api: 48 unsignalled puts through a 16-entry send queue, the last landed");
	n = poll_some(&e, c, 8);
	if (n != 1 || c[0].kind != EEL_CQE_NOTIFY || c[0].imm != 0x5eed || c[0].len != 8 || c[0].status)
		FAIL("api: notification: n=%d kind=%u imm=0x%x len=%u (%s)", n, n > 0 ? c[0].kind : 0,
		     n > 0 ? c[0].imm : 0, n > 0 ? c[0].len : 0, eel_errmsg());
	else if (((volatile uint64_t *)e.buf)[3] != 0xabcdef)
		FAIL("api: notified, but the data is not there");
	else
		OK("api: notification with imm 0x%x, 8 bytes, data in place", c[0].imm);
	{
		uint32_t got;
		int32_t verdict = 0;

		eel_oob_recv(e.oob, MSG_DONE, NULL, 0, &got, 60000, NULL);
		eel_oob_send(e.oob, MSG_VERDICT, &verdict, sizeof(verdict));
	}
	down(&e);
}

/* ---- refused puts ---- */

static void refused_client(const char *what, uint32_t rkey_xor, uint64_t off, size_t len)
{
	struct end e;
	struct eel_window w;
	struct eel_cqe c[4];
	uint8_t *src;
	struct eel_mr *smr = NULL;
	int n, rc;

	if (up(&e, uri))
		return;
	src = aligned_alloc(4096, 4096);
	memset(src, 0xc3, 4096);
	if (eel_mr_reg(e.dev, src, 4096, 0, &smr)) {
		FAIL("%s: registering the source: %s", what, eel_errmsg());
		goto out;
	}
	w = e.peer;
	w.rkey ^= rkey_xor;
	rc = eel_put(e.dev, smr, src, len, &w, off, EEL_PUT_SIGNALED, 9, 0);
	if (rc) {
		FAIL("%s: the put was refused at posting (%s), not by the peer's NIC", what, eel_errmsg());
		goto out;
	}
	n = poll_some(&e, c, 4);
	if (n != 1 || c[0].status != -EREMOTEIO || !strstr(eel_errmsg(), "refused by the peer's NIC"))
		FAIL("%s: wanted one completion with -EREMOTEIO, got n=%d status=%d: %s", what, n,
		     n > 0 ? c[0].status : 0, eel_errmsg());
	else
		OK("%s: the put's completion says: %s", what, eel_errmsg());
	rc = eel_quiet(e.dev);
	if (rc != -EREMOTEIO)
		FAIL("%s: eel_quiet after the refusal returned %d (%s), wanted -EREMOTEIO", what, rc, eel_errmsg());
	rc = eel_put(e.dev, NULL, &(uint64_t){ 1 }, 8, &e.peer, 0, EEL_PUT_INLINE, 0, 0);
	if (rc != -EREMOTEIO)
		FAIL("%s: a put after the refusal returned %d, wanted the connection's error", what, rc);
	else
		OK("%s: later calls repeat it: %s", what, eel_errmsg());
	client_done(&e);
out:
	if (smr)
		eel_mr_dereg(e.dev, smr);
	free(src);
	down(&e);
}

static void refused_server(const char *what)
{
	struct end e;

	if (up(&e, uri))
		return;
	server_check(&e, what);
	down(&e);
}

/* ---- connecting to a peer that is no match ---- */

static void mismatch_client(const char *what, uint32_t magic, uint32_t version)
{
	struct end e;
	struct vb_conn mine;
	uint8_t theirs[512];
	uint32_t n;
	int32_t verdict = -1;

	memset(&e, 0, sizeof(e));
	if (oob_up(&e))
		return;
	/* What eel_connect does, with connection info of another kind or version. */
	memset(&mine, 0, sizeof(mine));
	mine.magic = magic;
	mine.version = version;
	if (eel_oob_send(e.oob, OOB_CONN, &mine, sizeof(mine)) ||
	    eel_oob_recv(e.oob, OOB_CONN, theirs, sizeof(theirs), &n, 60000, NULL) ||
	    eel_oob_recv(e.oob, MSG_VERDICT, &verdict, sizeof(verdict), NULL, 60000, NULL))
		FAIL("%s: talking to the server: %s", what, eel_errmsg());
	else if (verdict)
		FAIL("%s: the server accepted a peer it should have refused", what);
	else
		OK("%s: the server refused the connection", what);
	down(&e);
}

static void mismatch_server(const char *what, const char *want)
{
	struct end e;
	int rc;
	int32_t verdict;

	memset(&e, 0, sizeof(e));
	if (oob_up(&e))
		return;
	if (eel_open(uri, NULL, &e.dev)) {
		FAIL("%s: opening: %s", what, eel_errmsg());
		down(&e);
		return;
	}
	rc = eel_connect(e.dev, e.oob);
	verdict = !(rc == -EPROTO && strstr(eel_errmsg(), want));
	if (verdict)
		FAIL("%s: eel_connect returned %d (%s), wanted -EPROTO saying '%s'", what, rc, eel_errmsg(), want);
	else
		OK("%s: eel_connect refused it: %s", what, eel_errmsg());
	eel_oob_send(e.oob, MSG_VERDICT, &verdict, sizeof(verdict));
	down(&e);
}

/* ---- a peer that goes away ---- */

static void nic_closed_client(void)
{
	struct end e;
	struct eel_cqe c[4];
	uint32_t n;
	int got;

	if (up(&e, uri))
		return;
	/* the server closes its NIC and says so, keeping the channel open */
	if (eel_oob_recv(e.oob, MSG_DONE, NULL, 0, &n, 60000, NULL)) {
		FAIL("nic_closed: %s", eel_errmsg());
		down(&e);
		return;
	}
	if (eel_put(e.dev, NULL, &(uint64_t){ 7 }, 8, &e.peer, 0, EEL_PUT_INLINE | EEL_PUT_SIGNALED, 1, 0))
		FAIL("nic_closed: posting: %s", eel_errmsg());
	got = poll_some(&e, c, 4); /* the retries take a few seconds */
	if (got != 1 || c[0].status != -ECONNRESET || !strstr(eel_errmsg(), "stopped answering"))
		FAIL("nic_closed: wanted a -ECONNRESET completion saying the peer stopped answering, got %d "
		     "status %d: %s", got, got > 0 ? c[0].status : 0, eel_errmsg());
	else
		OK("nic_closed: %s", eel_errmsg());
	eel_oob_send(e.oob, MSG_DONE, NULL, 0);
	down(&e);
}

static void nic_closed_server(void)
{
	struct end e;
	uint32_t n;

	if (up(&e, uri))
		return;
	eel_mr_dereg(e.dev, e.mr);
	eel_close(e.dev);
	e.dev = NULL;
	eel_oob_send(e.oob, MSG_DONE, NULL, 0);
	eel_oob_recv(e.oob, MSG_DONE, NULL, 0, &n, 60000, NULL);
	down(&e);
}

static void peer_dies_client(void)
{
	struct end e;
	int rc;

	if (up(&e, uri))
		return;
	rc = eel_wait_u64(e.dev, (volatile uint64_t *)e.buf, 0x1234); /* never comes: the server exits */
	if (rc != -ECONNRESET || !strstr(eel_errmsg(), "gone"))
		FAIL("peer_dies: the wait returned %d (%s), wanted -ECONNRESET (the peer's process is gone)", rc,
		     eel_errmsg());
	else
		OK("peer_dies: %s", eel_errmsg());
	down(&e);
}

static void peer_dies_server(void)
{
	struct end e;

	if (up(&e, uri))
		return;
	OK("peer_dies: exiting without a word");
	_exit(failures ? 1 : 0); /* no close: as a crash would */
}

int main(int argc, char **argv)
{
	int server = argc == 4 && !strcmp(argv[1], "server");

	if (!server && !(argc == 5 && !strcmp(argv[1], "client"))) {
		fprintf(stderr, "usage: verbs_errors server PORT URI | client HOST PORT URI\n");
		return 2;
	}
	role = argv[1];
	if (server) {
		port = (uint16_t)atoi(argv[2]);
		uri = argv[3];
		if (eel_oob_listen(NULL, port, &listener)) {
			fprintf(stderr, "verbs_errors: %s\n", eel_errmsg());
			return 1;
		}
		api_server();
		refused_server("bad_rkey");
		refused_server("past_end");
		refused_server("straddle");
		{
			char want[64];

			snprintf(want, sizeof(want), "connection version %u", VB_CONN_VERSION + 1);
			mismatch_server("version", want);
		}
		mismatch_server("not_verbs", "not an RDMA device driven by eel's verbs backend");
		nic_closed_server();
		peer_dies_server();
		return 1; /* not reached */
	}
	host = argv[2];
	port = (uint16_t)atoi(argv[3]);
	uri = argv[4];
	api_client();
	refused_client("bad_rkey", 0x5a5a00, 0, 64);
	refused_client("past_end", 0, WIN, 8);
	refused_client("straddle", 0, WIN - 1024, 3072);
	mismatch_client("version", VB_CONN_MAGIC, VB_CONN_VERSION + 1);
	mismatch_client("not_verbs", 0x4e534e53u /* softnic's */, 1);
	nic_closed_client();
	peer_dies_client();
	printf("verbs_errors client: %s\n", failures ? "FAILED" : "all ok");
	return failures ? 1 : 0;
}
