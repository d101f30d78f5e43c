/* SPDX-License-Identifier: MIT */
/* bench/cli.h — eel-bench's command line (bench/cli.c). */
#ifndef EEL_BENCH_CLI_H
#define EEL_BENCH_CLI_H

#include "bench.h"
#include "bus_runs.h"

#define T_ALL (1u << 31) /* "all" was asked: tests that cannot run here are left out quietly */
#define TESTS_ALL (T_PINGPONG | T_FLOOD | T_OVERLAP | T_LIMIT | T_SIGNATURE | T_BULK | T_DECOMPOSE)

/* A client's plan may make the server commit at most this much buffer memory
 * unless --max-mem says otherwise: 64 times what the default plan needs. */
#define MAX_MEM_DEFAULT (1ull << 30)

struct cli {
	const char *uri;
	const char *host;
	const char *json;
	const char *csv;      /* --csv FILE: the figures and the size sweep as CSV */
	const char *eal;      /* --eal: the DPDK EAL's own arguments */
	const char *bus_data; /* --bus-data: pcie-bench's figures for -t busmodel */
	char bus_list[256];   /* --bus LIST, split: buses[i] point into it */
	const char *buses[MAX_BUSES];
	int nbus;
	uint16_t port;
	int pair;
	int server;
	int quiet;
	int tests_given;
	int cpu[2];
	int launched;         /* started by mpirun or srun (PMIx in the environment): the patterns */
	int serial;           /* --serial: allpairs one pair at a time */
	double flag_k;        /* --flag-k: a pair is flagged beyond median + k x MAD */
	const char *bind;     /* --bind: the server's listening address (NULL: all) */
	uint64_t max_mem;     /* --max-mem: the most buffer memory a client's plan may make this end commit */
	int quick;            /* --quick: the preset of cli.c's quick() */
	struct plan plan;
};

/* Parse argv; on bad input print one line and exit 2. */
void cli_parse(struct cli *c, int argc, char **argv);
void cli_usage(FILE *f);
/* launched.c: eel-bench as one of the ranks of mpirun or srun; the exit status */
int launched_main(const struct cli *c, int argc, char **argv);

#endif
