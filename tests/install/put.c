/* SPDX-License-Identifier: MIT */
/* tests/install/put.c — a program as a lab would write it against an
 * installed eel: built with `pkg-config --cflags --libs eel` alone
 * (tests/install/install.sh), it puts 8 bytes from one process into another
 * over the software NIC and checks they landed. Exit 0 when they did. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <eel/eel.h>

#define VALUE 0x00c0ffee5eedf00dull

static int fail(const char *who, const char *what, int rc)
{
	fprintf(stderr, "put (%s): %s: %s\n", who, what, rc < 0 ? eel_errmsg() : "failed");
	return 1;
}

/* The receiving end: its window to the peer, then wait for the value. */
static int server(struct eel_oob_listener *l)
{
	static volatile uint64_t slot __attribute__((aligned(64)));
	struct eel_dev *dev;
	struct eel_oob *oob;
	struct eel_mr *mr;
	int rc;

	if ((rc = eel_open("softnic", NULL, &dev)) || (rc = eel_oob_accept(l, 10000, 10000, &oob)))
		return fail("server", "open", rc);
	if ((rc = eel_connect(dev, oob)))
		return fail("server", "connect", rc);
	if ((rc = eel_mr_reg(dev, (void *)&slot, sizeof(slot), EEL_ACCESS_REMOTE_WRITE, &mr)))
		return fail("server", "mr_reg", rc);
	if ((rc = eel_oob_send(oob, EEL_OOB_USER, &mr->win, sizeof(mr->win))))
		return fail("server", "send the window", rc);
	if ((rc = eel_wait_u64(dev, &slot, VALUE)))
		return fail("server", "wait for the put", rc);
	/* Keep the NIC answering until the sender has its acknowledgement. */
	if ((rc = eel_oob_recv(oob, EEL_OOB_USER + 1, NULL, 0, NULL, 10000, dev)))
		return fail("server", "wait for the sender's end", rc);
	printf("put: 8 bytes landed (0x%016llx)\n", (unsigned long long)slot);
	eel_mr_dereg(dev, mr);
	eel_close(dev);
	eel_oob_close(oob);
	return 0;
}

/* The sending end: the peer's window, one signalled put, then quiet. */
static int client(uint16_t port)
{
	static uint64_t src __attribute__((aligned(64))) = VALUE;
	struct eel_window win;
	struct eel_dev *dev;
	struct eel_oob *oob;
	struct eel_mr *mr;
	uint32_t len;
	int rc;

	if ((rc = eel_open("softnic", NULL, &dev)) || (rc = eel_oob_connect("127.0.0.1", port, 10000, &oob)))
		return fail("client", "open", rc);
	if ((rc = eel_connect(dev, oob)))
		return fail("client", "connect", rc);
	if ((rc = eel_oob_recv(oob, EEL_OOB_USER, &win, sizeof(win), &len, 10000, dev)) || len != sizeof(win))
		return fail("client", "receive the window", rc);
	if ((rc = eel_mr_reg(dev, &src, sizeof(src), 0, &mr)))
		return fail("client", "mr_reg", rc);
	if ((rc = eel_put(dev, mr, &src, sizeof(src), &win, 0, EEL_PUT_SIGNALED, 1, 0)) || (rc = eel_quiet(dev)))
		return fail("client", "put", rc);
	if ((rc = eel_oob_send(oob, EEL_OOB_USER + 1, NULL, 0)))
		return fail("client", "say it is done", rc);
	eel_mr_dereg(dev, mr);
	eel_close(dev);
	eel_oob_close(oob);
	return 0;
}

int main(void)
{
	struct eel_oob_listener *l;
	int rc, status;
	uint16_t port;
	pid_t pid;

	if ((rc = eel_oob_listen("127.0.0.1", 0, &l)))
		return fail("server", "listen", rc);
	port = eel_oob_listener_port(l);
	pid = fork();
	if (pid < 0)
		return fail("main", "fork", -errno);
	if (pid == 0) {
		eel_oob_listener_close(l);
		_exit(client(port));
	}
	rc = server(l);
	eel_oob_listener_close(l);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		return fail("main", "the client", 0);
	return rc;
}
