/* SPDX-License-Identifier: MIT */
/* tools/compare_mesh.h — eel-compare on two launched runs (mpirun or srun:
 * schema 5 and later, docs/json.md, its sections launch, allpairs,
 * k_to_1, one_to_many): every ordered pair's EEL and g side by side with a verdict,
 * the k-to-1 and 1-to-many curves K by K, a summary. */
#ifndef EEL_TOOLS_COMPARE_MESH_H
#define EEL_TOOLS_COMPARE_MESH_H

#include <stdio.h>

#include "tools/report/doc.h"

/* 1 when r was launched (it has "launch"). */
int mesh_launched(const struct run *r);

/* What a launched run holds, for a line: "4 ranks: allpairs, k-to-1". */
void mesh_describe(const struct run *r, char *buf, size_t n);

struct mesh_cmp;

/* A's and B's pairs matched by rank and host, their curves by K, each figure
 * judged at threshold thr (%). NULL when out of memory. */
struct mesh_cmp *mesh_cmp_new(const struct run *A, const struct run *B, double thr);
void mesh_cmp_free(struct mesh_cmp *m);

/* How many figures both runs have (0: nothing to compare). */
int mesh_cmp_common(const struct mesh_cmp *m);

/* The comparison's notes, tables, summary and last line to f; returns how
 * many figures are worse. */
int mesh_cmp_print(const struct mesh_cmp *m, FILE *f);

#endif
