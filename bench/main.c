/* SPDX-License-Identifier: MIT */
/* bench/main.c — eel-bench: the microbenchmarks of the papers in data/papers.md on any NIC eel
 * drives. Roles as perftest has them: no host = server (or, for the software
 * NIC, both ends here); a host = the client, which runs the plan and prints.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "bus_runs.h"
#include "busmodel.h"
#include "bench/report/csv.h"
#include "bench/report/outfile.h"
#include "bench/report/report.h"
#include "bench/report/safe_text.h"
#include "cli.h"

static int pin(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "eel-bench: cannot pin to core %d (%s): pick one from `nproc`, or drop --cpu\n",
			cpu, strerror(errno));
		return -1;
	}
	return 0;
}

/* The n-th core this process may run on, or -1. */
static int nth_cpu(int n)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		return -1;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set) && n-- == 0)
			return c;
	return -1;
}

/* softnic:thread with cores to spare: put each end's firmware on a core of
 * its own, as a NIC's processor would be. */
static const char *thread_uri(const char *uri, int fw_cpu, char *buf, size_t n)
{
	if (fw_cpu < 0 || strncmp(uri, "softnic:thread", 14) || strstr(uri, "fw_cpu=") ||
	    strstr(uri, "oversubscribe=1"))
		return uri;
	snprintf(buf, n, "%s%cfw_cpu=%d", uri, strchr(uri, '?') ? '&' : '?', fw_cpu);
	return buf;
}

/* The server's own bounds on a client's plan: its waits no longer than its
 * own --timeout, its buffers within --max-mem (a pair's plan is its own). */
static int plan_within(const struct session *s, struct plan *p, uint32_t own_timeout_ms, uint64_t max_mem)
{
	size_t need = session_data_bytes(p);

	if (p->timeout_ms > own_timeout_ms)
		p->timeout_ms = own_timeout_ms;
	if (!s->pair && need > max_mem) {
		fprintf(stderr, "eel-bench: the client's plan needs %zu MiB of buffers here, more than --max-mem "
			"(%llu MiB): refused; give the server a larger --max-mem, or the client smaller "
			"--sizes/--flood-bytes/--bulk-sizes\n", need >> 20, (unsigned long long)(max_mem >> 20));
		return -1;
	}
	return 0;
}

/* The size sweep's part of a plan off the network: sizes as cli.c allows them. */
static int sweep_plan_ok(const struct plan *p)
{
	if (p->nsweep > MAX_SIZES || !p->sweep_iters || !p->sweep_msgs)
		return 0;
	for (uint32_t i = 0; i < p->nsweep; i++)
		if (p->sweep_sizes[i] < 1 || p->sweep_sizes[i] > SWEEP_MAX_SIZE ||
		    (p->sweep_sizes[i] >= 8 && p->sweep_sizes[i] % 8))
			return 0;
	return 1;
}

static int exchange_plan(struct session *s, struct plan *p, uint64_t max_mem)
{
	uint32_t n, own_timeout_ms = p->timeout_ms;

	if (!s->server)
		return eel_oob_send(s->oob, OOB_PLAN, p, sizeof(*p)) ? bench_fail("sending the plan") : 0;
	if (eel_oob_recv(s->oob, OOB_PLAN, p, sizeof(*p), &n, p->timeout_ms, s->dev))
		return bench_fail("receiving the plan");
	/* The plan came off the network: believe nothing in it unchecked. */
	if (n != sizeof(*p) || p->version != PLAN_VERSION || !p->iters || !p->runs ||
	    p->runs > MAX_RUNS / 2 || p->flood_runs > MAX_RUNS || p->overlap_runs > MAX_RUNS ||
	    !p->overlap_sweeps || p->overlap_sweeps > MAX_SWEEPS ||
	    !p->flood_runs || !p->overlap_runs || p->nsizes > MAX_SIZES || p->ndepths > MAX_DEPTHS ||
	    !p->nsizes || !p->ndepths || p->flood_msgs < 2 || p->overlap_msgs < 16 ||
	    p->overlap_msgs > 10000000 || !p->timeout_ms) {
		fprintf(stderr, "eel-bench: the client's plan is not one this eel-bench understands: run the "
			"same version on both ends\n");
		return -1;
	}
	if (p->nbulk > MAX_SIZES || !p->nbulk || p->bulk_reps < 3 || p->bulk_reps > 1024 ||
	    p->sig_max_samples < 50 || p->sig_max_samples > 100000 || p->sig_point_ms > 60000 ||
	    p->budget_ms > 86400000) {
		fprintf(stderr, "eel-bench: the client's plan is not one this eel-bench understands: run the "
			"same version on both ends\n");
		return -1;
	}
	for (uint32_t i = 0; i < p->nbulk; i++)
		if (p->bulk_sizes[i] < 8 || p->bulk_sizes[i] % 8 || p->bulk_sizes[i] > (1u << 26)) {
			fprintf(stderr, "eel-bench: the client's plan asks for impossible bulk sizes\n");
			return -1;
		}
	if (!sweep_plan_ok(p)) {
		fprintf(stderr, "eel-bench: the client's plan asks for an impossible size sweep\n");
		return -1;
	}
	for (uint32_t i = 0; i < p->nsizes; i++)
		if (p->sizes[i] < 8 || p->sizes[i] % 8 || p->sizes[i] > (1u << 30) ||
		    (uint64_t)flood_msgs_for(p, p->sizes[i]) * p->sizes[i] > FLOOD_MAX_BYTES) {
			fprintf(stderr, "eel-bench: the client's plan asks for impossible flood sizes\n");
			return -1;
		}
	return plan_within(s, p, own_timeout_ms, max_mem);
}

static int counters(struct session *s, struct results *r)
{
	struct eel_counter c[64];
	uint64_t v[64] = { 0 };
	int n = eel_counters(s->dev, c, 64);

	for (int i = 0; i < n; i++)
		v[i] = c[i].value;
	if (s->server)
		return eel_oob_send(s->oob, OOB_COUNTERS, v, sizeof(v)) ? bench_fail("sending counters") : 0;
	memcpy(r->counters, c, sizeof(c));
	r->ncounters = n;
	if (eel_oob_recv(s->oob, OOB_COUNTERS, r->peer_counter_values, sizeof(v), NULL, s->plan.timeout_ms,
			 s->dev))
		return bench_fail("receiving the server's counters");
	return 0;
}

/* Both ends: everything delivered, then a last word, then close. */
static int goodbye(struct session *s)
{
	uint32_t n;

	if (eel_quiet(s->dev))
		return bench_fail("finishing");
	if (eel_oob_send(s->oob, OOB_BYE, NULL, 0) ||
	    eel_oob_recv(s->oob, OOB_BYE, NULL, 0, &n, s->plan.timeout_ms, s->dev))
		return bench_fail("saying goodbye");
	return 0;
}

/* One end, from opening the NIC to the last goodbye. */
/* The server waits for its client: a connection that is not one (a port
 * scan, garbage, a client that says nothing within --timeout) is named and
 * dropped, and the server goes back to waiting for the rest of wait_ms. */
static int accept_client(struct eel_oob_listener *l, uint32_t wait_ms, uint32_t hello_ms, struct eel_oob **oob)
{
	struct timespec t;
	int64_t end;
	int rc;

	clock_gettime(CLOCK_MONOTONIC, &t);
	end = (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000 + wait_ms;
	for (;;) {
		int64_t left;
		char safe[512];

		clock_gettime(CLOCK_MONOTONIC, &t);
		left = end - ((int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000);
		rc = eel_oob_accept(l, left > 0 ? (uint32_t)left : 0, hello_ms, oob);
		if (rc != -ECONNABORTED)
			return rc;
		fprintf(stderr, "eel-bench: dropped: %s; waiting for the client\n",
			safe_text(eel_errmsg(), safe, sizeof(safe)));
	}
}

/* One machine per run (docs/methods.md, "machine"): a short ping-pong (DRIFT_RUNS runs of
 * DRIFT_ITERS round trips, each run its median round trip / 2, stamps off)
 * at the run's start and at its end, both ends in lock step; where the two
 * differ beyond their spread (stats_differ), the tests between saw different
 * machines (a VM moving its vCPUs: the limit's EEL came out 2x the headline's)
 * and a warning says so. ~10 ms at this machine's EEL. Not for a run of
 * -t pingpong or -t limit alone: short, and each is its own EEL. */
static int drift_wanted(uint32_t t)
{
	return (t & (TESTS_ALL & ~(T_PINGPONG | T_LIMIT))) || ((t & T_PINGPONG) && (t & T_LIMIT));
}

/* no longer than the run's own ping-pong runs: under an emulator a round
 * trip on rxe takes ms, and the VM bench runs -n 5 */
static uint32_t drift_iters(const struct session *s, struct drift_res *d)
{
	d->iters = s->plan.iters < DRIFT_ITERS ? s->plan.iters : DRIFT_ITERS;
	return d->iters;
}

static int drift_probe(struct session *s, struct stat *st, uint32_t iters)
{
	static struct pingpong_res pp;
	int v = PP_PUT;

	memset(&pp, 0, sizeof(pp));
	progress(s, "the machine: a short ping-pong");
	if (pingpong_interleaved(s, &v, 1, DRIFT_RUNS, iters, &pp))
		return -1;
	if (!s->server)
		*st = pp.eel;
	return 0;
}

/* the tests whose results are in r: those that ran (one under -t all may be left out here) */
static uint32_t tests_run(const struct results *r)
{
	return (r->pp.done ? T_PINGPONG : 0) | (r->fl.done ? T_FLOOD : 0) | (r->ov.done ? T_OVERLAP : 0) |
	       (r->sig.done ? T_SIGNATURE : 0) | (r->bulk.done ? T_BULK : 0) | (r->dec.done ? T_DECOMPOSE : 0) |
	       (r->lim.done ? T_LIMIT : 0) | (r->sweep.done ? T_SWEEP : 0);
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* --duration: the client cuts the plan to the budget from the round trip of
 * the run's first ping-pong (budget.c) and sends it; the server takes it if
 * only repetitions were lowered. Without a budget: the estimates alone, for
 * the progress line's time left. */
static int budget_replan(struct session *s, struct results *r, const struct stat *probe)
{
	struct plan cut = s->plan;
	uint32_t n;

	if (!s->server) {
		if (s->plan.budget_ms)
			budget_cut(&cut, s->plan.budget_ms / 1000.0, 2 * probe->median, &r->timing);
		else
			budget_estimate(&cut, 2 * probe->median, r->timing.estimate_s);
		r->timing.rtt_ns = 2 * probe->median;
		if (!s->plan.budget_ms)
			return 0;
		s->plan = cut;
		return eel_oob_send(s->oob, OOB_PLAN, &cut, sizeof(cut)) ? bench_fail("sending the plan cut to --duration") : 0;
	}
	if (!s->plan.budget_ms)
		return 0;
	if (eel_oob_recv(s->oob, OOB_PLAN, &cut, sizeof(cut), &n, s->plan.timeout_ms, s->dev))
		return bench_fail("receiving the plan cut to --duration");
	if (n != sizeof(cut) || !budget_plan_within(&s->plan, &cut)) {
		fprintf(stderr, "eel-bench: the client's plan cut to --duration asks for more than its first plan: run the "
			"same version on both ends\n");
		return -1;
	}
	s->plan = cut;
	return 0;
}

/* The tests of the plan in order, each timed (the client's). */
static int run_tests(struct session *s, struct results *r)
{
	static const struct {
		enum budget_part part;
		uint32_t bits;
		int (*run)(struct session *s, struct results *r);
	} t[] = {
		{ BP_PINGPONG, T_PINGPONG, pingpong_run }, { BP_FLOOD, T_FLOOD, flood_run },
		{ BP_OVERLAP, T_OVERLAP, overlap_run }, { BP_SIGNATURE, T_SIGNATURE | T_BULK, signature_run },
		{ BP_BULK, T_BULK, bulk_run }, { BP_DECOMPOSE, T_DECOMPOSE, decompose_run },
		{ BP_LIMIT, T_LIMIT, limit_run }, { BP_SWEEP, T_SWEEP, sweep_run },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		double t0 = now_s();

		if (!(s->plan.tests & t[i].bits))
			continue;
		progress_part(&r->timing, t[i].part);
		if (t[i].run(s, r))
			return -1;
		r->timing.took_s[t[i].part] = now_s() - t0;
		r->timing.ran[t[i].part] = 1;
	}
	return 0;
}

/* The machine's short ping-pong (drift_probe), timed as the part "machine". */
static int machine_probe(struct session *s, struct results *r, struct stat *st, uint32_t iters)
{
	double t0 = now_s();

	progress_part(&r->timing, BP_MACHINE);
	if (drift_probe(s, st, iters))
		return -1;
	r->timing.took_s[BP_MACHINE] += now_s() - t0;
	r->timing.ran[BP_MACHINE] = 1;
	return 0;
}

/* uri with its sq_depth option set to depth: the one it has replaced (a
 * second sq_depth= is refused), else one added. */
static void with_sq_depth(const char *uri, uint32_t depth, char *out, size_t n)
{
	const char *q = strchr(uri, '?'), *at = q, *end;

	while (at && strncmp(at + 1, "sq_depth=", 9))
		at = strchr(at + 1, '&');
	if (!at) {
		snprintf(out, n, "%s%csq_depth=%u", uri, q ? '&' : '?', depth);
		return;
	}
	end = strchr(at + 1, '&');
	snprintf(out, n, "%.*s%csq_depth=%u%s", (int)(at - uri), uri, *at, depth, end ? end : "");
}

/* The client's word to the server of a pair through the gate (1: its NIC
 * opened). A server gone before it read (it failed to start) is a broken
 * pipe, said by the return, not a SIGPIPE that killed the client. */
static int gate_say(int fd, char word)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	int saved = !sigaction(SIGPIPE, &ign, &old);
	ssize_t n = write(fd, &word, 1);

	if (saved)
		sigaction(SIGPIPE, &old, NULL);
	return n == 1 ? 0 : -EPIPE;
}

static int run_end(struct cli *c, struct session *s, struct results *r, const char *uri,
		   struct eel_oob_listener *l, uint32_t accept_ms)
{
	struct eel_opts o;
	int rc;

	eel_opts_default(&o);
	o.timeout_ms = c->plan.timeout_ms;
	o.backend_args = c->eal;
	/* Both ends of a pair open the same NIC kind on this machine: the client
	 * first, and what fails for both is said once, by the client. */
	if (s->pair_gate >= 0 && s->server) {
		char word = 0;

		if (read(s->pair_gate, &word, 1) != 1 || word != 1)
			return -1;
	}
	rc = eel_open(uri, &o, &s->dev);
	if (s->pair_gate >= 0 && !s->server && gate_say(s->pair_gate, rc == 0) && !rc) {
		eel_close(s->dev);
		s->dev = NULL;
		fprintf(stderr, "eel-bench: the pair's server ended before its NIC opened: its message is above\n");
		return -1;
	}
	if (rc)
		return bench_fail("opening the NIC");
	/* a flood keeps q puts in flight: the send queue must hold the deepest */
	for (uint32_t i = 0; !s->server && (c->plan.tests & T_FLOOD) && i < c->plan.ndepths; i++)
		if (c->plan.depths[i] > eel_caps(s->dev)->sq_depth) {
			char safe[256], fix[300];

			with_sq_depth(c->uri, c->plan.depths[i] > 2048 ? 4096 :
					      1u << (32 - __builtin_clz(c->plan.depths[i] - 1)), fix, sizeof(fix));
			fprintf(stderr, "eel-bench: --depths %u is more than this NIC's send queue (%u puts): lower "
				"--depths, or raise the queue with the URI option sq_depth (a power of two up to "
				"4096: -d '%s')\n", c->plan.depths[i], eel_caps(s->dev)->sq_depth,
				safe_text(fix, safe, sizeof(safe)));
			return -1;
		}
	/* both ends: the client reports the facts, each end places itself by them */
	nic_pci_get(eel_caps(s->dev), &r->pci);
	if (!s->server && eel_nic_info(s->dev, &r->nic_info))
		return bench_fail("reading what the NIC is");
	/* a core on the NIC's NUMA node unless --cpu chose (placement.c); the
	 * buffers are allocated after this, on that node */
	{
		struct placement pl;
		int core = placement_choose(&r->pci, c->cpu[s->pair && s->server], s->cpu, s->pair,
					    s->pair && s->server, &pl);

		if (core != s->cpu && pin(core))
			return -1;
		s->cpu = core;
		if (!s->server)
			r->place = pl;
	}
	if (s->server && !s->pair)
		fprintf(stderr, "eel-bench: %s: waiting for a client on port %u\n", eel_caps(s->dev)->name,
			c->port);
	rc = s->server ? accept_client(l, accept_ms, c->plan.timeout_ms, &s->oob)
		       : eel_oob_connect(c->host ? c->host : "127.0.0.1", c->port, c->plan.timeout_ms, &s->oob);
	if (rc)
		return bench_fail(s->server ? "waiting for the client" : "connecting to the server");
	if (eel_connect(s->dev, s->oob))
		return bench_fail("connecting the NICs");
	s->plan = c->plan;
	if (exchange_plan(s, &s->plan, c->max_mem) || session_setup(s))
		return -1;
	if (s->server && !s->pair)
		fprintf(stderr, "eel-bench: serving a client on %s\n", eel_caps(s->dev)->name);
	r->timing.budget_s = s->plan.budget_ms / 1000.0;
	r->timing.quick = c->quick;
	r->timing.scale = 1;
	/* the first ping-pong: the machine's (drift), or one of its own for --duration */
	if ((drift_wanted(s->plan.tests) || s->plan.budget_ms) &&
	    (machine_probe(s, r, &r->drift.start, drift_iters(s, &r->drift)) || budget_replan(s, r, &r->drift.start)))
		return -1;
	if (run_tests(s, r))
		return -1;
	if (drift_wanted(s->plan.tests)) {
		if (machine_probe(s, r, &r->drift.end, r->drift.iters))
			return -1;
		r->drift.done = !s->server;
		r->drift.changed = stats_differ(&r->drift.start, &r->drift.end);
		r->drift.tests = tests_run(r);
	}
	progress_done(s);
	if (counters(s, r) || goodbye(s))
		return -1;
	return 0;
}

static void end_close(struct session *s)
{
	session_teardown(s);
	if (s->dev)
		eel_close(s->dev);
	eel_oob_close(s->oob);
	s->dev = NULL;
	s->oob = NULL;
}

/* The pair's server end, reaped without waiting on it for ever: after a
 * failure it is ended (SIGTERM, and SIGCONT: a stopped process acts on
 * SIGTERM only once continued, and the client would wait for whoever
 * stopped it); a server that outlives the client's failure by a second, or
 * its success by the timeout, is killed. wait4's result. */
static pid_t reap_server(pid_t child, int failed, uint32_t timeout_ms, int *st, struct rusage *ru)
{
	int64_t left_ms = failed ? 1000 : timeout_ms;
	pid_t got;

	if (failed) {
		kill(child, SIGTERM);
		kill(child, SIGCONT);
	}
	while ((got = wait4(child, st, WNOHANG, ru)) == 0 && left_ms > 0) {
		struct timespec ts = { 0, 10 * 1000000 };

		nanosleep(&ts, NULL);
		left_ms -= 10;
	}
	if (got)
		return got;
	fprintf(stderr, "eel-bench: the server end did not end within %lld ms%s: killed\n",
		(long long)(failed ? 1000 : timeout_ms), failed ? " of SIGTERM" : " of the client's goodbye");
	kill(child, SIGKILL);
	kill(child, SIGCONT);
	return wait4(child, st, 0, ru);
}

/* --pair: this process forks the server end; both ends are pinned to cores
 * of their own and joined by a loopback out-of-band channel (*l, the
 * server's) and a gate pipe. 0, or 1 said on stderr. */
static int pair_start(struct cli *c, const char *uri_in, struct session *s, struct eel_oob_listener **l,
		      pid_t *child, const char **uri, char *uri_buf, size_t uri_len)
{
	int cpu_c = c->cpu[0] >= 0 ? c->cpu[0] : nth_cpu(0);
	int cpu_s = c->cpu[1] >= 0 ? c->cpu[1] : nth_cpu(1);
	int gate[2];

	/* --cpu A alone, A the core the server would take: the server takes
	 * the first other one (cli.c refuses --cpu A,A) */
	if (c->cpu[1] < 0 && cpu_s == cpu_c && c->cpu[0] >= 0)
		cpu_s = nth_cpu(0) != cpu_c ? nth_cpu(0) : -1;

	if (eel_oob_listen("127.0.0.1", 0, l)) {
		bench_fail("setting up the pair");
		return 1;
	}
	if (pipe(gate)) {
		fprintf(stderr, "eel-bench: cannot make a pipe for the pair: %s\n", strerror(errno));
		return 1;
	}
	c->port = eel_oob_listener_port(*l);
	s->limit = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (s->limit == MAP_FAILED) {
		fprintf(stderr, "eel-bench: cannot map shared memory for the pair\n");
		return 1;
	}
	fflush(NULL);
	*child = fork();
	if (*child < 0) {
		fprintf(stderr, "eel-bench: cannot fork the server end: %s\n", strerror(errno));
		return 1;
	}
	s->pair = 1;
	s->server = *child == 0;
	s->pair_gate = gate[s->server ? 0 : 1];
	close(gate[s->server ? 1 : 0]);
	s->cpu = s->server ? cpu_s : cpu_c;
	if (s->cpu == cpu_c && cpu_s == cpu_c)
		s->cpu = -1; /* one core: do not pin both ends onto it */
	*uri = thread_uri(uri_in, nth_cpu(s->server ? 3 : 2), uri_buf, uri_len);
	if (pin(s->cpu)) {
		if (s->server)
			_exit(1);
		kill(*child, SIGTERM);
		waitpid(*child, NULL, 0);
		return 1;
	}
	if (!s->server)
		eel_oob_listener_close(*l);
	return 0;
}

/* One whole measurement of uri_in: both ends (--pair), or this end. The
 * server end exits here; the client returns 0 with *s and *r filled, and the
 * URI it opened (thread mode may add fw_cpu) in uri_buf. */
static int measure(struct cli *c, const char *uri_in, struct session *s, struct results *r, char *uri_buf,
		   size_t uri_len)
{
	struct eel_oob_listener *l = NULL;
	const char *uri;
	struct timespec t0, t1;
	pid_t child = -1;
	cpu_set_t was;
	struct rusage ru0, ru1, ru_peer;
	int rc, have_was = !sched_getaffinity(0, sizeof(was), &was);

	memset(s, 0, sizeof(*s));
	s->pair_gate = -1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	(void)eel_clock(); /* calibrate before anything is timed */
	s->cpu = -1;

	if (c->pair) {
		if (pair_start(c, uri_in, s, &l, &child, &uri, uri_buf, uri_len))
			return 1;
	} else {
		s->server = c->server;
		s->cpu = c->cpu[0];
		uri = uri_in;
		if (pin(s->cpu))
			return 1;
		if (s->server && eel_oob_listen(c->bind, c->port, &l))
			return bench_fail("listening") ? 1 : 1;
	}

	s->uri = uri;
	getrusage(RUSAGE_SELF, &ru0);
	rc = run_end(c, s, r, uri, l, c->pair ? c->plan.timeout_ms : 600000);
	/* a client that failed ends its server before it closes the
	 * out-of-band channel: the server would see its peer gone and say so
	 * too, a second line for one problem (the client's, said above) */
	if (rc && child > 0) {
		int st = 0;

		reap_server(child, 1, c->plan.timeout_ms, &st, &ru_peer);
		child = -1;
	}
	end_close(s);
	eel_oob_listener_close(c->pair && !s->server ? NULL : l);
	if (s->server)
		_exit(rc ? 1 : 0);

	getrusage(RUSAGE_SELF, &ru1);
	r->preempted_here = ru1.ru_nivcsw - ru0.ru_nivcsw;
	r->preempted_peer = -1; /* not known of another host's end */
	if (child > 0) {
		int st = 0;

		if (reap_server(child, rc, c->plan.timeout_ms, &st, &ru_peer) == child)
			r->preempted_peer = ru_peer.ru_nivcsw;
		if (!rc && !(WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
			fprintf(stderr, "eel-bench: the server end failed (see its message above)\n");
			rc = -1;
		}
	}
	/* the cores as they were: a next measurement (--bus) picks its pair from them */
	if (have_was)
		sched_setaffinity(0, sizeof(was), &was);
	if (rc)
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	r->wall_s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	s->dev = NULL;
	if (uri != uri_buf)
		snprintf(uri_buf, uri_len, "%s", uri);
	return 0;
}

/* --bus LIST: the same tests once per bus, side by side. The membus presets
 * (membus, membus-local, membus-remote: is_membus) are calibrated on this
 * machine first: a posted write is one cache line moving between the two
 * cores (-t limit's one-way median), a read two such trips (membus-remote
 * adds its numa_ns to both). */
static int is_membus(const char *name)
{
	return !strcmp(name, "membus") || !strcmp(name, "membus-local") || !strcmp(name, "membus-remote");
}

static int run_buses(struct cli *c, int argc, char **argv)
{
	static struct bus_run runs[MAX_BUSES];
	static struct results cal;
	struct session cs;
	char uri[512], extra[128] = "", why[256] = "";
	int need_cal = 0;
	struct timespec t0, t1;

	clock_gettime(CLOCK_MONOTONIC, &t0);

	for (int i = 0; i < c->nbus; i++) {
		snprintf(uri, sizeof(uri), "%s%cbus=%s", c->uri, strchr(c->uri, '?') ? '&' : '?', c->buses[i]);
		if (eel_bus_from_text(uri, &runs[i].bus)) {
			char safe[512];

			fprintf(stderr, "eel-bench: --bus %s: %s\n", c->buses[i], safe_text(eel_errmsg(), safe, sizeof(safe)));
			return 2;
		}
		need_cal |= is_membus(runs[i].bus.name) && !strstr(c->uri, "posted_ns=");
	}
	if (need_cal && c->pair) {
		struct cli cc = *c;

		cc.plan.tests = T_LIMIT;
		if (measure(&cc, c->uri, &cs, &cal, uri, sizeof(uri)))
			return 1;
	}
	if (need_cal) /* without --pair cal has no limit: why says so */
		bus_membus_calibration(&cal.lim, extra, sizeof(extra), why, sizeof(why));
	if (need_cal && !extra[0])
		fprintf(stderr, "eel-bench: --bus membus: %s: the preset's Broadwell figures are used (docs/bus.md)\n",
			why);
	for (int i = 0; i < c->nbus; i++) {
		struct cli ci = *c;

		snprintf(uri, sizeof(uri), "%s%cbus=%s%s", c->uri, strchr(c->uri, '?') ? '&' : '?', c->buses[i],
			 is_membus(runs[i].bus.name) ? extra : "");
		eel_bus_from_text(uri, &runs[i].bus);
		if (measure(&ci, uri, &runs[i].s, &runs[i].r, runs[i].uri, sizeof(runs[i].uri)))
			return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (!c->quiet)
		bus_table(stdout, runs, c->nbus,
			  (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	if (c->json && report_json(c->json, &runs[0].s, &runs[0].r, runs[0].uri, argc, argv, runs, c->nbus))
		return 1;
	return 0;
}

int main(int argc, char **argv)
{
	static struct results r;
	struct session s;
	struct cli c;
	char uri_buf[512];

	out_check_stdout_at_exit();
	cli_parse(&c, argc, argv);
	/* an output path that cannot be written is refused with the options,
	 * before anything runs: a bad command line */
	if (c.json && report_json_check(c.json))
		return 2;
	if (c.csv && report_csv_check(c.csv))
		return 2;
	if (c.plan.tests & T_BUSMODEL) {
		static struct busmodel_res bm;
		int brc = busmodel_run(c.quiet ? NULL : stdout, c.bus_data, &bm);

		/* alone, its --json is its own document (cli.c refuses --json with
		 * busmodel and other tests: one file cannot hold both schemas) */
		if (brc >= 0 && c.json && !(c.plan.tests & ~T_BUSMODEL) && busmodel_json(c.json, &bm, argc, argv))
			return 1;
		if (brc || !(c.plan.tests & ~T_BUSMODEL))
			return brc ? 1 : 0;
		c.plan.tests &= ~T_BUSMODEL;
		if (!c.quiet)
			putchar('\n');
	}
	if (c.launched)
		return launched_main(&c, argc, argv);
	if (c.nbus)
		return run_buses(&c, argc, argv);
	if (measure(&c, c.uri, &s, &r, uri_buf, sizeof(uri_buf)))
		return 1;
	if (!c.quiet)
		report_table(stdout, &s, &r, uri_buf);
	if (c.json && report_json(c.json, &s, &r, uri_buf, argc, argv, NULL, 0))
		return 1;
	if (c.csv && report_csv(c.csv, &s, &r))
		return 1;
	return 0;
}
