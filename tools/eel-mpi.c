/* SPDX-License-Identifier: MIT */
/* tools/eel-mpi.c — eel-mpi: the MPI layer measured as Al-Tawil & Moritz
 * 2001 measure it (their Figure 2, tools/mpi/fig2.c), for the eight send
 * modes and sizes 0 .. 1 MiB, with the LogGP parameters, the protocol
 * decomposition and the two tiers of section 3.3 (tools/mpi/model.c); and
 * the blocking standard-mode ping-pong beside NetPIPE's figures
 * (--netpipe). Bell et al. 2003's parameter set (EEL, o_s, o_r, g, G, its
 * section 4) over MPI_Isend/MPI_Irecv between ranks 0 and 1
 * (tools/mpi/bell.c), and with -d URI eel's own figures on the same hosts
 * and NIC beside them (tools/mpi/eel_side.c). --json: the whole run as one
 * document (tools/mpi/report_json.c). Built with mpicc, started by mpirun or
 * srun: rank 0 measures with one rank of its node and one of another node
 * where there is one.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <eel/eel.h>

#ifndef EEL_GIT
#error "EEL_GIT: tools/version.mk passes it to the objects in VERSION_SRC; list this file there"
#endif

#include "mpi/bell.h"
#include "mpi/eel_side.h"
#include "mpi/fig2.h"
#include "mpi/model.h"
#include "mpi/report.h"
#include "mpi/wtime.h"
#include "method/longopt.h"

#define MAX_SIZE (1u << 20)

struct opts {
	struct fig2_opts f;
	uint32_t size[MPI_MAX_SIZES];
	int nsizes;
	const char *netpipe;
	struct bell_opts b;
	struct eel_side_opts e;
	const char *json;
};

/* --help: one screen (at most ~35 lines of 80 columns); the full reference is
 * the man page (docs/man/eel-mpi.1.md). */
static const char usage[] =
"usage: mpirun -np N eel-mpi [options]   (N >= 2; srun -n N --mpi=pmix eel-mpi)\n"
"\n"
"MPI's eight send modes timed as Al-Tawil & Moritz 2001's Figure 2 (timer11/12\n"
"on the sender, timer21/22 on the receiver), LogGP from them, the protocols\n"
"(formulas (1)-(7)), intra- and inter-node tiers (LoGH{sSP}).\n"
"\n"
"  --sizes A,B,...    message sizes in bytes, 0 .. 1048576\n"
"                     (default 0,8,64,512,4096,32768,262144,1048576)\n"
"  --reps N           timed repetitions per mode and size (default 600)\n"
"  --warm N           untimed ones before (default 10)\n"
"  --delta-us N       the sender's wait before its receive, + 2 ns a byte (20)\n"
"  --pp-iters N       blocking ping-pong round trips per run (default 1000)\n"
"  --netpipe FILE     NetPIPE's output (NPopenmpi -o FILE) on the same ranks\n"
"\n"
"Bell et al. 2003's set (EEL, o_s, o_r, g, G) over MPI_Isend/MPI_Irecv between\n"
"ranks 0 and 1, with eel-bench's counts and their names:\n"
"  --iters N          ping-pong round trips per run (default 10000)\n"
"  --runs N           runs per ping-pong and flood point (default 10)\n"
"  --warmup N         round trips before the first run (default 1000)\n"
"  --flood-sizes L    flood sizes A,B,C ascending (default 8,16,..,131072)\n"
"  --depths L         flood queue depths A,B,C (default 1,2,4,8,16,32,64)\n"
"  --flood-msgs N, --flood-bytes N, --overlap-msgs N, --overlap-runs N,\n"
"  --overlap-sweeps N as eel-bench's (defaults 10000, 16777216, 2000, 5, 3)\n"
"  -d, --device URI   eel-bench's own figures on the same hosts and NIC first\n"
"  --eel-bench PATH   the eel-bench to run (default: the one beside eel-mpi)\n"
"  --eel-timeout SEC  stop eel-bench after SEC s (default 600)\n"
"  --json FILE        the whole run as JSON (schema eel.mpi, docs/launch.md)\n"
"  -V, --version      the release and the git commit of this build\n"
"  -h, --help\n"
"\n"
"Full reference: man eel-mpi (or docs/man/eel-mpi.1.md)\n";

/* One line naming the problem and the fix (rank 0 says it), then out. */
static void die(int rank, const char *fmt, const char *arg)
{
	if (rank == 0) {
		fprintf(stderr, "eel-mpi: ");
		fprintf(stderr, fmt, arg);
		fprintf(stderr, "\n");
	}
	MPI_Finalize();
	exit(2);
}

static long num(int rank, const char *opt, const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max) {
		char msg[160];

		snprintf(msg, sizeof(msg), "%s: '%%s' is not a whole number from %ld to %ld", opt, min, max);
		die(rank, msg, s);
	}
	return v;
}

/* A,B,C, each from min to max, ascending: at most max_n */
static int parse_list(int rank, const char *opt, const char *arg, uint32_t *v, int max_n, long min, long max)
{
	char buf[256], lim[16];
	int n = 0;

	if (strlen(arg) >= sizeof(buf))
		die(rank, "%s: the list is too long (over 255 characters)", opt);
	snprintf(buf, sizeof(buf), "%s", arg);
	snprintf(lim, sizeof(lim), "%d", max_n);
	for (char *t = strtok(buf, ","); t; t = strtok(NULL, ",")) {
		if (n == max_n) {
			char msg[96];

			snprintf(msg, sizeof(msg), "%s: at most %%s values", opt);
			die(rank, msg, lim);
		}
		v[n] = (uint32_t)num(rank, opt, t, min, max);
		if (n && v[n] <= v[n - 1])
			die(rank, "%s: list them from small to large, each once", opt);
		n++;
	}
	if (!n)
		die(rank, "%s names no value: give A,B,C", opt);
	return n;
}

static void parse(int rank, int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "sizes", required_argument, 0, 's' }, { "reps", required_argument, 0, 'r' },
		{ "warm", required_argument, 0, 'w' }, { "delta-us", required_argument, 0, 'u' },
		{ "pp-iters", required_argument, 0, 'i' }, { "netpipe", required_argument, 0, 'n' },
		{ "iters", required_argument, 0, 'I' }, { "runs", required_argument, 0, 'R' },
		{ "warmup", required_argument, 0, 'W' }, { "flood-sizes", required_argument, 0, 'S' },
		{ "depths", required_argument, 0, 'Q' }, { "flood-msgs", required_argument, 0, 'M' },
		{ "flood-bytes", required_argument, 0, 'B' }, { "overlap-msgs", required_argument, 0, 'O' },
		{ "overlap-runs", required_argument, 0, 'P' }, { "overlap-sweeps", required_argument, 0, 'X' },
		{ "device", required_argument, 0, 'D' }, { "eel-bench", required_argument, 0, 'E' },
		{ "eel-timeout", required_argument, 0, 'T' }, { "json", required_argument, 0, 'J' },
		{ "version", no_argument, 0, 'V' }, { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 },
	};
	static const uint32_t qdef[] = { 1, 2, 4, 8, 16, 32, 64 };
	static const uint32_t def[] = { 0, 8, 64, 512, 4096, 32768, 262144, 1048576 };
	static const char shortopts[] = ":Vhd:";
	char msg[400];
	int c;

	if (longopt_check(argc, argv, shortopts, lo, NULL, msg, sizeof(msg)))
		die(rank, "%s: see eel-mpi --help", msg);
	*o = (struct opts){ .f = { .reps = 600, .warm = 10, .delta_ns = 20000, .pp_iters = 1000, .pp_runs = 5 } };
	memcpy(o->size, def, sizeof(def));
	o->nsizes = 8;
	o->b = (struct bell_opts){ .iters = 10000, .runs = 10, .warmup = 1000, .flood_msgs = 10000,
				   .flood_bytes = 16u << 20, .ov_msgs = 2000, .ov_runs = 5, .ov_sweeps = 3 };
	for (uint32_t sz = 8; sz <= 131072; sz *= 2)
		o->b.size[o->b.nsizes++] = sz;
	memcpy(o->b.depth, qdef, sizeof(qdef));
	o->b.ndepths = 7;
	o->e.timeout_s = 600;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, lo, NULL)) != -1) {
		switch (c) {
		case 's': o->nsizes = parse_list(rank, "--sizes", optarg, o->size, MPI_MAX_SIZES, 0, MAX_SIZE); break;
		case 'r': o->f.reps = (int)num(rank, "--reps", optarg, 1, 1000000); break;
		case 'w': o->f.warm = (int)num(rank, "--warm", optarg, 0, 1000000); break;
		case 'u': o->f.delta_ns = 1000.0 * (double)num(rank, "--delta-us", optarg, 0, 10000000); break;
		case 'i': o->f.pp_iters = (int)num(rank, "--pp-iters", optarg, 1, 100000000); break;
		case 'n': o->netpipe = optarg; break;
		case 'I': o->b.iters = (int)num(rank, "--iters", optarg, 1, 100000000); break;
		case 'R': o->b.runs = (int)num(rank, "--runs", optarg, 1, BELL_MAX_RUNS); break;
		case 'W': o->b.warmup = (int)num(rank, "--warmup", optarg, 0, 100000000); break;
		case 'S':
			o->b.nsizes = parse_list(rank, "--flood-sizes", optarg, o->b.size, BELL_MAX_SIZES, 8, 1 << 24);
			break;
		case 'Q': o->b.ndepths = parse_list(rank, "--depths", optarg, o->b.depth, BELL_MAX_DEPTHS, 1, 1024); break;
		case 'M': o->b.flood_msgs = (int)num(rank, "--flood-msgs", optarg, 2, 100000000); break;
		case 'B': o->b.flood_bytes = (uint32_t)num(rank, "--flood-bytes", optarg, 16, 1L << 30); break;
		case 'O': o->b.ov_msgs = (int)num(rank, "--overlap-msgs", optarg, 2, 100000000); break;
		case 'P': o->b.ov_runs = (int)num(rank, "--overlap-runs", optarg, 1, BELL_MAX_RUNS); break;
		case 'X': o->b.ov_sweeps = (int)num(rank, "--overlap-sweeps", optarg, 1, BELL_MAX_SWEEPS); break;
		case 'd':
		case 'D': o->e.uri = optarg; break;
		case 'E': o->e.bench = optarg; break;
		case 'T': o->e.timeout_s = (int)num(rank, "--eel-timeout", optarg, 1, 86400); break;
		case 'J': o->json = optarg; break;
		case 'V':
			if (rank == 0)
				printf("eel-mpi %s (git %s)\n", EEL_VERSION, EEL_GIT);
			MPI_Finalize();
			exit(0);
		case 'h':
			if (rank == 0)
				fputs(usage, stdout);
			MPI_Finalize();
			exit(0);
		case ':': die(rank, "%s needs a value: see eel-mpi --help", argv[optind - 1]); break;
		default: die(rank, "unknown option '%s': see eel-mpi --help", argv[optind - 1]);
		}
	}
	if (optind < argc)
		die(rank, "unexpected argument '%s': see eel-mpi --help", argv[optind]);
	if (o->e.uri && o->b.ov_msgs < 16) { /* eel-bench's least (bench/cli.c), which -d runs */
		char n[16];

		snprintf(n, sizeof(n), "%d", o->b.ov_msgs);
		die(rank, "--overlap-msgs %s with -d: the eel-bench it runs takes 16 at least: give 16 or more, or drop -d",
		    n);
	}
	o->b.flood_runs = o->b.runs;   /* as eel-bench: --flood-runs defaults to --runs */
}

/* NetPIPE's output file (-o): "bytes Mbps seconds" a line, the seconds
 * those of half a round trip. Latency at 8 B (ns), bandwidth at 1 MiB
 * (bytes/ns). Read before anything is measured, so a bad file costs no run:
 * a regular file of at most 16 MiB (eel_input_open: a FIFO or /dev/zero is
 * refused, not waited on or read forever), every figure finite and positive.
 * -1 with one line in err. */
static int netpipe_read(const char *path, double *lat_ns, double *bw, char *err, size_t errlen)
{
	double bytes, mbps, sec;
	char line[256];
	int n = 0;
	FILE *f;

	*lat_ns = *bw = 0;
	if (eel_input_open(path, 16u << 20, &f)) {
		snprintf(err, errlen, "--netpipe %s", eel_errmsg());
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		n++;
		if (sscanf(line, "%lf %lf %lf", &bytes, &mbps, &sec) != 3)
			continue;
		if (!isfinite(bytes) || !isfinite(mbps) || !isfinite(sec) || bytes < 0 || mbps < 0 || sec < 0) {
			snprintf(err, errlen, "--netpipe: line %d holds a number that is not finite and positive (inf, "
				 "nan or below 0): give NetPIPE's own output (NPopenmpi -o FILE)", n);
			fclose(f);
			return -1;
		}
		if (bytes == 8)
			*lat_ns = sec * 1e9;
		if (bytes == MAX_SIZE)
			*bw = mbps * 1e6 / 8 / 1e9;
	}
	fclose(f);
	if (*lat_ns > 0 && *bw > 0)
		return 0;
	snprintf(err, errlen, "--netpipe: no NetPIPE latency at 8 B and bandwidth at 1048576 B in it: run "
		 "NPopenmpi -l 8 -u 1048576 -o FILE on the same ranks");
	return -1;
}

/* Figure 2 for every mode and size between world ranks 0 and p; rank 0 gets f. */
static void measure(int rank, int p, const struct opts *o, void *buf, struct fig2 *f, double pp[2])
{
	MPI_Comm pc;
	int in = rank == 0 || rank == p;

	MPI_Comm_split(MPI_COMM_WORLD, in ? 0 : MPI_UNDEFINED, rank == 0 ? 0 : 1, &pc);
	if (!in) {
		barrier_asleep(MPI_COMM_WORLD);   /* off the cores while the pair measures */
		return;
	}
	f->nsizes = o->nsizes;
	for (int m = 0; m < MODES; m++)
		for (int i = 0; i < o->nsizes; i++) {
			double t[2], theirs[2];

			fig2_point(pc, m, o->size[i], &o->f, buf, t);
			/* P2's timers to P1, after the timed region */
			if (rank == 0)
				MPI_Recv(theirs, 2, MPI_DOUBLE, 1, 2, pc, MPI_STATUS_IGNORE);
			else
				MPI_Send(t, 2, MPI_DOUBLE, 0, 2, pc);
			if (rank == 0) {
				f->size[i] = o->size[i];
				f->t11[m][i] = t[0];
				f->t12[m][i] = t[1];
				f->t21[m][i] = theirs[0];
				f->t22[m][i] = theirs[1];
			}
		}
	fig2_pingpong(pc, 8, &o->f, buf, &pp[0]);
	fig2_pingpong(pc, MAX_SIZE, &o->f, buf, &pp[1]);
	MPI_Comm_free(&pc);
	barrier_asleep(MPI_COMM_WORLD);
}

/* a tier's G in ns/B, or "not measured" (model.h: have_G) */
static const char *per_byte(const struct mpi_loggp *l, char *buf, size_t n)
{
	if (l->have_G)
		snprintf(buf, n, "%.4f ns/B", l->G);
	else
		snprintf(buf, n, "not measured");
	return buf;
}

static void print_pair(const char *tier, int p, const struct fig2 *f, const struct mpi_loggp *l, const double pp[2])
{
	printf("\n  %s: ranks 0 and %d; medians of %s\n", tier, p, "each timer (ns)");
	printf("  %-11s %8s %10s %10s %10s %10s   %s\n", "mode", "size", "timer11", "timer12", "timer21", "timer22",
	       "sender time nearest (formulas 1, 3, 5, 6)");
	for (int m = 0; m < MODES; m++)
		for (int i = 0; i < f->nsizes; i++)
			printf("  %-11s %8u %10.1f %10.1f %10.1f %10.1f   %s\n", mode_name[m], f->size[i], f->t11[m][i],
			       f->t12[m][i], f->t21[m][i], f->t22[m][i],
			       MODE_NONBLOCKING(m) ? "" : proto_name[proto_nearest(l, f->size[i], f->t11[m][i])]);
	printf("  LogGP: o_s %.1f ns (MPI_Isend, timer11), o_r %.1f ns (MPI_Irecv, timer21), L <= %.1f ns "
	       "(MPI_Ssend: timer21 - timer12), g ~ o_s %.1f ns, G %s", l->o_s, l->o_r, l->L, l->g,
	       l->have_G ? "" : l->G_sizes < 2 ? "not measured (two sizes of 4 KiB or more needed)\n"
			 : "not measured (the blocking receive did not grow with the size: a noisy run; raise --reps)\n");
	if (l->have_G)
		printf("%.4f ns/B (%.2f GB/s; blocking receive less the non-blocking receive overhead, slope from 4 KiB)\n",
		       l->G, l->G > 0 ? 1 / l->G : 0);
	printf("  protocols, end to end at %u B: T (2) %.1f, TA (3) %.1f, RTA (4) %.1f, RAT (7) %.1f ns\n",
	       f->size[f->nsizes - 1], proto_deliver_ns(l, PROTO_T, f->size[f->nsizes - 1]),
	       proto_deliver_ns(l, PROTO_TA, f->size[f->nsizes - 1]), proto_deliver_ns(l, PROTO_RTA, f->size[f->nsizes - 1]),
	       proto_deliver_ns(l, PROTO_RAT, f->size[f->nsizes - 1]));
	printf("  ping-pong (MPI_Send/MPI_Recv): half round trip %.1f ns at 8 B, %.2f GB/s at 1 MiB\n", pp[0],
	       pp[1] > 0 ? MAX_SIZE / pp[1] : 0);
}

/* Bell et al. 2003's set between ranks 0 and 1 (every rank calls it) */
static int bell_pair(int rank, const struct opts *o, struct bell *b)
{
	MPI_Comm pc;
	int in = rank <= 1, rc = 0;

	MPI_Comm_split(MPI_COMM_WORLD, in ? 0 : MPI_UNDEFINED, rank, &pc);
	if (in) {
		rc = bell_measure(pc, &o->b, b);
		MPI_Comm_free(&pc);
	}
	barrier_asleep(MPI_COMM_WORLD);   /* the other ranks off the cores meanwhile */
	MPI_Allreduce(MPI_IN_PLACE, &rc, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
	return rc;
}

/* A figure of the Bell table: "-" where it was not measured (NAN: a G no
 * flood could measure) */
static void cell(char *buf, size_t n, double v, int per_byte)
{
	if (!isfinite(v))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, per_byte ? "%.4f" : "%.1f", v);
}

static void print_bell(const struct opts *o, const struct bell *b, const struct eel_figs *e)
{
	const char *name[] = { "EEL", "o_s", "o_r", "g", "G" }, *unit[] = { "ns", "ns", "ns", "ns", "ns/B" };
	double mpi[] = { b->eel_ns, b->os.o_ns, b->or_.o_ns, b->g_ns, b->G_ns_per_byte };
	double eel[] = { e->eel_ns, e->o_s_ns, e->o_r_ns, e->g_ns, e->G_ns_per_byte };
	char col[96];

	printf("\n  Bell et al. 2003 section 4 over MPI (MPI_Isend/MPI_Irecv), ranks 0 and 1: EEL ping-pong of 8 B "
	       "(4.1, min of %d runs x %d), g and G flood (4.2, 8 B at q = %u; G at q = %u from %u B), o_s and "
	       "o_r CPU overlap (4.3, median of %d sweeps)\n", o->b.runs, o->b.iters, b->g_q, b->G_q, b->G_from,
	       o->b.ov_sweeps);
	snprintf(col, sizeof(col), "eel (%s)", o->e.uri ? o->e.uri : "");
	if (o->e.uri)
		printf("  %-10s %12s %18s %12s\n", "parameter", "MPI", col, "MPI - eel");
	else
		printf("  %-10s %12s\n", "parameter", "MPI");
	for (int i = 0; i < 5; i++) {
		char p[16], m[24], x[24], d[24];

		snprintf(p, sizeof(p), "%s (%s)", name[i], unit[i]);
		cell(m, sizeof(m), mpi[i], i == 4);
		cell(x, sizeof(x), eel[i], i == 4);
		cell(d, sizeof(d), mpi[i] - eel[i], i == 4);
		if (o->e.uri)
			printf("  %-10s %12s %18s %12s\n", p, m, x, d);
		else
			printf("  %-10s %12s\n", p, m);
	}
	if (o->e.uri)
		printf("  MPI adds %.1f ns to EEL and %.1f ns to o_s\n", mpi[0] - eel[0], mpi[1] - eel[1]);
	if (o->e.uri && e->not_separable)
		printf("  (eel's o_s and o_r: the CPU-overlap test's g(q=1) - D_max, not separable on this NIC: it runs "
		       "on the host's CPU, and its work is in them)\n");
	printf("  o_r above as eel-bench's (the computation in isolation, then the rest received); with it between "
	       "each MPI_Irecv and its MPI_Wait (4.3's form for receive calls): %.1f ns\n", b->or_irecv.o_ns);
}

/* The command line, for the document */
static void command_of(int argc, char **argv, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = 0;
	for (int i = 0; i < argc && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? " " : "", argv[i]);
}

/* --json's folder is writable and --netpipe's file reads (rank 0 says,
 * all ranks end together when not) */
static void check_inputs(int rank, const struct opts *o, double *np_lat, double *np_bw)
{
	char err[512];

	if (o->json) {
		int bad = rank == 0 && mpi_json_check(o->json, err, sizeof(err));

		MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
		if (bad)
			die(rank, "%s", err);
	}
	if (o->netpipe) {
		int bad = rank == 0 && netpipe_read(o->netpipe, np_lat, np_bw, err, sizeof(err));

		MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
		if (bad)
			die(rank, "%s", err);
	}
}

/* rank 0's peer on its own node (tier 0) and on another (tier 1), -1 where
 * there is none: the node of each rank is the world rank of its node's
 * first (*shm: the node's communicator, freed by the caller) */
static void tier_peers(int rank, int n, int *node, MPI_Comm *shm, int tier_peer[2])
{
	int first = rank;

	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, shm);
	MPI_Bcast(&first, 1, MPI_INT, 0, *shm);
	MPI_Allgather(&first, 1, MPI_INT, node, 1, MPI_INT, MPI_COMM_WORLD);
	for (int p = 1; p < n; p++) {
		int t = node[p] == node[0] ? 0 : 1;

		if (tier_peer[t] < 0)
			tier_peer[t] = p;
	}
}

/* Rank 0's table: each tier's Figure 2 and LogGP, LoGH{sSP}, Bell et al.'s
 * set, NetPIPE beside it (run's fields for the JSON) */
static void print_all(const struct opts *o, const int tier_peer[2], const struct fig2 *f, struct mpi_loggp *l,
		      double pp[2][2], const struct bell *b, const struct eel_figs *ef, double np_lat, double np_bw,
		      struct mpi_run *run)
{
	printf("eel-mpi %s: MPI's send modes by Al-Tawil & Moritz 2001, Figure 2 (barrier, timer11/12 at the "
	       "sender P1, timer21/22 at the receiver P2), %d repetitions after %d\n", EEL_VERSION, o->f.reps,
	       o->f.warm);
	for (int t = 0; t < 2; t++) {
		if (tier_peer[t] < 0) {
			printf("\n  %s: no pair (%s)\n", t ? "inter-node" : "intra-node",
			       t ? "all ranks on one node" : "rank 0 alone on its node");
			continue;
		}
		mpi_loggp_of(&f[t], &l[t]);
		print_pair(t ? "inter-node" : "intra-node", tier_peer[t], &f[t], &l[t], pp[t]);
	}
	if (tier_peer[0] > 0 && tier_peer[1] > 0) {
		char S[32], G[32];

		printf("\n  LoGH{sSP} (section 3.3): intra-node s_s %.1f, s_r %.1f ns, S %s; inter-node "
		       "o_s %.1f, o_r %.1f, L %.1f ns, G %s\n", l[0].o_s, l[0].o_r, per_byte(&l[0], S, sizeof(S)),
		       l[1].o_s, l[1].o_r, l[1].L, per_byte(&l[1], G, sizeof(G)));
	}
	print_bell(o, b, ef);
	if (o->netpipe) {
		double lat = np_lat, bw = np_bw;
		int t = tier_peer[1] > 0 ? 1 : 0;

		printf("\n  beside NetPIPE (NPopenmpi, same ranks): latency at 8 B %.1f ns (NetPIPE) "
		       "vs %.1f (eel-mpi): ratio %.2f (goal <= 1.00); bandwidth at 1 MiB %.2f GB/s vs %.2f: "
		       "ratio %.2f (goal >= 0.98)\n", lat, pp[t][0], pp[t][0] / lat, bw,
		       pp[t][1] > 0 ? MAX_SIZE / pp[t][1] : 0, pp[t][1] > 0 ? MAX_SIZE / pp[t][1] / bw : 0);
		run->have_netpipe = 1;
		run->np_lat_ns = lat;
		run->np_bw_bytes_per_ns = bw;
		run->np_tier = t;
	}
	fflush(stdout);
}

int main(int argc, char **argv)
{
	static struct fig2 f[2];
	static struct bell b;
	static struct eel_figs ef;
	static char cmd[4096], err[512];
	struct mpi_loggp l[2];
	double pp[2][2] = { { 0 } }, np_lat = 0, np_bw = 0;
	struct opts o;
	int rank, n, tier_peer[2] = { -1, -1 }, *node, rc = 0;
	MPI_Comm shm;
	void *buf, *bsend;
	int bsize = 2 * ((int)MAX_SIZE + MPI_BSEND_OVERHEAD);

	command_of(argc, argv, cmd, sizeof(cmd));
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &n);
	parse(rank, argc, argv, &o);
	compute_init();
	if (n < 2)
		die(rank, "eel-mpi measures between two ranks, this job has %s: launch it with mpirun -np 2 or more", "1");
	check_inputs(rank, &o, &np_lat, &np_bw);
	/* eel's own figures first: never while MPI measures */
	if (o.e.uri && eel_side_run(MPI_COMM_WORLD, &o.e, &o.b, &ef, err, sizeof(err)))
		die(rank, "%s", err);
	buf = calloc(1, MAX_SIZE);
	bsend = malloc((size_t)bsize);
	node = calloc((size_t)n, sizeof(int));
	if (!buf || !bsend || !node)
		die(rank, "out of memory for %s", "1 MiB buffers");
	MPI_Buffer_attach(bsend, bsize);
	tier_peers(rank, n, node, &shm, tier_peer);
	for (int t = 0; t < 2; t++)
		if (tier_peer[t] > 0)
			measure(rank, tier_peer[t], &o, buf, &f[t], pp[t]);
	if (bell_pair(rank, &o, &b))
		die(rank, "out of memory for the flood's buffers (%s): give smaller --flood-sizes or --depths",
		    "depth x size at each end");
	if (rank == 0) {
		struct mpi_run run = { .ranks = n, .fo = &o.f, .bo = &o.b, .tier_peer = { tier_peer[0], tier_peer[1] },
				       .fig = f, .loggp = l, .pp = (const double (*)[2])pp, .bell = &b, .uri = o.e.uri,
				       .eel = o.e.uri ? &ef : NULL, .command = cmd };

		print_all(&o, tier_peer, f, l, pp, &b, &ef, np_lat, np_bw, &run);
		if (o.json && mpi_json_write(o.json, &run, err, sizeof(err))) {
			fprintf(stderr, "eel-mpi: %s\n", err);
			rc = 1;
		}
	}
	MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
	MPI_Buffer_detach(&bsend, &bsize);
	MPI_Comm_free(&shm);
	free(buf);
	free(bsend);
	free(node);
	MPI_Finalize();
	return rc;
}
