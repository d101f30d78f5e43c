/* tools/eel-mpi.c — eel-mpi: the MPI layer measured as Al-Tawil & Moritz
 * 2001 measure it (their Figure 2, tools/mpi/fig2.c), for the eight send
 * modes and sizes 0 .. 1 MiB, with the LogGP parameters, the protocol
 * decomposition and the two tiers of section 3.3 (tools/mpi/model.c); and
 * the blocking standard-mode ping-pong beside NetPIPE's figures
 * (--netpipe). Built with mpicc, started by mpirun or srun: rank 0 measures
 * with one rank of its node and one of another node where there is one.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <eel/eel.h>

#include "mpi/fig2.h"
#include "mpi/model.h"

#define MAX_SIZE (1u << 20)

struct opts {
	struct fig2_opts f;
	uint32_t size[MPI_MAX_SIZES];
	int nsizes;
	const char *netpipe;
};

static const char usage[] =
"usage: mpirun -np N eel-mpi [options]      (N >= 2; srun -n N --mpi=pmix eel-mpi)\n"
"\n"
"MPI's eight send modes measured by Al-Tawil & Moritz 2001's Figure 2 (barrier, then\n"
"timer11/12 on the sender, timer21/22 on the receiver), LogGP from them, the protocol\n"
"decomposition (formulas (1)-(7)), intra- and inter-node tiers (LoGH{sSP}).\n"
"\n"
"  --sizes A,B,...    message sizes in bytes, 0 .. 1048576 (default 0,8,64,512,4096,\n"
"                     32768,262144,1048576)\n"
"  --reps N           timed repetitions per mode and size (default 600, the paper's)\n"
"  --warm N           untimed ones before (default 10)\n"
"  --delta-us N       the sender's wait before its receive, plus 2 ns a byte (default 20)\n"
"  --pp-iters N       blocking ping-pong round trips per run (default 1000), 5 runs\n"
"  --netpipe FILE     NetPIPE's output (NPopenmpi -o FILE) on the same ranks: the\n"
"                     ping-pong's half round trip at 8 B and bandwidth at 1 MiB beside it\n"
"  -h, --help\n";

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

static void parse(int rank, int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "sizes", required_argument, 0, 's' }, { "reps", required_argument, 0, 'r' },
		{ "warm", required_argument, 0, 'w' }, { "delta-us", required_argument, 0, 'd' },
		{ "pp-iters", required_argument, 0, 'i' }, { "netpipe", required_argument, 0, 'n' },
		{ "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 },
	};
	static const uint32_t def[] = { 0, 8, 64, 512, 4096, 32768, 262144, 1048576 };
	int c;

	*o = (struct opts){ .f = { .reps = 600, .warm = 10, .delta_ns = 20000, .pp_iters = 1000, .pp_runs = 5 } };
	memcpy(o->size, def, sizeof(def));
	o->nsizes = 8;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (c) {
		case 's': {
			char buf[256];

			if (strlen(optarg) >= sizeof(buf))
				die(rank, "--sizes: the list is too long (%s)", "over 255 characters");
			snprintf(buf, sizeof(buf), "%s", optarg);
			o->nsizes = 0;
			for (char *t = strtok(buf, ","); t; t = strtok(NULL, ",")) {
				if (o->nsizes == MPI_MAX_SIZES)
					die(rank, "--sizes: at most %s sizes", "24");
				o->size[o->nsizes] = (uint32_t)num(rank, "--sizes", t, 0, MAX_SIZE);
				if (o->nsizes && o->size[o->nsizes] <= o->size[o->nsizes - 1])
					die(rank, "--sizes %s: list them from small to large, each once", optarg);
				o->nsizes++;
			}
			if (!o->nsizes)
				die(rank, "--sizes '%s' names no size: give A,B,C", optarg);
			break;
		}
		case 'r': o->f.reps = (int)num(rank, "--reps", optarg, 1, 1000000); break;
		case 'w': o->f.warm = (int)num(rank, "--warm", optarg, 0, 1000000); break;
		case 'd': o->f.delta_ns = 1000.0 * (double)num(rank, "--delta-us", optarg, 0, 10000000); break;
		case 'i': o->f.pp_iters = (int)num(rank, "--pp-iters", optarg, 1, 100000000); break;
		case 'n': o->netpipe = optarg; break;
		case 'h':
			if (rank == 0)
				fputs(usage, stdout);
			MPI_Finalize();
			exit(0);
		default: die(rank, "unknown option '%s': see eel-mpi --help", argv[optind - 1]);
		}
	}
	if (optind < argc)
		die(rank, "unexpected argument '%s': see eel-mpi --help", argv[optind]);
}

/* NetPIPE's output file (-o): "bytes Mbps seconds" a line, the seconds
 * those of half a round trip. Latency at 8 B (ns), bandwidth at 1 MiB
 * (bytes/ns); -1: unreadable. */
static int netpipe_read(const char *path, double *lat_ns, double *bw)
{
	FILE *f = fopen(path, "r");
	double bytes, mbps, sec;
	char line[256];

	*lat_ns = *bw = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%lf %lf %lf", &bytes, &mbps, &sec) == 3) {
			if (bytes == 8)
				*lat_ns = sec * 1e9;
			if (bytes == MAX_SIZE)
				*bw = mbps * 1e6 / 8 / 1e9;
		}
	fclose(f);
	return *lat_ns > 0 && *bw > 0 ? 0 : -1;
}

/* Figure 2 for every mode and size between world ranks 0 and p; rank 0 gets f. */
static void measure(int rank, int p, const struct opts *o, void *buf, struct fig2 *f, double pp[2])
{
	MPI_Comm pc;
	int in = rank == 0 || rank == p;

	MPI_Comm_split(MPI_COMM_WORLD, in ? 0 : MPI_UNDEFINED, rank == 0 ? 0 : 1, &pc);
	if (!in)
		return;
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
	       l->have_G ? "" : "not measured (two sizes of 4 KiB or more needed)\n");
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

int main(int argc, char **argv)
{
	static struct fig2 f[2];
	struct mpi_loggp l[2];
	double pp[2][2] = { { 0 } };
	struct opts o;
	int rank, n, tier_peer[2] = { -1, -1 }, *node;
	MPI_Comm shm;
	void *buf, *bsend;
	int bsize = 2 * ((int)MAX_SIZE + MPI_BSEND_OVERHEAD);

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &n);
	parse(rank, argc, argv, &o);
	if (n < 2)
		die(rank, "eel-mpi measures between two ranks, this job has %s: launch it with mpirun -np 2 or more", "1");
	buf = calloc(1, MAX_SIZE);
	bsend = malloc((size_t)bsize);
	node = calloc((size_t)n, sizeof(int));
	if (!buf || !bsend || !node)
		die(rank, "out of memory for %s", "1 MiB buffers");
	MPI_Buffer_attach(bsend, bsize);
	/* the node of each rank: the world rank of its node's first */
	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &shm);
	{
		int first = rank;

		MPI_Bcast(&first, 1, MPI_INT, 0, shm);
		MPI_Allgather(&first, 1, MPI_INT, node, 1, MPI_INT, MPI_COMM_WORLD);
	}
	for (int p = 1; p < n; p++) {
		int t = node[p] == node[0] ? 0 : 1;

		if (tier_peer[t] < 0)
			tier_peer[t] = p;
	}
	for (int t = 0; t < 2; t++)
		if (tier_peer[t] > 0)
			measure(rank, tier_peer[t], &o, buf, &f[t], pp[t]);
	if (rank == 0) {
		printf("eel-mpi %s: MPI's send modes by Al-Tawil & Moritz 2001, Figure 2 (barrier, timer11/12 at the "
		       "sender P1, timer21/22 at the receiver P2), %d repetitions after %d\n", EEL_VERSION, o.f.reps,
		       o.f.warm);
		for (int t = 0; t < 2; t++) {
			if (tier_peer[t] < 0) {
				printf("\n  %s: no pair (%s)\n", t ? "inter-node" : "intra-node",
				       t ? "all ranks on one node" : "rank 0 alone on its node");
				continue;
			}
			mpi_loggp_of(&f[t], &l[t]);
			print_pair(t ? "inter-node" : "intra-node", tier_peer[t], &f[t], &l[t], pp[t]);
		}
		if (tier_peer[0] > 0 && tier_peer[1] > 0)
			printf("\n  LoGH{sSP} (section 3.3): intra-node s_s %.1f, s_r %.1f ns, S %.4f ns/B; inter-node "
			       "o_s %.1f, o_r %.1f, L %.1f ns, G %.4f ns/B\n", l[0].o_s, l[0].o_r, l[0].G, l[1].o_s, l[1].o_r,
			       l[1].L, l[1].G);
		if (o.netpipe) {
			double lat, bw;
			int t = tier_peer[1] > 0 ? 1 : 0;

			if (netpipe_read(o.netpipe, &lat, &bw))
				fprintf(stderr, "eel-mpi: %s: no NetPIPE latency at 8 B and bandwidth at 1048576 B in it: "
					"run NPopenmpi -l 8 -u 1048576 -o FILE on the same ranks\n", o.netpipe);
			else
				printf("\n  beside NetPIPE (NPopenmpi, same ranks): latency at 8 B %.1f ns (NetPIPE) "
				       "vs %.1f (eel-mpi): ratio %.2f (goal <= 1.00); bandwidth at 1 MiB %.2f GB/s vs %.2f: "
				       "ratio %.2f (goal >= 0.98)\n", lat, pp[t][0], pp[t][0] / lat, bw,
				       pp[t][1] > 0 ? MAX_SIZE / pp[t][1] : 0, pp[t][1] > 0 ? MAX_SIZE / pp[t][1] / bw : 0);
		}
	}
	MPI_Buffer_detach(&bsend, &bsize);
	MPI_Comm_free(&shm);
	free(buf);
	free(bsend);
	free(node);
	MPI_Finalize();
	return 0;
}
