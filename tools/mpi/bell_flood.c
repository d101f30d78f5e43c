/* SPDX-License-Identifier: MIT */
/* tools/mpi/bell_flood.c — Bell et al. 2003 §4.2, the flood test over MPI:
 * "the benchmark initiates q sends, waits for q/2 of these messages to
 * complete locally, then issues another q/2 new sends ... until all messages
 * are issued. The last q worth of outstanding sends is then completed.
 * Finally, the sender waits for a single reply from the receiver"; time /
 * messages is g at 8 bytes, and G from the times at larger sizes. Sizes and
 * depths as eel-bench's flood (bench/flood.c): 8 B .. 128 KiB in powers of
 * two, q = 1 .. 64; each point the least over --flood-runs runs; g the best
 * 8-byte time over the depths, G the least-squares slope of the time per
 * message over the bandwidth-bound sizes (those at or above M = g/G of the
 * two largest, at least those two) at g's depth, or where the times do not
 * grow with the size there, at the next best depth that gives a slope.
 * MPI_Isend from a ring of q buffers; the receiver keeps q MPI_Irecv posted
 * so that it is never the reason a send waits.
 */
#include <math.h>
#include <string.h>

#include "bell.h"
#include "method/fit.h"
#include "model.h"
#include "method/stats.h"
#include "wtime.h"

#define FLOOD_MIN_MSGS 128

double bell_flood_run(MPI_Comm pc, uint32_t size, uint32_t q, int n, double ds, double dr, char *buf,
		      MPI_Request *r)
{
	int me, issued = 0, done = 0, half = q / 2 ? (int)(q / 2) : 1;
	double t0 = 0;

	MPI_Comm_rank(pc, &me);
	MPI_Barrier(pc);
	if (me == 0) {
		t0 = now_ns();
		while (done < n) {
			while (issued < n && issued - done < (int)q) {
				MPI_Isend(buf + (size_t)(issued % q) * size, (int)size, MPI_BYTE, 1, BELL_TAG_DATA, pc,
					  &r[issued % q]);
				compute_ns(ds);   /* §4.3: between initiating the send and completing it */
				issued++;
			}
			for (int k = 0; k < half && done < issued; k++, done++)
				MPI_Wait(&r[done % q], MPI_STATUS_IGNORE);
		}
		MPI_Recv(NULL, 0, MPI_BYTE, 1, BELL_TAG_REPLY, pc, MPI_STATUS_IGNORE);
		return (now_ns() - t0) / n;
	}
	for (; issued < n && issued < (int)q; issued++)
		MPI_Irecv(buf + (size_t)issued * size, (int)size, MPI_BYTE, 0, BELL_TAG_DATA, pc, &r[issued]);
	for (int i = 0; i < n; i++) {
		if (i > 0)
			compute_ns(dr);   /* §4.3: between the start of the receive and its completion */
		MPI_Wait(&r[i % q], MPI_STATUS_IGNORE);
		if (i == 0)
			t0 = now_ns();
		if (issued < n) {
			MPI_Irecv(buf + (size_t)(issued % q) * size, (int)size, MPI_BYTE, 0, BELL_TAG_DATA, pc,
				  &r[issued % q]);
			issued++;
		}
	}
	{
		double t = n > 1 ? (now_ns() - t0) / (n - 1) : 0;

		MPI_Send(NULL, 0, MPI_BYTE, 0, BELL_TAG_REPLY, pc);
		return t;
	}
}

static const struct bell_flood_point *point_at(const struct bell *b, uint32_t size, uint32_t q)
{
	for (int i = 0; i < b->npt; i++)
		if (b->pt[i].size == size && b->pt[i].q == q)
			return &b->pt[i];
	return NULL;
}

/* the slope of the least times over the sizes from `from` up at depth q; 0: none */
static double slope_from(const struct bell_opts *o, const struct bell *b, uint32_t q, uint32_t from)
{
	double x[BELL_MAX_SIZES], y[BELL_MAX_SIZES];
	struct fit_line line;
	int n = 0;

	for (int k = 0; k < o->nsizes; k++) {
		const struct bell_flood_point *p = point_at(b, o->size[k], q);

		if (p && o->size[k] >= from) {
			x[n] = o->size[k];
			y[n++] = p->min_ns;
		}
	}
	return fit_linear(x, y, n, &line) ? 0 : line.b;
}

/* G at depth q over the bandwidth-bound sizes (*from: the smallest of them) */
static double G_at(const struct bell_opts *o, const struct bell *b, uint32_t q, uint32_t *from)
{
	double G0;

	*from = 0;
	if (o->nsizes < 2)
		return 0;
	*from = o->size[o->nsizes - 2];
	G0 = slope_from(o, b, q, *from);
	for (int k = 0; G0 > 0 && k + 2 < o->nsizes; k++)
		if (o->size[k] >= b->g_ns / G0) {
			*from = o->size[k];
			break;
		}
	return slope_from(o, b, q, *from);
}

void bell_flood_derive(const struct bell_opts *o, struct bell *b)
{
	char tried[BELL_MAX_DEPTHS] = { 0 };

	b->g_ns = 0;
	b->G_ns_per_byte = NAN; /* not measured until a depth gives a slope: null in the JSON, "-" in the table */
	b->g_q = b->G_q = b->G_from = 0;
	for (int k = 0; k < o->ndepths; k++) {
		const struct bell_flood_point *p = point_at(b, o->size[0], o->depth[k]);

		if (p && (!b->g_ns || p->min_ns < b->g_ns)) {
			b->g_ns = p->min_ns;
			b->g_q = p->q;
		}
	}
	/* the depths in order of their 8-byte time, g's first, until one gives a slope */
	for (;;) {
		const struct bell_flood_point *best = NULL;
		int at = -1;
		uint32_t from;
		double G;

		for (int k = 0; k < o->ndepths; k++) {
			const struct bell_flood_point *p = point_at(b, o->size[0], o->depth[k]);

			if (p && !tried[k] && (!best || p->min_ns < best->min_ns)) {
				best = p;
				at = k;
			}
		}
		if (!best)
			break;
		tried[at] = 1;
		G = G_at(o, b, best->q, &from);
		if (G > 0) {
			b->G_ns_per_byte = G;
			b->G_q = best->q;
			b->G_from = from;
			return;
		}
	}
	b->G_q = b->g_q;
}

int bell_flood(MPI_Comm pc, const struct bell_opts *o, char *sbuf, char *rbuf, MPI_Request *r, struct bell *b)
{
	int me;

	MPI_Comm_rank(pc, &me);
	b->npt = 0;
	for (int a = 0; a < o->nsizes; a++)
		for (int k = 0; k < o->ndepths; k++) {
			uint32_t size = o->size[a], q = o->depth[k];
			/* as eel-bench's: --flood-bytes' worth, 128 at least, --flood-msgs at most */
			int n = (int)(o->flood_bytes / size) < FLOOD_MIN_MSGS ? FLOOD_MIN_MSGS : (int)(o->flood_bytes / size);
			double v[BELL_MAX_RUNS];
			struct bell_flood_point *p = &b->pt[b->npt++];

			n = n < o->flood_msgs ? n : o->flood_msgs;
			for (int run = 0; run < o->flood_runs; run++)
				v[run] = bell_flood_run(pc, size, q, n, 0, 0, me == 0 ? sbuf : rbuf, r);
			*p = (struct bell_flood_point){ .size = size, .q = q, .msgs = n, .min_ns = v[0] };
			for (int run = 1; run < o->flood_runs; run++)
				p->min_ns = v[run] < p->min_ns ? v[run] : p->min_ns;
			p->median_ns = stat_median(v, o->flood_runs);
		}
	if (me == 0)
		bell_flood_derive(o, b);
	return 0;
}
