/* SPDX-License-Identifier: MIT */
/* tools/eel-report.c — plots and one HTML page from an eel-bench run.
 *
 *   eel-report RUN.json [-o DIR] [--historical FILE]
 *
 * Writes into DIR (default: RUN without .json, plus "-report"): NAME.svg and
 * NAME.png for every plot the run has data for (tools/report/plots.c: each
 * follows a paper's figure), gnuplot/NAME.gp (the script, data inline) and
 * index.html (the terminal table's content and every plot inline, no scripts,
 * no external files). Everything is written into a temporary folder beside
 * DIR and renamed at the end, so DIR is never half-written; an existing DIR is
 * replaced only when an earlier eel-report made it.
 * Exit status: 0 done, 1 rendering failed (gnuplot), 2 bad input. */
#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <eel/eel.h>

#include "tools/report/doc.h"
#include "tools/report/gnuplot.h"
#include "tools/report/hist.h"
#include "tools/stdout_check.h"
#include "tools/report/html.h"
#include "tools/report/plots.h"
#include "method/longopt.h"

#ifndef EEL_GIT
#error "EEL_GIT: tools/version.mk passes it to the objects in VERSION_SRC; list this file there"
#endif

#define MARKER ".eel-report"

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void rm_tree(const char *dir)
{
	if (dir && *dir)
		nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static int is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: eel-report RUN.json [-o DIR] [--historical FILE]\n"
		   "\n"
		   "Renders a run written by eel-bench --json: SVG and PNG plots (gnuplot), each\n"
		   "after a figure of the methods' papers, and DIR/index.html with the run's\n"
		   "tables and every plot inline.\n"
		   "\n"
		   "  -o, --output DIR       where (default: RUN without .json, plus -report)\n"
		   "      --historical FILE  the papers' machines for the latency/bandwidth map\n"
		   "                         (default: data/historical.csv beside the binary's\n"
		   "                         folder, or in eel's source tree)\n"
		   "  -V, --version          the release and the git commit of this build\n"
		   "  -h, --help\n"
		   "\n"
		   "Exit status: 0 done, 1 rendering failed, 2 bad input.\n"
		   "Full reference: man eel-report (or docs/man/eel-report.1.md)\n");
}

/* The options: *out (-o), *histpath (--historical). -1: go on; else the exit status. */
static int parse_args(int argc, char **argv, const char **out, const char **histpath)
{
	static const struct option opts[] = {
		{ "output", required_argument, 0, 'o' }, { "historical", required_argument, 0, 'H' },
		{ "version", no_argument, 0, 'V' }, { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 },
	};
	static const char shortopts[] = ":o:Vh";
	char msg[400];
	int o;

	if (longopt_check(argc, argv, shortopts, opts, NULL, msg, sizeof(msg))) {
		fprintf(stderr, "eel-report: %s: see eel-report --help\n", msg);
		return 2;
	}
	opterr = 0; /* its messages are ours, one line each */
	while ((o = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
		switch (o) {
		case 'o':
			if (!*optarg) {
				fprintf(stderr, "eel-report: -o '': give the folder to write, e.g. -o report\n");
				return 2;
			}
			*out = optarg;
			break;
		case 'H':
			*histpath = optarg;
			break;
		case 'V':
			printf("eel-report %s (git %s)\n", EEL_VERSION, EEL_GIT);
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		case ':':
			fprintf(stderr, "eel-report: %s needs a value: see eel-report --help\n", argv[optind - 1]);
			return 2;
		default:
			if (optopt)
				fprintf(stderr, "eel-report: unknown option '-%c': see eel-report --help\n", optopt);
			else
				fprintf(stderr, "eel-report: unknown option '%s': see eel-report --help\n", argv[optind - 1]);
			return 2;
		}
	}
	if (argc - optind != 1) {
		fprintf(stderr, "eel-report: give one run: eel-report RUN.json [-o DIR]\n");
		return 2;
	}
	return -1;
}

/* The folder to write: -o's, else RUN-report beside RUN.json; one that
 * exists must be a folder eel-report made (its marker). 0, or -1 (said). */
static int out_dir(const struct run *run, const char *out, char *dir, size_t len)
{
	char marker[4200];

	if (out) {
		snprintf(dir, len, "%s", out);
	} else {
		size_t l = strlen(run->path);

		if (l > 5 && !strcmp(run->path + l - 5, ".json"))
			l -= 5;
		snprintf(dir, len, "%.*s-report", (int)l, run->path);
	}
	while (strlen(dir) > 1 && dir[strlen(dir) - 1] == '/')
		dir[strlen(dir) - 1] = 0;
	if (exists(dir)) {
		snprintf(marker, sizeof(marker), "%s/" MARKER, dir);
		if (!is_dir(dir) || !exists(marker)) {
			fprintf(stderr, "eel-report: %s exists and is not a folder eel-report made: give -o a new folder, "
				"or remove it\n", dir);
			return -1;
		}
	}
	return 0;
}

/* The run's plots into tmp (a pair's plots for a pair's run, the ranks' for
 * a run under mpirun or srun), each in res[*nres]; *made: those drawn. */
static int render_plots(const char *tmp, struct report *rep, struct plot_out *res, size_t max, size_t *nres,
			size_t *made)
{
	int launched = jr_get(rep->run->root, "launch") != NULL;
	char err[1024];

	for (size_t i = 0; i < report_nplots && *nres < max; i++) {
		const struct plot *p = &report_plots[i];
		struct sbuf gp = { 0 };
		size_t k = *nres;

		if (p->launched == 2 ? launched || !jr_get(rep->run->root, "buses") : p->launched != launched)
			continue;
		(*nres)++;
		memset(&res[k], 0, sizeof(res[k]));
		res[k].plot = p;
		res[k].made = p->make(p, rep, &gp, &res[k].caption);
		if (res[k].made && (gp.oom || gp_render(tmp, p->name, sb_str(&gp), err, sizeof(err)))) {
			fprintf(stderr, "eel-report: %s: %s\n", p->name, gp.oom ? "out of memory" : err);
			sb_free(&gp);
			return -1;
		}
		*made += res[k].made;
		sb_free(&gp);
	}
	return 0;
}

/* The finished folder tmp, marked as eel-report's, takes dir's place in one rename. */
static int put_in_place(const char *tmp, const char *dir, const char *run_path)
{
	char old[4300];
	FILE *f;

	snprintf(old, sizeof(old), "%s/" MARKER, tmp);
	f = fopen(old, "w");
	if (!f || fprintf(f, "made by eel-report from %s; eel-report replaces this folder when run again\n",
			  run_path) < 0 || fclose(f)) {
		fprintf(stderr, "eel-report: cannot write %s\n", old);
		return -1;
	}
	old[0] = 0;
	if (exists(dir)) {
		snprintf(old, sizeof(old), "%s.old-%d", dir, (int)getpid());
		if (rename(dir, old)) {
			fprintf(stderr, "eel-report: cannot move the old %s aside: %s\n", dir, strerror(errno));
			return -1;
		}
	}
	if (rename(tmp, dir)) {
		fprintf(stderr, "eel-report: cannot rename %s to %s: %s\n", tmp, dir, strerror(errno));
		if (old[0])
			rename(old, dir);
		return -1;
	}
	rm_tree(old);
	return 0;
}

/* What was drawn, and what was not measured. */
static void say_made(const char *dir, const struct plot_out *res, size_t nres, size_t made)
{
	printf("eel-report: %s/index.html and %zu plot%s (svg, png):", dir, made, made == 1 ? "" : "s");
	for (size_t k = 0; k < nres; k++)
		if (res[k].made)
			printf(" %s", res[k].plot->name);
	printf("\n");
	if (made < nres) {
		printf("  not measured:");
		for (size_t k = 0; k < nres; k++)
			if (!res[k].made)
				printf(" %s", res[k].plot->name);
		printf(" (index.html says why)\n");
	}
}

int main(int argc, char **argv)
{
	const char *out = NULL, *histpath = NULL;
	char dir[4096], tmp[4200], err[1024], herr[1024];
	struct plot_out res[16] = { 0 };
	size_t nres = 0, made = 0;
	struct report rep = { 0 };
	struct run run;
	struct hist hist;
	int rc, hrc;

	stdout_check_at_exit("eel-report");
	if ((rc = parse_args(argc, argv, &out, &histpath)) >= 0)
		return rc;
	if (run_open(&run, argv[optind], "eel-report", err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	hrc = hist_load(&hist, histpath, herr, sizeof(herr));
	if (hrc < 0) {
		fprintf(stderr, "eel-report: %s: fix the file or give --historical a good one\n", herr);
		run_close(&run);
		return 2;
	}
	if (hrc > 0)
		fprintf(stderr, "eel-report: warning: %s: the map shows this NIC alone; give --historical FILE\n", herr);

	if (out_dir(&run, out, dir, sizeof(dir)))
		goto bad;
	if (gp_check(err, sizeof(err))) {
		fprintf(stderr, "eel-report: %s\n", err);
		run_close(&run);
		hist_free(&hist);
		return 1;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp-%d", dir, (int)getpid());
	if (mkdir(tmp, 0755)) {
		fprintf(stderr, "eel-report: cannot make %s: %s: give -o a folder in a writable place\n", tmp,
			strerror(errno));
		goto bad;
	}

	rep.run = &run;
	rep.hist = &hist;
	run_nic_name(&run, rep.nic, sizeof(rep.nic));
	if (render_plots(tmp, &rep, res, sizeof(res) / sizeof(res[0]), &nres, &made))
		goto fail;
	if (html_write(tmp, &rep, res, nres, err, sizeof(err))) {
		fprintf(stderr, "eel-report: %s\n", err);
		goto fail;
	}
	if (put_in_place(tmp, dir, run.path))
		goto fail;

	say_made(dir, res, nres, made);
	for (size_t k = 0; k < nres; k++)
		sb_free(&res[k].caption);
	run_close(&run);
	hist_free(&hist);
	return 0;

fail:
	rm_tree(tmp);
	for (size_t k = 0; k < nres; k++)
		sb_free(&res[k].caption);
	run_close(&run);
	hist_free(&hist);
	return 1;
bad:
	run_close(&run);
	hist_free(&hist);
	return 2;
}
