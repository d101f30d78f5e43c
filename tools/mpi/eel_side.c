/* SPDX-License-Identifier: MIT */
/* tools/mpi/eel_side.c — eel's own figures beside MPI's, with no timed
 * message carried by MPI: rank 1 starts eel-bench as the server end of its
 * two-host TCP mode (docs/launch.md, "Between two hosts"), rank 0 as the client end
 * connecting to rank 1's host, on the NIC of -d URI, on a port rank 1 found
 * free; rank 1 tells rank 0 the host and port over MPI (bootstrap, not
 * timed). The children measure Bell et al. 2003's set (-t
 * pingpong,flood,overlap) with the counts eel-mpi's own Bell set uses, and
 * the client writes --json to a temporary file that rank 0 reads
 * (tools/json_read.c). The launcher's environment (PMIX_*, OMPI_*, PMI_*,
 * OPAL_*, PRTE_*) is taken from the children, so that eel-bench does not
 * see itself launched. While they run, ranks 0 and 1 sleep between looks at
 * their child and at the other's verdict (an end that failed has the
 * other's child stopped: a server would wait for its client); every other
 * rank sleeps in a barrier. A child still running after timeout_s is
 * killed.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "eel_side.h"
#include "tools/json_read.h"
#include "wtime.h"

extern char **environ;

#define MSG 320
#define GRACE_NS 3e9   /* the other end failed: its peer is stopped after this */

struct status {
	int ok;
	int port;
	char host[256];
	char msg[MSG];
};

static void nap(void)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };

	nanosleep(&ts, NULL);
}

/* eel-bench: the path given, or the one beside this program */
static int bench_path(const char *given, char *path, size_t len, char *msg)
{
	char self[4096];
	ssize_t n;
	char *slash;

	if (given)
		snprintf(path, len, "%s", given);
	else {
		n = readlink("/proc/self/exe", self, sizeof(self) - 1);
		if (n <= 0) {
			snprintf(msg, MSG, "cannot find this program's folder (/proc/self/exe): give --eel-bench PATH");
			return -1;
		}
		self[n] = 0;
		slash = strrchr(self, '/');
		*slash = 0;
		if (strlen(self) + sizeof("/eel-bench") > len) {
			snprintf(msg, MSG, "this program's folder is too long a path: give --eel-bench PATH");
			return -1;
		}
		memcpy(path, self, strlen(self));
		memcpy(path + strlen(self), "/eel-bench", sizeof("/eel-bench"));
	}
	if (access(path, X_OK)) {
		snprintf(msg, MSG, "-d: no eel-bench at %.200s (%s): build it (make) or give --eel-bench PATH", path,
			 strerror(errno));
		return -1;
	}
	return 0;
}

/* a TCP port free on this host now (the system's pick) */
static int free_port(char *msg)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_ANY) };
	socklen_t al = sizeof(a);
	int s = socket(AF_INET, SOCK_STREAM, 0), port = -1;

	if (s >= 0 && !bind(s, (struct sockaddr *)&a, sizeof(a)) && !getsockname(s, (struct sockaddr *)&a, &al))
		port = ntohs(a.sin_port);
	else
		snprintf(msg, MSG, "-d: no free TCP port on rank 1's host (%s)", strerror(errno));
	if (s >= 0)
		close(s);
	return port;
}

static int launcher_var(const char *v)
{
	static const char *const pre[] = { "PMIX_", "OMPI_", "PMI_", "OPAL_", "PRTE_" };

	for (size_t i = 0; i < sizeof(pre) / sizeof(pre[0]); i++)
		if (!strncmp(v, pre[i], strlen(pre[i])))
			return 1;
	return 0;
}

static char *list(char *buf, size_t len, const uint32_t *v, int n)
{
	size_t at = 0;

	buf[0] = 0;
	for (int i = 0; i < n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%u", i ? "," : "", v[i]);
	return buf;
}

/* the child, its output to out_fd and err_fd; its pid or -1 */
static pid_t start(char *const argv[], int out_fd, int err_fd, char *msg)
{
	posix_spawn_file_actions_t fa;
	size_t n = 0, k = 0;
	char **env;
	pid_t pid = -1;
	int rc;

	while (environ[n])
		n++;
	env = calloc(n + 1, sizeof(*env));
	if (!env) {
		snprintf(msg, MSG, "-d: out of memory");
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (!launcher_var(environ[i]))
			env[k++] = environ[i];
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
	posix_spawn_file_actions_adddup2(&fa, err_fd, 2);
	rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, env);
	posix_spawn_file_actions_destroy(&fa);
	free(env);
	if (rc) {
		snprintf(msg, MSG, "-d: cannot start %.200s: %s", argv[0], strerror(rc));
		return -1;
	}
	return pid;
}

/* The child's first line saying what went wrong ("eel-bench: ..."), else its last line. */
static void child_said(int fd, char *msg, const char *who)
{
	char buf[4096], *line = NULL;
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	buf[n > 0 ? n : 0] = 0;
	for (char *l = strtok(buf, "\n"); l; l = strtok(NULL, "\n"))
		if (!line || (!strncmp(l, "eel-bench: ", 11) && strncmp(line, "eel-bench: ", 11)))
			line = l;
	if (line && !strncmp(line, "eel-bench: ", 11))
		line += 11;
	snprintf(msg, MSG, "-d: eel-bench (%s) failed: %.250s", who, line ? line : "no message");
}

/* o_s or o_r: the figure, or where it is not separable on this NIC (schema
 * 7, null) the CPU-overlap test's g(q=1) - D_max it was before, *ns flagged */
static int overlap_fig(const struct jr_val *r, const char *key, double *v, int *ns)
{
	char p[64];
	int sep = 1;

	snprintf(p, sizeof(p), "parameters.%s.ns", key);
	if (jr_num(r, p, v))
		return 1;
	snprintf(p, sizeof(p), "parameters.%s", key);
	jr_bool(jr_get(r, p), "separable", &sep);
	snprintf(p, sizeof(p), "parameters.%s.g_less_dmax_ns", key);
	*ns |= !sep;
	return !sep && jr_num(r, p, v);
}

/* rank 0's child's document: the five figures */
static int read_figs(const char *path, struct eel_figs *f, char *msg)
{
	char err[256];
	struct jr_doc *d = jr_parse_file(path, NULL, err, sizeof(err));
	const struct jr_val *r = d ? jr_root(d) : NULL;
	const char *b = jr_str(r, "nic.backend");
	int ok = r && jr_num(r, "parameters.eel.ns.min", &f->eel_ns) && overlap_fig(r, "o_s", &f->o_s_ns, &f->not_separable) &&
		 overlap_fig(r, "o_r", &f->o_r_ns, &f->not_separable) && jr_num(r, "parameters.g.ns", &f->g_ns) &&
		 jr_get(r, "parameters.G");

	/* G null where eel's flood could not measure it (schema 11; 0 before):
	 * NAN, "-" in the table */
	if (ok && (!jr_num(r, "parameters.G.ns_per_byte", &f->G_ns_per_byte) || !(f->G_ns_per_byte > 0)))
		f->G_ns_per_byte = NAN;

	if (!d)
		snprintf(msg, MSG, "-d: eel-bench's JSON: %.250s", err);
	else if (!ok)
		snprintf(msg, MSG, "-d: eel-bench's JSON lacks parameters.eel, o_s, o_r, g or G: is it the same eel?");
	snprintf(f->backend, sizeof(f->backend), "%s", b ? b : "");
	jr_free(d);
	return ok ? 0 : -1;
}

/* eel-bench on this end, its output to out_fd and err_fd: rank 1 the
 * server on port_num, rank 0 the client of server_host with Bell et al.'s
 * set (-t pingpong,flood,overlap) in o's sizes, its JSON to json_path. */
static pid_t start_bench(int rank, const struct eel_side_opts *e, const struct bell_opts *o, char *path,
			 int port_num, char *server_host, char *json_path, int out_fd, int err_fd, char *msg)
{
	char port[16], tmo[16], iters[16], runs[16], warm[16], sizes[512], depths[256], fm[16], fb[16], fr[16],
	     om[16], orr[16], os[16];
	char *argv[48];
	int a = 0;

	snprintf(port, sizeof(port), "%d", port_num);
	snprintf(tmo, sizeof(tmo), "%d", 10);
	argv[a++] = path;
	argv[a++] = "-d";
	argv[a++] = (char *)e->uri;
	argv[a++] = "-p";
	argv[a++] = port;
	argv[a++] = "--timeout";
	argv[a++] = tmo;
	if (rank == 1) {
		argv[a++] = "--server";
	} else {
		snprintf(iters, sizeof(iters), "%d", o->iters);
		snprintf(runs, sizeof(runs), "%d", o->runs);
		snprintf(warm, sizeof(warm), "%d", o->warmup);
		snprintf(fm, sizeof(fm), "%d", o->flood_msgs);
		snprintf(fb, sizeof(fb), "%u", o->flood_bytes);
		snprintf(fr, sizeof(fr), "%d", o->flood_runs);
		snprintf(om, sizeof(om), "%d", o->ov_msgs);
		snprintf(orr, sizeof(orr), "%d", o->ov_runs);
		snprintf(os, sizeof(os), "%d", o->ov_sweeps);
		char *more[] = { "-t", "pingpong,flood,overlap", "-q", "--json", json_path, "-n", iters, "-r", runs,
				 "--warmup", warm, "--sizes", list(sizes, sizeof(sizes), o->size, o->nsizes),
				 "--depths", list(depths, sizeof(depths), o->depth, o->ndepths), "--flood-msgs", fm,
				 "--flood-bytes", fb, "--flood-runs", fr, "--overlap-msgs", om, "--overlap-runs",
				 orr, "--overlap-sweeps", os, server_host };

		for (size_t i = 0; i < sizeof(more) / sizeof(more[0]); i++)
			argv[a++] = more[i];
	}
	argv[a] = NULL;
	return start(argv, out_fd, err_fd, msg);
}

/* Ranks 0 and 1: each end's verdict to the other as soon as its child
 * (*pid) is done; a child that runs past --eel-timeout, or past GRACE_NS
 * after its peer failed, is stopped. */
static void await_ends(MPI_Comm world, int rank, const struct eel_side_opts *e, pid_t *pid, int err_fd,
		       struct status *me, struct status *peer)
{
	MPI_Request rq[2] = { MPI_REQUEST_NULL, MPI_REQUEST_NULL };
	double deadline = now_ns() + e->timeout_s * 1e9, peer_failed_at = 0;
	int got = 0, sent = 0, other = !rank;

	MPI_Irecv(peer, (int)sizeof(*peer), MPI_BYTE, other, 42, world, &rq[1]);
	while (!sent || !got) {
		int st;

		if (!sent && *pid > 0 && waitpid(*pid, &st, WNOHANG) == *pid) {
			*pid = -1;
			if (!WIFEXITED(st) || WEXITSTATUS(st)) {
				me->ok = 0;
				child_said(err_fd, me->msg, rank ? "server, rank 1" : "client, rank 0");
			}
		}
		if (!sent && *pid <= 0) {
			MPI_Isend(me, (int)sizeof(*me), MPI_BYTE, other, 42, world, &rq[0]);
			sent = 1;
		}
		if (!got) {
			MPI_Test(&rq[1], &got, MPI_STATUS_IGNORE);
			if (got && !peer->ok)
				peer_failed_at = now_ns();
		}
		if (*pid > 0 && (now_ns() > deadline || (peer_failed_at && now_ns() > peer_failed_at + GRACE_NS))) {
			kill(*pid, SIGKILL);
			waitpid(*pid, &st, 0);
			*pid = -1;
			me->ok = 0;
			if (peer_failed_at)
				snprintf(me->msg, MSG, "-d: eel-bench stopped: its peer failed");
			else
				snprintf(me->msg, MSG, "-d: eel-bench on rank %d ran past --eel-timeout %d s and was "
					 "stopped: give a longer --eel-timeout or fewer --iters", rank, e->timeout_s);
		}
		if (!sent || !got)
			nap();
	}
	MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
}

int eel_side_run(MPI_Comm world, const struct eel_side_opts *e, const struct bell_opts *o, struct eel_figs *f,
		 char *err, size_t errlen)
{
	struct status me = { .ok = 1 }, peer = { .ok = 1 };
	char path[4096];
	char out_t[] = "/tmp/eel-mpi-out-XXXXXX", err_t[] = "/tmp/eel-mpi-err-XXXXXX",
	     json_t[] = "/tmp/eel-mpi-XXXXXX.json";
	int rank, out_fd = -1, err_fd = -1, json_fd = -1, verdict;
	pid_t pid = -1;

	MPI_Comm_rank(world, &rank);
	if (rank <= 1 && bench_path(e->bench, path, sizeof(path), me.msg))
		me.ok = 0;
	if (rank == 1 && me.ok) {
		me.port = free_port(me.msg);
		me.ok = me.port > 0;
		if (gethostname(me.host, sizeof(me.host)))
			snprintf(me.host, sizeof(me.host), "localhost");
	}
	/* bootstrap: rank 1's host and port to rank 0, and whether both can start */
	if (rank == 1)
		MPI_Send(&me, (int)sizeof(me), MPI_BYTE, 0, 41, world);
	if (rank == 0) {
		MPI_Recv(&peer, (int)sizeof(peer), MPI_BYTE, 1, 41, world, MPI_STATUS_IGNORE);
		f->port = peer.port;
		snprintf(f->server_host, sizeof(f->server_host), "%s", peer.host);
	}
	verdict = me.ok && peer.ok;
	MPI_Bcast(&verdict, 1, MPI_INT, 0, world);
	if (!verdict) {
		if (rank == 0)
			snprintf(err, errlen, "%s", me.ok ? peer.msg : me.msg);
		return -1;
	}
	if (rank <= 1) {
		out_fd = mkstemp(out_t);
		err_fd = mkstemp(err_t);
		json_fd = rank == 0 ? mkstemps(json_t, 5) : -2;
		if (out_fd < 0 || err_fd < 0 || json_fd == -1) {
			snprintf(me.msg, MSG, "-d: cannot make a temporary file in /tmp (%s)", strerror(errno));
			me.ok = 0;
		}
	}
	if (rank <= 1 && me.ok) {
		pid = start_bench(rank, e, o, path, rank == 0 ? peer.port : me.port, peer.host, json_t, out_fd, err_fd,
				  me.msg);
		me.ok = pid > 0;
	}
	if (rank <= 1)
		await_ends(world, rank, e, &pid, err_fd, &me, &peer);
	barrier_asleep(world);   /* every rank, the others' while ranks 0 and 1 waited */
	if (rank == 0 && me.ok && peer.ok && read_figs(json_t, f, me.msg))
		me.ok = 0;
	verdict = me.ok && peer.ok;
	MPI_Bcast(&verdict, 1, MPI_INT, 0, world);
	if (rank == 0 && !verdict)
		snprintf(err, errlen, "%s", !me.ok && strstr(me.msg, "its peer failed") == NULL ? me.msg : peer.msg);
	if (out_fd >= 0) {
		close(out_fd);
		unlink(out_t);
	}
	if (err_fd >= 0) {
		close(err_fd);
		unlink(err_t);
	}
	if (json_fd >= 0) {
		close(json_fd);
		unlink(json_t);
	}
	return verdict ? 0 : -1;
}
