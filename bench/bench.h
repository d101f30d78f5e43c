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
#include <eel/bus.h>

#define PLAN_VERSION 3u
#define MAX_SIZES 32
#define MAX_DEPTHS 16
#define MAX_RUNS 1000
#define OV_MAX_STEPS OVERLAP_MAX_POINTS   /* method/dmax.h */

enum test_bit {
	T_PINGPONG = 1u << 0,
	T_FLOOD = 1u << 1,
	T_OVERLAP = 1u << 2,
	T_LIMIT = 1u << 3,
	T_SIGNATURE = 1u << 4,
	T_BULK = 1u << 5,
	T_DECOMPOSE = 1u << 6,
	/* under a launcher (mpirun, srun: bench/mesh.h) */
	T_ALLPAIRS = 1u << 7,
	T_KTO1 = 1u << 8,
	T_ONE_TO_MANY = 1u << 9,
	T_BUSMODEL = 1u << 10,  /* the bus model alone against pcie-bench's figures: no NIC */
};

/* busmodel.c: the bus model beside pcie-bench's figures (data/pcie_bench.csv) */
#define BUSMODEL_ROWS 32
struct busmodel_row {
	char what[48], unit[16];
	uint64_t size;
	double paper, model, diff_pct, tolerance_pct;
	int within;
};
struct busmodel_res {
	char data[4200];          /* the figures' file */
	int n, outside;
	struct busmodel_row row[BUSMODEL_ROWS];
};
/* 0 when every figure is within its tolerance, 1 when one is not, -1 when the
 * data cannot be read (said on stderr). out: the table, or NULL. */
int busmodel_run(FILE *out, const char *data, struct busmodel_res *res);
/* -t busmodel --json FILE: its own small document (schema eel.busmodel,
 * docs/json.md); 0, or -1 said on stderr. */
int busmodel_json(const char *path, const struct busmodel_res *res, int argc, char **argv);

/* What to measure; the client sends it to the server as is. */
struct plan {
	uint32_t version;
	uint32_t tests;          /* enum test_bit */
	uint32_t iters;          /* ping-pong round trips per run (Bell et al. 2003 §4: 10,000) */
	uint32_t runs;           /* runs per measurement (Bell et al. 2003 §4: >= 10) */
	uint32_t warmup;         /* round trips before the first run */
	uint32_t flood_msgs;     /* messages per flood run, at most */
	uint32_t flood_bytes;    /* bytes per flood run, at most (large sizes send fewer) */
	uint32_t flood_runs;
	uint32_t flood_cold;     /* every flood message its own place (a cache-cold window), else a warm one reused */
	uint32_t nsizes, ndepths;
	uint32_t sizes[MAX_SIZES];
	uint32_t depths[MAX_DEPTHS];
	uint32_t overlap_msgs;   /* messages per overlap point */
	uint32_t overlap_runs;
	uint32_t overlap_sweeps; /* whole CPU-overlap sweeps per side: o_s, o_r min/median/spread */
	uint32_t verify;         /* check every delivered byte */
	uint32_t stamp_every;    /* stamped runs stamp one put in this many */
	uint32_t timeout_ms;
	uint32_t sig_max_samples;/* signature: samples per point at most (5%/95% or this) */
	uint32_t nbulk;
	uint32_t bulk_sizes[MAX_SIZES];
	uint32_t bulk_reps;      /* repetitions per bulk size (Taboada et al. 2003: 150) */
};

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

/* ---- results ---- */

struct pingpong_res {
	int done;
	double eel_ns[MAX_RUNS];         /* per run, stamps off: RTT/2 */
	double eel_stamped_ns[MAX_RUNS]; /* per run, stamps on */
	int nruns;
	struct stat eel, eel_stamped;
	/* the cost of stamping: run i with stamps over run i without (they
	 * alternate), less 1: a drift in the machine's speed touches both */
	struct stat stamp_cost;
};

struct flood_point {
	uint32_t size, q, msgs;
	struct stat t;         /* ns per message over the runs */
	double *run;           /* ns per message of each run, in the order run */
	int nrun;
};

struct flood_res {
	int done;
	struct flood_point *pt;
	int npt;
	double g_ns;           /* best 8-byte gap over queue depths (Bell et al. 2003 Fig. 6) */
	uint32_t g_q;
	double G_ns_per_byte;  /* per-byte gap (Bell et al. 2003 §4.2): least squares over the bandwidth-bound sizes */
	uint32_t G_q;          /* ... at the depth that gave g */
	uint32_t G_min_size;   /* the smallest size in the fit (the largest is the flood's) */
	double bw_bytes_per_ns;/* 1/G */
	double M_bytes;        /* g/G (Bell et al. 2003 §5.5) */
	/* the same run by run (run r of the largest size less run r of the
	 * smallest, at G's depth): how far G, 1/G and g/G are known */
	struct stat G_runs, bw_runs, M_runs;
};

/* struct overlap_curve: method/dmax.h */

#define MAX_SWEEPS 20
struct overlap_res {
	int done;
	struct overlap_curve send, recv;   /* the sweep whose o is the median of the sweeps */
	struct stat os_sweeps, or_sweeps;  /* o_s, o_r over the sweeps */
};

#define STAGE_PARTS 8
#define STAGE_WIRE 4                 /* NIC_TX -> NIC_RX: the one stage between the two ends */
struct breakdown {
	int done;
	int samples;                     /* stamped puts seen (sender side) */
	/* The parts this NIC tells apart (breakdown_spans): part k also covers
	 * the next span_extra[k] stages when the stamps between them are not
	 * taken (merged, never invented); absorbed[k]: inside an earlier part. */
	int spans_set;
	int span_extra[STAGE_PARTS], absorbed[STAGE_PARTS];
	char name[STAGE_PARTS][48];      /* "fetch", or "fetch+tx" for a merged part */
	char what[STAGE_PARTS][200];
	const char *const *stage_what;   /* what each of the eight stages is on this NIC */
	/* The part between the ends, measured from the start of the part before
	 * it too: where the sender's stamp comes after the receiver's (a doorbell
	 * call that returns once the frame is in: af_packet, QEMU's e1000), the
	 * two are one part. */
	double *alt;
	int nalt, inverted;
	/* What a stamp costs the path in place (breakdown.c): where traced
	 * messages choose their stamps (eel_stamp_pick), how much longer the
	 * span around it is with it than without, measured (in_place); else a
	 * stamp's cost alone. Half of it is taken off each part it bounds. */
	int chosen;                      /* the records chose their stamps */
	double *span_v[2][EEL_STAGES];   /* the span around s, raw ns: [0] without s, [1] with */
	int span_n[2][EEL_STAGES];
	double cost_ns[EEL_STAGES];      /* each stamp's cost in place, ns */
	double cost_var[EEL_STAGES];     /* the variance of that figure */
	int in_place[EEL_STAGES];        /* cost_ns measured there (else the measured ones' mean, or alone) */
	double part_unc[STAGE_PARTS];    /* 95% half-width of the part's mean, ns */
	double part_trim[STAGE_PARTS];   /* its mean less the lowest and highest tenth of samples, ns */
	int part_resolved[STAGE_PARTS];  /* its mean is beyond its uncertainty of 0 */
	double part_bound[STAGE_PARTS];  /* unresolved: it is below this, ns */
	double turn_unc, total_unc;
	int turn_resolved;
	double turn_bound;
	double q_ns;                     /* the counter's step, ns */
	double perturbation_ns;          /* the stamped rounds' RTT/2 less the unstamped EEL */
	double residual_unc_ns;          /* 95% half-width of the residual */
	double oneway_gap_ns;            /* DETECT - POST measured whole, less the one-way parts' sum */
	uint32_t nic_stamps;             /* stamps read off a NIC clock: no host cost */
	uint32_t mask;                   /* the stamps this NIC takes */
	double *v[STAGE_PARTS + 1];      /* samples per part, then of the total */
	int nv[STAGE_PARTS + 1];
	int cap;
	int have[STAGE_PARTS + 1];       /* this part (or the total) was stamped */
	struct stat part[STAGE_PARTS];   /* ns; the mean is the part's figure (means add up) */
	struct stat total;               /* ns, DETECT - POST (needs one clock at both ends) */
	/* The ping-pong's stamped rounds (breakdown_rounds): EEL is RTT/2, so the
	 * parts of one message add up to it only with each end's turnaround, the
	 * host's loop from seeing one message to posting the next. */
	struct bd_round *rounds;         /* the joined rounds (breakdown_rounds) */
	int nround, unjoined;            /* rounds joined; stamped rounds that could not be */
	int shared;                      /* the two ends stamp with one clock */
	double *rtt, *turn;              /* per round used: RTT/2, raw, and the two ends' mean turnaround (NAN: not taken) */
	int nrtt;
	struct stat round;               /* RTT/2 of the stamped rounds, raw (less EEL: the perturbation) */
	struct stat turn_st;             /* the two ends' mean turnaround */
	int have_rounds;
	int across_derived;              /* no one clock: the part between the ends is EEL less every other part */
	double cut_ns;                   /* a record or round longer than this was interrupted (0: none) */
	double eel_ref_ns;               /* EEL of the unstamped runs beside the stamped ones (0: none) */
	double stamp_alone_ns;           /* a stamp's cost alone (eel_clock) */
	int interrupted;                 /* records and rounds left out as interrupted */
	double parts_sum_ns;             /* the parts' means and the turnaround, added up */
	double residual_ns;              /* parts_sum_ns less the unstamped EEL (NAN: not separable) */
};

#define MAX_ROUNDS 65536
/* One stamped ping-pong round, both messages' records joined (each the
 * sender's stamps with the receiver's) and the client's loop tops around it. */
struct bd_msg {
	uint64_t t[EEL_STAGES];          /* 0: not stamped */
	int chosen;                      /* it took only the stamps it chose (want) */
	int around, without;             /* the choice: the stamp it is about (-1: none), taken or not */
};

struct bd_round {
	struct bd_msg ab, ba;
	uint64_t a, b;
};

/* The tops of the client's ping-pong loop around each stamped round: round k
 * runs from start[k] (the loop's top before the stamped ping is posted) to
 * end[k] (the top after its pong was seen). */
struct bd_rounds {
	uint64_t *start, *end;
	int n, cap;
};

struct limit_res {
	int done;
	int floor;                       /* the NIC's floor (eel_floor), not the cache-line limit */
	double one_way_ns[MAX_RUNS];
	int nruns;
	struct stat one_way;
	double skew_lo_ns, skew_hi_ns;   /* where the peer core's TSC offset must lie */
	/* side by side: a ping-pong run of EEL right after each run of the limit,
	 * and their ratio run by run (the machine the same for both) */
	double eel_beside_ns[MAX_RUNS], ratio[MAX_RUNS];
	struct stat eel_beside, eel_over;
	char peer_nic[200];              /* floor: the server's end of the pair, its NIC's URI */
};

/* Culler et al. 1996: the communication microbenchmark's signature */
#define SIG_MAX_M 24
#define SIG_CURVES 4
struct sig_point {
	uint32_t m;          /* requests issued between the timers */
	double cost_ns;      /* mean message cost */
	double ci_ns;        /* half-width of its 95% confidence interval */
	uint32_t samples;
	int converged;       /* reached 5% at 95% confidence */
};

struct sig_curve {
	double d_ns;                 /* computation between requests, as measured: the spin asked
				      * for and its own clock reads (eel_spin_cost_cycles) */
	double d_asked_ns;           /* the spin asked for */
	int n;
	struct sig_point pt[SIG_MAX_M];
	double g_ns;                 /* steady-state cost (g at D = 0, g' beyond Idle) */
	uint32_t send_only_min_m;    /* the send-only regime begins here (not in the JSON: */
	uint32_t send_only_max_m;    /* its points are) and ends here */
	uint32_t steady_min_m;       /* the steady state begins here */
};

/* derived.c: a figure derived from others (L = RTT/2 - o_s - o_r, EEL -
 * (o_s + o_r)) as it can be stated on this NIC: not separable where the NIC
 * runs on the host's CPU (its work is in o_s and o_r), a bound where it is
 * not resolved from 0; never a negative duration. */
struct derived {
	int separable;      /* the overheads in it are the host CPU's own (overheads_separable) */
	int resolved;       /* separable, and above 0 by more than its uncertainty */
	double ns;          /* the figure when resolved, else NAN */
	double u_ns;        /* its uncertainty (half-width), NAN where not separable */
	double bound_ns;    /* separable, not resolved: the figure is at most this (NAN: no bound,
			     * its parts contradict each other) */
	const char *why;    /* not separable, or not resolved: why, one line (NULL when resolved) */
};

struct signature_res {
	int done;
	uint32_t size;
	struct sig_curve curve[SIG_CURVES];
	int ncurves;
	double rtt_ns, rtt_ci_ns;    /* one request and its reply */
	double o_s_ns, g_ns, o_r_ns;
	double L_ns;                 /* RTT/2 - o_s - o_r as computed: may be below 0, never printed as is */
	double L_u_ns;               /* its uncertainty (sig_extract) */
	struct derived L;            /* L as this NIC lets it be stated (sig_L) */
	int o_r_curves;              /* curves with D > Idle that gave o_r */
	int points, unconverged;
};

/* Culler et al. 1996 bulk transfers and seeds 003/004 echo, with the fits */
struct bulk_point {
	uint32_t size;
	struct stat t;       /* n-byte store and its completion (Culler et al. 1996 T(n)) */
	struct stat echo;    /* ping-pong RTT/2 of n bytes (Taboada et al. 2003, Dongarra & Dunigan 1997) */
	double o_s_ns;       /* o(n): send-only cost from a short D = 0 signature (NAN: no send-only regime) */
};

#define VALIDATE_SIZES 20
#define FIT_MAX_ERR 1.0      /* a fit whose error on the validation sizes is above this (100%) is not a model */
struct bulk_res {
	int done;
	struct bulk_point pt[MAX_SIZES];
	int npt;
	struct fit_line t0r;         /* T(n) = T0 + n / R */
	struct fit_line hockney;     /* echo = alpha + beta n (Dongarra & Dunigan 1997's least-squares line) */
	double n_half;               /* Dongarra & Dunigan 1997: alpha / beta, the size at half the asymptotic bandwidth */
	double err_h003;             /* Taboada et al. 2003's Hockney, t0 + n tb (t0 measured, tb the slope) */
	double lat0_ns;              /* Dongarra & Dunigan 1997: the latency, echo at the smallest size */
	double bw_1e6;               /* Dongarra & Dunigan 1997: bytes / (RTT/2) at 10^6 B (0: not measured) */
	double m003_t0, m003_ti, m003_tb;
	double err_hockney, err_003, err_loggp;
	double err_t0r;              /* T0 + n/R against T(n) at the validation sizes */
	/* each fit's error at most FIT_MAX_ERR: the curve is of the fit's form */
	int valid_t0r, valid_hockney, valid_h003, valid_003, valid_loggp;
	int have_loggp;
	int loggp_separable;         /* o_s + L + o_r separable on this NIC (the signature's L) */
	double loggp_os, loggp_L, loggp_or, loggp_G;
	uint32_t v_size[VALIDATE_SIZES];
	double v_meas[VALIDATE_SIZES];   /* echo at the validation sizes */
	double v_tmeas[VALIDATE_SIZES];  /* T(n) at the validation sizes */
	int nv;                      /* random sizes measured (VALIDATE_SIZES unless the range is too small) */
	/* n* = t0/tb (Taboada et al. 2003 3), where Hockney's line and Taboada et
	 * al.'s model differ most: from a short echo at the smallest and largest
	 * size before the sizes are drawn (the validation sizes are drawn around
	 * it), and from the fit */
	double nstar_pilot, nstar_fit;
};

/* main.c: one machine per run (issue 22): a short ping-pong at the run's start and end */
#define DRIFT_RUNS 3
#define DRIFT_ITERS 2000             /* or the run's own --iters, if fewer (a NIC whose round trip is ms) */
struct drift_res {
	int done;
	uint32_t iters;              /* round trips a run: DRIFT_ITERS, or the plan's iters if fewer */
	struct stat start, end;      /* RTT/2 over DRIFT_RUNS runs, each its median round trip / 2 */
	int changed;                 /* stats_differ(start, end) */
	uint32_t tests;              /* the tests that ran between (enum test_bit) */
};

/* the decomposition of EEL on any NIC (decompose.c) */
#define DEC_MAX 12
struct dec_part {
	char name[48];
	char what[200];
	char method[16];    /* stamped, difference, modelled, remainder */
	char how[96];
	char merged[96];    /* the stages it merges (a remainder, or a part stamped as one) */
	double ns;
	int unresolved;     /* within its uncertainty of 0: below bound_ns, never shown negative */
	double bound_ns;
	double stamped_ns;  /* a check: the exact stamp beside a difference estimate */
	double noise_ns;    /* a check: how far the difference itself is known (IQR + two steps of the counter) */
	int has_check, agrees;
	char within[48];    /* a check against a stamped part holding more than this stage
			     * (its name): agrees = the difference fits inside it */
	int isolated;       /* the two variants differ in this stage only (the stamps of both say so) */
	char why_not[200];  /* when not: what else differs, or why it cannot be told */
};

struct decompose_res {
	int done;
	double eel_ns, residual_ns;
	struct dec_part part[DEC_MAX];
	int nparts;
	struct dec_part check[4];
	int nchecks;
	double eel_put, eel_dma, eel_ereg;            /* medians over the interleaved runs of each run's median RTT/2 */
	double payload_stamped_ns;                    /* the DMA'd put's tx less the inline put's, stamped, runs interleaved */
	double fetch_diff_ns, payload_diff_ns;        /* medians of the per-run differences */
	double fetch_noise_ns, payload_noise_ns;      /* their IQR plus one counter tick */
	double eel_noise_ns;                          /* EEL's IQR over its runs plus one counter tick */
	int have_dma, have_ereg, have_dma_tx;
	int hosted;         /* eel's firmware on the host (dpdk, raw): no variants, they would time it, not the NIC */
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
};

/* bus_runs.c: the bus what-if (issue 11) */
#define MAX_BUSES 8
/* The model's transactions on the ping-pong's 8-byte put's path, ns. */
struct bus_path {
	double doorbell_ns, descriptor_ns, ack_status_ns, payload_issue_ns, payload_seen_ns, sum_ns;
};
/* One bus's whole run, for --bus LIST. */
struct bus_run {
	struct eel_bus bus;
	char uri[512];
	struct session s;
	struct results r;
};
struct json;
void bus_path(const struct eel_bus *p, struct bus_path *t);
void bus_json(struct json *j, const struct eel_bus *p);
/* total_s: the whole --bus run, the calibration included */
void bus_table(FILE *f, const struct bus_run *b, int n, double total_s);

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

/* the methods */
int pingpong_run(struct session *s, struct results *r);
/* runs x iters round trips of 8-byte puts after the plan's warm-up, stamps
 * off, each timed alone: on the client, every one's RTT/2 in ns into out */
int pingpong_each(struct session *s, uint32_t runs, uint32_t iters, double *out);
enum pp_variant {
	PP_PUT,       /* 8-byte put, payload inline where the NIC can */
	PP_PUT_DMA,   /* 8-byte put, payload read from registered memory by the NIC */
	PP_EREG,      /* 8-byte E-register store (programmed I/O, no descriptor) */
};
int pingpong_series(struct session *s, int variant, uint32_t runs, uint32_t iters, int stamps,
		    struct pingpong_res *pp, struct breakdown *bd);
#define PP_MAX_VARIANTS 3
int pingpong_series_n(struct session *s, const int *variant, int nvar, uint32_t runs, uint32_t iters, int stamps,
		      struct pingpong_res *pp, struct breakdown *bd);
int pingpong_interleaved(struct session *s, const int *variant, int nvar, uint32_t runs, uint32_t iters,
			 struct pingpong_res *pp);
int flood_run(struct session *s, struct results *r);
int overlap_run(struct session *s, struct results *r);
int signature_run(struct session *s, struct results *r);
int bulk_run(struct session *s, struct results *r);
int sig_point(struct session *s, uint32_t size, uint32_t m, double d_ns, int rtt, int host_reply,
	      struct sig_point *p);
int sig_curve(struct session *s, uint32_t size, double d_ns, uint32_t max_m, int host_reply, struct sig_curve *c,
	      struct signature_res *r);
void sig_extract(struct signature_res *r);
void sig_regimes(struct sig_curve *c);
double sig_send_only_cost(const struct sig_curve *c);
int sig_server_phase(struct session *s, int host_reply);
int sig_client_phase_end(struct session *s);
double t975(double nu);
void bulk_fit(struct bulk_res *b, const struct results *r);
int random_sizes(const struct plan *p, double nstar, uint32_t *out);
int send_only_regime(const struct sig_curve *c, double o_ns, double t_ns);
int decompose_run(struct session *s, struct results *r);
/* put, dma, ereg: the inline put, the DMA'd put and the E-register store,
 * stamped with their runs interleaved (each NULL where not measured) */
void decompose_build(struct decompose_res *d, const struct breakdown *bd, const struct breakdown *put,
		     const struct breakdown *dma, const struct breakdown *ereg, double poll_ns);

/* derived.c */
/* Are Bell et al. 2003 4.3's o_s and o_r the host CPU's own work here? Not
 * where the NIC runs on the host's CPU (EEL_CAP_NEEDS_CALLER,
 * EEL_CAP_HOSTED_FW): *why says so in one line. */
int overheads_separable(const struct eel_caps *c, const char **why);
/* raw, with uncertainty u: resolved above 0 by more than u, else a bound
 * (raw + u); none_at_zero: a figure below 0 beyond u means none (bound 0),
 * else that its parts contradict each other (no bound) */
struct derived derived_of(const struct eel_caps *c, double raw, double u, int none_at_zero);
struct derived sig_L(const struct eel_caps *c, const struct signature_res *g);
/* EEL - (o_s + o_r), Bell et al. 2003 5.2, of the three medians */
struct derived overlap_potential(const struct session *s, const struct results *r);
/* Two stats of one quantity differ beyond their spread: their medians apart
 * by more than both interquartile ranges together, and by more than 10% */
int stats_differ(const struct stat *a, const struct stat *b);
/* the names of the tests in t (enum test_bit), comma-separated, that a run runs in that order */
void test_names(uint32_t t, char *out, size_t n);

/* The overlap sweep on the measuring end; fn measures one run at computation
 * d_ns (exposed for tests, which give it a known curve). */
/* One overlap point: n messages with d_ns of computation asked for each; *t_ns
 * the time per message, *da_ns the computation per message as measured. */
typedef int (*point_fn)(struct session *s, double d_ns, uint32_t n, double *t_ns, double *da_ns);
int overlap_sweep(struct session *s, point_fn fn, struct overlap_curve *c);
int limit_run(struct session *s, struct results *r);
int breakdown_add(const struct session *s, struct breakdown *bd, const struct eel_trace *tx, int ntx,
		  const struct eel_trace *rx, int nrx);
int breakdown_rounds(const struct session *s, struct breakdown *bd, const struct bd_rounds *rd,
		     const struct eel_trace *tx, int ntx, const struct eel_trace *rx, int nrx,
		     const struct eel_trace *peer_tx, int npeer_tx, const struct eel_trace *peer_rx, int npeer_rx);
void breakdown_finish(struct breakdown *bd);
int breakdown_noisiest(const struct breakdown *bd);
void breakdown_free(struct breakdown *bd);
void breakdown_spans(struct breakdown *bd, const struct eel_caps *caps);
const char *breakdown_stage_what(const struct breakdown *bd, int k);
/* Does part k run from one end to the other (its stamps on both)? */
int part_between_ends(const struct breakdown *bd, int k);
extern const char *const stage_part_name[STAGE_PARTS];
extern const char *const stamp_key[EEL_ST_COMPLETE];

/* pattern.c: --verify payloads */
void pattern_fill(uint8_t *buf, uint32_t size, uint64_t point, uint32_t msg);
uint32_t pattern_check(const uint8_t *buf, uint32_t size, uint64_t point, uint32_t msg);
uint64_t pattern_token(uint64_t point, uint32_t msg);

/* The most buffer memory a flood point may need at each end (every message has
 * its own destination, for --verify): 8 GiB, messages up to 64 MiB. */
#define FLOOD_MAX_BYTES (1ull << 33)
/* The plan's rule for a flood or overlap run: size -> messages per run
 * (flood_bytes' worth, at least FLOOD_MIN_MSGS, at most flood_msgs). An
 * inline of the plan's, so that the session can size its buffers without
 * calling into flood.c, which calls the session. */
#define FLOOD_MIN_MSGS 128u
static inline uint32_t flood_msgs_for(const struct plan *p, uint32_t size)
{
	uint32_t n = p->flood_bytes / size;

	if (n < FLOOD_MIN_MSGS)
		n = FLOOD_MIN_MSGS;
	return n < p->flood_msgs ? n : p->flood_msgs;
}
/* one run of a flood point on this end (client: ns per message); a flood
 * from several senders to this end, and from this end to several receivers
 * (Culler et al. 1996, "Validation of communication scaling") */
#define FLOOD_MAX_PEERS 64
int flood_one(struct session *s, uint32_t size, uint32_t q, double *ns);
int flood_serve_many(struct session **s, int k, uint32_t size);
int flood_send_many(struct session **s, int k, uint32_t size, uint32_t q, double *ns);
/* g, G, bandwidth and M from the flood points (exposed for tests) */
void flood_derive(const struct session *s, struct flood_res *f);

/* report_table.c, report_json.c */
void report_table(FILE *f, const struct session *s, const struct results *r, const char *uri);
int report_json_check(const char *path);
/* schema "eel.run": 5 added the patterns of many ranks, 6 the bus what-if, 7 figures not separable
 * or not resolved are null with why (docs/json.md) */
#define SCHEMA_VERSION 7
struct json;
void report_json_head(struct json *j, int argc, char **argv);
struct out;
int report_json_finish(const char *path, struct json *j, struct out *o);
struct bus_run;
/* buses, nbus: --bus LIST's runs, each written whole into `buses` (NULL, 0: none) */
int report_json(const char *path, const struct session *s, const struct results *r, const char *uri,
		int argc, char **argv, const struct bus_run *buses, int nbus);

/* progress.c: where a long run is, on stderr (a terminal, or EEL_PROGRESS=1) */
void progress(const struct session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void progress_done(const struct session *s);

/* machine.c */
void machine_cpu_model(char *out, size_t n);
int nic_pci_get(const struct eel_caps *c, struct nic_pci *p);
void nic_pci_model(struct nic_pci *p);
void nic_pci_link_text(const struct nic_pci *p, char *out, size_t n);

/* warnings.c: what a reader must know before trusting the figures */
#define MAX_WARNINGS 16
int report_warnings(const struct session *s, const struct results *r, char w[][240], int max);

extern int verbose;
/* under a launcher: "rank 0 (host) with rank 3 (host)", said before each failure (bench_fail) */
extern char bench_who[160];

#endif
