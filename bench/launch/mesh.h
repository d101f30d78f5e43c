/* SPDX-License-Identifier: MIT */
/* bench/launch/mesh.h — eel-bench's ranks under a launcher (mpirun, srun): every
 * rank's NIC joined to every other's, one connection a pair (bench/launch/mesh.c),
 * the patterns measured over them (bench/launch/patterns.c) and reported by rank 0
 * (bench/launch/report_mesh.c).
 */
#ifndef EEL_BENCH_MESH_H
#define EEL_BENCH_MESH_H

#include "bench/bench.h"
#include "bench/cli.h"
#include "launch.h"

#define MESH_MAX FLOOD_MAX_PEERS   /* ranks */

/* What each rank tells the others through PMIx ("eel.ep"): where its
 * out-of-band listener is, and which NIC it measures with. */
struct mesh_ep {
	uint32_t magic, version;
	int32_t rank, pid;
	uint16_t port, rsvd;
	char host[64];       /* gethostname() */
	char nic[64];        /* the NIC's caps name ("softnic:inline", "rxe0", a PCI address) */
	char pci[16];        /* its PCI function, "" for none */
	int32_t cpu;         /* the one core the launcher bound it to, -1: more than one */
	int32_t oversub;     /* 1: its machine has more busy ranks (threads, in thread mode) than cores */
};

struct mesh {
	struct launch l;
	int rank, size;
	struct mesh_ep ep[MESH_MAX];     /* every rank's, this one's too */
	struct session s[MESH_MAX];      /* s[p]: this rank's end of its connection to p */
	struct eel_oob_listener *lis;
	int oversub;                     /* this machine: local ranks x busy threads each > cores */
	int local_size, cores;           /* what that was judged from */
	int serial;                      /* allpairs one pair at a time: --serial, or a rank's machine
					  * oversubscribed (its pairs at once would take turns on its cores) */
};

/* Bring up the mesh: PMIx_Init, a NIC opened for each peer, each NIC's
 * connection information and this rank's endpoint put, one collecting fence,
 * the peers' got, the out-of-band channels (the lower rank accepts) and the
 * links connected, every session's memory exchanged. Prints what failed. */
int mesh_open(struct mesh *m, const struct cli *c);
void mesh_close(struct mesh *m);
/* "rank 3 (host)" */
const char *mesh_who(const struct mesh *m, int rank, char *buf, size_t n);

/* ---- the patterns (patterns.c) ---- */

/* One ordered pair, measured from `from` (it keeps the time) to `to`. */
struct pair_res {
	int32_t done;
	uint32_t g_q;                    /* the depth that gave g */
	uint32_t eel_n;                  /* round trips timed */
	uint32_t g_n;                    /* flood runs at g's depth */
	double eel_min, eel_median, eel_p99; /* ns, RTT/2 of each round trip */
	double eel_bell;                 /* ns, Bell et al. 2003 §4.1: the minimum over runs of each run's RTT/2 */
	double g_min, g_median, g_p99;   /* ns per message, over the runs at g's depth */
};

/* What a rank measured, sent to rank 0 through PMIx ("eel.res") at the end. */
struct rank_res {
	uint32_t magic, version;
	int32_t rank, rsvd;
	struct pair_res to[MESH_MAX];    /* this rank as the measuring end, to each other rank */
	double kto1_g[MESH_MAX];         /* [K]: this rank's g when K ranks flood rank 0 at once (0: not a sender) */
	double many_g[MESH_MAX];         /* [K]: rank 0's time per message flooding K ranks at once */
};

#define PATTERN_TESTS (T_ALLPAIRS | T_KTO1 | T_ONE_TO_MANY)

/* The patterns of c->plan.tests on every rank; rank 0 gathers every rank's
 * rank_res into all[] (all[r] from rank r). */
int patterns_run(struct mesh *m, const struct cli *c, struct rank_res *all);
/* Rank 0: the table, and the JSON document with --json. */
struct mesh_flags {
	double k;                         /* median + k x MAD */
	double eel_median, eel_mad, eel_limit;
	double g_median, g_mad, g_limit;
};
void mesh_flags_of(const struct mesh *m, const struct rank_res *all, double k, struct mesh_flags *f);
/* Two ranks bound to one core (their pair would wait out each other's
 * timeslices): 1 with *a < *b, after the pair (*a, *b) given (-1, -1 first). */
int mesh_shared_core(const struct mesh *m, int *a, int *b);
void report_mesh_table(FILE *f, const struct mesh *m, const struct cli *c, const struct rank_res *all);
int report_mesh_json(const char *path, const struct mesh *m, const struct cli *c, const struct rank_res *all,
		     int argc, char **argv);

#endif
