/* SPDX-License-Identifier: MIT */
/* bench/report/report_table.c — the terminal report: what a person reads first.
 *
 * The frame: the NIC, PCI and machine lines, the parameter table, each
 * method's section in order, the machine's drift, the NIC's events, the
 * curves under -v and the warnings. Each method writes its own rows
 * (bench/<method>_report.c); the order of the sections is here. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/report/report.h"

/* Does counter `name` count a loss: a fault the emulated wire made
 * (wire_*), a NAK for a gap, a frame a port or the NIC dropped? */
static int counts_loss(const char *name)
{
	return !strncmp(name, "wire_", 5) || !strncmp(name, "naks_", 5) || strstr(name, "missed") ||
	       strstr(name, "error") || strstr(name, "discard") || strstr(name, "no_mbuf") ||
	       strstr(name, "out_of_order") || strstr(name, "malformed");
}

/* Did the NIC's timer fire (counter "timeouts", either end) where no loss
 * was counted? Measured: 3 in 24 floods here had a timeout under the
 * default scheduler, 0 in 24 under SCHED_FIFO (chrt -f 1): a process off
 * its core longer than the timer (rto_us, 4 ms) holds its NIC's ACKs too;
 * a timer shorter than the receiver takes to acknowledge (ACKs coalesced:
 * every FW_ACK_EVERY packets, or after a quiet wire) fires as well. */
static int timeouts_without_loss(const struct results *r)
{
	int fired = 0;

	for (int i = 0; i < r->ncounters; i++) {
		if (counts_loss(r->counters[i].name) && (r->counters[i].value || r->peer_counter_values[i]))
			return 0;
		if (!strcmp(r->counters[i].name, "timeouts"))
			fired = r->counters[i].value || r->peer_counter_values[i];
	}
	return fired;
}

/* The NIC, its PCI function and the machine: the report's first lines. */
static void head(FILE *f, const struct session *s, const struct results *r, const char *uri)
{
	const struct eel_clock *c = s->clk;
	const struct eel_caps *cap = s->caps;
	char cpu[128];

	machine_cpu_model(cpu, sizeof(cpu));
	fprintf(f, "eel-bench %s on %s (%s)\n", EEL_VERSION, uri, s->pair ? "both ends on this machine" :
		"client; the server runs the other end");
	fprintf(f, "  NIC      %s: doorbell = %s; attached as %s\n", cap->name, cap->doorbell, cap->attach);
	if (r->pci.have) {
		char link[160];

		nic_pci_link_text(&r->pci, link, sizeof(link));
		fprintf(f, "  PCI      %s %.40s %.60s (%s): %s\n", r->pci.addr, r->pci.f.vendor, r->pci.f.device,
			r->pci.f.driver[0] ? r->pci.f.driver : "no driver", link);
	} else if (r->pci.addr[0]) {
		fprintf(f, "  PCI      %s: %s\n", r->pci.addr, r->pci.error);
	}
	/* the step with two decimals: a VM's TSC may advance by 24.45 cycles (eel_clock_step) */
	fprintf(f, "  machine  %s; counter %s at %.1f MHz%s, advancing in steps of %.2f cycles (%.1f ns); "
		"eel_cycles() costs %llu cycles, a stamp %llu; kernel clock %s\n", cpu, c->source, c->hz / 1e6,
		c->invariant ? " (invariant)" : "", c->resolution_cycles, c->resolution_cycles * c->ns_per_cycle,
		(unsigned long long)c->timer_cycles, (unsigned long long)c->stamp_cycles,
		c->kernel_clocksource[0] ? c->kernel_clocksource : "?");
	{
		char text[400];

		placement_text(&r->place, text, sizeof(text));
		fprintf(f, "  ran on   %s\n", text);
		provenance_text(&r->nic_info, text, sizeof(text));
		fprintf(f, "  versions %s\n", text);
	}
}

/* Bell et al. 2003's parameters, one row each, in the paper's order. */
static void parameter_table(FILE *f, const struct session *s, const struct results *r)
{
	if (!r->pp.done && !r->ov.done && !r->fl.done)
		return; /* no row (the size sweep alone) */
	fprintf(f, "\n  %-20s %13s %13s %8s  %8s   %s\n", "parameter", "min", "median", "spread",
		"cycles", "how (Bell et al. 2003)");
	pingpong_table_rows(f, s, r);
	overlap_table_rows(f, s, r);
	flood_table_rows(f, s, r);
	overlap_table_potential(f, s, r);
	/* the column counts the counter's ticks, not the core's clock cycles */
	fprintf(f, "  (cycles: ticks of the host's counter (%s), %.1f MHz)\n", s->clk->source, s->clk->hz / 1e6);
}

/* One machine per run (main.c): the short ping-pong at the run's start and end. */
static void drift(FILE *f, const struct results *r)
{
	char t[120];

	if (!r->drift.done)
		return;
	test_names(r->drift.tests, t, sizeof(t));
	fprintf(f, "\n  machine  a short ping-pong at the run's start and end: EEL %.1f and %.1f ns (medians of %d x %d "
		"round trips):\n           %s over the tests between (%s)\n", r->drift.start.median,
		r->drift.end.median, DRIFT_RUNS, r->drift.iters,
		r->drift.changed ? "the machine CHANGED (warning below)" : "one machine", t);
}

/* The NIC's counters that are not zero at either end, and a timer that
 * fired with no loss counted. */
static void nic_events(FILE *f, const struct results *r)
{
	int any = 0;

	if (!r->ncounters)
		return;
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
	if (timeouts_without_loss(r)) {
		char peer[64] = "";

		if (r->preempted_peer >= 0)
			snprintf(peer, sizeof(peer), ", %ld at the server over its life", r->preempted_peer);
		fprintf(f, "  (timeouts with no loss counted (no NAK, no fault, no drop): an ACK came after the timer, "
			"rto_us,\n   as when a process is off its core; involuntary context switches: %ld here over "
			"the tests%s)\n", r->preempted_here, peer);
	}
}

void report_table(FILE *f, const struct session *s, const struct results *r, const char *uri)
{
	struct warning w[MAX_WARNINGS];
	int nw = report_warnings(s, r, w, MAX_WARNINGS);

	head(f, s, r, uri);
	parameter_table(f, s, r);
	decompose_table(f, r);
	signature_table(f, s, r);
	bulk_table(f, r);
	pingpong_table_stamping(f, s, r);
	breakdown_table(f, s, r);
	limit_table(f, s, r, uri);
	sweep_table(f, r);
	drift(f, r);
	nic_events(f, r);
	budget_table(f, &r->timing, r->wall_s);
	if (verbose) {
		flood_table_curves(f, r);
		signature_table_curves(f, r);
		overlap_table_curves(f, r);
	}
	for (int i = 0; i < nw; i++)
		fprintf(f, "%s  warning: %s\n", i ? "" : "\n", w[i].text);
	fprintf(f, "\n  %.1f s of measurement; the methods' papers: data/papers.md (Bell et al. 2003 = An Evaluation of "
		"Current High-Performance Networks, IPDPS 2003)\n",
		r->wall_s);
}
