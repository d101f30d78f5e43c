/* SPDX-License-Identifier: MIT */
/* bench/busmodel.h — -t busmodel: the bus model beside pcie-bench's figures, its table and its own JSON document. */
#ifndef EEL_BENCH_BUSMODEL_H
#define EEL_BENCH_BUSMODEL_H

#include <stdint.h>
#include <stdio.h>

/* busmodel.c: each host's preset beside pcie-bench's measurements of that
 * host (data/pcie_bench.csv) */
#define BUSMODEL_ROWS 256
struct busmodel_row {
	char host[48], what[48], unit[16];
	char why[200];            /* a row not claimed: why (the data's source column, after "not claimed: ") */
	uint64_t size;
	double paper, model, diff_pct, tolerance_pct;
	int within, claimed;
};
struct busmodel_res {
	char data[4200];          /* the figures' file */
	int n, outside, unclaimed; /* outside: claimed rows outside their tolerance; unclaimed: rows the model does not claim */
	struct busmodel_row row[BUSMODEL_ROWS];
};
/* 0 when every claimed figure is within its tolerance, 1 when one is not,
 * -1 when the data cannot be read (said on stderr). out: the table, or NULL. */
int busmodel_run(FILE *out, const char *data, struct busmodel_res *res);
/* -t busmodel --json FILE: its own small document (schema eel.busmodel,
 * docs/json.md); 0, or -1 said on stderr. */
int busmodel_json(const char *path, const struct busmodel_res *res, int argc, char **argv);

#endif
