/* SPDX-License-Identifier: MIT */
/* bench/busmodel.c — `eel-bench -t busmodel`: the bus model alone
 * (userlib/engine/bus_model.c) with each measured host's preset beside
 * pcie-bench's measurements of that host (Neugebauer et al. 2018;
 * data/pcie_bench.csv, with their source): DMA read round trips, a write
 * then a read, DMA read and write bandwidth by size, a cold line, memory on
 * the other socket, an IOTLB miss and superpages. Each row the model claims
 * within its tolerance (5% for latency, 10% for bandwidth) or the run fails;
 * then every preset's parameters with their provenance. No NIC is opened.
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

/* The median of 4096 random 64-byte reads in a 4 MiB window (pcie-bench's
 * lat_dma_sweep, the iommu rows' window) through an IOTLB of 64 entries
 * (VT-d's size is not published; any of 2..256 gives the same median here):
 * the read, plus a miss when more than half of them miss (after 1024 to warm
 * it). */
static double iommu_median(struct eel_bus p, int superpages)
{
	static struct eel_bus_iotlb t;
	uint64_t x = 1, misses = 0;

	memset(&t, 0, sizeof(t));
	p.iotlb_entries = 64;
	p.superpages = (uint32_t)superpages;
	for (int i = 0; i < 4096 + 1024; i++) {
		uint32_t m;

		x = x * 6364136223846793005ull + 1442695040888963407ull;
		m = eel_bus_iotlb_misses(&t, &p, ((x >> 33) % (4u << 20)) & ~63ull, 64);
		misses += i >= 1024 ? m : 0;
	}
	return eel_bus_read_ns(&p, 64) + (misses > 2048 ? p.iommu_miss_ns : 0);
}

/* The model's figure for a row of the data: the host's preset p, with a
 * cold line or memory on the other socket added for those rows (bus.h's
 * EEL_BUS_COLD_NS, EEL_BUS_NUMA_NS: a warm local host's presets leave them
 * out). */
static int model(struct eel_bus p, const char *what, uint64_t size, double *v)
{
	if (!strcmp(what, "dma_read_latency"))
		*v = eel_bus_read_ns(&p, size);
	else if (!strcmp(what, "dma_write_read_latency"))
		*v = eel_bus_write_read_ns(&p, size);
	else if (!strcmp(what, "tlp_bandwidth"))
		*v = eel_bus_tlp_gbps(&p);
	else if (!strcmp(what, "write_bandwidth"))
		*v = eel_bus_write_stream_gbps(&p, size);
	else if (!strcmp(what, "read_bandwidth"))
		*v = eel_bus_read_stream_gbps(&p, size);
	else if (!strcmp(what, "cold_read_latency")) {
		p.cold_ns = EEL_BUS_COLD_NS;
		*v = eel_bus_read_ns(&p, size);
	} else if (!strcmp(what, "remote_read_latency")) {
		p.numa_ns = EEL_BUS_NUMA_NS;
		*v = eel_bus_read_ns(&p, size);
	} else if (!strcmp(what, "iommu_read_latency") && size == 64)
		*v = iommu_median(p, 0);
	else if (!strcmp(what, "superpage_read_latency") && size == 64)
		*v = iommu_median(p, 1);
	else
		return -1;
	return 0;
}

#define BUSMODEL_COLUMNS "host,measurement,size_bytes,value,unit,tolerance_pct,claimed,source"

/* One line of the data into *r (its model's figure too); -1: not a figure this model gives. */
static int parse_row(const char *line, struct busmodel_row *r)
{
	char host[48], what[48], unit[16], claim[8];
	unsigned long long size;
	double paper, tol, v;
	struct eel_bus p;
	const char *why;

	if (sscanf(line, "%47[^,],%47[^,],%llu,%lf,%15[^,],%lf,%7[^,],", host, what, &size, &paper, unit, &tol,
		   claim) != 7 || eel_bus_preset(host, &p) || model(p, what, size, &v) || !(paper > 0) ||
	    (strcmp(claim, "yes") && strcmp(claim, "no")))
		return -1;
	memset(r, 0, sizeof(*r));
	safe_text(host, r->host, sizeof(r->host));   /* printed and written: no escapes from the file */
	snprintf(r->what, sizeof(r->what), "%s", what);
	safe_text(unit, r->unit, sizeof(r->unit));
	r->size = size;
	r->paper = paper;
	r->model = v;
	r->tolerance_pct = tol;
	r->diff_pct = (v / paper - 1) * 100;
	r->within = fabs(r->diff_pct) <= tol;
	r->claimed = !strcmp(claim, "yes");
	if (!r->claimed && (why = strstr(line, "not claimed: "))) {
		char text[sizeof(r->why)];

		why += strlen("not claimed: ");
		snprintf(text, sizeof(text), "%.*s", (int)strcspn(why, "\r\n"), why);
		safe_text(text, r->why, sizeof(r->why));
	}
	return 0;
}

/* The rows the model does not claim, each with the data's reason. */
static void print_unclaimed(FILE *out, const struct busmodel_res *res)
{
	fprintf(out, "\n  the rows not claimed, and why (the data's source column):\n");
	for (int i = 0; i < res->n; i++) {
		const struct busmodel_row *r = &res->row[i];

		if (!r->claimed)
			fprintf(out, "    %s %s %llu B: %s\n", r->host, r->what, (unsigned long long)r->size,
				r->why[0] ? r->why : "(no reason given)");
	}
}

static void print_row(FILE *out, const struct busmodel_row *r, const char *prev_host)
{
	struct eel_bus p;
	char d[200];

	if (strcmp(prev_host, r->host)) {
		eel_bus_preset(r->host, &p);
		eel_bus_describe(&p, d, sizeof(d));
		fprintf(out, "\n  %s\n", d);
	}
	fprintf(out, "  %-24s %5llu B %9.2f %-4s %9.2f %-4s %+7.2f%% %6s\n", r->what, (unsigned long long)r->size,
		r->paper, r->unit, r->model, r->unit, r->diff_pct,
		!r->claimed ? (r->within ? "yes (not claimed)" : "no (not claimed)") : r->within ? "yes" : "NO");
}

/* Every preset's parameters, each with where it comes from (bus_provenance.c). */
static void print_presets(FILE *out)
{
	struct eel_bus p;
	const char *name, *key;
	double v;

	fprintf(out, "\n  the presets' parameters and where each comes from (measured, fitted or assumed):\n");
	for (int i = 0; (name = eel_bus_preset_name(i)); i++) {
		if (!strcmp(name, "none"))
			continue;
		eel_bus_preset(name, &p);
		fprintf(out, "\n  %s\n", name);
		for (int k = 0; (key = eel_bus_param(&p, k, &v)); k++)
			fprintf(out, "    %-15s %9.4g  %s\n", key, v, eel_bus_provenance(name, key));
	}
}

int busmodel_run(FILE *out, const char *data, struct busmodel_res *res)
{
	char line[1024], used[600], prev[48] = "";
	FILE *f;
	int lineno = 0, header = 0;

	memset(res, 0, sizeof(*res));
	if (!(f = open_data(data, res->data, sizeof(res->data))))
		return -1;
	safe_text(res->data, used, sizeof(used));
	if (out)
		fprintf(out, "eel-bench busmodel: each host's preset against pcie-bench's measurements of that host "
			"(Neugebauer et al. 2018; %s)\n\n  %-24s %7s %14s %14s %8s %6s\n", used, "figure", "size",
			"data", "model", "diff", "within");
	while (fgets(line, sizeof(line), f)) {
		struct busmodel_row *r = &res->row[res->n];

		lineno++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (!header++)
			continue; /* the column names */
		if (res->n == BUSMODEL_ROWS || parse_row(line, r)) {
			fprintf(stderr, "eel-bench: busmodel: %s line %d is not a figure this model gives (" BUSMODEL_COLUMNS
				"; host a preset)\n", used, lineno);
			fclose(f);
			return -1;
		}
		res->n++;
		res->outside += r->claimed && !r->within;
		res->unclaimed += !r->claimed;
		if (out)
			print_row(out, r, prev);
		snprintf(prev, sizeof(prev), "%s", r->host);
	}
	fclose(f);
	if (!res->n) {
		fprintf(stderr, "eel-bench: busmodel: %s has no figures\n", used);
		return -1;
	}
	if (out) {
		print_presets(out);
		print_unclaimed(out, res);
		fprintf(out, "\n  %d of %d claimed figures within their tolerance (latency 5%%, bandwidth 10%%); "
			"%d not claimed (docs/bus.md)\n", res->n - res->unclaimed - res->outside, res->n - res->unclaimed,
			res->unclaimed);
	}
	return res->outside ? 1 : 0;
}

/* The document of -t busmodel --json (docs/json.md, `eel.busmodel`): its
 * own schema, not eel.run's, since no NIC is opened and nothing is measured:
 * the model's figures beside the data's, row by row as the table has them,
 * and every preset's parameters with where each comes from. Version 2: rows
 * by host, `claimed`, `presets[]` (version 1: one host, `bus`). */
#define BUSMODEL_SCHEMA_VERSION 2

static void json_presets(struct json *j)
{
	struct eel_bus p;
	const char *name, *key;
	double v;

	json_arr(j, "presets");
	for (int i = 0; (name = eel_bus_preset_name(i)); i++) {
		eel_bus_preset(name, &p);
		json_obj(j, NULL);
		json_str(j, "name", name);
		json_str(j, "kind", p.kind == EEL_BUS_PCIE ? "pcie" : p.kind == EEL_BUS_COHERENT ? "coherent" : "none");
		json_num(j, "tlp_gbps", eel_bus_tlp_gbps(&p));
		json_obj(j, "parameters");
		for (int k = 0; (key = eel_bus_param(&p, k, &v)); k++)
			json_num(j, key, v);
		json_obj_end(j);
		json_obj(j, "provenance");
		for (int k = 0; (key = eel_bus_param(&p, k, &v)); k++)
			json_str(j, key, eel_bus_provenance(name, key));
		json_obj_end(j);
		json_obj_end(j);
	}
	json_arr_end(j);
}

int busmodel_json(const char *path, const struct busmodel_res *res, int argc, char **argv)
{
	struct json j;
	struct out o;
	time_t now = time(NULL);
	char when[32];

	if (out_open(path, &o, 0))
		return -1;
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
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
	json_str(&j, "about", "figures[]: pcie-bench's measurement of a host (paper) beside the model with that "
		  "host's preset (model); diff_pct = model / paper - 1 in %; a claimed row outside tolerance_pct fails "
		  "the run. presets[]: every preset's parameters and where each comes from (measured, fitted, assumed)");
	json_presets(&j);
	json_arr(&j, "figures");
	for (int i = 0; i < res->n; i++) {
		const struct busmodel_row *r = &res->row[i];

		json_obj(&j, NULL);
		json_str(&j, "host", r->host);
		json_str(&j, "measurement", r->what);
		json_u64(&j, "size_bytes", r->size);
		json_str(&j, "unit", r->unit);
		json_num(&j, "paper", r->paper);
		json_num(&j, "model", r->model);
		json_num(&j, "diff_pct", r->diff_pct);
		json_num(&j, "tolerance_pct", r->tolerance_pct);
		json_bool(&j, "claimed", r->claimed);
		json_bool(&j, "within", r->within);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_u64(&j, "within", (uint64_t)(res->n - res->unclaimed - res->outside));
	json_u64(&j, "outside", (uint64_t)res->outside);
	json_u64(&j, "not_claimed", (uint64_t)res->unclaimed);
	return report_json_finish(path, &j, &o);
}
