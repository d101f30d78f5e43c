/* SPDX-License-Identifier: MIT */
/* tools/mpi/bell.c — Bell et al. 2003 section 4 over MPI (tools/mpi/bell.h):
 * the ping-pong (§4.1), the flood (§4.2) and the CPU-overlap test (§4.3), one
 * after another between the two ranks of pc, with their buffers. */
#include <stdlib.h>

#include "bell.h"

int bell_measure(MPI_Comm pc, const struct bell_opts *o, struct bell *b)
{
	uint32_t qmax = 1, smax = o->size[o->nsizes - 1];
	char *sbuf, *rbuf, *iso;
	MPI_Request *r, *iso_r;
	int rc = 0;

	for (int k = 0; k < o->ndepths; k++)
		qmax = o->depth[k] > qmax ? o->depth[k] : qmax;
	sbuf = calloc(qmax, smax > 16 ? smax : 16);
	rbuf = calloc(qmax, smax > 16 ? smax : 16);
	r = calloc(qmax, sizeof(*r));
	iso = calloc((size_t)o->ov_msgs, 8);
	iso_r = calloc((size_t)o->ov_msgs, sizeof(*iso_r));
	if (!sbuf || !rbuf || !r || !iso || !iso_r)
		rc = -1;
	/* both ranks must agree before either starts */
	MPI_Allreduce(MPI_IN_PLACE, &rc, 1, MPI_INT, MPI_MIN, pc);
	if (!rc)
		rc = bell_pingpong(pc, o, sbuf, b) || bell_flood(pc, o, sbuf, rbuf, r, b) ||
		     bell_overlap(pc, o, sbuf, r, iso, iso_r, b) ? -1 : 0;
	free(sbuf);
	free(rbuf);
	free(r);
	free(iso);
	free(iso_r);
	return rc;
}
