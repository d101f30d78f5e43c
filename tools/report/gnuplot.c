/* SPDX-License-Identifier: MIT */
/* tools/report/gnuplot.c — rendering plots with gnuplot (gnuplot.h). */
#include "gnuplot.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sbuf.h"

#define SVG_W 800
#define SVG_H 480
#define PNG_W 1000
#define PNG_H 600

static const char *gnuplot(void)
{
	const char *g = getenv("EEL_GNUPLOT");

	return g && *g ? g : "gnuplot";
}

/* Runs gnuplot with args in dir, stdin from /dev/null, stdout and stderr to log (or
 * /dev/null). Returns its exit status, 127 when it could not be started. */
static int run(const char *dir, const char *const args[], const char *log)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return 127;
	if (pid == 0) {
		int in = open("/dev/null", O_RDONLY), out = open(log ? log : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (in < 0 || out < 0 || (dir && chdir(dir)))
			_exit(126);
		dup2(in, 0);
		dup2(out, 1);
		dup2(out, 2);
		execvp(args[0], (char *const *)args);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 127;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static long file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : (long)st.st_size;
}

/* The last non-empty line of a file (gnuplot puts the error there, after the
 * offending command and a caret), for an error message. */
static void last_line(const char *path, char *buf, size_t len)
{
	char line[512];
	FILE *f = fopen(path, "r");

	buf[0] = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (line[strspn(line, " \t^")]) {
			size_t n = strlen(line) < len - 1 ? strlen(line) : len - 1;

			memcpy(buf, line, n);
			buf[n] = 0;
		}
	}
	fclose(f);
}

int gp_check(char *err, size_t errlen)
{
	char tmp[] = "/tmp/eel-report-gp-XXXXXX", log[64], line[256];
	const char *args[] = { gnuplot(), "-e", "set terminal svg; set terminal pngcairo", NULL };
	int rc, fd = mkstemp(tmp);

	if (fd < 0) {
		snprintf(err, errlen, "cannot make a temporary file in /tmp: %s", strerror(errno));
		return -1;
	}
	close(fd);
	snprintf(log, sizeof(log), "%s", tmp);
	rc = run(NULL, args, log);
	last_line(log, line, sizeof(line));
	unlink(tmp);
	if (rc == 127) {
		snprintf(err, errlen, "cannot run %s: install it with sudo tools/setup report (Debian's gnuplot-nox)",
			 gnuplot());
		return -1;
	}
	if (rc) {
		snprintf(err, errlen, "%s lacks the svg or pngcairo terminal (%s): install Debian's gnuplot-nox "
			 "(sudo tools/setup report)", gnuplot(), line);
		return -1;
	}
	return 0;
}

int gp_render(const char *dir, const char *name, const char *body, char *err, size_t errlen)
{
	char gp[4096], log[4096], svg[4096], png[4096], rel[512], line[256];
	const char *args[] = { gnuplot(), rel, NULL };
	struct sbuf s = { 0 };
	FILE *f;
	int rc;

	snprintf(gp, sizeof(gp), "%s/gnuplot", dir);
	if (mkdir(gp, 0755) && errno != EEXIST) {
		snprintf(err, errlen, "cannot make %s: %s", gp, strerror(errno));
		return -1;
	}
	snprintf(gp, sizeof(gp), "%s/gnuplot/%s.gp", dir, name);
	snprintf(log, sizeof(log), "%s/gnuplot/%s.log", dir, name);
	snprintf(svg, sizeof(svg), "%s/%s.svg", dir, name);
	snprintf(png, sizeof(png), "%s/%s.png", dir, name);
	snprintf(rel, sizeof(rel), "gnuplot/%s.gp", name);

	sb_printf(&s, "# %s.gp: written by eel-report; run `gnuplot gnuplot/%s.gp` in the report's folder\n"
		      "# to render %s.svg and %s.png again (edit freely).\n", name, name, name, name);
	sb_printf(&s, "set terminal svg size %d,%d dynamic noenhanced font \"DejaVu Sans,11\" background rgb \"white\"\n"
		      "set output \"%s.svg\"\n", SVG_W, SVG_H, name);
	sb_printf(&s, "set encoding utf8\nset termoption noenhanced\n");
	sb_put(&s, body, strlen(body));
	sb_printf(&s, "\nset terminal pngcairo size %d,%d noenhanced font \"DejaVu Sans,10\" background rgb \"white\"\n"
		      "set output \"%s.png\"\nreplot\nunset output\n", PNG_W, PNG_H, name);
	if (s.oom) {
		sb_free(&s);
		snprintf(err, errlen, "out of memory writing %s", gp);
		return -1;
	}
	f = fopen(gp, "w");
	if (!f || fputs(sb_str(&s), f) < 0 || fclose(f)) {
		snprintf(err, errlen, "cannot write %s: %s", gp, strerror(errno));
		sb_free(&s);
		return -1;
	}
	sb_free(&s);
	rc = run(dir, args, log);
	if (rc == 127) {
		snprintf(err, errlen, "cannot run %s: install it with sudo tools/setup report (Debian's gnuplot-nox)",
			 gnuplot());
		return -1;
	}
	if (rc) {
		last_line(log, line, sizeof(line));
		snprintf(err, errlen, "gnuplot failed on %s (exit %d): %s", rel, rc, line);
		return -1;
	}
	if (file_size(svg) <= 0 || file_size(png) <= 0) {
		snprintf(err, errlen, "gnuplot wrote no %s.svg or %s.png (its messages: %s)", name, name, log);
		return -1;
	}
	return 0;
}
