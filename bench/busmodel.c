/* SPDX-License-Identifier: MIT */
/* bench/busmodel.c — `eel-bench -t busmodel`: the bus model alone
 * (userlib/engine/bus_model.c, preset pcie-gen3x8) beside pcie-bench's
 * published PCIe Gen 3 x8 figures (Neugebauer et al. 2018; data/pcie_bench.csv,
 * with their source): DMA read round trips by size, the usable TLP bandwidth,
 * and the write and read efficiencies. Each row within its tolerance (5% for
 * latency, 2% for bandwidth) or the run fails. No NIC is opened.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"

/* The figures: FILE (--bus-data), else data/pcie_bench.csv where eel_data_path finds it. */
static FILE *open_data(const char *path, char *used, size_t n)
{
	if (path) {
		snprintf(used, n, "%s", path);
		return fopen(path, "r");
	}
	if (eel_data_path("pcie_bench.csv", used, n)) {
		fprintf(stderr, "eel-bench: busmodel: %s\n", eel_errmsg());
		errno = ENOENT;
		return NULL;
	}
	return fopen(used, "r");
}

/* The model's figure for a row of the data. */
static int model(const struct eel_bus *p, const char *what, uint64_t size, double *v)
{
	if (!strcmp(what, "dma_read_latency"))
		*v = eel_bus_read_ns(p, size);
	else if (!strcmp(what, "tlp_bandwidth"))
		*v = eel_bus_tlp_gbps(p);
	else if (!strcmp(what, "write_bandwidth"))
		*v = eel_bus_write_gbps(p, size);
	else if (!strcmp(what, "read_bandwidth"))
		*v = eel_bus_read_gbps(p, size);
	else
		return -1;
	return 0;
}

int busmodel_run(FILE *out, const char *data, struct busmodel_res *res)
{
	struct eel_bus p;
	char used[4200], line[512];
	FILE *f = open_data(data, used, sizeof(used));
	int n = 0, lineno = 0, header = 0;

	if (!f) {
		fprintf(stderr, "eel-bench: busmodel: cannot read %s (%s): give the file with --bus-data FILE\n", used,
			strerror(errno));
		return -1;
	}
	eel_bus_preset("pcie-gen3x8", &p);
	memset(res, 0, sizeof(*res));
	if (out) {
		char d[200];

		eel_bus_describe(&p, d, sizeof(d));
		fprintf(out, "eel-bench busmodel: the bus model alone against pcie-bench's PCIe Gen 3 x8 "
			"(Neugebauer et al. 2018; %s)\n  %s\n\n", used, d);
		fprintf(out, "  %-18s %7s %12s %12s %8s %6s\n", "figure", "size", "paper", "model", "diff", "within");
	}
	while (fgets(line, sizeof(line), f)) {
		char what[48], unit[16];
		unsigned long long size;
		double paper, tol, v;
		struct busmodel_row *r;

		lineno++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (!header++)
			continue; /* the column names */
		if (sscanf(line, "%47[^,],%llu,%lf,%15[^,],%lf", what, &size, &paper, unit, &tol) != 5 ||
		    model(&p, what, size, &v) || !(paper > 0) || n == BUSMODEL_ROWS) {
			fprintf(stderr, "eel-bench: busmodel: %s line %d is not a figure this model gives "
				"(measurement,size_bytes,value,unit,tolerance_pct,note)\n", used, lineno);
			fclose(f);
			return -1;
		}
		r = &res->row[n++];
		snprintf(r->what, sizeof(r->what), "%s", what);
		snprintf(r->unit, sizeof(r->unit), "%s", unit);
		r->size = size;
		r->paper = paper;
		r->model = v;
		r->tolerance_pct = tol;
		r->diff_pct = (v / paper - 1) * 100;
		r->within = fabs(r->diff_pct) <= tol;
		res->outside += !r->within;
		if (out)
			fprintf(out, "  %-18s %5llu B %9.2f %-3s %9.2f %-3s %+7.2f%% %6s\n", what, size, paper, unit, v,
				unit, r->diff_pct, r->within ? "yes" : "NO");
	}
	fclose(f);
	res->n = n;
	if (!n) {
		fprintf(stderr, "eel-bench: busmodel: %s has no figures\n", used);
		return -1;
	}
	if (out)
		fprintf(out, "\n  %d of %d figures within their tolerance (latency 5%%, bandwidth 2%%)\n", n - res->outside,
			n);
	return res->outside ? 1 : 0;
}
