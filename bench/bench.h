/* SPDX-License-Identifier: MIT */
/* bench/bench.h — eel-bench: the microbenchmarks of the papers in data/papers.md over libeel.
 *
 * Both ends run the same plan in lock step: the client sends it, the server
 * follows it. Each measurement has a client side (it keeps the time) and a
 * server side (it receives and replies); they agree on every 8-byte token
 * that marks a message, so no token repeats in a session.
 */
#ifndef EEL_BENCH_H
#define EEL_BENCH_H

#include <stdint.h>
#include <stdio.h>

#include <eel/eel.h>
#include <eel/pci_facts.h>

#include "method/dmax.h"
#include "method/fit.h"
#include "method/stats.h"
#include "plan.h"
#include "provenance.h"
#include "verify.h"
/* the methods, each a pair (bench/<method>.h, .c) and its writers (<method>_report.c) */
#include "pingpong.h"
#include "flood.h"
#include "overlap.h"
#include "breakdown.h"
#include "limit.h"
#include "derived.h"
#include "signature.h"
#include "bulk.h"
#include "decompose.h"
#include "sweep.h"
#include "budget.h"

/* One end of a measurement session. */
struct session {
	struct eel_dev *dev;
	struct eel_oob *oob;
	const struct eel_caps *caps;  /* &caps_copy: still valid after the NIC is closed */
	struct eel_caps caps_copy;
	const struct eel_clock *clk;
	int server;
	int pair;                 /* both ends on this machine, forked */
	int pair_gate;            /* --pair: a pipe, the client's word that its NIC opened (-1: none) */
	struct plan plan;
	uint64_t point;           /* measurement points so far (tokens) */

	/* control slots: one 8-byte slot per cache line, both directions */
	uint64_t *ctrl;
	struct eel_mr *ctrl_mr;
	struct eel_window peer_ctrl;
	/* data: flood payloads (source here, destination there) */
	uint8_t *data;
	size_t data_len;
	struct eel_mr *data_mr;
	struct eel_window peer_data;

	volatile uint64_t *limit;  /* --pair: a shared cache-line pair for -t limit */
	uint32_t sig_seq;          /* signature: requests issued in this phase (the client) */
	int cpu;                   /* this end's core, -1 if not pinned */
	const char *uri;           /* this end's NIC as given (-d) */
};

enum ctrl_slot {
	SLOT_PING = 0,     /* ping-pong: client -> server */
	SLOT_PONG = 1,     /* ping-pong: server -> client */
	SLOT_REPLY = 2,    /* flood/overlap: the receiver's final reply */
	SLOT_DONE = 3,     /* signature/bulk: the client is done with a phase */
	SLOT_SIG_REPLY = 4,/* signature: the receiving host's replies, the newest one's number */
	CTRL_SLOTS = 8
};
#define SLOT(s, k) (&(s)->ctrl[(k) * 8])

/* Out-of-band message types of the bench (above EEL_OOB_USER). */
enum oob_type {
	OOB_PLAN = EEL_OOB_USER,
	OOB_WINDOWS,
	OOB_READY,     /* server: set up for the next point */
	OOB_DONE,      /* server: the point's outcome (struct point_done) */
	OOB_TRACES,
	OOB_COUNTERS,
	OOB_BYE,
	OOB_POINT,     /* overlap: the measuring end names the next point (struct ov_point) */
	OOB_CURVE,     /* overlap: the server's receive-side curve */
	OOB_RANK,      /* under a launcher: the connecting rank says which it is (mesh.c) */
};

struct ov_point {
	uint32_t go;   /* 0: the sweep is over (bulk: what to measure next) */
	uint32_t n;    /* messages (bulk: the size) */
	double d_ns;   /* computation per message */
	uint32_t reps; /* bulk: repetitions */
	uint32_t rsvd;
};

struct point_done {
	int32_t status;        /* 0, or a negative errno code */
	uint32_t bad_words;    /* --verify: words that did not hold what was sent */
	double value_ns;       /* a server-side measurement (o_r), per message */
	char msg[200];
};

/* main.c: one machine per run (docs/methods.md, "machine"): a short ping-pong at the run's start and end */
#define DRIFT_RUNS 3
#define DRIFT_ITERS 2000             /* or the run's own --iters, if fewer (a NIC whose round trip is ms) */
struct drift_res {
	int done;
	uint32_t iters;              /* round trips a run: DRIFT_ITERS, or the plan's iters if fewer */
	struct stat start, end;      /* RTT/2 over DRIFT_RUNS runs, each its median round trip / 2 */
	int changed;                 /* stats_differ(start, end) */
	uint32_t tests;              /* the tests that ran between (enum test_bit) */
};

/* nic_pci.c: the NIC's PCI facts and the link's payload bound */
struct nic_pci {
	int have;                        /* facts read */
	char addr[16];                   /* the NIC's PCI function, "" when none */
	char error[200];                 /* why the facts could not be read */
	struct eel_pci_facts f;
	double link_bytes_per_ns;        /* the link's raw rate after encoding; 0: no PCIe link */
	double payload_bytes_per_ns;     /* modelled: less 24 B a TLP at max_payload */
};

struct results {
	struct drift_res drift;
	struct decompose_res dec;
	struct signature_res sig;
	struct bulk_res bulk;
	struct pingpong_res pp;
	struct flood_res fl;
	struct overlap_res ov;
	struct breakdown bd;
	struct limit_res lim;
	struct sweep_res sweep;
	struct eel_counter counters[64];
	int ncounters;
	uint64_t peer_counter_values[64];
	/* involuntary context switches (getrusage's ru_nivcsw): this end's
	 * over the tests, and the server end's over its life when this program
	 * forked it (--pair; else -1). A software NIC's timer fires when its
	 * peer is off its core longer than the timer (report_table.c). */
	long preempted_here, preempted_peer;
	double wall_s;
	struct nic_pci pci;
	struct eel_nic_info nic_info;    /* what the NIC is (eel_nic_info), this end's */
	struct placement place;          /* where this end ran (placement.c) */
	struct timing timing;    /* each test's seconds, and --duration's budget (budget.h) */
};

/* ---- the parts ---- */

/* session.c */
/* The bytes of the data region a plan needs at each end (the server's budget
 * for a client's plan, --max-mem, is checked against it). */
size_t session_data_bytes(const struct plan *p);
int session_setup(struct session *s);
void session_teardown(struct session *s);
uint64_t token(struct session *s, uint32_t i);
int server_ready(struct session *s);
int client_await_ready(struct session *s);
int server_done(struct session *s, const struct point_done *d);
int client_await_done(struct session *s, struct point_done *d);
int bench_fail(const char *what);
/* Out of memory for what: one line on stderr, -1. */
int bench_oom(const char *what);
double cyc_ns(const struct session *s, double cycles);

/* progress.c: where a long run is, on stderr (a terminal, --progress or
 * EEL_PROGRESS=1), with the time left once the tests' costs are estimated */
void progress(const struct session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void progress_done(const struct session *s);
void progress_lines(void);
void progress_part(const struct timing *t, enum budget_part part);

/* machine.c */
void machine_cpu_model(char *out, size_t n);
int nic_pci_get(const struct eel_caps *c, struct nic_pci *p);
void nic_pci_model(struct nic_pci *p);
void nic_pci_link_text(const struct nic_pci *p, char *out, size_t n);

extern int verbose;
/* under a launcher: "rank 0 (host) with rank 3 (host)", said before each failure (bench_fail) */
extern char bench_who[160];

#endif
