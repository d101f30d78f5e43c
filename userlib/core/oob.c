/* SPDX-License-Identifier: MIT */
/* userlib/core/oob.c — the out-of-band channel: TCP between the two ends, as
 * perftest does it. Messages are framed (struct oob_hdr) and typed; the first
 * exchange is a versioned hello, so two different eel versions refuse each
 * other with a clear message instead of misreading each other's bytes. */
#include <errno.h>
#include <fcntl.h>
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "userlib/core/dev.h"

#define OOB_MAGIC 0x4f4c4545u   /* "EELO" */
#define OOB_PROTO 3u            /* bump when any message layout changes (2: struct eel_trace's want; 3: softnic's wire name in a message of its own) */
#define OOB_HELLO 1
#define OOB_MAX_MSG (1u << 24)

struct oob_hdr {
	uint32_t magic;
	uint16_t type;
	uint16_t rsvd;
	uint32_t len;
};

struct oob_hello {
	uint32_t proto;
	uint32_t endian;   /* 0x01020304 as written by the sender */
	char version[16];  /* EEL_VERSION */
};

struct eel_oob {
	int fd;
	int server;
};

struct eel_oob_listener {
	int fd;
	uint16_t port;
};

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int eel_oob_is_server(const struct eel_oob *oob)
{
	return oob->server;
}

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Read exactly len bytes by deadline, making progress on dev meanwhile. */
static int read_all(struct eel_oob *oob, void *buf, size_t len, int64_t deadline,
		    struct eel_dev *progress)
{
	char *p = buf;

	while (len) {
		struct pollfd pfd = { .fd = oob->fd, .events = POLLIN };
		int64_t left = deadline - now_ms();
		ssize_t n;

		if (left <= 0)
			return -ETIMEDOUT;
		/* A NIC that runs on this thread keeps running while we wait;
		 * otherwise sleep in poll, leaving the cores to those who spin. */
		if (progress && progress->be->progress && progress->be->progress(progress) > 0) {
			if (poll(&pfd, 1, 0) == 0)
				continue;
		} else if (poll(&pfd, 1, (int)(left > 100 ? 100 : left)) == 0) {
			continue;
		}
		n = recv(oob->fd, p, len, 0);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			return -ECONNRESET;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Reads and drops n bytes of a message. */
static int skip(struct eel_oob *oob, uint32_t n, int64_t deadline, struct eel_dev *progress)
{
	char junk[4096];

	while (n) {
		uint32_t k = n < sizeof(junk) ? n : (uint32_t)sizeof(junk);
		int rc = read_all(oob, junk, k, deadline, progress);

		if (rc)
			return rc;
		n -= k;
	}
	return 0;
}

int eel_oob_send(struct eel_oob *oob, uint16_t type, const void *buf, uint32_t len)
{
	struct oob_hdr h = { OOB_MAGIC, type, 0, len };

	if (write_all(oob->fd, &h, sizeof(h)) || (len && write_all(oob->fd, buf, len)))
		return eel_err(-ECONNRESET, "out-of-band send failed (%s): the peer closed the connection",
			       strerror(errno));
	return 0;
}

int eel_oob_recv(struct eel_oob *oob, uint16_t type, void *buf, uint32_t cap, uint32_t *len,
		 uint32_t timeout_ms, struct eel_dev *progress)
{
	int64_t deadline = now_ms() + timeout_ms;
	struct oob_hdr h;
	int rc;

	if (!oob || (cap && !buf))
		return eel_err(-EINVAL, "eel_oob_recv: no %s given", oob ? "place for the message (buf)" : "channel");
	rc = read_all(oob, &h, sizeof(h), deadline, progress);

	if (rc == -ETIMEDOUT)
		return eel_err(rc, "no message from the peer in %u ms: is it still running?", timeout_ms);
	if (rc)
		return eel_err(rc, "the peer closed the out-of-band connection: check the peer's output");
	if (h.magic != OOB_MAGIC)
		return eel_err(-EPROTO, "the peer does not speak eel's out-of-band protocol: is the port "
			       "right, and is it eel-bench on the other end?");
	if (h.len > OOB_MAX_MSG)
		return eel_err(-EPROTO, "out-of-band message of %u bytes, more than any eel sends (%u): the channel "
			       "is out of step, close it; run the same eel version on both ends", h.len, OOB_MAX_MSG);
	if (h.type != type || h.len > cap) {
		/* its payload read and dropped, so that the next message is read
		 * from its header (left, the channel was out of step for good) */
		rc = skip(oob, h.len, deadline, progress);
		if (rc == -ETIMEDOUT)
			return eel_err(rc, "an out-of-band message of type %u did not arrive whole in %u ms: is the "
				       "peer still running?", h.type, timeout_ms);
		if (rc)
			return eel_err(rc, "out-of-band message cut short: the peer closed the connection");
		return eel_err(-EPROTO, "unexpected out-of-band message (type %u, %u bytes; wanted type %u, "
			       "at most %u bytes), dropped: run the same eel version with the same options on both ends",
			       h.type, h.len, type, cap);
	}
	rc = read_all(oob, buf, h.len, deadline, progress);
	if (rc)
		return eel_err(rc, "out-of-band message cut short: the peer closed the connection");
	if (len)
		*len = h.len;
	else if (h.len != cap)
		return eel_err(-EPROTO, "out-of-band message type %u has %u bytes, expected %u: run the "
			       "same eel version on both ends", type, h.len, cap);
	return 0;
}

/* Both ends send their hello, then check the other's. */
static int hello(struct eel_oob *oob, uint32_t timeout_ms)
{
	struct oob_hello mine = { OOB_PROTO, 0x01020304u, EEL_VERSION }, theirs;
	int rc = eel_oob_send(oob, OOB_HELLO, &mine, sizeof(mine));

	if (!rc)
		rc = eel_oob_recv(oob, OOB_HELLO, &theirs, sizeof(theirs), NULL, timeout_ms, NULL);
	if (rc)
		return rc;
	theirs.version[sizeof(theirs.version) - 1] = 0;
	if (theirs.endian != mine.endian)
		return eel_err(-EPROTO, "the peer has the other byte order: eel runs only between little-endian hosts");
	if (theirs.proto != OOB_PROTO)
		return eel_err(-EPROTO, "the peer runs eel %s (protocol %u), this is eel %s (protocol %u): run "
			       "the same eel version on both ends", theirs.version, theirs.proto,
			       EEL_VERSION, OOB_PROTO);
	return 0;
}

static int oob_new(int fd, int server, uint32_t timeout_ms, struct eel_oob **out)
{
	struct eel_oob *oob = calloc(1, sizeof(*oob));
	int one = 1, rc;

	if (!oob) {
		close(fd);
		return eel_err(-ENOMEM, "out of memory");
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	oob->fd = fd;
	oob->server = server;
	rc = hello(oob, timeout_ms);
	if (rc) {
		eel_oob_close(oob);
		return rc;
	}
	*out = oob;
	return 0;
}

int eel_oob_listen(const char *addr, uint16_t port, struct eel_oob_listener **out)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE };
	struct addrinfo *res;
	struct eel_oob_listener *l;
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char service[8];
	int fd, one = 1, rc;

	*out = NULL;
	snprintf(service, sizeof(service), "%u", port);
	rc = getaddrinfo(addr, service, &hints, &res);
	if (rc)
		return eel_err(-EINVAL, "cannot listen on %s: %s", addr ? addr : "any address", gai_strerror(rc));
	fd = socket(res->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0)
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (fd < 0 || bind(fd, res->ai_addr, res->ai_addrlen) || listen(fd, 1)) {
		rc = errno;
		freeaddrinfo(res);
		if (fd >= 0)
			close(fd);
		return eel_err(-rc, "cannot listen on %s port %u: %s%s", addr ? addr : "any address", port,
			       strerror(rc), rc == EADDRINUSE ? " (another eel server on it? pick another port)" :
			       rc == EADDRNOTAVAIL ? " (not an address of this host: give one of its own, or none)" : "");
	}
	freeaddrinfo(res);
	l = calloc(1, sizeof(*l));
	if (!l) {
		close(fd);
		return eel_err(-ENOMEM, "out of memory");
	}
	getsockname(fd, (struct sockaddr *)&ss, &sl);
	l->fd = fd;
	l->port = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
						  : ((struct sockaddr_in *)&ss)->sin_port);
	*out = l;
	return 0;
}

uint16_t eel_oob_listener_port(const struct eel_oob_listener *l)
{
	return l->port;
}

int eel_oob_accept(struct eel_oob_listener *l, uint32_t wait_ms, uint32_t hello_ms, struct eel_oob **out)
{
	struct pollfd pfd = { .fd = l->fd, .events = POLLIN };
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char who[INET6_ADDRSTRLEN + 8] = "?";
	int rc, fd;

	*out = NULL;
	do
		rc = poll(&pfd, 1, (int)wait_ms);
	while (rc < 0 && errno == EINTR);
	if (rc == 0)
		return eel_err(-ETIMEDOUT, "no client connected to port %u within %u ms: start the client "
			       "with this host's name (eel-bench <host>)", l->port, wait_ms);
	fd = accept4(l->fd, (struct sockaddr *)&ss, &sl, SOCK_CLOEXEC);
	if (fd < 0)
		return eel_err(-errno, "accept on port %u failed: %s", l->port, strerror(errno));
	if (ss.ss_family == AF_INET)
		inet_ntop(AF_INET, &((struct sockaddr_in *)&ss)->sin_addr, who, sizeof(who));
	else if (ss.ss_family == AF_INET6)
		inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&ss)->sin6_addr, who, sizeof(who));
	rc = oob_new(fd, 1, hello_ms, out);
	/* not an eel peer (a port scan, a stray client, garbage, silence): the
	 * listener is fine, the caller may wait for the next connection */
	if (rc) {
		char why[256];

		snprintf(why, sizeof(why), "%s", eel_errmsg());
		return eel_err(-ECONNABORTED, "a connection from %s was not an eel-bench client: %s", who, why);
	}
	return 0;
}

void eel_oob_listener_close(struct eel_oob_listener *l)
{
	if (!l)
		return;
	close(l->fd);
	free(l);
}

/* Is fd connected to itself? A connect to a port of this host that nothing
 * listens on, when that port is in the ephemeral range, can be given that
 * same port as its own and join itself (TCP's simultaneous open): a client
 * waiting for its server then spoke eel's protocol with itself (a test saw
 * "both ends have the MAC address ..." where nobody was listening). */
static int self_connected(int fd)
{
	struct sockaddr_storage mine, peer;
	socklen_t ml = sizeof(mine), pl = sizeof(peer);

	memset(&mine, 0, sizeof(mine));
	memset(&peer, 0, sizeof(peer));
	if (getsockname(fd, (struct sockaddr *)&mine, &ml) || getpeername(fd, (struct sockaddr *)&peer, &pl))
		return 0;
	return ml == pl && !memcmp(&mine, &peer, ml);
}

/* connect() that gives up at the deadline: a listener that never accepts
 * (its backlog full, a firewall that drops) would block a plain connect for
 * the kernel's minutes. 0, or the errno. */
static int connect_by(int fd, const struct addrinfo *a, int64_t deadline)
{
	int flags = fcntl(fd, F_GETFL), err = 0, rc;
	socklen_t len = sizeof(err);
	struct pollfd pfd = { .fd = fd, .events = POLLOUT };

	fcntl(fd, F_SETFL, flags | O_NONBLOCK);
	if (connect(fd, a->ai_addr, a->ai_addrlen) == 0)
		goto done;
	if (errno != EINPROGRESS)
		return errno;
	do {
		int64_t left = deadline - now_ms();

		rc = poll(&pfd, 1, left > 0 ? (int)left : 0);
	} while (rc < 0 && errno == EINTR);
	if (rc == 0)
		return ETIMEDOUT;
	if (rc < 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len))
		return errno;
	if (err)
		return err;
done:
	if (self_connected(fd))
		return ECONNREFUSED; /* nobody listens: as refused, tried again */
	fcntl(fd, F_SETFL, flags);
	return 0;
}

int eel_oob_connect(const char *host, uint16_t port, uint32_t timeout_ms, struct eel_oob **out)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM };
	struct addrinfo *res;
	int64_t deadline = now_ms() + timeout_ms;
	char service[8];
	int rc, err = 0;

	if (!out || !host)
		return eel_err(-EINVAL, "eel_oob_connect: no %s given", out ? "host" : "place for the channel");
	*out = NULL;
	snprintf(service, sizeof(service), "%u", port);
	rc = getaddrinfo(host, service, &hints, &res);
	if (rc)
		return eel_err(-EHOSTUNREACH, "unknown host '%s': %s: give the server's name or address", host,
			       gai_strerror(rc));
	for (;;) {
		for (struct addrinfo *a = res; a; a = a->ai_next) {
			int fd = socket(a->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);

			if (fd < 0)
				continue;
			if (!(err = connect_by(fd, a, deadline))) {
				freeaddrinfo(res);
				return oob_new(fd, 0, timeout_ms, out);
			}
			close(fd);
		}
		if (now_ms() >= deadline || (err != ECONNREFUSED && err != ETIMEDOUT && err != ENETUNREACH))
			break;
		usleep(20000); /* the server may still be starting */
	}
	freeaddrinfo(res);
	return eel_err(-(err ? err : ETIMEDOUT), "cannot reach the eel-bench server at %s:%u (%s): is it "
		       "running there (eel-bench with no host), and is the port open?", host, port,
		       strerror(err ? err : ETIMEDOUT));
}

/* The peer's process is gone when its end of the socket closed: POLLRDHUP
 * says so even when unread messages are still queued before the close. */
int eel_oob_peer_gone(struct eel_oob *oob)
{
	struct pollfd pfd = { .fd = oob->fd, .events = POLLRDHUP };

	return poll(&pfd, 1, 0) > 0 && (pfd.revents & (POLLRDHUP | POLLHUP | POLLERR));
}

/* Which end the peer is, for messages that say who went away. */
const char *eel_oob_peer_role(const struct eel_oob *oob)
{
	return oob->server ? "client" : "server";
}

void eel_oob_close(struct eel_oob *oob)
{
	if (!oob)
		return;
	close(oob->fd);
	free(oob);
}
