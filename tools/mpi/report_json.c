/* SPDX-License-Identifier: MIT */
/* tools/mpi/report_json.c — eel-mpi's run as one JSON document, schema
 * "eel.mpi" version 2 (docs/launch.md, "eel-mpi's JSON"),
 * built with jansson (Debian libjansson-dev) as eel-bench's bench/report/json.c
 * builds "eel.run": members in the order given, ten significant digits,
 * NaN and inf as null. Times in ns, sizes in bytes, the unit in each key.
 * Written to a temporary file in the same folder and renamed over the path:
 * a run that fails leaves nothing half-written.
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <eel/eel.h>

#include "report.h"

/* a number; null when not finite */
static void num(json_t *o, const char *key, double v)
{
	json_object_set_new(o, key, isfinite(v) ? json_real(v) : json_null());
}

static void uint_(json_t *o, const char *key, uint64_t v)
{
	json_object_set_new(o, key, json_integer((json_int_t)v));
}

static void str(json_t *o, const char *key, const char *v)
{
	json_t *s = json_string(v ? v : "");

	/* not UTF-8 (a URI given in another encoding): said as such */
	json_object_set_new(o, key, s ? s : json_string("(not UTF-8)"));
}

static json_t *fig2_tier(const struct mpi_run *r, int t)
{
	const struct fig2 *f = &r->fig[t];
	const struct mpi_loggp *l = &r->loggp[t];
	json_t *o = json_object(), *rows = json_array(), *lg = json_object(), *pr = json_object(), *pp = json_object();
	uint32_t k = f->size[f->nsizes - 1];

	str(o, "tier", t ? "inter-node" : "intra-node");
	uint_(o, "peer_rank", (uint64_t)r->tier_peer[t]);
	for (int m = 0; m < MODES; m++)
		for (int i = 0; i < f->nsizes; i++) {
			json_t *row = json_object();

			str(row, "mode", mode_name[m]);
			str(row, "kind", MODE_NONBLOCKING(m) ? "non-blocking" : "blocking");
			uint_(row, "size_bytes", f->size[i]);
			num(row, "timer11_ns", f->t11[m][i]);
			num(row, "timer12_ns", f->t12[m][i]);
			num(row, "timer21_ns", f->t21[m][i]);
			num(row, "timer22_ns", f->t22[m][i]);
			if (!MODE_NONBLOCKING(m))
				str(row, "protocol_nearest", proto_name[proto_nearest(l, f->size[i], f->t11[m][i])]);
			json_array_append_new(rows, row);
		}
	json_object_set_new(o, "fig2", rows);
	num(lg, "o_s_ns", l->o_s);
	num(lg, "o_r_ns", l->o_r);
	num(lg, "L_ns", l->L);
	num(lg, "g_ns", l->g);
	num(lg, "G_ns_per_byte", l->have_G ? l->G : NAN);
	json_object_set_new(o, "loggp", lg);
	uint_(pr, "size_bytes", k);
	for (int p = 0; p < PROTOS; p++) {
		char key[32];

		snprintf(key, sizeof(key), "%s_deliver_ns", proto_name[p]);
		num(pr, key, proto_deliver_ns(l, p, k));
		snprintf(key, sizeof(key), "%s_send_ns", proto_name[p]);
		num(pr, key, proto_send_ns(l, p, k));
	}
	json_object_set_new(o, "protocols", pr);
	num(pp, "half_rtt_8B_ns", r->pp[t][0]);
	num(pp, "half_rtt_1MiB_ns", r->pp[t][1]);
	num(pp, "bandwidth_1MiB_bytes_per_ns", r->pp[t][1] > 0 ? 1048576 / r->pp[t][1] : 0);
	json_object_set_new(o, "pingpong", pp);
	return o;
}

static json_t *overlap(const struct bell_overlap *ov, const char *method)
{
	json_t *o = json_object(), *d = json_array(), *t = json_array();

	num(o, "ns", ov->o_ns);
	num(o, "sweeps_min_ns", ov->o_min_ns);
	num(o, "sweeps_max_ns", ov->o_max_ns);
	uint_(o, "sweeps", (uint64_t)ov->nsweeps);
	num(o, "g_ns", ov->curve.g_ns);
	num(o, "dmax_ns", ov->curve.dmax_ns);
	json_object_set_new(o, "rose_at_first", json_boolean(ov->curve.rose_at_first));
	for (int i = 0; i < ov->curve.n; i++) {
		json_array_append_new(d, json_real(ov->curve.d_ns[i]));
		json_array_append_new(t, json_real(ov->curve.t_ns[i]));
	}
	json_object_set_new(o, "curve_d_ns", d);
	json_object_set_new(o, "curve_ns_per_msg", t);
	str(o, "method", method);
	return o;
}

static json_t *bell(const struct mpi_run *r)
{
	const struct bell *b = r->bell;
	json_t *o = json_object(), *p = json_object(), *fl = json_array(), *x;

	uint_(o, "peer_rank", 1);
	x = json_object();
	num(x, "ns", b->eel_ns);
	num(x, "median_ns", b->eel_median_ns);
	str(x, "method", "Bell et al. 2003 4.1: ping-pong of 8 bytes, MPI_Isend/MPI_Irecv, RTT/2, min over runs");
	json_object_set_new(p, "eel", x);
	json_object_set_new(p, "o_s", overlap(&b->os, "Bell et al. 2003 4.3: flood q=1 of 8 bytes, computation "
					      "between MPI_Isend and MPI_Wait; o_s = g - D_max"));
	json_object_set_new(p, "o_r", overlap(&b->or_, "Bell et al. 2003 4.3 as eel-bench: n MPI_Irecv posted, the "
					       "first message, (n - 1) x D in isolation, one MPI_Waitall; o_r = g - D_max"));
	json_object_set_new(p, "o_r_irecv", overlap(&b->or_irecv, "Bell et al. 2003 4.3 for receive calls: computation "
						     "between MPI_Irecv and MPI_Wait, timed by the receiver; o_r = g - D_max"));
	x = json_object();
	num(x, "ns", b->g_ns);
	uint_(x, "q", b->g_q);
	str(x, "method", "Bell et al. 2003 4.2: flood of 8-byte MPI_Isend, min over runs, best queue depth");
	json_object_set_new(p, "g", x);
	x = json_object();
	num(x, "ns_per_byte", b->G_ns_per_byte); /* null (NAN): no size was bandwidth-bound */
	uint_(x, "q", b->G_q);
	uint_(x, "from_size_bytes", b->G_from);
	str(x, "method", "Bell et al. 2003 4.2: least-squares slope of the time per message over the "
		      "bandwidth-bound sizes (from_size_bytes up) at the depth that gave g");
	json_object_set_new(p, "G", x);
	json_object_set_new(o, "parameters", p);
	for (int i = 0; i < b->npt; i++) {
		x = json_object();
		uint_(x, "size_bytes", b->pt[i].size);
		uint_(x, "q", b->pt[i].q);
		uint_(x, "msgs", (uint64_t)b->pt[i].msgs);
		num(x, "min_ns", b->pt[i].min_ns);
		num(x, "median_ns", b->pt[i].median_ns);
		json_array_append_new(fl, x);
	}
	json_object_set_new(o, "flood", fl);
	return o;
}

static json_t *eel_side(const struct mpi_run *r)
{
	const struct eel_figs *e = r->eel;
	const struct bell *b = r->bell;
	json_t *o = json_object(), *p = json_object(), *d = json_object();

	str(o, "uri", r->uri);
	str(o, "backend", e->backend);
	str(o, "server_host", e->server_host);
	str(o, "method", "eel-bench's two-host TCP mode, server on rank 1's host, client on rank 0's, "
		      "before the MPI measurements: -t pingpong,flood,overlap with the same counts");
	num(p, "eel_ns", e->eel_ns);
	num(p, "o_s_ns", e->o_s_ns);
	num(p, "o_r_ns", e->o_r_ns);
	num(p, "g_ns", e->g_ns);
	num(p, "G_ns_per_byte", e->G_ns_per_byte);
	json_object_set_new(o, "parameters", p);
	num(d, "eel_ns", b->eel_ns - e->eel_ns);
	num(d, "o_s_ns", b->os.o_ns - e->o_s_ns);
	num(d, "o_r_ns", b->or_.o_ns - e->o_r_ns);
	num(d, "g_ns", b->g_ns - e->g_ns);
	num(d, "G_ns_per_byte", b->G_ns_per_byte - e->G_ns_per_byte);
	json_object_set_new(o, "mpi_minus_eel", d);
	return o;
}

static json_t *options(const struct mpi_run *r)
{
	const struct bell_opts *b = r->bo;
	json_t *o = json_object(), *s = json_array(), *fs = json_array(), *q = json_array();

	for (int i = 0; i < r->fig[r->tier_peer[0] > 0 ? 0 : 1].nsizes; i++)
		json_array_append_new(s, json_integer(r->fig[r->tier_peer[0] > 0 ? 0 : 1].size[i]));
	json_object_set_new(o, "sizes_bytes", s);
	uint_(o, "reps", (uint64_t)r->fo->reps);
	uint_(o, "warm", (uint64_t)r->fo->warm);
	num(o, "delta_ns", r->fo->delta_ns);
	uint_(o, "pp_iters", (uint64_t)r->fo->pp_iters);
	uint_(o, "bell_iters", (uint64_t)b->iters);
	uint_(o, "bell_runs", (uint64_t)b->runs);
	uint_(o, "bell_warmup", (uint64_t)b->warmup);
	for (int i = 0; i < b->nsizes; i++)
		json_array_append_new(fs, json_integer(b->size[i]));
	json_object_set_new(o, "flood_sizes_bytes", fs);
	for (int i = 0; i < b->ndepths; i++)
		json_array_append_new(q, json_integer(b->depth[i]));
	json_object_set_new(o, "depths", q);
	uint_(o, "flood_msgs", (uint64_t)b->flood_msgs);
	uint_(o, "flood_bytes", b->flood_bytes);
	uint_(o, "overlap_msgs", (uint64_t)b->ov_msgs);
	uint_(o, "overlap_runs", (uint64_t)b->ov_runs);
	uint_(o, "overlap_sweeps", (uint64_t)b->ov_sweeps);
	return o;
}

static json_t *document(const struct mpi_run *r)
{
	json_t *doc = json_object(), *tiers = json_array();

	str(doc, "schema", "eel.mpi");
	uint_(doc, "schema_version", MPI_SCHEMA_VERSION);
	str(doc, "eel_version", EEL_VERSION);
	str(doc, "command", r->command);
	uint_(doc, "ranks", (uint64_t)r->ranks);
	json_object_set_new(doc, "options", options(r));
	for (int t = 0; t < 2; t++)
		if (r->tier_peer[t] > 0)
			json_array_append_new(tiers, fig2_tier(r, t));
	json_object_set_new(doc, "tiers", tiers);
	if (r->tier_peer[0] > 0 && r->tier_peer[1] > 0) {
		json_t *h = json_object();

		num(h, "s_s_ns", r->loggp[0].o_s);
		num(h, "s_r_ns", r->loggp[0].o_r);
		num(h, "S_ns_per_byte", r->loggp[0].have_G ? r->loggp[0].G : NAN);
		num(h, "o_s_ns", r->loggp[1].o_s);
		num(h, "o_r_ns", r->loggp[1].o_r);
		num(h, "L_ns", r->loggp[1].L);
		num(h, "G_ns_per_byte", r->loggp[1].have_G ? r->loggp[1].G : NAN);
		json_object_set_new(doc, "logh", h);
	}
	json_object_set_new(doc, "bell", bell(r));
	json_object_set_new(doc, "eel", r->eel ? eel_side(r) : json_null());
	if (r->have_netpipe) {
		json_t *n = json_object();
		double lat = r->pp[r->np_tier][0], t1 = r->pp[r->np_tier][1], bw = t1 > 0 ? 1048576 / t1 : 0;

		num(n, "netpipe_latency_8B_ns", r->np_lat_ns);
		num(n, "eel_mpi_latency_8B_ns", lat);
		num(n, "latency_ratio", lat / r->np_lat_ns);
		num(n, "netpipe_bandwidth_1MiB_bytes_per_ns", r->np_bw_bytes_per_ns);
		num(n, "eel_mpi_bandwidth_1MiB_bytes_per_ns", bw);
		num(n, "bandwidth_ratio", bw / r->np_bw_bytes_per_ns);
		json_object_set_new(doc, "netpipe", n);
	} else {
		json_object_set_new(doc, "netpipe", json_null());
	}
	return doc;
}

/* path names an existing folder */
static int is_folder(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* a new temporary file beside path (its name in *tmp): its FILE, or NULL with err said */
static FILE *beside(const char *path, char **tmp, char *err, size_t errlen)
{
	size_t n = strlen(path);
	FILE *f = NULL;
	int fd = -1;

	*tmp = malloc(n + 8);
	if (*tmp) {
		snprintf(*tmp, n + 8, "%s.XXXXXX", path);
		fd = mkstemp(*tmp);
		f = fd >= 0 ? fdopen(fd, "w") : NULL;
	}
	if (!f) {
		snprintf(err, errlen, "--json %s: cannot write beside it (%s): give a path in a folder you can write",
			 path, strerror(*tmp ? errno : ENOMEM));
		if (fd >= 0) {
			close(fd);
			unlink(*tmp);
		}
		free(*tmp);
		*tmp = NULL;
	}
	return f;
}

int mpi_json_check(const char *path, char *err, size_t errlen)
{
	char *tmp;
	FILE *f;

	if (is_folder(path)) {
		snprintf(err, errlen, "--json %s is a folder: give a file in it, e.g. --json %s/mpi.json", path, path);
		return -1;
	}
	f = beside(path, &tmp, err, errlen);
	if (!f)
		return -1;
	fclose(f);
	unlink(tmp);
	free(tmp);
	return 0;
}

int mpi_json_write(const char *path, const struct mpi_run *r, char *err, size_t errlen)
{
	json_t *doc = document(r);
	char *tmp = NULL;
	FILE *f = doc ? beside(path, &tmp, err, errlen) : NULL;
	int rc = -1;

	if (!doc)
		snprintf(err, errlen, "--json %s: out of memory", path);
	if (!f)
		goto out;
	if (json_dumpf(doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10)) ||
	    fputc('\n', f) == EOF || fflush(f) || fsync(fileno(f))) {
		snprintf(err, errlen, "--json %s: writing failed (%s)", path, strerror(errno));
		fclose(f);
		unlink(tmp);
		goto out;
	}
	if (fclose(f) || rename(tmp, path)) {
		snprintf(err, errlen, "--json %s: %s", path, strerror(errno));
		unlink(tmp);
		goto out;
	}
	rc = 0;
out:
	json_decref(doc);
	free(tmp);
	return rc;
}
