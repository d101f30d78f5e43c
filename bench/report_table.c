/* bench/report_table.c — the terminal report: what a person reads first. */
#include <stdio.h>
#include <string.h>

#include "bench.h"

static double cycles(const struct session *s, double ns)
{
	return ns * s->clk->hz / 1e9;
}

static void row_stat(FILE *f, const struct session *s, const char *name, const struct stat *st,
		     const char *how)
{
	fprintf(f, "  %-20s %10.1f ns %10.1f ns %6.1f %%  %8.0f   %s\n", name, st->min, st->median,
		100 * st->spread, cycles(s, st->min), how);
}

static void row_one(FILE *f, const struct session *s, const char *name, double ns, const char *how)
{
	fprintf(f, "  %-20s %10.1f ns %13s %8s  %8.0f   %s\n", name, ns, "", "", cycles(s, ns), how);
}

static void curves(FILE *f, const struct results *r)
{
	if (r->fl.done) {
		fprintf(f, "\n  flood: ns per message (min of runs) by size and queue depth\n  %10s", "size \\ q");
		for (int i = 0; i < r->fl.npt && r->fl.pt[i].size == r->fl.pt[0].size; i++)
			fprintf(f, " %9u", r->fl.pt[i].q);
		for (int i = 0; i < r->fl.npt; i++) {
			if (i == 0 || r->fl.pt[i].size != r->fl.pt[i - 1].size)
				fprintf(f, "\n  %10u", r->fl.pt[i].size);
			fprintf(f, " %9.1f", r->fl.pt[i].t.min);
		}
		fputc('\n', f);
	}
	if (r->ov.done) {
		const struct overlap_curve *c[2] = { &r->ov.send, &r->ov.recv };

		for (int k = 0; k < 2; k++) {
			fprintf(f, "\n  overlap, %s side: D (ns) -> ns per message\n", k ? "receive" : "send");
			for (int i = 0; i < c[k]->n; i++)
				fprintf(f, "    %9.1f -> %9.1f\n", c[k]->d_ns[i], c[k]->t_ns[i]);
		}
	}
}

void report_table(FILE *f, const struct session *s, const struct results *r, const char *uri)
{
	const struct eel_clock *c = s->clk;
	const struct eel_caps *cap = s->caps;
	char cpu[128], how[128], w[MAX_WARNINGS][240];
	int nw = report_warnings(s, r, w, MAX_WARNINGS);

	machine_cpu_model(cpu, sizeof(cpu));
	fprintf(f, "eel-bench %s on %s (%s)\n", EEL_VERSION, uri, s->pair ? "both ends on this machine" :
		"client; the server runs the other end");
	fprintf(f, "  NIC      %s: doorbell = %s; attached as %s\n", cap->name, cap->doorbell, cap->attach);
	fprintf(f, "  machine  %s; counter %s at %.1f MHz%s, ticks of %.1f ns; eel_cycles() costs %llu cycles, "
		"a stamp %llu; kernel clock %s\n", cpu, c->source, c->hz / 1e6, c->invariant ? " (invariant)" : "",
		c->resolution_cycles * c->ns_per_cycle, (unsigned long long)c->timer_cycles,
		(unsigned long long)c->stamp_cycles, c->kernel_clocksource[0] ? c->kernel_clocksource : "?");

	fprintf(f, "\n  %-20s %13s %13s %8s  %8s   %s\n", "parameter", "min", "median", "spread",
		"cycles", "how (seed 000_08b5a44ef913033a)");
	if (r->pp.done) {
		snprintf(how, sizeof(how), "ping-pong RTT/2, %u runs x %u, 8 B (4.1)", r->pp.eel.n, s->plan.iters);
		row_stat(f, s, "EEL", &r->pp.eel, how);
	}
	if (r->ov.done) {
		snprintf(how, sizeof(how), "CPU overlap, q=1: g %.0f - D_max %.0f%s (4.3)", r->ov.send.g_ns,
			 r->ov.send.dmax_ns, r->ov.send.rose_at_first ? ", any D raised it: o_s = g" : "");
		row_one(f, s, "o_s", r->ov.send.o_ns, how);
		snprintf(how, sizeof(how), "receiver computes D per message: g %.0f - D_max %.0f (4.3)",
			 r->ov.recv.g_ns, r->ov.recv.dmax_ns);
		row_one(f, s, "o_r", r->ov.recv.o_ns, how);
	}
	if (r->fl.done) {
		const struct flood_point *g8 = NULL;

		for (int i = 0; i < r->fl.npt; i++)
			if (r->fl.pt[i].size == s->plan.sizes[0] && r->fl.pt[i].q == r->fl.g_q)
				g8 = &r->fl.pt[i];
		snprintf(how, sizeof(how), "flood %u B, best of q=%u..%u: q=%u (4.2)", s->plan.sizes[0],
			 s->plan.depths[0], s->plan.depths[s->plan.ndepths - 1], r->fl.g_q);
		if (g8)
			row_stat(f, s, "g", &g8->t, how);
		if (r->fl.G_ns_per_byte > 0) {
			fprintf(f, "  %-20s %10.4f ns/B  = %.2f GB/s bandwidth (1/G), flood %u B..%u B at q=%u (4.2)\n",
				"G", r->fl.G_ns_per_byte, r->fl.bw_bytes_per_ns, s->plan.sizes[0],
				s->plan.sizes[s->plan.nsizes - 1], r->fl.G_q);
			fprintf(f, "  %-20s %10.0f B     messages larger than this are bandwidth-bound (5.5)\n",
				"M = g/G", r->fl.M_bytes);
		}
	}
	if (r->pp.done && r->ov.done)
		fprintf(f, "  %-20s %10.1f ns    potential overlap of computation per message (5.2)\n",
			"EEL - (o_s + o_r)", r->pp.eel.min - r->ov.send.o_ns - r->ov.recv.o_ns);

	if (r->pp.done && r->pp.eel_stamped.n)
		fprintf(f, "\n  stamping cost: EEL median %.1f ns with stamps (1 put in %u), %.1f ns without: %+.1f %%\n",
			r->pp.eel_stamped.median, s->plan.stamp_every, r->pp.eel.median,
			100 * (r->pp.eel_stamped.median / r->pp.eel.median - 1));

	if (r->bd.done) {
		double sum = 0;

		fprintf(f, "\n  where one 8-byte put goes (%s; %d stamped puts; medians)\n", cap->clock,
			r->bd.samples);
		for (int k = 0; k < STAGE_PARTS; k++) {
			sum += r->bd.part[k].median;
			fprintf(f, "    %-9s %-52s %9.1f ns  %5.1f %%\n", stage_part_name[k], stage_part_what[k],
				r->bd.part[k].median, 100 * r->bd.part[k].median / r->bd.total.median);
		}
		fprintf(f, "    %-9s %-52s %9.1f ns  (stages add to %.1f, residual %.1f)\n", "total",
			"one way, DETECT - POST", r->bd.total.median, sum, r->bd.residual_ns);
		fprintf(f, "    (each stamp is good to one tick of the counter, %.1f ns; a stamped put carries %d "
			"stamps of %.1f ns each)\n", c->resolution_cycles * c->ns_per_cycle, EEL_STAGES - 1,
			c->stamp_cycles * c->ns_per_cycle);
	}
	if (r->lim.done) {
		fprintf(f, "\n  limit    bare cache-line one-way between the two cores: %.1f ns (min), %.1f (median)\n",
			r->lim.one_way.min, r->lim.one_way.median);
		if (r->pp.done)
			fprintf(f, "           EEL / limit = %.2f (min), %.2f (median)\n",
				r->pp.eel.min / r->lim.one_way.min, r->pp.eel.median / r->lim.one_way.median);
		fprintf(f, "           the cores' counters agree to within [%.0f, %.0f] ns\n", r->lim.skew_lo_ns,
			r->lim.skew_hi_ns);
	}
	if (r->ncounters) {
		int any = 0;

		for (int i = 0; i < r->ncounters; i++)
			if ((r->counters[i].value || r->peer_counter_values[i]) &&
			    strcmp(r->counters[i].name, "tx_packets") && strcmp(r->counters[i].name, "rx_packets") &&
			    strcmp(r->counters[i].name, "tx_messages") && strcmp(r->counters[i].name, "rx_messages")) {
				fprintf(f, "%s %s %llu/%llu", any ? "," : "\n  NIC events (here/peer):",
					r->counters[i].name, (unsigned long long)r->counters[i].value,
					(unsigned long long)r->peer_counter_values[i]);
				any = 1;
			}
		if (any)
			fputc('\n', f);
	}
	if (verbose)
		curves(f, r);
	for (int i = 0; i < nw; i++)
		fprintf(f, "%s  warning: %s\n", i ? "" : "\n", w[i]);
	fprintf(f, "\n  %.1f s; seed 000 = Evaluation of current high-performance networks (shared/seeds)\n",
		r->wall_s);
}
