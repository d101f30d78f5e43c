/* SPDX-License-Identifier: MIT */
/* bench/bus_runs.c — the bus what-if (docs/bus.md): the model's transactions on
 * one 8-byte put's path, the bus in the JSON, and `--bus LIST`'s side-by-side
 * table (Culler et al. 1996 Table 4's layout: a row per parameter, a column
 * per bus, and each bus over the first) with the memory bus's gain beside the
 * published comparisons.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <eel/fw_abi.h>

#include "bus_runs.h"
#include "derived.h"
#include "bench/report/json.h"
#include "bench/report/report.h"

/* The transactions on the path of the ping-pong's 8-byte put (payload in the
 * descriptor, bench/post.c): the doorbell (a posted MMIO write, waited out by
 * the NIC: in the fetch part), the 64-byte descriptor's read (fetch), the
 * receiving NIC's posted writes: the ACK's send-queue consumer index (rx),
 * the payload (dma) and last_rx in the status block, whose flight the host
 * waits out when it sees the payload (detect). The NIC waits for a posted
 * write only beyond the posted credits (eel_bus_write_wait_ns): not for
 * these. */
void bus_path(const struct eel_bus *p, struct bus_path *t)
{
	t->doorbell_ns = eel_bus_write_ns(p, 8);
	t->descriptor_ns = eel_bus_read_ns(p, sizeof(struct eel_fw_sqe));
	t->ack_status_ns = eel_bus_write_wait_ns(p, 8); /* within the posted credits: 0 */
	t->payload_issue_ns = eel_bus_write_wait_ns(p, 8);
	t->payload_seen_ns = eel_bus_dma_write_ns(p, 8); /* the NIC's DMA engine, then the write */
	t->sum_ns = t->doorbell_ns + t->descriptor_ns + t->ack_status_ns + t->payload_issue_ns + t->payload_seen_ns;
	/* the same transactions by kind: the descriptor's read; the ACK's, the
	 * payload's and last_rx's posted writes (the last's flight is the host's
	 * wait); the doorbell; no CQE (the put is unsignalled) */
	t->k_reads = 1;
	t->k_posted = 3;
	t->k_doorbells = 1;
	t->k_completions = 0;
	t->k_host_waits = 1;
	t->k_read_rtt = t->k_reads;
	t->k_posted_flight = t->k_doorbells + t->k_host_waits; /* the flights waited for */
}

void bus_json(struct json *j, const struct eel_bus *p)
{
	struct bus_path t;
	const char *key;
	double v;

	bus_path(p, &t);
	json_obj(j, "bus");
	json_str(j, "name", p->name);
	json_str(j, "kind", p->kind == EEL_BUS_PCIE ? "pcie" : p->kind == EEL_BUS_COHERENT ? "coherent" : "none");
	for (int i = 0; (key = eel_bus_param(p, i, &v)); i++)
		json_num(j, key, v);
	json_num(j, "tlp_gbps", p->kind ? eel_bus_tlp_gbps(p) : 0);
	json_obj(j, "path");
	json_num(j, "doorbell_ns", t.doorbell_ns);
	json_num(j, "descriptor_ns", t.descriptor_ns);
	json_num(j, "ack_status_ns", t.ack_status_ns);
	json_num(j, "payload_issue_ns", t.payload_issue_ns);
	json_num(j, "payload_seen_ns", t.payload_seen_ns);
	json_num(j, "sum_ns", t.sum_ns);
	json_obj_end(j);
	json_obj(j, "k");
	json_num(j, "reads", t.k_reads);
	json_num(j, "posted_writes", t.k_posted);
	json_num(j, "doorbells", t.k_doorbells);
	json_num(j, "completions", t.k_completions);
	json_num(j, "host_waits", t.k_host_waits);
	json_num(j, "read_rtt_ns", t.k_read_rtt);
	json_num(j, "posted_ns", t.k_posted_flight);
	json_obj_end(j);
	json_obj_end(j);
}

/* Bell et al. 2003 4.2's flood at 64 KiB: the point at the deepest queue
 * measured (as perftest's ib_write_bw and the size sweep take theirs), its
 * fastest run as g and G take theirs: bytes x 8 / ns per put, Gb/s. */
const struct flood_point *bus_bw_point(const struct flood_res *f)
{
	const struct flood_point *best = NULL;

	for (int i = 0; f->done && i < f->npt; i++)
		if (f->pt[i].size == BUS_BW_SIZE && f->pt[i].t.min > 0 && (!best || f->pt[i].q > best->q))
			best = &f->pt[i];
	return best;
}

double bus_bw_gbps(const struct flood_point *pt)
{
	return pt->size * 8.0 / pt->t.min;
}

void bus_bw_json(struct json *j, const struct results *r)
{
	const struct flood_point *pt = bus_bw_point(&r->fl);

	if (!pt)
		return;
	json_obj(j, "bandwidth_64k");
	json_num(j, "gbit_per_s", bus_bw_gbps(pt));
	json_u64(j, "size", pt->size);
	json_u64(j, "q", pt->q);
	json_u64(j, "msgs", pt->msgs);
	stat_obj(j, "ns_per_msg", &pt->t);
	json_str(j, "method", "the flood's 65536-byte puts at its deepest queue depth (Bell et al. 2003 4.2): size x 8 "
		 "/ the fastest run's ns per put");
	json_obj_end(j);
}

/* The table's rows: Culler et al. 1996 Table 4's parameters, the bandwidth
 * at 64 KiB, then the breakdown's stages. */
#define NAMED_ROWS 7
static const char *const row_name[NAMED_ROWS] = { "EEL", "o_s", "o_r", "g", "G", "BW 64K", "L" };

/* o_s and o_r are one bus's figures only where they are separable on its
 * NIC (derived.c), as its run's own table and JSON say. */
static int overheads_of(const struct bus_run *b)
{
	return b->r.ov.done && b->s.caps && overheads_separable(b->s.caps, NULL);
}

/* A row's figure for one bus's run, NAN where it was not measured or is
 * not separable. */
static double figure(const struct bus_run *b, int row)
{
	const struct results *r = &b->r;
	const struct flood_point *bw = bus_bw_point(&r->fl);

	switch (row) {
	case 0: return r->pp.done ? r->pp.eel.min : NAN;
	case 1: return overheads_of(b) ? r->ov.os_sweeps.median : NAN;
	case 2: return overheads_of(b) ? r->ov.or_sweeps.median : NAN;
	case 3: return r->fl.done ? r->fl.g_ns : NAN;
	case 4: return r->fl.done && flood_G_measured(&r->fl) ? r->fl.G_ns_per_byte : NAN;
	case 5: return bw ? bus_bw_gbps(bw) : NAN;
	case 6: return r->sig.done && r->sig.L.resolved ? r->sig.L.ns : NAN; /* never a negative duration */
	default: {
		int k = row - NAMED_ROWS;

		return r->bd.done && !r->bd.absorbed[k] && r->bd.have[k] ? r->bd.part[k].mean : NAN;
	}
	}
}

/* The bus named name, else the first whose name begins with it (a preset
 * named further, membus-local for membus), NULL when none is. */
static const struct bus_run *bus_named(const struct bus_run *b, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(b[i].bus.name, name))
			return &b[i];
	for (int i = 0; i < n; i++)
		if (!strncmp(b[i].bus.name, name, strlen(name)))
			return &b[i];
	return NULL;
}

static int ratio_known(const struct bus_run *b, int n, const char *num, const char *den)
{
	const struct bus_run *x = bus_named(b, n, num), *y = bus_named(b, n, den);

	return x && y && x->r.pp.done && y->r.pp.done;
}

static void ratio_line(FILE *f, const struct bus_run *b, int n, const char *num, const char *den, const char *paper)
{
	const struct bus_run *x = bus_named(b, n, num), *y = bus_named(b, n, den);

	if (!ratio_known(b, n, num, den))
		return;
	fprintf(f, "    EEL(%s) / EEL(%s) = %.2f (%+.0f%%)   beside %s\n", x->bus.name, y->bus.name,
		x->r.pp.eel.min / y->r.pp.eel.min, (x->r.pp.eel.min / y->r.pp.eel.min - 1) * 100, paper);
}

/* How the bandwidth row was measured: the flood's point (the same plan on
 * every bus). */
static void bw_note(FILE *f, const struct bus_run *b, int n)
{
	for (int i = 0; i < n; i++) {
		const struct flood_point *pt = bus_bw_point(&b[i].r.fl);

		if (pt) {
			fprintf(f, "  (BW 64K: the flood's %u-byte puts at q=%u, %u puts a run: size x 8 / the fastest of "
				"%d runs' ns per put)\n", pt->size, pt->q, pt->msgs, pt->t.n);
			return;
		}
	}
}

int bus_membus_calibration(const struct limit_res *lim, char *extra, size_t n, char *why, size_t wn)
{
	const struct stat *ow = &lim->one_way;

	extra[0] = why[0] = '\0';
	if (!lim->done || lim->floor || !(ow->median > 0))
		snprintf(why, wn, "no cache-line limit measured here (it needs --pair)");
	else if (ow->spread > BUS_CAL_SPREAD)
		snprintf(why, wn, "the cache-line limit's runs disagree (%.1f ns one way, their interquartile range "
			 "%.0f%% of it, over %.0f%%: a busy machine, or vCPUs moving; pin with --cpu)", ow->median,
			 100 * ow->spread, 100 * BUS_CAL_SPREAD);
	else if (ow->median > BUS_CAL_LINE_MAX_NS)
		snprintf(why, wn, "the cache-line limit took %.1f ns one way, more than %.0f ns, which no line takes "
			 "between two running cores (a busy machine: the peer was not running; pin with --cpu)",
			 ow->median, BUS_CAL_LINE_MAX_NS);
	else {
		snprintf(extra, n, "&posted_ns=%.1f&read_rtt_ns=%.1f", ow->median, 2 * ow->median);
		return 1;
	}
	return 0;
}

double bus_link_gbps(const struct eel_bus *p, uint32_t len)
{
	double rd = eel_bus_read_stream_gbps(p, len), wr = eel_bus_write_stream_gbps(p, len);

	return rd < wr ? rd : wr;
}

/* BW 64K against what the link lets through: its packets' 4096-byte payload
 * reads at the sender and writes at the receiver (the default MTU). */
static void link_note(FILE *f, const struct bus_run *b, int n)
{
	for (int i = 0; i < n; i++) {
		double bw = figure(&b[i], 5), link = bus_link_gbps(&b[i].bus, 4096);

		if (!isnan(bw) && link > 0)
			fprintf(f, "  (BW 64K on %s: %.0f%% of the link's %.2f Gb/s, the lesser of the model's streams of "
				"4096-byte reads, %.2f, and writes, %.2f)\n", b[i].bus.name, 100 * bw / link, link,
				eel_bus_read_stream_gbps(&b[i].bus, 4096), eel_bus_write_stream_gbps(&b[i].bus, 4096));
	}
}

/* Where L is "-": not separable on this NIC, or not resolved from 0 (its
 * why, derived.c; the JSON has it per bus). */
static void L_note(FILE *f, const struct bus_run *b, int n)
{
	for (int i = 0; i < n; i++)
		if (b[i].r.sig.done && !b[i].r.sig.L.resolved && b[i].r.sig.L.why) {
			fprintf(f, "  (L -: %s%s)\n", b[i].r.sig.L.separable ? "not resolved from 0: " : "not separable here: ",
				b[i].r.sig.L.why);
			return;
		}
}

/* o_s and o_r where the NIC runs on the host's CPU: not separable (Bell et
 * al. 2003 4.3's g(q=1) - D_max holds the NIC's work too), said once with
 * that figure of each bus, as a run's own table says it (overlap_report.c). */
static void overheads_note(FILE *f, const struct bus_run *b, int n)
{
	const char *why = NULL;

	for (int i = 0; i < n && !why; i++)
		if (b[i].r.ov.done && b[i].s.caps && !overheads_separable(b[i].s.caps, &why))
			break;
	if (!why)
		return;
	fprintf(f, "  (o_s, o_r -: not separable here: %s;\n   the CPU-overlap test's g(q=1) - D_max, the host's and "
		"the NIC's work, sending/receiving:", why);
	for (int i = 0, k = 0; i < n; i++)
		if (b[i].r.ov.done)
			fprintf(f, "%s %s %.0f/%.0f ns", k++ ? "," : "", b[i].bus.name, b[i].r.ov.os_sweeps.median,
				b[i].r.ov.or_sweeps.median);
	fprintf(f, ")\n");
}

/* Each bus's run's warnings (report_warnings: noise, a machine that changed,
 * a G not measured), as a run's own table prints them: a column of the
 * table is only as good as its run. */
static void warnings_note(FILE *f, const struct bus_run *b, int n)
{
	static struct warning w[MAX_WARNINGS];
	int first = 1;

	for (int i = 0; i < n; i++) {
		int nw = report_warnings(&b[i].s, &b[i].r, w, MAX_WARNINGS);

		for (int k = 0; k < nw; k++, first = 0)
			fprintf(f, "%s  warning (%s): %s\n", first ? "\n" : "", b[i].bus.name, w[k].text);
	}
}

void bus_table(FILE *f, const struct bus_run *b, int n, double total_s)
{
	char d[200];

	fprintf(f, "eel-bench %s: the same NIC firmware on %d buses (model: userlib/engine/bus_model.c; "
		"a column per bus, then each over the first)\n", EEL_VERSION, n);
	for (int i = 0; i < n; i++) {
		eel_bus_describe(&b[i].bus, d, sizeof(d));
		fprintf(f, "  %-14s %s\n", b[i].bus.name, d);
	}
	{
		struct bus_path t;

		bus_path(&b[0].bus, &t);
		fprintf(f, "  k, one 8-byte put's transactions: %u read, %u posted writes, %u doorbell, %u completions,\n"
			"    %u host wait (EEL grows by %u x a step of read_rtt_ns, %u x one of posted_ns)\n", t.k_reads,
			t.k_posted, t.k_doorbells, t.k_completions, t.k_host_waits, t.k_read_rtt, t.k_posted_flight);
	}
	fprintf(f, "\n  %-10s", "");
	for (int i = 0; i < n; i++)
		fprintf(f, " %14.14s", b[i].bus.name);
	for (int i = 1; i < n; i++)
		fprintf(f, " %9.9s", b[i].bus.name);
	fprintf(f, "\n");
	for (int row = 0; row < NAMED_ROWS + STAGE_PARTS; row++) {
		const char *name = row < NAMED_ROWS ? row_name[row] : b[0].r.bd.name[row - NAMED_ROWS];
		double v0 = figure(&b[0], row);
		int any = 0;

		for (int i = 0; i < n; i++)
			any |= !isnan(figure(&b[i], row));
		if (!any || !name[0])
			continue;
		fprintf(f, "  %-10s", name);
		for (int i = 0; i < n; i++) {
			double v = figure(&b[i], row);

			if (isnan(v))
				fprintf(f, " %14s", "-");
			else if (row == 4)
				fprintf(f, " %9.4f ns/B", v);
			else if (row == 5)
				fprintf(f, " %9.2f Gb/s", v);
			else
				fprintf(f, " %11.1f ns", v);
		}
		for (int i = 1; i < n; i++) {
			double v = figure(&b[i], row);

			if (isnan(v) || isnan(v0) || fabs(v0) < 1e-9)
				fprintf(f, " %9s", "-");
			else
				fprintf(f, " %8.2fx", v / v0);
		}
		fprintf(f, "\n");
	}
	fprintf(f, "  (EEL: the minimum over the runs; o_s, o_r: the median sweep; breakdown parts: means)\n");
	bw_note(f, b, n);
	link_note(f, b, n);
	overheads_note(f, b, n);
	L_note(f, b, n);
	warnings_note(f, b, n);
	if (ratio_known(b, n, "membus", "pcie-gen3x8") || ratio_known(b, n, "cxl", "pcie-gen3x8"))
		fprintf(f, "\n  the memory bus against the I/O bus, and the published comparisons (lower is better):\n");
	ratio_line(f, b, n, "membus", "pcie-gen3x8", "Mukherjee et al. 1996: 64-byte round trip 37% lower on the "
		   "memory bus (0.63)");
	ratio_line(f, b, n, "membus", "pcie-gen3x8", "CC-NIC (ASPLOS 2024): minimum latency 77% lower than PCIe NICs "
		   "(0.23)");
	ratio_line(f, b, n, "cxl", "pcie-gen3x8", "a CXL.cache NIC (MICRO 2025): 46% lower than BlueField-3 (0.54)");
	fprintf(f, "\n  time: %.1f s in all (", total_s);
	for (int i = 0; i < n; i++)
		fprintf(f, "%s%s %.1f s", i ? ", " : "", b[i].bus.name, b[i].r.wall_s);
	fprintf(f, ")\n");
}
