/* SPDX-License-Identifier: MIT */
/* bench/plan.h — what to measure: the plan both ends follow, and the tests it names. */
#ifndef EEL_BENCH_PLAN_H
#define EEL_BENCH_PLAN_H

#include <stdint.h>

/* 4: the ping-pong runs its tail (pingpong.c), the plan carries the size sweep (sweep.c) and --duration's budget (budget.c): both ends must follow the same runs */
#define PLAN_VERSION 4u
#define MAX_SIZES 32
#define MAX_DEPTHS 16
#define MAX_RUNS 1000
enum test_bit {
	T_PINGPONG = 1u << 0,
	T_FLOOD = 1u << 1,
	T_OVERLAP = 1u << 2,
	T_LIMIT = 1u << 3,
	T_SIGNATURE = 1u << 4,
	T_BULK = 1u << 5,
	T_DECOMPOSE = 1u << 6,
	/* under a launcher (mpirun, srun: bench/launch/mesh.h) */
	T_ALLPAIRS = 1u << 7,
	T_KTO1 = 1u << 8,
	T_ONE_TO_MANY = 1u << 9,
	T_BUSMODEL = 1u << 10,  /* the bus model alone against pcie-bench's figures: no NIC */
	T_SWEEP = 1u << 11,     /* perftest's size sweep (-s, -a): latency and bandwidth at each size */
};

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
	uint32_t nsweep;         /* the size sweep (bench/sweep.h): its sizes, */
	uint32_t sweep_sizes[MAX_SIZES];
	uint32_t sweep_iters;    /* ... round trips per size at most (perftest's -n: 1000), */
	uint32_t sweep_msgs;     /* ... flood messages per size at most (perftest's bandwidth -n: 5000) */
	uint32_t budget_ms;      /* --duration: the client sends a plan cut to it after the first ping-pong (0: none) */
	uint32_t sig_point_ms;   /* signature: a point's time budget (--quick, --duration; 0: SIG_POINT_MS) */
	uint32_t sig_max_m;      /* signature: the longest burst (--quick; 0: 4 x the send queue) */
};

#endif
