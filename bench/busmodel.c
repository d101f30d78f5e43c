/* SPDX-License-Identifier: MIT */
/* bench/busmodel.c — `eel-bench -t busmodel`: the bus model alone
 * (userlib/engine/bus_model.c, preset pcie-gen3x8) beside pcie-bench's
 * published PCIe Gen 3 x8 figures (Neugebauer et al. 2018; data/pcie_bench.csv,
 * with their source): DMA read round trips by size, the usable TLP bandwidth,
 * and the write and read efficiencies. Each row within its tolerance (5% for
 * latency, 2% for bandwidth) or the run fails. No NIC is opened.
 */
#include <errno.h>
#include <time.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <eel/bus.h>

#include "bench.h"
#include "busmodel.h"
#include "bench/report/json.h"
#include "bench/report/outfile.h"
#include "bench/report/report.h"
#include "bench/report/safe_text.h"

/* The figures: FILE (--bus-data), else data/pcie_bench.csv where
 * eel_data_path finds it; a regular file of at most 1 MiB (eel_input_open:
 * a FIFO or a device neither blocks nor spins). NULL: said on stderr. */
#define BUSMODEL_DATA_MAX (1024 * 1024)

static FILE *open_data(const char *path, char *used, size_t n)
{
	char safe[600];
	FILE *f;

	if (!path) {
		if (eel_data_path("pcie_bench.csv", used, n)) {
			fprintf(stderr, "eel-bench: busmodel: %s\n", safe_text(eel_errmsg(), safe, sizeof(safe)));
			return NULL;
		}
		path = used;
	} else {
		snprintf(used, n, "%s", path);
	}
	if (eel_input_open(path, BUSMODEL_DATA_MAX, &f)) {
		fprintf(stderr, "eel-bench: busmodel: %s (--bus-data FILE: pcie-bench's figures, as in "
			"data/pcie_bench.csv)\n",
			safe_text(eel_errmsg(), safe, sizeof(safe)));
		return NULL;
	}
	return f;
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
	char line[512], used[600];
	FILE *f;

	memset(res, 0, sizeof(*res));
	f = open_data(data, res->data, sizeof(res->data));
	int n = 0, lineno = 0, header = 0;

	if (!f)
		return -1;
	safe_text(res->data, used, sizeof(used));
	eel_bus_preset("pcie-gen3x8", &p);
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
		safe_text(unit, r->unit, sizeof(r->unit));   /* printed and written: no escapes from the file */
		r->size = size;
		r->paper = paper;
		r->model = v;
		r->tolerance_pct = tol;
		r->diff_pct = (v / paper - 1) * 100;
		r->within = fabs(r->diff_pct) <= tol;
		res->outside += !r->within;
		if (out)
			fprintf(out, "  %-18s %5llu B %9.2f %-3s %9.2f %-3s %+7.2f%% %6s\n", what, size, paper, r->unit, v,
				r->unit, r->diff_pct, r->within ? "yes" : "NO");
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

/* The document of -t busmodel --json (docs/json.md, `eel.busmodel`): its
 * own schema, not eel.run's, since no NIC is opened and nothing is measured:
 * the model's figures beside the paper's, row by row as the table has them. */
#define BUSMODEL_SCHEMA_VERSION 1

int busmodel_json(const char *path, const struct busmodel_res *res, int argc, char **argv)
{
	struct eel_bus p;
	struct json j;
	struct out o;
	time_t now = time(NULL);
	char when[32];
	const char *key;
	double v;

	if (out_open(path, &o, 0))
		return -1;
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	eel_bus_preset("pcie-gen3x8", &p);
	json_begin(&j, o.f);
	json_str(&j, "schema", "eel.busmodel");
	json_u64(&j, "schema_version", BUSMODEL_SCHEMA_VERSION);
	json_str(&j, "eel_version", EEL_VERSION);
	json_str(&j, "created", when);
	json_arr(&j, "command");
	for (int i = 0; i < argc; i++)
		json_str(&j, NULL, argv[i]);
	json_arr_end(&j);
	json_str(&j, "data", res->data);
	json_obj(&j, "bus");
	json_str(&j, "name", p.name);
	json_str(&j, "kind", "pcie");
	for (int i = 0; (key = eel_bus_param(&p, i, &v)); i++)
		json_num(&j, key, v);
	json_num(&j, "tlp_gbps", eel_bus_tlp_gbps(&p));
	json_obj_end(&j);
	json_arr(&j, "figures");
	for (int i = 0; i < res->n; i++) {
		const struct busmodel_row *r = &res->row[i];

		json_obj(&j, NULL);
		json_str(&j, "measurement", r->what);
		json_u64(&j, "size_bytes", r->size);
		json_str(&j, "unit", r->unit);
		json_num(&j, "paper", r->paper);
		json_num(&j, "model", r->model);
		json_num(&j, "diff_pct", r->diff_pct);
		json_num(&j, "tolerance_pct", r->tolerance_pct);
		json_bool(&j, "within", r->within);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_u64(&j, "within", (uint64_t)(res->n - res->outside));
	json_u64(&j, "outside", (uint64_t)res->outside);
	return report_json_finish(path, &j, &o);
}
