/* SPDX-License-Identifier: MIT */
/* tools/report/html.c — the report's HTML page (html.h): what eel-bench's
 * terminal table says, the other sections' figures, and every plot as inline
 * SVG (ids prefixed per plot, so the pages' SVGs never share one). */
#include "html.h"
#include "tools/compare.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const seed_files[][2] = {
	{ "000", "Bell et al. 2003: Evaluation of current high-performance networks (EEL, o_s, o_r, g, G)" },
	{ "002", "Culler et al. 1996: Culler et al., assessing fast network interfaces (signature, bulk)" },
	{ "003", "Taboada et al. 2003: message-passing overhead on high-speed clusters (t0, ti, tb)" },
	{ "004", "Dongarra & Dunigan 1997: Dongarra and Dunigan, message-passing performance (alpha, beta, n_1/2)" },
};

static void text(struct sbuf *h, const char *s)
{
	sb_html(h, s ? s : "");
}

/* A number with its unit, or an empty cell's dash. */
static void val(struct sbuf *h, double v, const char *fmt, const char *unit)
{
	if (!isfinite(v)) {
		sb_printf(h, "&ndash;");
		return;
	}
	sb_printf(h, fmt, v);
	if (unit && *unit)
		sb_printf(h, " %s", unit);
}

static void td(struct sbuf *h, double v, const char *fmt, const char *unit)
{
	sb_printf(h, "<td class=\"num\">");
	val(h, v, fmt, unit);
	sb_printf(h, "</td>");
}

/* A table's column: the key of each row's object, its format and unit. */
struct col {
	const char *key, *fmt, *unit;
};

/* One row of numbers, a cell per column, from the object p. */
static void num_row(struct sbuf *h, const struct jr_val *p, const struct col *c, size_t n)
{
	sb_printf(h, "<tr>");
	for (size_t k = 0; k < n; k++)
		td(h, num_at(p, c[k].key), c[k].fmt, c[k].unit);
	sb_printf(h, "</tr>\n");
}

static void td_text(struct sbuf *h, const char *s)
{
	sb_printf(h, "<td>");
	text(h, s);
	sb_printf(h, "</td>");
}

static void param_row(struct sbuf *h, const char *name, double min, double median, double spread, double cycles,
		      const char *unit, const char *how)
{
	sb_printf(h, "<tr><th>");
	text(h, name);
	sb_printf(h, "</th>");
	td(h, min, unit && !strcmp(unit, "ns/B") ? "%.4f" : "%.1f", unit);
	td(h, median, "%.1f", unit);
	td(h, isfinite(spread) ? spread * 100 : NAN, "%.1f", "%");
	td(h, cycles, "%.0f", "");
	td_text(h, how);
	sb_printf(h, "</tr>\n");
}

/* What a figure that is null says instead (schema 7: not separable on this
 * NIC, or not resolved from 0: at most bound_ns), into buf; "" when it has a figure. */
static const char *derived_text(const struct jr_val *o, char *buf, size_t n)
{
	int sep = 1;
	double b = num_at(o, "bound_ns");
	const char *why = jr_str(o, "why");

	buf[0] = 0;
	if (!o || isfinite(num_at(o, "ns")))
		return buf;
	jr_bool(o, "separable", &sep);
	if (!sep)
		snprintf(buf, n, "not separable on this NIC: %s", why ? why : "");
	else if (isfinite(b))
		snprintf(buf, n, b > 0 ? "< %.1f ns: %s" : "none (at most %.0f ns): %s", b, why ? why : "not resolved");
	else
		snprintf(buf, n, "not resolved: %s", why ? why : "");
	return buf;
}

/* The first screen (what a reader must see before any figure): every
 * warning of the run, each with its kind (schema 8's warning_figures[]), or
 * "no warnings"; then the headline figures as eel-bench's table prints them,
 * each flagged with the warnings that concern it. */
static void warnings_first(struct sbuf *h, const struct jr_val *root)
{
	const struct jr_val *w = jr_get(root, "warnings"), *wf = jr_get(root, "warning_figures");

	sb_printf(h, "<section id=\"warnings\"><h2>Warnings</h2>\n");
	if (!jr_len(w, "")) {
		sb_printf(h, "<p class=\"note\">no warnings</p></section>\n");
		return;
	}
	sb_printf(h, "<ol class=\"warn\">\n");
	for (size_t i = 0; i < w->len; i++) {
		const char *kind = jr_str(jr_at(wf, i), "kind");

		sb_printf(h, "<li id=\"warning-%zu\">", i + 1);
		if (kind) {
			sb_printf(h, "<b>");
			text(h, kind);
			sb_printf(h, "</b>: ");
		}
		text(h, jr_str(jr_at(w, i), ""));
		sb_printf(h, "</li>\n");
	}
	sb_printf(h, "</ol></section>\n");
}

/* The warnings that name figure `fig`, as links to them ("" when none). */
static void flags(struct sbuf *h, const struct jr_val *root, const char *fig)
{
	const struct jr_val *wf = jr_get(root, "warning_figures");
	int n = 0;

	sb_printf(h, "<td class=\"flag\">");
	for (size_t i = 0; i < jr_len(wf, ""); i++) {
		const struct jr_val *f = jr_get(jr_at(wf, i), "figures");

		for (size_t k = 0; k < jr_len(f, ""); k++)
			if (jr_str(jr_at(f, k), "") && !strcmp(jr_str(jr_at(f, k), ""), fig)) {
				sb_printf(h, "%s<a href=\"#warning-%zu\">&#9888; ", n++ ? " " : "", i + 1);
				text(h, jr_str(jr_at(wf, i), "kind"));
				sb_printf(h, " (%zu)</a>", i + 1);
				break;
			}
	}
	sb_printf(h, "</td>");
}

/* Why G has no figure: the run's why (schema 11), else what a 0 meant before */
static const char *G_why(const struct jr_val *p)
{
	const char *why = jr_str(p, "G.why");

	return why ? why : "the flood's largest messages were not slower than its smallest";
}

/* One headline row: min, median, spread where the run has them, else what it says instead. */
static void headline_row(struct sbuf *h, const struct jr_val *root, const char *name, const char *fig, double min,
			 const struct jr_val *st, const char *unit, const char *instead)
{
	sb_printf(h, "<tr><th>");
	text(h, name);
	sb_printf(h, "</th>");
	if (instead && *instead) {
		sb_printf(h, "<td colspan=\"3\">");
		text(h, instead);
		sb_printf(h, "</td>");
	} else {
		td(h, min, unit && !strcmp(unit, "ns/B") ? "%.4f" : "%.1f", unit);
		td(h, num_at(st, "median"), unit && !strcmp(unit, "ns/B") ? "%.4f" : "%.1f", unit);
		td(h, isfinite(num_at(st, "spread")) ? num_at(st, "spread") * 100 : NAN, "%.1f", "%");
	}
	flags(h, root, fig);
	sb_printf(h, "</tr>\n");
}

static void headline(struct sbuf *h, const struct jr_val *root)
{
	const struct jr_val *p = jr_get(root, "parameters");
	/* g is the minimum of the flood point at its size and depth: that point's runs */
	const struct jr_val *g8 = cmp_by_num(jr_get(root, "curves.flood"), "size", num_at(p, "g.size"), "q",
					     num_at(p, "g.q"));
	char dt[256];

	if (!p || !p->len)
		return;
	sb_printf(h, "<section id=\"headline\"><h2>Headline</h2>\n<table>\n<tr><th>parameter</th><th>min</th>"
		     "<th>median</th><th>spread</th><th>warned</th></tr>\n");
	if (jr_get(p, "eel"))
		headline_row(h, root, "EEL", "eel", num_at(p, "eel.ns.min"), jr_get(p, "eel.ns"), "ns", NULL);
	if (jr_get(p, "eel_tail")) {
		/* schema 8: every round trip of the tail's runs */
		snprintf(dt, sizeof(dt), "p99 %.1f ns, p99.9 %.1f ns, max %.1f ns (%.0f round trips, each timed alone)",
			 num_at(p, "eel_tail.p99_ns"), num_at(p, "eel_tail.p99_9_ns"), num_at(p, "eel_tail.max_ns"),
			 num_at(p, "eel_tail.count"));
		headline_row(h, root, "EEL tail", "eel", NAN, NULL, "ns", dt);
	}
	for (int k = 0; k < 2; k++) {
		const char *key = k ? "o_r" : "o_s";
		const struct jr_val *o = jr_key(p, key);

		if (o)
			headline_row(h, root, key, key, num_at(o, "sweeps.min"), jr_get(o, "sweeps"), "ns",
				     derived_text(o, dt, sizeof(dt)));
	}
	if (jr_get(p, "g"))
		headline_row(h, root, "g", "g", num_at(p, "g.ns"), jr_get(g8, "ns_per_msg"), "ns", NULL);
	if (jr_get(p, "G")) /* not measured: null with why since schema 11, 0 before */
		headline_row(h, root, "G", "G", num_at(p, "G.ns_per_byte"), jr_get(p, "G.runs"), "ns/B",
			     num_at(p, "G.ns_per_byte") > 0 ? NULL : G_why(p));
	if (jr_get(p, "L"))
		headline_row(h, root, "L", "L", num_at(p, "L.ns"), NULL, "ns", derived_text(jr_get(p, "L"), dt, sizeof(dt)));
	sb_printf(h, "</table>\n<p class=\"note\">as eel-bench's table prints them: min over runs (Bell et al. 2003), "
		     "the median and spread (interquartile range / median); a figure a warning concerns is flagged "
		     "with it.</p></section>\n");
}

static void parameters(struct sbuf *h, const struct jr_val *root)
{
	const struct jr_val *p = jr_get(root, "parameters");
	char how[512], dt[256];
	double x;

	if (!p || !p->len)
		return;
	sb_printf(h, "<section id=\"parameters\"><h2>Parameters</h2>\n<table>\n<tr><th>parameter</th><th>min</th>"
		     "<th>median</th><th>spread</th><th>cycles</th><th>how</th></tr>\n");
	if (jr_get(p, "eel"))
		param_row(h, "EEL", num_at(p, "eel.ns.min"), num_at(p, "eel.ns.median"), num_at(p, "eel.ns.spread"),
			  num_at(p, "eel.cycles.min"), "ns", jr_str(p, "eel.method"));
	if (jr_get(p, "eel_stamped"))
		param_row(h, "EEL with stamps", num_at(p, "eel_stamped.ns.min"), num_at(p, "eel_stamped.ns.median"),
			  num_at(p, "eel_stamped.ns.spread"), num_at(p, "eel_stamped.cycles.min"), "ns",
			  jr_str(p, "eel_stamped.method"));
	for (int k = 0; k < 2; k++) {
		const char *key = k ? "o_r" : "o_s";
		const struct jr_val *o = jr_key(p, key);
		int rose = 0;

		if (!o)
			continue;
		jr_bool(o, "rose_at_first", &rose);
		snprintf(how, sizeof(how), "%s: g %.0f - D_max %.0f%s", jr_str(o, "method") ? jr_str(o, "method") : "",
			 num_at(o, "g_ns"), num_at(o, "dmax_ns"), rose ? " (the first D raised the time: o = g)" : "");
		if (*derived_text(o, dt, sizeof(dt)))
			snprintf(how, sizeof(how), "%s", dt);
		param_row(h, key, num_at(o, "ns"), NAN, NAN, num_at(o, "cycles"), "ns", how);
	}
	if (jr_get(p, "g")) {
		snprintf(how, sizeof(how), "%s: %.0f B, q = %.0f", jr_str(p, "g.method") ? jr_str(p, "g.method") : "",
			 num_at(p, "g.size"), num_at(p, "g.q"));
		param_row(h, "g", num_at(p, "g.ns"), NAN, NAN, num_at(p, "g.cycles"), "ns", how);
	}
	if (jr_get(p, "G")) {
		double G = num_at(p, "G.ns_per_byte"); /* not measured: null since schema 11, 0 before */

		if (G > 0)
			snprintf(how, sizeof(how), "= %.3g GB/s bandwidth (1/G); %s", num_at(p, "bandwidth_bytes_per_ns"),
				 jr_str(p, "G.method") ? jr_str(p, "G.method") : "");
		else
			snprintf(how, sizeof(how), "not measured: %s", G_why(p));
		param_row(h, "G", G > 0 ? G : NAN, NAN, NAN, NAN, "ns/B", how);
	}
	if (jr_num(p, "M_bytes", &x))
		param_row(h, "M = g/G", x, NAN, NAN, NAN, "B", "messages larger than this are bandwidth-bound (Bell et al. 2003 5.5)");
	/* schema 7: an object, the three medians, null where not separable or not resolved */
	if (jr_get(p, "overlap_potential"))
		param_row(h, "EEL - (o_s + o_r)", num_at(p, "overlap_potential.ns"), NAN, NAN, NAN, "ns",
			  *derived_text(jr_get(p, "overlap_potential"), dt, sizeof(dt)) ? dt :
			  "computation that can overlap one message (Bell et al. 2003 5.2), EEL, o_s and o_r their medians");
	else if (jr_num(p, "overlap_potential_ns", &x))
		param_row(h, "EEL - (o_s + o_r)", x > 0 ? x : NAN, NAN, NAN, NAN, "ns",
			  x > 0 ? "computation that can overlap one message (Bell et al. 2003 5.2)" :
			  "none: the CPU is busy longer than the message takes (Bell et al. 2003 5.2)");
	if (jr_get(p, "L")) {
		double L = num_at(p, "L.ns");

		/* an older run's L below 0 is no latency: not shown as one */
		param_row(h, "L", L > 0 ? L : NAN, NAN, NAN, L > 0 ? num_at(p, "L.cycles") : NAN, "ns",
			  *derived_text(jr_get(p, "L"), dt, sizeof(dt)) ? dt :
			  L > 0 ? jr_str(p, "L.method") : "RTT/2 - o_s - o_r came out below 0: not a latency");
	}
	sb_printf(h, "</table>\n<p class=\"note\">min is what Bell et al. 2003 reports (the minimum over runs); the spread is "
		     "the interquartile range over the median; cycles are the host counter's (Dongarra & Dunigan 1997 Table 2 gives "
		     "latency in CPU cycles).</p></section>\n");
}

static void breakdown(struct sbuf *h, const struct jr_val *root)
{
	const struct jr_val *b = jr_get(root, "breakdown"), *parts = jr_get(b, "parts");
	double round = num_at(b, "round_ns.mean"), sum = num_at(b, "parts_sum_ns"), total;
	int closes = -1;

	if (!jr_len(parts, ""))
		return;
	if (!jr_bool(b, "closes", &closes))
		closes = -1; /* before schema 10, or no residual */
	/* shares as the table gives them: of EEL where the parts close, of
	 * their sum where not; a run before schema 10, of the stamped rounds */
	total = closes == 1 ? num_at(b, "eel_ns") : closes == 0 ? sum : isfinite(round) ? round :
		num_at(b, "total_ns.mean");
	sb_printf(h, "<section id=\"breakdown\"><h2>Where one 8-byte put goes</h2>\n<p>");
	text(h, jr_str(b, "clock"));
	sb_printf(h, "; %.0f stamped puts; means; %s</p>\n<table>\n"
		     "<tr><th>stage</th><th>what</th><th>mean</th><th>share</th><th>p25..p75</th><th>method</th></tr>\n",
		  num_at(b, "samples"),
		  closes == 1 ? "they add up to EEL within 5% beyond their uncertainty: shares of EEL" :
		  closes == 0 ? "they do <b>not</b> add up to EEL within 5%: they time the stamped puts, whose path is "
				"not an unstamped put's to that precision; shares of their sum, not of EEL (docs/methods.md, "
				"the breakdown)" :
		  "with the turnaround they are set against EEL by the residual below");
	for (size_t i = 0; i < jr_len(parts, ""); i++) {
		const struct jr_val *p = jr_at(parts, i);
		double m = num_at(p, "ns.mean");

		sb_printf(h, "<tr><th>");
		text(h, jr_str(p, "name"));
		sb_printf(h, "</th>");
		td_text(h, jr_str(p, "what"));
		td(h, m, "%.1f", "ns");
		td(h, isfinite(total) && total > 0 ? m / total * 100 : NAN, "%.1f", "%");
		sb_printf(h, "<td class=\"num\">");
		val(h, num_at(p, "ns.p25"), "%.1f", "");
		sb_printf(h, "..");
		val(h, num_at(p, "ns.p75"), "%.1f", "ns");
		sb_printf(h, "</td>");
		td_text(h, jr_str(p, "method"));
		sb_printf(h, "</tr>\n");
	}
	if (isfinite(num_at(b, "turn_ns.mean"))) {
		sb_printf(h, "<tr><th>turn</th><td>ping-pong turnaround: data seen to next put</td>");
		td(h, num_at(b, "turn_ns.mean"), "%.1f", "ns");
		td(h, isfinite(total) && total > 0 ? num_at(b, "turn_ns.mean") / total * 100 : NAN, "%.1f", "%");
		sb_printf(h, "<td></td><td>stamped</td></tr>\n");
	}
	sb_printf(h, "<tr><th>total</th><td>%s</td>", isfinite(sum) ? "the parts added up, against the unstamped EEL" :
		  isfinite(round) ? "RTT/2 of the stamped rounds" : "one way, DETECT - POST");
	td(h, isfinite(sum) ? sum : total, "%.1f", "ns");
	sb_printf(h, "<td></td><td class=\"num\">residual ");
	val(h, num_at(b, "residual_ns"), "%.1f", "ns");
	sb_printf(h, "</td><td></td></tr>\n</table></section>\n");
}

static void dec_rows(struct sbuf *h, const struct jr_val *parts)
{
	for (size_t i = 0; i < jr_len(parts, ""); i++) {
		const struct jr_val *p = jr_at(parts, i), *m = jr_get(p, "merged");
		int agrees;

		sb_printf(h, "<tr><th>");
		text(h, jr_str(p, "name"));
		sb_printf(h, "</th>");
		td_text(h, jr_str(p, "what"));
		td(h, num_at(p, "ns"), "%.1f", "ns");
		sb_printf(h, "<td><span class=\"method\">");
		text(h, jr_str(p, "method"));
		sb_printf(h, "</span></td>");
		td_text(h, jr_str(p, "how"));
		sb_printf(h, "<td>");
		for (size_t k = 0; k < jr_len(m, ""); k++) {
			sb_printf(h, "%s", k ? ", " : "");
			text(h, jr_str(jr_at(m, k), ""));
		}
		sb_printf(h, "</td>");
		td(h, num_at(p, "stamped_ns"), "%.1f", "ns");
		sb_printf(h, "<td>%s</td></tr>\n", jr_bool(p, "agrees", &agrees) ? (agrees ? "yes" : "<b>no</b>") : "");
	}
}

static void decompose(struct sbuf *h, const struct jr_val *root)
{
	const struct jr_val *d = jr_get(root, "decompose");
	const char *head = "<tr><th>part</th><th>what</th><th>ns</th><th>method</th><th>how</th><th>merges</th>"
			   "<th>stamped</th><th>agrees</th></tr>\n";

	if (!d)
		return;
	sb_printf(h, "<section id=\"decompose\"><h2>EEL decomposed</h2>\n<p>EEL ");
	val(h, num_at(d, "eel_ns"), "%.1f", "ns");
	sb_printf(h, ", residual (the parts' sum less EEL; before schema 8, EEL less the sum) ");
	val(h, num_at(d, "residual_ns"), "%.1f", "ns");
	sb_printf(h, ". Each part says how it was obtained: stamped, nic_clock, difference (of two EELs), modelled, "
		     "remainder.</p>\n<table>\n%s", head);
	dec_rows(h, jr_get(d, "parts"));
	sb_printf(h, "</table>\n");
	if (jr_len(d, "checks")) {
		sb_printf(h, "<h3>Checks of the methods against the stamps</h3>\n<table>\n%s", head);
		dec_rows(h, jr_get(d, "checks"));
		sb_printf(h, "</table>\n");
	}
	if (jr_len(d, "variants")) {
		const struct jr_val *v = jr_get(d, "variants");

		sb_printf(h, "<p>EEL of each variant:");
		for (size_t k = 0; k < v->len; k++) {
			sb_printf(h, "%s ", k ? "," : "");
			text(h, v->kids[k]->key);
			sb_printf(h, " ");
			val(h, v->kids[k]->type == JR_NUM ? v->kids[k]->num : NAN, "%.1f", "ns");
		}
		sb_printf(h, "</p>\n");
	}
	sb_printf(h, "</section>\n");
}

static void signature(struct sbuf *h, const struct jr_val *root)
{
	const struct jr_val *s = jr_get(root, "signature"), *c = jr_get(s, "curves");
	char dt[256];
	double L = num_at(s, "L_ns");

	if (!s)
		return;
	sb_printf(h, "<section id=\"signature\"><h2>Signature (Culler et al. 1996)</h2>\n<table>\n<tr><th>RTT</th><th>o_s</th>"
		     "<th>g</th><th>o_r</th><th>L</th><th>size</th></tr>\n<tr>");
	td(h, num_at(s, "rtt_ns"), "%.1f", "ns");
	td(h, num_at(s, "o_s_ns"), "%.1f", "ns");
	td(h, num_at(s, "g_ns"), "%.1f", "ns");
	td(h, num_at(s, "o_r_ns"), "%.1f", "ns");
	td(h, L > 0 ? L : NAN, "%.1f", "ns");
	td(h, num_at(s, "size"), "%.0f", "B");
	sb_printf(h, "</tr>\n</table>\n<p>");
	if (*derived_text(jr_get(root, "parameters.L"), dt, sizeof(dt))) {
		sb_printf(h, "L: ");
		text(h, dt);
		sb_printf(h, ". ");
	}
	text(h, jr_str(s, "method"));
	sb_printf(h, ". Accuracy: each point repeated in batches of %.0f samples until %.0f%% at %.0f%% confidence; "
		     "%.0f points, %.0f did not get there.</p>\n", num_at(s, "accuracy.batch"),
		  num_at(s, "accuracy.target") * 100, num_at(s, "accuracy.confidence") * 100, num_at(s, "accuracy.points"),
		  num_at(s, "accuracy.unconverged"));
	if (jr_len(c, "")) {
		sb_printf(h, "<table>\n<tr><th>D</th><th>steady cost g or g'</th><th>send-only up to M</th>"
			     "<th>steady from M</th></tr>\n");
		for (size_t i = 0; i < jr_len(c, ""); i++) {
			sb_printf(h, "<tr>");
			td(h, num_at(jr_at(c, i), "d_ns"), "%.0f", "ns");
			td(h, num_at(jr_at(c, i), "g_ns"), "%.1f", "ns");
			td(h, num_at(jr_at(c, i), "send_only_max_m"), "%.0f", "");
			td(h, num_at(jr_at(c, i), "steady_min_m"), "%.0f", "");
			sb_printf(h, "</tr>\n");
		}
		sb_printf(h, "</table>\n");
	}
	sb_printf(h, "</section>\n");
}

/* A fit row's last cells: its error, what it was fitted on, its method. */
static void fit_tail(struct sbuf *h, const struct jr_val *o)
{
	td(h, num_at(o, "err") * 100, "%.1f", "%");
	td_text(h, jr_str(o, "on"));
	td_text(h, jr_str(o, "method"));
	sb_printf(h, "</tr>\n");
}

/* A fit that is no model of its curve (schema 7: valid false, its error on
 * the validation sizes over 100%; a LogGP not separable on this NIC): its
 * row says so instead of its parameters. 1 when it wrote the row. */
static int fit_not_model(struct sbuf *h, const struct jr_val *f, const char *key, const char *name)
{
	const struct jr_val *o = jr_get(f, key);
	int valid = 1, sep = 1;
	char t[256];

	jr_bool(o, "valid", &valid);
	jr_bool(o, "separable", &sep);
	if (valid && sep)
		return 0;
	if (!sep)
		snprintf(t, sizeof(t), "not separable on this NIC: %s", jr_str(o, "why") ? jr_str(o, "why") : "");
	else
		snprintf(t, sizeof(t), "the curve is not of this form (error %.1f%%)", 100 * num_at(o, "err"));
	sb_printf(h, "<tr><th>");
	text(h, name);
	sb_printf(h, "</th>");
	td_text(h, t);
	td(h, sep ? num_at(o, "err") * 100 : NAN, "%.1f", "%");
	td_text(h, jr_str(o, "on"));
	td_text(h, jr_str(o, "method"));
	sb_printf(h, "</tr>\n");
	return 1;
}

static void bulk(struct sbuf *h, const struct jr_val *root)
{
	static const struct col bulk_cols[] = { { "size", "%.0f", "B" }, { "t_ns.min", "%.1f", "ns" },
						{ "bw_bytes_per_ns", "%.4g", "B/ns" }, { "echo_ns.min", "%.1f", "ns" },
						{ "o_s_ns", "%.1f", "ns" } };
	const struct jr_val *b = jr_get(root, "bulk"), *pts = jr_get(b, "points"), *f = jr_get(b, "fits");
	const struct jr_val *v = jr_get(f, "validation");

	if (!b)
		return;
	sb_printf(h, "<section id=\"bulk\"><h2>Bulk transfers (seeds 002, 003, 004)</h2>\n<table>\n<tr><th>n</th>"
		     "<th>T(n) min</th><th>BW(n) = n/T(n)</th><th>echo min</th><th>o_s(n)</th></tr>\n");
	for (size_t i = 0; i < jr_len(pts, ""); i++)
		num_row(h, jr_at(pts, i), bulk_cols, sizeof(bulk_cols) / sizeof(bulk_cols[0]));
	sb_printf(h, "</table>\n<h3>Fits</h3>\n<table>\n<tr><th>model</th><th>parameters</th><th>error</th><th>on</th>"
		     "<th>method</th></tr>\n");
	if (jr_get(f, "t0r") && !fit_not_model(h, f, "t0r", "T0 + n/R")) {
		sb_printf(h, "<tr><th>T0 + n/R</th><td>T0 %.1f ns, R %.4g B/ns</td>", num_at(f, "t0r.t0_ns"),
			  num_at(f, "t0r.r_bytes_per_ns"));
		fit_tail(h, jr_get(f, "t0r"));
	}
	if (jr_get(f, "hockney003") && !fit_not_model(h, f, "hockney003", "t0 + n tb")) {
		sb_printf(h, "<tr><th>t0 + n tb</th><td>t0 %.1f ns, tb %.4g ns/B</td>", num_at(f, "hockney003.t0_ns"),
			  num_at(f, "hockney003.tb_ns_per_byte"));
		fit_tail(h, jr_get(f, "hockney003"));
	}
	if (jr_get(f, "hockney") && !fit_not_model(h, f, "hockney", "alpha + beta n")) {
		double nh = num_at(f, "hockney.n_half_bytes");
		char nhs[32];

		/* null: alpha not above 0, no half-bandwidth size */
		snprintf(nhs, sizeof(nhs), isfinite(nh) ? "%.0f B" : "none", nh);
		sb_printf(h, "<tr><th>alpha + beta n</th><td>alpha %.1f ns, beta %.4g ns/B, n_1/2 %s, 1/beta %.4g B/ns</td>",
			  num_at(f, "hockney.alpha_ns"), num_at(f, "hockney.beta_ns_per_byte"), nhs,
			  num_at(f, "hockney.bw_bytes_per_ns"));
		fit_tail(h, jr_get(f, "hockney"));
	}
	if (jr_get(f, "model003") && !fit_not_model(h, f, "model003", "t0 + ti n tb/(t0 + n tb) + n tb")) {
		sb_printf(h, "<tr><th>t0 + ti n tb/(t0 + n tb) + n tb</th><td>t0 %.1f ns, ti %.1f ns, tb %.4g ns/B, "
			     "1/tb %.4g B/ns, 1/t0 %.3g /ns</td>", num_at(f, "model003.t0_ns"), num_at(f, "model003.ti_ns"),
			  num_at(f, "model003.tb_ns_per_byte"), num_at(f, "model003.bw_bytes_per_ns"),
			  num_at(f, "model003.specific_perf_per_ns"));
		fit_tail(h, jr_get(f, "model003"));
	}
	if (jr_get(f, "loggp") && !fit_not_model(h, f, "loggp", "o_s + L + o_r + G n")) {
		double L = num_at(f, "loggp.L_ns");
		char Ls[48];

		/* L null: not resolved from 0 (parameters.L has its bound); below 0 (an older run): no latency */
		snprintf(Ls, sizeof(Ls), L > 0 ? "%.1f ns" : "not resolved", L);
		sb_printf(h, "<tr><th>o_s + L + o_r + G n</th><td>o_s %.1f ns, L %s, o_r %.1f ns, G %.4g ns/B</td>",
			  num_at(f, "loggp.o_s_ns"), Ls, num_at(f, "loggp.o_r_ns"), num_at(f, "loggp.G_ns_per_byte"));
		td(h, num_at(f, "loggp.err") * 100, "%.1f", "%");
		sb_printf(h, "<td></td>");
		td_text(h, jr_str(f, "loggp.method"));
		sb_printf(h, "</tr>\n");
	}
	sb_printf(h, "</table>\n");
	if (jr_len(v, "")) {
		sb_printf(h, "<details><summary>validation: %zu sizes</summary>\n<table>\n<tr><th>n</th><th>measured</th>"
			     "<th>Hockney</th><th>Taboada et al. 2003</th><th>LogGP</th></tr>\n", jr_len(v, ""));
		static const struct col cols[] = { { "size", "%.0f", "B" }, { "measured_ns", "%.1f", "ns" },
						   { "hockney_ns", "%.1f", "ns" }, { "model003_ns", "%.1f", "ns" },
						   { "loggp_ns", "%.1f", "ns" } };

		for (size_t i = 0; i < jr_len(v, ""); i++)
			num_row(h, jr_at(v, i), cols, sizeof(cols) / sizeof(cols[0]));
		sb_printf(h, "</table></details>\n");
	}
	sb_printf(h, "</section>\n");
}

/* The size sweep (-s, -a): perftest's ib_write_lat and ib_write_bw columns,
 * size by size (docs/json.md, sweep). */
static void sweep(struct sbuf *h, const struct jr_val *root)
{
	static const struct col cols[] = {
		{ "bytes", "%.0f", "B" }, { "iterations", "%.0f", "" }, { "t_min_ns", "%.1f", "ns" },
		{ "t_typical_ns", "%.1f", "ns" }, { "t_avg_ns", "%.1f", "ns" }, { "t_99_ns", "%.1f", "ns" },
		{ "t_99_9_ns", "%.1f", "ns" }, { "t_max_ns", "%.1f", "ns" }, { "bw_avg_gbit_per_s", "%.2f", "Gb/s" },
		{ "msg_rate_mpps", "%.3f", "Mpps" },
	};
	const struct jr_val *pts = jr_get(root, "sweep.sizes");

	if (!jr_len(pts, ""))
		return;
	sb_printf(h, "<section id=\"sweep\"><h2>Size sweep (perftest's columns)</h2>\n<table>\n<tr><th>bytes</th>"
		     "<th>iterations</th><th>t_min</th><th>t_typical</th><th>t_avg</th><th>t_99</th><th>t_99.9</th>"
		     "<th>t_max</th><th>BW average</th><th>MsgRate</th></tr>\n");
	for (size_t i = 0; i < jr_len(pts, ""); i++)
		num_row(h, jr_at(pts, i), cols, sizeof(cols) / sizeof(cols[0]));
	sb_printf(h, "</table>\n<p>");
	text(h, jr_str(root, "sweep.method") ? jr_str(root, "sweep.method")
					      : "one way: each round trip timed alone / 2; BW and MsgRate: a flood of "
						"that size");
	sb_printf(h, "</p></section>\n");
}

static void limit(struct sbuf *h, const struct jr_val *root)
{
	const struct jr_val *l = jr_get(root, "limit");
	const char *kind = jr_str(l, "kind");
	double ratio = num_at(l, "eel_over_limit");

	if (!l)
		return;
	if (!isfinite(ratio))
		ratio = num_at(l, "eel_over_floor");
	sb_printf(h, "<section id=\"limit\"><h2>Limit</h2>\n<p>%s: one way ",
		  kind && !strcmp(kind, "floor") ? "the NIC's floor, a bare echo on its own carrier" :
						   "bare cache-line ping-pong between the two cores");
	val(h, num_at(l, "one_way_ns.min"), "%.1f", "ns");
	sb_printf(h, " (min), ");
	val(h, num_at(l, "one_way_ns.median"), "%.1f", "ns");
	sb_printf(h, " (median); EEL / limit = ");
	val(h, ratio, "%.2f", "");
	sb_printf(h, ".</p></section>\n");
}

static void compare_history(struct sbuf *h, const struct report *r)
{
	static const char *const m[] = { "eel", "o_s", "o_r", "g", "L" };
	const struct jr_val *root = r->run->root;
	double mine[5] = { num_at(root, "parameters.eel.ns.min"), num_at(root, "parameters.o_s.ns"),
			   num_at(root, "parameters.o_r.ns"), num_at(root, "parameters.g.ns"),
			   num_at(root, "parameters.L.ns") };
	int shown = 0;

	if (!r->hist->n)
		return;
	sb_printf(h, "<section id=\"history\"><h2>Beside the papers' machines</h2>\n<table>\n<tr><th>machine</th>"
		     "<th>software</th><th>EEL</th><th>o_s</th><th>o_r</th><th>g</th><th>L</th><th>source</th></tr>\n"
		     "<tr class=\"mine\"><th>this NIC</th>");
	td_text(h, r->nic);
	for (int k = 0; k < 5; k++)
		td(h, mine[k], "%.0f", "ns");
	sb_printf(h, "<td>this run</td></tr>\n");
	for (int i = 0; i < r->hist->n; i++) {
		const struct hist_row *row = &r->hist->row[i];
		int first = 1, any = 0;

		/* one line per machine and software with any of the five, at its first such row */
		for (int k = 0; k < i; k++)
			if (!strcmp(r->hist->row[k].machine, row->machine) && !strcmp(r->hist->row[k].software, row->software))
				for (int j = 0; j < 5; j++)
					first &= strcmp(r->hist->row[k].measurement, m[j]) != 0;
		for (int j = 0; j < 5; j++)
			any |= !strcmp(row->measurement, m[j]) && isnan(row->size);
		any |= !strcmp(row->measurement, "eel");
		if (!first || !any)
			continue;
		sb_printf(h, "<tr><th>");
		text(h, row->machine);
		sb_printf(h, "</th>");
		td_text(h, row->software);
		for (int j = 0; j < 5; j++)
			td(h, hist_value(r->hist, row->machine, row->software, m[j]), "%.0f", "ns");
		td_text(h, row->source);
		sb_printf(h, "</tr>\n");
		shown++;
	}
	sb_printf(h, "</table>\n<p class=\"note\">%d machines from ", shown);
	text(h, r->hist->path);
	sb_printf(h, " (Bell et al. 2003's text and Culler et al. 1996's Table 4; see data/README.md for what was left out).</p>\n");
	/* Dongarra & Dunigan 1997 Table 2: the latency in the node's CPU cycles, against EEL in the host counter's */
	sb_printf(h, "<details><summary>latency in CPU cycles (Dongarra & Dunigan 1997 Table 2)</summary>\n<table>\n<tr><th>machine</th>"
		     "<th>software</th><th>latency</th><th>source</th></tr>\n<tr class=\"mine\"><th>this NIC (EEL)</th>");
	td_text(h, r->nic);
	td(h, num_at(root, "parameters.eel.cycles.min"), "%.0f", "cycles");
	sb_printf(h, "<td>this run, the host counter's cycles</td></tr>\n");
	for (int i = 0; i < r->hist->n; i++) {
		const struct hist_row *row = &r->hist->row[i];

		if (strcmp(row->measurement, "latency_cycles"))
			continue;
		sb_printf(h, "<tr><th>");
		text(h, row->machine);
		sb_printf(h, "</th>");
		td_text(h, row->software);
		td(h, row->value, "%.0f", "cycles");
		td_text(h, row->source);
		sb_printf(h, "</tr>\n");
	}
	sb_printf(h, "</table></details></section>\n");
}

static void machine(struct sbuf *h, const struct jr_val *root)
{
	const struct jr_val *caps = jr_get(root, "nic.caps");
	const struct jr_val *loc = jr_get(root, "counters.local");

	sb_printf(h, "<section id=\"nic\"><h2>NIC and machine</h2>\n<table>\n");
	sb_printf(h, "<tr><th>NIC</th><td>");
	text(h, jr_str(root, "nic.uri"));
	sb_printf(h, " (");
	text(h, jr_str(root, "nic.name"));
	sb_printf(h, ", backend ");
	text(h, jr_str(root, "nic.backend"));
	sb_printf(h, ")</td></tr>\n<tr><th>doorbell</th><td>");
	text(h, jr_str(caps, "doorbell"));
	sb_printf(h, "</td></tr>\n<tr><th>attached</th><td>");
	text(h, jr_str(caps, "attach"));
	sb_printf(h, "</td></tr>\n<tr><th>NIC clock</th><td>");
	text(h, jr_str(caps, "clock"));
	sb_printf(h, "</td></tr>\n<tr><th>machine</th><td>");
	text(h, jr_str(root, "machine.cpu_model"));
	/* each figure only where the document has it (a schema-1 run has no
	 * resolution_ns: the page said "ticks of nan ns") */
	if (isfinite(num_at(root, "machine.cores_online")))
		sb_printf(h, ", %.0f cores", num_at(root, "machine.cores_online"));
	if (jr_str(root, "machine.kernel")) {
		sb_printf(h, ", kernel ");
		text(h, jr_str(root, "machine.kernel"));
	}
	sb_printf(h, "</td></tr>\n<tr><th>counter</th><td>");
	text(h, jr_str(root, "machine.clock.source") ? jr_str(root, "machine.clock.source") : "counter");
	if (isfinite(num_at(root, "machine.clock.hz")))
		sb_printf(h, " at %.1f MHz", num_at(root, "machine.clock.hz") / 1e6);
	if (isfinite(num_at(root, "machine.clock.resolution_ns")))
		sb_printf(h, ", ticks of %.1f ns", num_at(root, "machine.clock.resolution_ns"));
	if (isfinite(num_at(root, "machine.clock.timer_ns")))
		sb_printf(h, ", a read costs %.1f ns", num_at(root, "machine.clock.timer_ns"));
	sb_printf(h, "</td></tr>\n");
	sb_printf(h, "</table>\n");
	if (jr_len(loc, "")) {
		sb_printf(h, "<details><summary>NIC counters</summary>\n<table>\n<tr><th>counter</th><th>local</th>"
			     "<th>peer</th></tr>\n");
		for (size_t i = 0; i < loc->len; i++) {
			sb_printf(h, "<tr><th>");
			text(h, loc->kids[i]->key);
			sb_printf(h, "</th>");
			td(h, loc->kids[i]->type == JR_NUM ? loc->kids[i]->num : NAN, "%.0f", "");
			td(h, jr_key(jr_get(root, "counters.peer"), loc->kids[i]->key) ?
				      jr_key(jr_get(root, "counters.peer"), loc->kids[i]->key)->num : NAN, "%.0f", "");
			sb_printf(h, "</tr>\n");
		}
		sb_printf(h, "</table></details>\n");
	}
	sb_printf(h, "</section>\n");
}

/* The SVG gnuplot wrote, from its <svg> on, with ids and references prefixed
 * by the plot's name and its <title> the plot's. */
static int inline_svg(struct sbuf *h, const char *dir, const struct plot *p, char *err, size_t errlen)
{
	static const char *const pat[] = { " id='", " id=\"", "href='#", "href=\"#", "url(#", "<title>Gnuplot</title>" };
	enum { NPAT = sizeof(pat) / sizeof(pat[0]), TITLE = NPAT - 1 };
	const char *next[NPAT], *c;
	char path[4096], buf[65536];
	struct sbuf s = { 0 };
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.svg", dir, p->name);
	f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		sb_put(&s, buf, n);
	fclose(f);
	c = strstr(sb_str(&s), "<svg");
	if (!c || !strstr(c, "</svg>")) {
		snprintf(err, errlen, "%s is not an SVG gnuplot wrote (no <svg> ... </svg>)", path);
		sb_free(&s);
		return -1;
	}
	sb_printf(h, "<svg role=\"img\" aria-label=\"");
	text(h, p->title);
	sb_printf(h, "\" class=\"plot-svg\"");
	c += 4;
	for (int i = 0; i < NPAT; i++)
		next[i] = strstr(c, pat[i]);
	for (;;) {
		int k = -1;

		for (int i = 0; i < NPAT; i++)
			if (next[i] && (k < 0 || next[i] < next[k]))
				k = i;
		if (k < 0) {
			sb_put(h, c, strlen(c));
			break;
		}
		sb_put(h, c, (size_t)(next[k] - c));
		c = next[k] + strlen(pat[k]);
		if (k == TITLE) {
			sb_printf(h, "<title>");
			text(h, p->title);
			sb_printf(h, "</title>");
		} else {
			sb_printf(h, "%s%s-", pat[k], p->name);
		}
		next[k] = strstr(c, pat[k]);
	}
	sb_printf(h, "\n");
	sb_free(&s);
	return 0;
}

static const char *style =
	"body{font-family:'DejaVu Sans',sans-serif;margin:1.5em auto;max-width:1100px;color:#222;padding:0 1em}"
	"h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #ccc}h3{font-size:1em}"
	"table{border-collapse:collapse;margin:.5em 0;font-size:.9em}"
	"th,td{border:1px solid #ddd;padding:.25em .5em;text-align:left;vertical-align:top}"
	"td.num{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}"
	"tr.mine{background:#fdecea}.note,.meta{color:#555;font-size:.85em}"
	".method{font-family:'DejaVu Sans Mono',monospace}"
	"figure.plot{margin:1.5em 0;border:1px solid #ddd;padding:.5em}"
	"svg.plot-svg{width:100%;height:auto;display:block}"
	"figcaption{font-size:.85em;color:#333;margin-top:.4em}ol.warn li{color:#8a4b00}td.flag a{color:#8a4b00}";

int html_write(const char *dir, const struct report *r, const struct plot_out *out, size_t n, char *err,
	       size_t errlen)
{
	const struct jr_val *root = r->run->root, *cmd = jr_get(root, "command");
	char path[4096];
	struct sbuf h = { 0 };
	int missing = 0;
	FILE *f;

	sb_printf(&h, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>eel-report: ");
	text(&h, r->nic);
	sb_printf(&h, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>eel-report: ", style);
	text(&h, r->nic);
	sb_printf(&h, "</h1>\n<p class=\"meta\">run ");
	text(&h, r->run->path);
	sb_printf(&h, ", written ");
	text(&h, jr_str(root, "created"));
	sb_printf(&h, " by eel ");
	text(&h, jr_str(root, "eel_version"));
	sb_printf(&h, " (schema eel.run %d)", r->run->version);
	if (jr_len(cmd, "")) {
		sb_printf(&h, ":<code>");
		for (size_t i = 0; i < cmd->len; i++) {
			sb_printf(&h, " ");
			text(&h, jr_str(jr_at(cmd, i), ""));
		}
		sb_printf(&h, "</code>");
	}
	sb_printf(&h, "</p>\n");

	warnings_first(&h, root);
	headline(&h, root);
	parameters(&h, root);
	breakdown(&h, root);
	decompose(&h, root);
	signature(&h, root);
	bulk(&h, root);
	sweep(&h, root);
	limit(&h, root);
	compare_history(&h, r);
	machine(&h, root);

	sb_printf(&h, "<section id=\"plots\"><h2>Plots</h2>\n");
	for (size_t i = 0; i < n; i++) {
		const struct plot *p = out[i].plot;

		if (!out[i].made) {
			missing++;
			continue;
		}
		sb_printf(&h, "<figure class=\"plot\" id=\"plot-%s\">\n", p->name);
		if (inline_svg(&h, dir, p, err, errlen)) {
			sb_free(&h);
			return -1;
		}
		sb_printf(&h, "<figcaption><b>");
		text(&h, p->title);
		sb_printf(&h, "</b>, after ");
		text(&h, p->source);
		sb_printf(&h, ". ");
		text(&h, sb_str(&out[i].caption));
		sb_printf(&h, " Files: %s.svg, %s.png, gnuplot/%s.gp.</figcaption>\n</figure>\n", p->name, p->name, p->name);
	}
	sb_printf(&h, "</section>\n");
	if (missing) {
		sb_printf(&h, "<section id=\"not-measured\"><h2>Not measured</h2>\n<ul>\n");
		for (size_t i = 0; i < n; i++) {
			if (out[i].made)
				continue;
			sb_printf(&h, "<li id=\"missing-%s\"><b>", out[i].plot->name);
			text(&h, out[i].plot->title);
			sb_printf(&h, "</b> (%s): ", out[i].plot->cite);
			text(&h, sb_str(&out[i].caption));
			sb_printf(&h, "</li>\n");
		}
		sb_printf(&h, "</ul></section>\n");
	}
	sb_printf(&h, "<section id=\"seeds\"><h2>Seeds</h2>\n<ul>\n");
	for (size_t k = 0; k < sizeof(seed_files) / sizeof(seed_files[0]); k++) {
		sb_printf(&h, "<li>seed %s: ", seed_files[k][0]);
		text(&h, seed_files[k][1]);
		sb_printf(&h, "</li>\n");
	}
	sb_printf(&h, "</ul></section>\n</body>\n</html>\n");
	if (h.oom) {
		snprintf(err, errlen, "out of memory writing the HTML page");
		sb_free(&h);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/index.html", dir);
	f = fopen(path, "w");
	if (!f || fputs(sb_str(&h), f) < 0 || fclose(f)) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		sb_free(&h);
		return -1;
	}
	sb_free(&h);
	return 0;
}
