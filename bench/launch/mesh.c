/* SPDX-License-Identifier: MIT */
/* bench/launch/mesh.c — every rank's NIC joined to every other's (bench/launch/mesh.h).
 *
 * A NIC connection joins two ends (libeel: one device a peer), so each rank
 * opens a NIC for each other rank. The endpoints go through PMIx: each
 * rank puts the connection information of each of its NICs ("eel.conn.<p>":
 * for the software NIC the shared-memory wire's name, for verbs the QP
 * number, GID and address, for DPDK and raw the MAC) and where its
 * out-of-band listener is ("eel.ep"), commits, and one collecting fence
 * later gets its peers'. The out-of-band channel (TCP, the two-host mode's)
 * stays for what the backends and the measurements say around each timed
 * region, and so that a lost peer is named at once: between ranks a and b,
 * a < b, a accepts and is the channel's server. */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mesh.h"
#include "bench/report/safe_text.h"

#define EP_MAGIC 0x50454c45u  /* "ELEP" */
#define EP_VERSION 2u /* 2: oversub */

const char *mesh_who(const struct mesh *m, int rank, char *buf, size_t n)
{
	char safe[80];

	snprintf(buf, n, "rank %d (%s)", rank, safe_text(m->ep[rank].host, safe, sizeof(safe)));
	return buf;
}

static void set_who(const struct mesh *m, int peer)
{
	char a[100], b[100];

	if (peer < 0)
		snprintf(bench_who, sizeof(bench_who), "%s", mesh_who(m, m->rank, a, sizeof(a)));
	else
		snprintf(bench_who, sizeof(bench_who), "%s with %s", mesh_who(m, m->rank, a, sizeof(a)),
			 mesh_who(m, peer, b, sizeof(b)));
}

static int launch_fail(const struct launch *l)
{
	fprintf(stderr, "eel-bench: %s%s%s\n", bench_who, bench_who[0] ? ": " : "", l->err);
	return -1;
}

/* The one core this process may run on, or -1. */
static int bound_core(void)
{
	cpu_set_t set;
	int one = -1;

	if (sched_getaffinity(0, sizeof(set), &set) || CPU_COUNT(&set) != 1)
		return -1;
	for (int c = 0; c < CPU_SETSIZE && one < 0; c++)
		if (CPU_ISSET(c, &set))
			one = c;
	return one;
}

int mesh_shared_core(const struct mesh *m, int *a, int *b)
{
	for (int i = *a < 0 ? 0 : *a; i < m->size; i++)
		for (int j = i == *a ? *b + 1 : i + 1; j < m->size; j++)
			if (m->ep[i].cpu >= 0 && m->ep[i].cpu == m->ep[j].cpu &&
			    !strcmp(m->ep[i].host, m->ep[j].host)) {
				*a = i;
				*b = j;
				return 1;
			}
	return 0;
}

/* Is this machine oversubscribed: more busy threads than online cores? A
 * rank in a NIC's call spins (inline: the firmware runs in it; thread mode:
 * its firmware thread spins as well), so its machine's busy threads are the
 * launcher's local rank count, twice that in thread mode. */
static void judge_oversub(struct mesh *m, const struct cli *c)
{
	int per_rank = strstr(c->uri, "thread") ? 2 : 1;

	m->local_size = m->l.local_size;
	m->cores = (int)sysconf(_SC_NPROCESSORS_ONLN);
	m->oversub = m->local_size > 0 && m->cores > 0 && m->local_size * per_rank > m->cores;
}

/* This rank's NICs, one a peer, and what each tells its peer. */
static int open_nics(struct mesh *m, const struct cli *c)
{
	for (int p = 0; p < m->size; p++) {
		uint8_t info[EEL_CONN_INFO_MAX];
		uint32_t len = 0;
		struct eel_opts o;
		char key[32];

		if (p == m->rank)
			continue;
		eel_opts_default(&o);
		o.timeout_ms = c->plan.timeout_ms;
		o.backend_args = c->eal;
		o.oversubscribe = m->oversub; /* its waits yield rather than spin */
		if (eel_open(c->uri, &o, &m->s[p].dev))
			return bench_fail("opening the NIC");
		if (eel_conn_info(m->s[p].dev, m->rank < p, info, sizeof(info), &len))
			return bench_fail("the NIC's connection information");
		snprintf(key, sizeof(key), "eel.conn.%d", p);
		if (launch_put(&m->l, key, info, len))
			return launch_fail(&m->l);
	}
	return 0;
}

/* The out-of-band channels: connect to every lower rank (saying which rank
 * this is), then accept every higher one. A lower rank accepts only once its
 * own connections are made, so the waits all point downwards: no cycle. */
static int join_channels(struct mesh *m, uint32_t timeout_ms)
{
	char mine[64];

	gethostname(mine, sizeof(mine));
	mine[sizeof(mine) - 1] = 0;
	for (int p = 0; p < m->rank; p++) {
		const char *host = strcmp(m->ep[p].host, mine) ? m->ep[p].host : "127.0.0.1";
		int32_t r = m->rank;

		set_who(m, p);
		if (eel_oob_connect(host, m->ep[p].port, timeout_ms, &m->s[p].oob) ||
		    eel_oob_send(m->s[p].oob, OOB_RANK, &r, sizeof(r)))
			return bench_fail("connecting the out-of-band channel");
	}
	for (int left = m->size - 1 - m->rank; left > 0; left--) {
		struct eel_oob *oob;
		int32_t r = -1;

		set_who(m, -1);
		if (eel_oob_accept(m->lis, timeout_ms, timeout_ms, &oob))
			return bench_fail("waiting for the higher ranks' out-of-band channels");
		if (eel_oob_recv(oob, OOB_RANK, &r, sizeof(r), NULL, timeout_ms, NULL) || r <= m->rank ||
		    r >= m->size || m->s[r].oob) {
			eel_oob_close(oob);
			fprintf(stderr, "eel-bench: %s: a connection to this rank's port that is not one of this "
				"job's higher ranks (it said rank %d): is another eel-bench job or a scan reaching "
				"this host's ports?\n", bench_who, r);
			return -1;
		}
		m->s[r].oob = oob;
	}
	return 0;
}

/* Each link up with the peer's information from PMIx: the client ends
 * first (they only send), then the server ends (they wait for the client's
 * word), so no rank waits on one that waits on it. */
static int connect_links(struct mesh *m)
{
	for (int pass = 0; pass < 2; pass++)
		for (int p = 0; p < m->size; p++) {
			uint8_t info[EEL_CONN_INFO_MAX];
			size_t len = 0;
			char key[32];
			int server = m->rank < p;

			if (p == m->rank || server != pass)
				continue;
			set_who(m, p);
			snprintf(key, sizeof(key), "eel.conn.%d", m->rank);
			if (launch_get(&m->l, p, key, info, sizeof(info), &len))
				return launch_fail(&m->l);
			if (eel_connect_peer(m->s[p].dev, m->s[p].oob, server, info, (uint32_t)len))
				return bench_fail("connecting the NICs");
		}
	return 0;
}

int mesh_open(struct mesh *m, const struct cli *c)
{
	struct mesh_ep *me;
	size_t len;

	memset(m, 0, sizeof(*m));
	if (launch_init(&m->l))
		return launch_fail(&m->l);
	m->rank = m->l.rank;
	m->size = m->l.size;
	me = &m->ep[m->rank];
	gethostname(me->host, sizeof(me->host));
	me->host[sizeof(me->host) - 1] = 0;
	set_who(m, -1);
	if (m->size < 2) {
		fprintf(stderr, "eel-bench: %s: the patterns need 2 ranks or more, this job has 1: launch it with "
			"mpirun -np 4 (or srun -n 4), or run eel-bench without a launcher for one pair\n", bench_who);
		return -1;
	}
	if (m->size > MESH_MAX) {
		fprintf(stderr, "eel-bench: %s: %d ranks, eel-bench joins at most %d: launch fewer\n", bench_who,
			m->size, MESH_MAX);
		return -1;
	}
	judge_oversub(m, c);
	if (eel_oob_listen(NULL, 0, &m->lis))
		return bench_fail("listening for the other ranks");
	if (open_nics(m, c))
		return -1;
	*me = (struct mesh_ep){ .magic = EP_MAGIC, .version = EP_VERSION, .rank = m->rank, .pid = getpid(),
				.port = eel_oob_listener_port(m->lis), .cpu = bound_core(), .oversub = m->oversub };
	gethostname(me->host, sizeof(me->host));
	me->host[sizeof(me->host) - 1] = 0;
	snprintf(me->nic, sizeof(me->nic), "%s", eel_caps(m->s[m->rank ? 0 : 1].dev)->name);
	snprintf(me->pci, sizeof(me->pci), "%s", eel_caps(m->s[m->rank ? 0 : 1].dev)->pci);
	set_who(m, -1);
	/* the plan is rank 0's: every rank must measure the same */
	if (launch_put(&m->l, "eel.ep", me, sizeof(*me)) ||
	    (m->rank == 0 && launch_put(&m->l, "eel.plan", &c->plan, sizeof(c->plan))) || launch_exchange(&m->l))
		return launch_fail(&m->l);
	for (int p = 0; p < m->size; p++) {
		struct mesh_ep e;

		if (p == m->rank)
			continue;
		if (launch_get(&m->l, p, "eel.ep", &e, sizeof(e), &len))
			return launch_fail(&m->l);
		if (len != sizeof(e) || e.magic != EP_MAGIC || e.version != EP_VERSION || e.rank != p) {
			fprintf(stderr, "eel-bench: %s: rank %d is not this eel-bench: run the same eel-bench on every "
				"rank\n", bench_who, p);
			return -1;
		}
		e.host[sizeof(e.host) - 1] = e.nic[sizeof(e.nic) - 1] = e.pci[sizeof(e.pci) - 1] = 0;
		m->ep[p] = e;
	}
	m->serial = c->serial;
	for (int p = 0; p < m->size; p++)
		m->serial |= m->ep[p].oversub; /* every rank the same schedule */
	if (m->rank) {
		struct plan p0;

		if (launch_get(&m->l, 0, "eel.plan", &p0, sizeof(p0), &len))
			return launch_fail(&m->l);
		if (len != sizeof(p0) || memcmp(&p0, &c->plan, sizeof(p0))) {
			fprintf(stderr, "eel-bench: %s: rank 0 measures another plan: give every rank the same "
				"options\n", bench_who);
			return -1;
		}
	}
	if (join_channels(m, c->plan.timeout_ms) || connect_links(m))
		return -1;
	for (int p = 0; p < m->size; p++) {
		if (p == m->rank)
			continue;
		set_who(m, p);
		m->s[p].server = m->rank < p;
		m->s[p].plan = c->plan;
		m->s[p].pair_gate = -1;
		m->s[p].cpu = -1;
		if (session_setup(&m->s[p]))
			return -1;
	}
	set_who(m, -1);
	return 0;
}

void mesh_close(struct mesh *m)
{
	for (int p = 0; p < m->size && p < MESH_MAX; p++) {
		session_teardown(&m->s[p]);
		if (m->s[p].dev)
			eel_close(m->s[p].dev);
		eel_oob_close(m->s[p].oob);
		m->s[p].dev = NULL;
		m->s[p].oob = NULL;
	}
	eel_oob_listener_close(m->lis);
	m->lis = NULL;
	launch_fini(&m->l);
}
