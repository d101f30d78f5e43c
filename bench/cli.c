/* SPDX-License-Identifier: MIT */
/* bench/cli.c — eel-bench's command line: options into a plan, checked. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "bench/report/outfile.h"
#include "bench/launch/launch.h"
#include "bench/bulk.h"
#include "bench/report/safe_text.h"
#include "method/longopt.h"

#ifndef EEL_GIT
#error "EEL_GIT: tools/version.mk passes it to the objects in VERSION_SRC; list this file there"
#endif

/* --help: one screen (at most ~35 lines of 80 columns), the most used options;
 * every option, its default and range are in the man page (docs/man/eel-bench.1.md). */
static const char usage_text[] =
"usage: eel-bench [options]              both ends here (softnic), or a server\n"
"       eel-bench [options] SERVER-HOST  the client of a server on SERVER-HOST\n"
"       mpirun -np N eel-bench [options] every pair of N ranks (allpairs)\n"
"\n"
"Measures EEL, o_s, o_r, g, G (Bell et al. 2003: ping-pong, flood, CPU overlap)\n"
"on a NIC, and where the time of one put goes (the stage breakdown).\n"
"\n"
"  -d, --device URI   the NIC (default softnic): softnic[:inline|:thread][?opts],\n"
"                     verbs:<ibdev>[:port], dpdk:<port>, raw:<pci-address>\n"
"  -t, --test LIST    pingpong,flood,overlap,signature,bulk,decompose,limit or\n"
"                     all (default all); busmodel; under mpirun or srun:\n"
"                     allpairs (default), k-to-1, 1-to-many\n"
"      --pair         both ends on this machine (the default for softnic)\n"
"      --server       wait for a client (the default without a host)\n"
"  -p, --port N       TCP port of the out-of-band channel (default 18600)\n"
"  -n, --iters N      ping-pong round trips per run (default 10000)\n"
"  -r, --runs N       runs per ping-pong and flood point (default 10)\n"
"      --sizes LIST   flood sizes in bytes: A..B or A,B,C (default 8..131072)\n"
"  -s SIZE, -a        perftest's size sweep: latency and Gb/s at SIZE, or 2..2^23\n"
"      --depths LIST  flood queue depths (default 1..64)\n"
"      --bus LIST     the tests once per bus, side by side (none,pcie-gen3x8,..)\n"
"      --verify       check every delivered byte\n"
"      --cpu A[,B]    pin this end to core A (with --pair the server to B)\n"
"      --json FILE    also write the results as JSON (--csv FILE: as CSV)\n"
"      --quick        a run of seconds (fewer repetitions); --duration S: fit S s\n"
"      --eal \"ARGS\"   arguments for DPDK's EAL (dpdk: ports)\n"
"  -q, --quiet        no table, only errors (with --json)\n"
"  -v, --verbose      the curves too: g per queue depth, flood points, overlap\n"
"  -V, --version      the release and the git commit of this build\n"
"  -h, --help\n"
"\n"
"More options (flood, overlap, signature, bulk, stamps, timeouts, URI options):\n"
"Full reference: man eel-bench (or docs/man/eel-bench.1.md)\n";

/* What this build lacks of the optional parts (the top Makefile's
 * "Optional dependencies"), one line each; nothing when it has them all. */
static void usage_lacks(FILE *f)
{
	int built;
	const char *name;

	for (int i = 0; (name = eel_backend_name(i, &built)); i++)
		if (!built)
			fprintf(f, "This build lacks the %s backend: run `sudo tools/setup %s`, then make.\n", name, name);
	if (launch_missing())
		fprintf(f, "This build lacks launched mode (mpirun, srun): run `sudo tools/setup mpi`, then make.\n");
}

void cli_usage(FILE *f)
{
	fputs(usage_text, f);
	usage_lacks(f);
}

/* One line naming the problem and the fix, then exit 2. */
static void bad(const char *fmt, const char *arg, const char *fix)
{
	char safe[256];

	fprintf(stderr, "eel-bench: ");
	fprintf(stderr, fmt, arg ? safe_text(arg, safe, sizeof(safe)) : "");
	fprintf(stderr, "%s%s\n", fix ? ": " : "", fix ? fix : "");
	exit(2);
}

/* --cpu's cores, each one this process may run on (its affinity, as
 * taskset or a batch system set it): refused with the options, where a core
 * outside it failed at the pinning, after the pair had started (the second
 * end's failure then broke the first's pipe). */
static void check_cpus(const struct cli *c)
{
	cpu_set_t allowed;
	char list[128] = "", core[16];
	size_t n = 0;

	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		return;
	for (int k = 0; k < 2; k++) {
		if (c->cpu[k] < 0 || CPU_ISSET(c->cpu[k], &allowed))
			continue;
		/* the cores it may use, as ranges: "0-1", "0,2-5" */
		for (int i = 0; i < CPU_SETSIZE && n + 12 < sizeof(list); i++) {
			int j = i;

			if (!CPU_ISSET(i, &allowed))
				continue;
			while (j + 1 < CPU_SETSIZE && CPU_ISSET(j + 1, &allowed))
				j++;
			if (j > i)
				n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%d-%d", n ? "," : "", i, j);
			else
				n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%d", n ? "," : "", i);
			i = j;
		}
		snprintf(core, sizeof(core), "%d", c->cpu[k]);
		fprintf(stderr, "eel-bench: --cpu: this process may not run on core %s: give cores it may use (%s)\n",
			core, list);
		exit(2);
	}
}

static uint64_t number(const char *opt, const char *s, uint64_t min, uint64_t max)
{
	char *end, fix[96];
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	snprintf(fix, sizeof(fix), "give %s a whole number from %llu to %llu", opt, (unsigned long long)min,
		 (unsigned long long)max);
	if (errno == ERANGE || (!errno && !*end && s[0] != '-' && *s && (v < min || v > max))) {
		char what[320], safe[200];

		snprintf(what, sizeof(what), "%s %s is out of range", opt, safe_text(s, safe, sizeof(safe)));
		bad("%s", what, fix);
	}
	if (errno || end == s || *end || s[0] == '-' || s[0] == '+' || isspace((unsigned char)s[0])) {
		char what[320], safe[200];

		snprintf(what, sizeof(what), "%s: '%s' is not a whole number", opt,
			 *s ? safe_text(s, safe, sizeof(safe)) : "");
		bad("%s", what, fix);
	}
	return v;
}

/* "A..B" (powers of two from A to B) or "A,B,C". */
static uint32_t list(const char *opt, const char *s, uint32_t *out, uint32_t cap, uint64_t min,
		     uint64_t max, int mult8)
{
	const char *dots = strstr(s, "..");
	uint32_t n = 0, step = strcmp(opt, "--bulk-sizes") ? 2 : 4; /* a range's values: A, 2A, 4A, ... */
	char buf[256], msg[96];

	snprintf(msg, sizeof(msg), "%s takes A..B or A,B,C", opt);
	if (strlen(s) >= sizeof(buf))
		bad("%s: the list is too long (over 255 characters)", opt, "give at most 32 values");
	if (dots) {
		uint64_t a, b;

		if (dots == s || !dots[2]) {
			char what[320], safe[256];

			snprintf(what, sizeof(what), "%s %s: a range needs both ends", opt, safe_text(s, safe, sizeof(safe)));
			bad("%s", what, "write it A..B, e.g. 8..131072");
		}
		snprintf(buf, sizeof(buf), "%.*s", (int)(dots - s), s);
		a = number(opt, buf, min, max);
		b = number(opt, dots + 2, min, max);
		if (a > b)
			bad("%s: the range goes downwards", opt, "write it low..high");
		for (uint64_t v = a; v <= b && n < cap; v *= step)
			out[n++] = (uint32_t)v;
		/* the range's end is one of its values: 8..100 was 8..64, 100 left out unsaid */
		if (out[n - 1] != b) {
			char what[160], fix[160];

			snprintf(what, sizeof(what), "%s %.100s: %llu is not %llu times a power of %u", opt, s,
				 (unsigned long long)b, (unsigned long long)a, step);
			if ((uint64_t)out[n - 1] * step <= max)
				snprintf(fix, sizeof(fix), "write %llu..%u or %llu..%llu, or list the values A,B,C",
					 (unsigned long long)a, out[n - 1], (unsigned long long)a,
					 (unsigned long long)out[n - 1] * step);
			else
				snprintf(fix, sizeof(fix), "write %llu..%u, or list the values A,B,C",
					 (unsigned long long)a, out[n - 1]);
			bad("%s", what, fix);
		}
	} else {
		if (s[0] == ',' || strstr(s, ",,") || (*s && s[strlen(s) - 1] == ','))
			bad("%s: an empty value in the list", opt, "separate the values by one comma, e.g. 8,64,4096");
		snprintf(buf, sizeof(buf), "%s", s);
		for (char *t = strtok(buf, ","); t; t = strtok(NULL, ",")) {
			if (n == cap)
				bad("%s: too many values", opt, "give at most 32");
			out[n++] = (uint32_t)number(opt, t, min, max);
		}
		for (uint32_t i = 1; i < n; i++)
			if (out[i] <= out[i - 1])
				bad("%s: values must grow", opt, "list them from small to large, each once");
	}
	if (!n)
		bad("%s", msg, NULL);
	for (uint32_t i = 0; mult8 && i < n; i++)
		if (out[i] % 8) {
			char v[64];

			snprintf(v, sizeof(v), "%s: size %u", opt, out[i]);
			bad("%s is not a multiple of 8", v,
			    "sizes are multiples of 8 bytes (Bell et al. 2003 uses 8 B .. 128 KB, powers of two)");
		}
	return n;
}

static uint32_t tests(const char *s)
{
	char buf[256];
	uint32_t t = 0;

	if (strlen(s) >= sizeof(buf))
		bad("-t: the list is too long (%s)", "over 255 characters", "name each test once");
	snprintf(buf, sizeof(buf), "%s", s);
	for (char *w = strtok(buf, ","); w; w = strtok(NULL, ",")) {
		if (!strcmp(w, "pingpong"))
			t |= T_PINGPONG;
		else if (!strcmp(w, "flood"))
			t |= T_FLOOD;
		else if (!strcmp(w, "overlap"))
			t |= T_OVERLAP;
		else if (!strcmp(w, "limit"))
			t |= T_LIMIT;
		else if (!strcmp(w, "signature"))
			t |= T_SIGNATURE;
		else if (!strcmp(w, "bulk"))
			t |= T_BULK;
		else if (!strcmp(w, "decompose"))
			t |= T_DECOMPOSE;
		else if (!strcmp(w, "allpairs"))
			t |= T_ALLPAIRS;
		else if (!strcmp(w, "k-to-1"))
			t |= T_KTO1;
		else if (!strcmp(w, "1-to-many"))
			t |= T_ONE_TO_MANY;
		else if (!strcmp(w, "busmodel"))
			t |= T_BUSMODEL;
		else if (!strcmp(w, "sweep"))
			t |= T_SWEEP;
		else if (longopt_all_digits(w))
			bad("-t %s: eel's -t names tests", w, "perftest's -t N is its send queue depth: eel's flood "
			    "depths are --depths LIST (the size sweep floods at the deepest)");
		else if (!strcmp(w, "all"))
			t |= TESTS_ALL | T_ALL;
		else
			bad("unknown test '%s'", w, "use pingpong, flood, overlap, limit, signature, bulk, decompose, busmodel, sweep or all (under mpirun or srun: allpairs, k-to-1, 1-to-many)");
	}
	if (!t)
		bad("-t '%s' names no test", s, "use pingpong, flood, overlap, limit, signature, bulk, decompose, busmodel, sweep or all (under mpirun or srun: allpairs, k-to-1, 1-to-many)");
	return t;
}

/* -s SIZE: the size sweep at one size, 1 byte to 8 MiB (perftest -a's
 * largest); at 8 bytes or more a multiple of 8, whose last 8 bytes are its
 * mark (bench/verify.h). */
static void sweep_size(struct plan *p, const char *s)
{
	uint32_t v = (uint32_t)number("-s", s, 1, SWEEP_MAX_SIZE);

	if (v >= 8 && v % 8)
		bad("-s %s: a size of 8 bytes or more must be a multiple of 8", s,
		    "give 1 to 7 bytes, or a multiple of 8 (-a's sizes are the powers of two from 2 to 8388608)");
	p->sweep_sizes[0] = v;
	p->nsweep = 1;
}

/* A bus's preset by its current name (bus_preset.c keeps "membus", the old
 * name of membus-local, as a name of its own). */
static const char *bus_preset_name(const char *w)
{
	return strcmp(w, "membus") ? w : "membus-local";
}

/* --bus A,B,C: bus presets or preset files, each once; checked when opened. */
static void bus_list(struct cli *c, const char *s)
{
	if (strlen(s) >= sizeof(c->bus_list))
		bad("--bus: the list is too long (%s)", "over 255 characters", "name at most 8 buses");
	if (s[0] == ',' || strstr(s, ",,") || (*s && s[strlen(s) - 1] == ','))
		bad("--bus %s: an empty name in the list", s, "separate the buses by one comma, e.g. none,pcie-gen3x8");
	snprintf(c->bus_list, sizeof(c->bus_list), "%s", s);
	c->nbus = 0;
	for (char *w = strtok(c->bus_list, ","); w; w = strtok(NULL, ",")) {
		if (c->nbus == MAX_BUSES)
			bad("--bus: more than %s buses", "8", "compare at most 8 at a time");
		for (int i = 0; i < c->nbus; i++)
			if (!strcmp(bus_preset_name(c->buses[i]), bus_preset_name(w)))
				bad(strcmp(c->buses[i], w) ? "--bus: '%s' is named twice (membus is membus-local's old name)"
							   : "--bus: '%s' is named twice", w, "name each bus once");
		/* pasted into the NIC's URI as bus=NAME: an & ? = # or % in it would
		 * add options of its own (none&drop=0.2: a lossy wire called no bus) */
		if (strpbrk(w, "&?=#%") || strpbrk(w, " \t\r\n"))
			bad("--bus '%s': a bus is a preset's name or a preset file's path, without & ? = # %% or spaces", w,
			    "give URI options to the NIC's URI (softnic:inline?drop=0.2), bus parameters in a preset file");
		c->buses[c->nbus++] = w;
	}
	if (!c->nbus)
		bad("--bus '%s' names no bus", s, "e.g. --bus none,pcie-gen3x8,pcie-gen5x16,membus,cxl");
}

#define PATTERNS (T_ALLPAIRS | T_KTO1 | T_ONE_TO_MANY)

/* Under a launcher every rank is an end of N - 1 pairs: no host, no server,
 * and the patterns only. */
static void launched_checks(struct cli *c)
{
	struct plan *p = &c->plan;

	if (launch_missing())
		bad("%s", launch_missing(), NULL);
	if (!c->tests_given)
		p->tests = T_ALLPAIRS;
	if (p->tests & ~PATTERNS)
		bad("%s", "under mpirun or srun eel-bench measures the patterns: allpairs, k-to-1, 1-to-many",
		    "give -t with those, or run eel-bench without a launcher for one pair's tests");
	if (c->host || c->server || c->pair)
		bad("%s", "under mpirun or srun the ranks find each other through PMIx", "drop the host, --server and --pair");
	if (c->serial && !(p->tests & T_ALLPAIRS))
		bad("%s", "--serial is allpairs'", "add -t allpairs or drop --serial");
	if (p->depths[p->ndepths - 1] > p->flood_msgs)
		bad("%s", "a queue depth is larger than --flood-msgs", "lower --depths or raise --flood-msgs");
	if (c->quiet && !c->json)
		bad("%s", "--quiet prints nothing", "give --json FILE to keep the results");
	if (c->csv)
		bad("%s", "--csv under mpirun or srun: the patterns' figures are in --json", "give --json FILE instead");
	p->nsizes = 1; /* g at the smallest size */
}

enum { O_PAIR = 256, O_SERVER, O_WARMUP, O_SIZES, O_DEPTHS, O_FMSGS, O_FBYTES, O_FRUNS, O_FMEM, O_OMSGS,
       O_ORUNS, O_OSWEEPS, O_VERIFY, O_STAMP, O_CPU, O_TIMEOUT, O_JSON, O_EAL, O_SIGS, O_BSIZES, O_BREPS,
       O_SERIAL, O_FLAGK, O_BUSDATA, O_BUS, O_BIND, O_MAXMEM, O_CSV, O_DURATION, O_QUICK, O_PROGRESS };

/* What the command line gave that the plan's figures follow from after it is read. */
struct given {
	int flood_runs;       /* --flood-runs (0: not given) */
	int runs, flood_msgs; /* --runs, --flood-msgs were given */
	int64_t stamp_every;  /* --stamp-every (-1: not given) */
	int iters;            /* -n was given */
	int one_size, all_sizes; /* -s SIZE, -a: the size sweep */
	int duration;         /* --duration was given */
};

/* The plan and options when the command line says nothing. */
static void defaults(struct cli *c)
{
	struct plan *p = &c->plan;

	memset(c, 0, sizeof(*c));
	c->uri = "softnic";
	c->port = 18600;
	c->cpu[0] = c->cpu[1] = -1;
	p->version = PLAN_VERSION;
	p->tests = TESTS_ALL | T_ALL;
	p->iters = 10000;
	p->runs = 10;
	p->warmup = 1000;
	p->flood_msgs = 10000;
	p->flood_bytes = 16u << 20;
	p->overlap_msgs = 2000;
	p->overlap_runs = 5;
	p->overlap_sweeps = 3;
	p->timeout_ms = 10000;
	p->nsizes = list("--sizes", "8..131072", p->sizes, MAX_SIZES, 8, 1u << 30, 1);
	p->ndepths = list("--depths", "1..64", p->depths, MAX_DEPTHS, 1, 4096, 0);
	p->nbulk = list("--bulk-sizes", "8,16,64,256,1024,4096,16384,65536,262144,1048576", p->bulk_sizes,
			MAX_SIZES, 8, 1u << 26, 1);
	p->bulk_reps = 150;
	p->sig_max_samples = 500;
	p->sweep_iters = SWEEP_ITERS;
	p->sweep_msgs = SWEEP_MSGS;
	c->flag_k = 3;
	c->max_mem = MAX_MEM_DEFAULT;
	c->launched = launch_detected();
}

/* --quick: the plan's defaults cut to a run of seconds on the software NIC
 * (README: measured on a shared 2-core VM), each still the papers' method:
 * 10 ping-pong runs of 2,000 round trips (not 10,000); the flood at 8 sizes
 * (8 B .. 128 KiB, every second power of two: not 15) and
 * q = 1, 8, 64 (not 1..64), 1,000 messages (not 10,000), 5 runs a point; one
 * overlap sweep of 3 runs of 500 messages; the signature's points one batch
 * of 50 samples within 20 ms (not up to 500 within 250 ms), bursts up to 256
 * (not 4 x the send queue, 1024 on softnic); bulk at 5 sizes
 * (8 B .. 256 KiB, not 10 up to 1 MiB), 30 repetitions (not 150). Options
 * after it override it. */
static void quick(struct cli *c, struct given *g)
{
	struct plan *p = &c->plan;

	c->quick = 1;
	p->iters = 2000;
	p->warmup = 200;
	p->nsizes = list("--sizes", "8,32,128,512,2048,8192,32768,131072", p->sizes, MAX_SIZES, 8, 1u << 30, 1);
	p->ndepths = list("--depths", "1,8,64", p->depths, MAX_DEPTHS, 1, 4096, 0);
	p->flood_msgs = 1000;
	g->flood_runs = 5;
	p->overlap_msgs = 500;
	p->overlap_runs = 3;
	p->overlap_sweeps = 1;
	p->sig_max_samples = 50;
	p->sig_point_ms = 20;
	p->sig_max_m = 256;
	p->nbulk = list("--bulk-sizes", "8,64,1024,16384,262144", p->bulk_sizes, MAX_SIZES, 8, 1u << 26, 1);
	p->bulk_reps = 30;
}

/* One option from getopt_long, into c (what follows from it later, into g). */
static void option(struct cli *c, struct given *g, int o, char **argv)
{
	struct plan *p = &c->plan;

	switch (o) {
	case 'd': c->uri = optarg; break;
	case 't': p->tests = tests(optarg); c->tests_given = 1; break;
	case O_PAIR: c->pair = 1; break;
	case O_BUSDATA: c->bus_data = optarg; break;
	case O_BUS: bus_list(c, optarg); break;
	case O_SERVER: c->server = 1; break;
	case 'p': c->port = (uint16_t)number("--port", optarg, 1, 65535); break;
	case 'n': p->iters = (uint32_t)number("--iters", optarg, 1, 100000000); g->iters = 1; break;
	case 's': sweep_size(p, optarg); g->one_size = 1; break;
	case 'a': g->all_sizes = 1; break;
	case 'r': p->runs = (uint32_t)number("--runs", optarg, 1, MAX_RUNS / 2); g->runs = 1; break;
	case O_WARMUP: p->warmup = (uint32_t)number("--warmup", optarg, 0, 100000000); break;
	case O_SIZES: p->nsizes = list("--sizes", optarg, p->sizes, MAX_SIZES, 8, 1u << 30, 1); break;
	case O_DEPTHS: p->ndepths = list("--depths", optarg, p->depths, MAX_DEPTHS, 1, 4096, 0); break;
	case O_FMSGS: p->flood_msgs = (uint32_t)number("--flood-msgs", optarg, 2, 100000000); g->flood_msgs = 1;
		break;
	case O_FBYTES: p->flood_bytes = (uint32_t)number("--flood-bytes", optarg, 8, 1u << 31); break;
	case O_FRUNS: g->flood_runs = (int)number("--flood-runs", optarg, 1, MAX_RUNS); break;
	case O_FMEM:
		if (strcmp(optarg, "warm") && strcmp(optarg, "cold"))
			bad("--flood-memory %s: not warm or cold", optarg, "give --flood-memory warm or cold");
		p->flood_cold = !strcmp(optarg, "cold");
		break;
	case O_OMSGS: p->overlap_msgs = (uint32_t)number("--overlap-msgs", optarg, 16, 10000000); break;
	case O_ORUNS: p->overlap_runs = (uint32_t)number("--overlap-runs", optarg, 1, MAX_RUNS); break;
	case O_OSWEEPS: p->overlap_sweeps = (uint32_t)number("--overlap-sweeps", optarg, 1, MAX_SWEEPS); break;
	case O_VERIFY: p->verify = 1; break;
	case O_SIGS: p->sig_max_samples = (uint32_t)number("--sig-samples", optarg, 50, 100000); break;
	case O_BSIZES: p->nbulk = list("--bulk-sizes", optarg, p->bulk_sizes, MAX_SIZES, 8, 1u << 26, 1); break;
	case O_BREPS: p->bulk_reps = (uint32_t)number("--bulk-reps", optarg, 3, 1024); break;
	case O_STAMP: g->stamp_every = (int64_t)number("--stamp-every", optarg, 0, 1u << 20); break;
	case O_CPU: {
		char *comma = strchr(optarg, ',');

		if (comma)
			*comma = 0;
		c->cpu[0] = (int)number("--cpu", optarg, 0, 4095);
		if (comma)
			c->cpu[1] = (int)number("--cpu", comma + 1, 0, 4095);
		break;
	}
	case O_TIMEOUT: p->timeout_ms = (uint32_t)number("--timeout", optarg, 1, 3600) * 1000; break;
	case O_JSON: c->json = optarg; break;
	case O_CSV: c->csv = optarg; break;
	case O_EAL: c->eal = optarg; break;
	case O_SERIAL: c->serial = 1; break;
	case O_FLAGK: c->flag_k = (double)number("--flag-k", optarg, 1, 100); break;
	case O_BIND: c->bind = optarg; break;
	case O_MAXMEM: c->max_mem = number("--max-mem", optarg, 1u << 20, FLOOD_MAX_BYTES * 2); break;
	case O_DURATION: p->budget_ms = (uint32_t)number("--duration", optarg, 1, 86400) * 1000; g->duration = 1; break;
	case O_QUICK: break; /* read before the others (cli_parse) */
	case O_PROGRESS: progress_lines(); break;
	case 'q': c->quiet = 1; break;
	case 'v': verbose = 1; break;
	case 'V': printf("eel-bench %s (git %s)\n", EEL_VERSION, EEL_GIT); exit(0);
	case 'h': cli_usage(stdout); exit(0);
	case ':': bad("option %s needs a value", argv[optind - 1], "see eel-bench --help");
		break;
	default: bad("unknown option '%s'", argv[optind - 1], "see eel-bench --help");
	}
}

/* -s and -a choose the size sweep, alone unless -t names other tests too (a
 * perftest user's `-a` is the sweep, `-s 4096` latency and bandwidth at
 * 4096 B); -t sweep alone is -a. -n, when given, is perftest's: the sweep's
 * round trips and flood messages per size. */
static void sweep_select(struct cli *c, const struct given *g)
{
	struct plan *p = &c->plan;

	if (g->one_size && g->all_sizes)
		bad("%s", "-s SIZE and -a", "give one: -s for one size, -a for every power of two from 2 to 8388608 bytes");
	if (g->one_size || g->all_sizes)
		p->tests = c->tests_given ? p->tests | T_SWEEP : T_SWEEP;
	if (!g->one_size)
		for (p->nsweep = 0; SWEEP_MIN_SIZE << p->nsweep <= SWEEP_MAX_SIZE; p->nsweep++)
			p->sweep_sizes[p->nsweep] = SWEEP_MIN_SIZE << p->nsweep;
	if (g->iters)
		p->sweep_iters = p->sweep_msgs = p->iters;
}

/* size into the plan's flood sizes, in its place, unless it is there or
 * there is no room. */
static void size_add(struct plan *p, uint32_t size)
{
	uint32_t k = 0;

	while (k < p->nsizes && p->sizes[k] < size)
		k++;
	if ((k < p->nsizes && p->sizes[k] == size) || p->nsizes == MAX_SIZES)
		return;
	memmove(&p->sizes[k + 1], &p->sizes[k], (p->nsizes - k) * sizeof(p->sizes[0]));
	p->sizes[k] = size;
	p->nsizes++;
}

/* The figures that follow from what was given: --bus's smaller runs,
 * --flood-runs, --stamp-every. */
static void derive(struct cli *c, struct given *g)
{
	struct plan *p = &c->plan;

	/* --bus: every put pays its descriptor's read round trip (~0.5 us on
	 * PCIe), and the flood's 10 runs of 10,000 puts per point took two of the
	 * three minutes a bus took here: 5 runs of 2,000 unless asked */
	if (c->nbus && !g->runs)
		p->runs = 5;
	if (c->nbus && !g->flood_msgs)
		p->flood_msgs = 2000;
	/* --bus: the table's bandwidth row is the flood's point at 64 KiB */
	if (c->nbus)
		size_add(p, BUS_BW_SIZE);
	p->flood_runs = g->flood_runs ? (uint32_t)g->flood_runs : p->runs;
	/* EEL is of the runs without stamps, so stamping often costs it
	 * nothing: ~128 stamped rounds a run (a burst's last put gives the
	 * round), each of the ~18 choices of stamps (stamp_pick.c) on ~70 rounds
	 * in the default 10 runs; a run's traced puts stay within the
	 * library's 1024 trace records (a burst of 4 in every iters / 128). */
	if (g->stamp_every < 0) {
		g->stamp_every = (int64_t)p->iters / 128;
		g->stamp_every = g->stamp_every < 8 ? 8 : g->stamp_every > 512 ? 512 : g->stamp_every;
	}
	p->stamp_every = (uint32_t)g->stamp_every;
	sweep_select(c, g);
}

/* The fits need more sizes than parameters (a line's 2: Culler et al. 1996,
 * Dongarra & Dunigan 1997; Taboada et al. 2003's model takes its third, t0,
 * from the smallest size) and, to be judged, VALIDATE_SIZES random sizes
 * between the smallest and largest that are none of the listed ones
 * (Taboada et al. 2003 3; random_sizes in bulk.c draws multiples of 8). A
 * shorter list gave an error of 0% or nan% on no size, as if valid. */
static void bulk_checks(const struct plan *p)
{
	uint32_t n = p->nbulk, lo = p->bulk_sizes[0], hi = p->bulk_sizes[n - 1];
	uint32_t need = n < BULK_MIN_SIZES ? BULK_MIN_SIZES : n;
	uint64_t least = lo + 8ull * (VALIDATE_SIZES + need - 1);

	if (n >= BULK_MIN_SIZES && (hi - lo) / 8 + 1 - n >= VALIDATE_SIZES)
		return;
	fprintf(stderr, "eel-bench: --bulk-sizes: %u size%s from %u to %u B: the fits need %u sizes or more, and %u "
		"multiples of 8 between the smallest and the largest, none listed, for the random sizes that judge them "
		"(Taboada et al. 2003): give %u sizes or more, the largest at least %llu B, e.g. --bulk-sizes %u,%llu,%llu\n",
		n, n == 1 ? "" : "s", lo, hi, BULK_MIN_SIZES, VALIDATE_SIZES, BULK_MIN_SIZES, (unsigned long long)least,
		lo, (unsigned long long)(lo + least) / 16 * 8, (unsigned long long)least);
	exit(2);
}

/* Options that contradict each other or this end's role; launched mode has
 * its own checks. */
static void checks(struct cli *c)
{
	struct plan *p = &c->plan;

	if (c->quick && p->budget_ms)
		bad("%s", "--quick and --duration both set how long the run takes", "give one of them");
	if ((c->quick || p->budget_ms) && (c->launched || c->server || c->nbus))
		bad("%s", "--quick and --duration cut one pair's tests, as its client plans them",
		    "give them to the client, without --bus or a launcher");
	if (c->launched) {
		launched_checks(c);
		return;
	}
	if ((p->tests & PATTERNS) && launch_missing())
		bad("%s", launch_missing(), NULL);
	if (p->tests & PATTERNS)
		bad("%s", "allpairs, k-to-1 and 1-to-many need ranks",
		    "launch eel-bench with mpirun -np N (or srun -n N --mpi=pmix)");
	if (c->serial)
		bad("%s", "--serial is allpairs' (under mpirun or srun)", "drop it");
	if (c->pair && (c->host || c->server))
		bad("%s", "--pair runs both ends here", "drop the host or --server");
	if (c->host && c->server)
		bad("%s", "a host name makes this end the client", "drop --server (it is the other end's)");
	if (!c->host && !c->server && !strncmp(c->uri, "softnic", 7))
		c->pair = 1;
	else if (!c->host && !c->pair)
		c->server = 1;
	check_cpus(c);
	if (c->pair && c->cpu[0] >= 0 && c->cpu[0] == c->cpu[1]) {
		char cores[32];

		snprintf(cores, sizeof(cores), "%d,%d", c->cpu[0], c->cpu[1]);
		bad("--cpu %s: both ends of the pair on one core take turns on it (each waits for the scheduler to "
		    "run the other: milliseconds a round trip, not a NIC's figures)", cores,
		    "give two cores, e.g. --cpu 0,1 (or one, for this end alone)");
	}
	if (c->nbus && (c->csv || (p->tests & T_SWEEP)))
		bad("%s", "--bus with --csv or the size sweep: the buses' table has neither",
		    "run the size sweep (and --csv) with one bus in the NIC's URI (-d 'softnic?bus=NAME')");
	/* --bus: by default the tests whose figures the side-by-side table has
	 * (EEL and the breakdown, g, G and the bandwidth at 64 KiB, o_s and o_r,
	 * L), not bulk, decompose or limit (bulk's megabyte puts take minutes on
	 * a bus) */
	if (c->nbus && !c->tests_given)
		p->tests = T_PINGPONG | T_FLOOD | T_OVERLAP | T_SIGNATURE;
	if (c->nbus && !c->pair)
		bad("%s", "--bus runs both ends here, each end's NIC on each bus in turn",
		    "use the software NIC with both ends on this machine (--pair, the default for softnic)");
	if (c->nbus && strstr(c->uri, "bus="))
		bad("%s", "--bus and a bus= in the NIC's URI", "give the buses to --bus only");
	if (c->json && (p->tests & T_BUSMODEL) && (p->tests & ~T_BUSMODEL))
		bad("%s", "--json with busmodel and other tests: busmodel's document (eel.busmodel) is not a run's",
		    "run -t busmodel --json FILE on its own, the other tests with another --json");
	if (c->server && c->json)
		bad("%s", "--json on the server: the server keeps no results",
		    "give --json to the client (eel-bench ... --json FILE SERVER-HOST)");
	if (c->server && c->csv)
		bad("%s", "--csv on the server: the server keeps no results",
		    "give --csv to the client (eel-bench ... --csv FILE SERVER-HOST)");
	if (c->csv && (p->tests & T_BUSMODEL))
		bad("%s", "--csv with busmodel: its figures are in its own --json document", "drop --csv");
	if ((c->bind || c->max_mem != MAX_MEM_DEFAULT) && !c->server)
		bad("%s", "--bind and --max-mem are the server's (what a client may make it do)",
		    "give them to eel-bench --server");
	if (c->server && c->quiet)
		bad("%s", "--quiet on the server: the server prints only errors anyway", "drop --quiet");
	if (p->tests & T_BULK)
		bulk_checks(p);
	for (uint32_t i = 0; i < p->ndepths; i++)
		if (p->depths[i] > p->flood_msgs)
			bad("%s", "a queue depth is larger than --flood-msgs", "lower --depths or raise --flood-msgs");
	for (uint32_t i = 0; i < p->nsizes; i++)
		if ((uint64_t)flood_msgs_for(p, p->sizes[i]) * p->sizes[i] > FLOOD_MAX_BYTES) {
			char size[16];

			snprintf(size, sizeof(size), "%u", p->sizes[i]);
			bad("a flood of %s-byte puts needs more than 8 GiB of buffers at each end", size,
			    "keep --sizes at 64 MiB (67108864) or below");
		}
	if (c->json && c->csv && out_same_file(c->json, c->csv))
		bad("--json and --csv both write %s: the second would replace the first", c->json,
		    "give each its own file (e.g. --json run.json --csv run.csv)");
	if (c->quiet && !c->json && !c->csv)
		bad("%s", "--quiet prints nothing", "give --json FILE (or --csv FILE) to keep the results");
}

/* perftest's options (linux-rdma/perftest, ib_write_lat and ib_write_bw)
 * that eel-bench has not, or has with another meaning: one line each on
 * what eel does instead. */
static const struct longopt_hint perftest_hints[] = {
	{ "--size", "did you mean -s SIZE, perftest's? the size sweep at one size; --sizes LIST is the "
		    "flood's sizes", 0 },
	{ "--all", "did you mean -a, perftest's? the size sweep, 2 to 8388608 bytes", 0 },
	{ "-q", "eel-bench's -q is --quiet, and the number would become the server's host; perftest's -q N "
		"sets its queue pairs: eel measures one connection", 1 },
	{ "--qp", "perftest's -q N sets its queue pairs: eel measures one connection (-q is --quiet)", 0 },
	{ "-D", "perftest's -D SECONDS runs for a time: eel-bench's is --duration SECONDS", 0 },
	{ "-F", "perftest's -F silences its CPU-frequency warning: eel reads its counter's rate itself, and "
		"warns in the table", 0 },
	{ "--CPU-freq", "perftest's -F silences its CPU-frequency warning: eel reads its counter's rate itself", 0 },
	{ "-x", "perftest's -x N is a RoCE GID index: eel's is the URI's, -d 'verbs:<dev>?gid_index=N'", 0 },
	{ "--gid-index", "eel's GID index is the URI's: -d 'verbs:<dev>?gid_index=N'", 0 },
	{ "-R", "perftest's -R connects through rdma_cm: eel's verbs backend uses the CM where the NIC needs "
		"it (iWARP: userlib/verbs/README.md)", 0 },
	{ "--rdma_cm", "eel's verbs backend uses the CM where the NIC needs it (iWARP)", 0 },
	{ "-c", "perftest's -c picks RC, UC or UD: eel's puts are RDMA WRITEs on an RC queue pair", 0 },
	{ "--connection", "eel's puts are RDMA WRITEs on an RC queue pair", 0 },
	{ "-I", "perftest's -I sets the inline size: eel puts inline what fits the NIC's own limit (the JSON's "
		"nic.caps.max_inline)", 0 },
	{ "--inline_size", "eel puts inline what fits the NIC's own limit (nic.caps.max_inline)", 0 },
	{ "-m", "perftest's -m sets the MTU: eel uses the port's", 0 },
	{ "--mtu", "eel uses the port's MTU", 0 },
	{ "-i", "perftest's -i picks the port: eel's is the URI's, -d verbs:<dev>:<port>", 0 },
	{ "--ib-port", "eel's port is the URI's: -d verbs:<dev>:<port>", 0 },
	{ "--ib-dev", "eel's device is -d, --device URI: -d verbs:<ibdev>", 0 },
	{ "--report_gbits", "eel-bench reports Gb/s already: the size sweep's BW average[Gb/sec]", 0 },
	{ "--report-gbits", "eel-bench reports Gb/s already: the size sweep's BW average[Gb/sec]", 0 },
	{ "-u", "perftest's -u sets the queue pair's retransmit timeout: eel keeps the NIC's own; --timeout "
		"SECONDS bounds each wait", 0 },
	{ "--qp-timeout", "eel keeps the NIC's own retransmit timeout; --timeout SECONDS bounds each wait", 0 },
	{ "-b", "perftest's -b floods both ways at once: eel's flood is one way", 0 },
	{ "--bidirectional", "eel's flood is one way", 0 },
	{ "-e", "perftest's -e sleeps on completion events: eel polls", 0 },
	{ "--events", "eel polls for completions", 0 },
	{ "-l", "perftest's -l posts lists of work requests: eel posts puts one at a time, --depths LIST in "
		"flight", 0 },
	{ "--post_list", "eel posts puts one at a time, --depths LIST in flight", 0 },
	{ "-z", "perftest's -z exchanges its setup through rdma_cm: eel's goes over TCP (-p PORT)", 0 },
	{ "--comm_rdma_cm", "eel exchanges its setup over TCP (-p PORT)", 0 },
	{ "--tx-depth", "perftest's -t N is its send queue depth: eel's flood depths are --depths LIST", 0 },
	{ NULL, NULL, 0 },
};

void cli_parse(struct cli *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "device", required_argument, 0, 'd' }, { "test", required_argument, 0, 't' },
		{ "pair", no_argument, 0, O_PAIR }, { "server", no_argument, 0, O_SERVER },
		{ "port", required_argument, 0, 'p' }, { "iters", required_argument, 0, 'n' },
		{ "runs", required_argument, 0, 'r' }, { "warmup", required_argument, 0, O_WARMUP },
		{ "sizes", required_argument, 0, O_SIZES }, { "depths", required_argument, 0, O_DEPTHS },
		{ "flood-msgs", required_argument, 0, O_FMSGS }, { "bus-data", required_argument, 0, O_BUSDATA },
		{ "bus", required_argument, 0, O_BUS },
		{ "flood-bytes", required_argument, 0, O_FBYTES },
		{ "flood-runs", required_argument, 0, O_FRUNS },
		{ "flood-memory", required_argument, 0, O_FMEM },
		{ "overlap-msgs", required_argument, 0, O_OMSGS },
		{ "overlap-runs", required_argument, 0, O_ORUNS },
		{ "overlap-sweeps", required_argument, 0, O_OSWEEPS },
		{ "verify", no_argument, 0, O_VERIFY }, { "stamp-every", required_argument, 0, O_STAMP },
		{ "sig-samples", required_argument, 0, O_SIGS },
		{ "bulk-sizes", required_argument, 0, O_BSIZES },
		{ "bulk-reps", required_argument, 0, O_BREPS },
		{ "cpu", required_argument, 0, O_CPU }, { "timeout", required_argument, 0, O_TIMEOUT },
		{ "json", required_argument, 0, O_JSON }, { "quiet", no_argument, 0, 'q' },
		{ "csv", required_argument, 0, O_CSV },
		{ "eal", required_argument, 0, O_EAL },
		{ "serial", no_argument, 0, O_SERIAL }, { "flag-k", required_argument, 0, O_FLAGK },
		{ "bind", required_argument, 0, O_BIND }, { "max-mem", required_argument, 0, O_MAXMEM },
		{ "duration", required_argument, 0, O_DURATION }, { "quick", no_argument, 0, O_QUICK },
		{ "progress", no_argument, 0, O_PROGRESS },
		{ "verbose", no_argument, 0, 'v' }, { "version", no_argument, 0, 'V' },
		{ "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 },
	};
	static const char shortopts[] = ":d:t:p:n:r:s:aqvVh";
	struct given g = { .stamp_every = -1 };
	char msg[400];
	int o;

	defaults(c);
	if (longopt_check(argc, argv, shortopts + 1, opts, perftest_hints, msg, sizeof(msg)))
		bad("%s", msg, "see eel-bench --help");
	/* --quick first: it sets the plan's defaults, which any option after overrides */
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--quick"))
			quick(c, &g);
	opterr = 0;
	while ((o = getopt_long(argc, argv, shortopts, opts, NULL)) != -1)
		option(c, &g, o, argv);
	if (optind < argc)
		c->host = argv[optind++];
	if (optind < argc)
		bad("unexpected argument '%s'", argv[optind], "eel-bench takes at most one host");
	derive(c, &g);
	checks(c);
}
