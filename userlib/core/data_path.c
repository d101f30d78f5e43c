/* SPDX-License-Identifier: MIT */
/* userlib/core/data_path.c — where eel's data files are (eel_data_path in
 * include/eel/eel.h): the figures the bus model is checked against
 * (pcie_bench.csv), the historical machines of eel-report (historical.csv)
 * and the bibliography (papers.md). Installed, they are in <prefix>/share/eel
 * (`make install`); in a build tree, in the source tree's data/. */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "userlib/core/dev.h"

#ifndef EEL_SRC_DIR
#define EEL_SRC_DIR "."
#endif

static int is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, R_OK) == 0;
}

static int found(const char *path, char *out, size_t n)
{
	if ((size_t)snprintf(out, n, "%s", path) >= n)
		return eel_err(-ENAMETOOLONG, "the path of eel's data file %s is longer than %zu bytes", path, n);
	return 0;
}

int eel_data_path(const char *name, char *out, size_t n)
{
	char exe[PATH_MAX], cand[3][PATH_MAX + 64];
	const char *env = getenv("EEL_DATA_DIR"), *bindir = ".";
	ssize_t len;

	if (env && *env) {
		snprintf(cand[0], sizeof(cand[0]), "%s/%s", env, name);
		if (is_file(cand[0]))
			return found(cand[0], out, n);
		return eel_err(-ENOENT, "no readable file %s (EEL_DATA_DIR is %s): unset EEL_DATA_DIR or "
			       "point it at eel's data folder", cand[0], env);
	}
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[len > 0 ? len : 0] = 0;
	if (len > 0)
		bindir = dirname(exe);
	snprintf(cand[0], sizeof(cand[0]), "%s/../share/eel/%s", bindir, name);
	snprintf(cand[1], sizeof(cand[1]), "%s/../data/%s", bindir, name);
	snprintf(cand[2], sizeof(cand[2]), "%s/data/%s", EEL_SRC_DIR, name);
	for (int k = 0; k < 3; k++)
		if (is_file(cand[k]))
			return found(cand[k], out, n);
	return eel_err(-ENOENT, "eel's data file %s is in none of %s, %s, %s: install eel (make install) "
		       "or set EEL_DATA_DIR", name, cand[0], cand[1], cand[2]);
}
