/* SPDX-License-Identifier: MIT */
/* tools/report/plot_breakdown.c — Bell et al. 2003 Fig. 3 style stacked bars: the
 * stamped stages of one put (medians), decompose's parts with the method
 * behind each, and EEL with o_s and o_r superimposed (from the bottom and
 * from the top, as Bell et al. 2003 draws them: where they overlap, o_s + o_r > EEL). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "plots.h"

#define STEP 2.0   /* between bars: room for the labels right of each */

/* One box of a stacked bar, and its label when it is tall enough to carry one. */
static void box(struct sbuf *b, double x, double lo, double hi, unsigned rgb, const char *name)
{
	sb_printf(b, "%g %g %g %g %g %g %u \"", x, (lo + hi) / 2, x - 0.3, x + 0.3, lo, hi, rgb);
	sb_gpstr(b, name);
	sb_printf(b, "\"\n");
}

/* The bars drawn so far: their data blocks, the stages' keys, the x tics. */
struct bars {
	struct sbuf boxes, labels, keys, tics;
	struct stage_keys seen;
	int nbars;
	double top, x;
};

/* One figure as eel-bench's breakdown table prints it: "12.3 +- 4.5" where
 * resolved, "< 9.4" (not resolved) where within its uncertainty of 0,
 * "not separable here" where the run has no figure (null). */
static void table_figure(const struct jr_val *p, const char *stat, const char *unc_obj, char *out, size_t n)
{
	int resolved = 1;
	double mean = num_at(p, stat), unc = num_at(jr_get(p, unc_obj), "unc_ns");

	jr_bool(jr_get(p, unc_obj), "resolved", &resolved);
	if (!isfinite(mean))
		snprintf(out, n, "not separable here");
	else if (!resolved)
		snprintf(out, n, "< %.1f ns (not resolved)", num_at(jr_get(p, unc_obj), "bound_ns"));
	else if (isfinite(unc))
		snprintf(out, n, "%.1f +- %.1f ns", mean, unc);
	else
		snprintf(out, n, "%.1f ns", mean);
}

/* The stamped stages exactly as eel-bench's breakdown table prints them
 * (bench/breakdown_report.c): every part the run has, in order, at its
 * mean (0 and unresolved ones too: the table's sum adds them), labelled
 * with the table's figure; then the turnaround; its top the table's
 * "sum", and beside it the table's EEL (breakdown.eel_ns: the ping-pong's
 * RTT/2, stamps off) and the residual, or "not separable here" where the
 * table says so (no one clock at both ends). */
static void table_bar(struct bars *b, const struct jr_val *root, const struct jr_val *parts, struct sbuf *gp)
{
	const struct jr_val *bd = jr_get(root, "breakdown");
	double y = 0, eel = num_at(bd, "eel_ns"), res = num_at(bd, "residual_ns");
	char fig[64], label[128];
	int derived = 0;

	for (size_t i = 0; i < jr_len(parts, ""); i++) {
		const struct jr_val *p = jr_at(parts, i);
		const char *name = jr_str(p, "name"), *method = jr_str(p, "method");
		double ns = num_at(p, "ns.mean");

		if (!name)
			continue;
		derived |= method && strcmp(method, "stamped");
		table_figure(p, "ns.mean", "", fig, sizeof(fig));
		snprintf(label, sizeof(label), "%s %s", name, fig);
		ns = isfinite(ns) && ns > 0 ? ns : 0;
		box(&b->boxes, b->x, y, y + ns, stage_color(name), label);
		stage_key(&b->keys, &b->seen, name);
		y += ns;
	}
	if (isfinite(num_at(bd, "turn_ns.mean"))) {
		double ns = fmax(num_at(bd, "turn_ns.mean"), 0);

		table_figure(bd, "turn_ns.mean", "turn", fig, sizeof(fig));
		snprintf(label, sizeof(label), "turn %s", fig);
		box(&b->boxes, b->x, y, y + ns, stage_color("turn"), label);
		y += ns;
	}
	if (isfinite(num_at(bd, "parts_sum_ns")))
		y = num_at(bd, "parts_sum_ns");
	sb_printf(&b->labels, "%g %g \"sum %.1f ns\"\n", b->x, y, y);
	if (isfinite(eel) && eel > 0) {
		sb_printf(gp, "set arrow 2 from %g,%g to %g,%g nohead lw 2 lc rgb \"black\"\n", b->x - 0.45, eel,
			  b->x + 0.45, eel);
		if (isfinite(res))
			snprintf(label, sizeof(label), "EEL %.1f ns, residual %+.1f ns", eel, res);
		else
			snprintf(label, sizeof(label), "EEL %.1f ns, residual %s", eel,
				 derived ? "not separable here" : "not measured");
		sb_printf(gp, "set label 5 \"%s\" at %g,%g left offset 0.5,0.6 font \",9\"\n", label, b->x + 0.3, eel);
		b->top = fmax(b->top, eel);
	}
	sb_printf(&b->tics, "%s\"%s\" %g", b->nbars ? ", " : "", "stamped stages\\n(the table's)", b->x);
	b->top = fmax(b->top, y);
	b->x += STEP;
	b->nbars++;
}

/* decompose's parts, each with its method, then the residual up to
 * decompose's EEL. */
static void stage_bar(struct bars *b, const struct jr_val *root, const struct jr_val *parts, struct sbuf *gp)
{
	double y = 0;

	if (!jr_len(parts, ""))
		return;
	for (size_t i = 0; i < jr_len(parts, ""); i++) {
		const struct jr_val *p = jr_at(parts, i);
		const char *name = jr_str(p, "name"), *method = jr_str(p, "method");
		double ns = num_at(p, "ns");
		char label[96];

		if (!name || !isfinite(ns) || ns <= 0)
			continue;
		snprintf(label, sizeof(label), "%s %.0f ns (%s)", name, ns, method ? method : "?");
		box(&b->boxes, b->x, y, y + ns, stage_color(name), label);
		stage_key(&b->keys, &b->seen, name);
		y += ns;
	}
	{
		double res = num_at(root, "decompose.residual_ns"), deel = num_at(root, "decompose.eel_ns");

		/* what the parts leave of EEL: schema 8's residual is the sum less EEL, 7's EEL less the sum */
		if (num_at(root, "schema_version") >= 8)
			res = -res;

		/* what the parts leave of decompose's EEL: an empty box up to that EEL */
		if (isfinite(res) && res > 0 && isfinite(deel)) {
			sb_printf(gp, "set object 4 rect from %g,%g to %g,%g fs empty border lc rgb \"#555555\" dt 2\n",
				  b->x - 0.3, y, b->x + 0.3, y + res);
			sb_printf(gp, "set label 4 \"residual %.0f ns\" at %g,%g left offset 0.5,0 font \",8\"\n", res,
				  b->x + 0.3, y + res / 2);
			sb_printf(&b->labels, "%g %g \"EEL %.0f ns\"\n", b->x, y + res, deel);
			b->top = fmax(b->top, y + res);
		} else {
			sb_printf(&b->labels, "%g %g \"sum %.0f ns\"\n", b->x, y, y);
		}
	}
	sb_printf(&b->tics, "%s\"%s\" %g", b->nbars ? ", " : "", "decompose\\n(method per part)", b->x);
	b->top = fmax(b->top, y);
	b->x += STEP;
	b->nbars++;
}

/* The bar of EEL, o_s from its bottom and o_r from its top (Bell et al. 2003
 * Fig. 3), when the NIC separates them; EEL (NaN: none) returned, *sep: separable. */
static double eel_bar(struct bars *b, const struct jr_val *root, struct sbuf *gp, int *sep)
{
	double eel = num_at(root, "parameters.eel.ns.min");
	if (!isfinite(eel))
		eel = num_at(root, "decompose.eel_ns");
	double o_s = num_at(root, "parameters.o_s.ns");
	double o_r = num_at(root, "parameters.o_r.ns");
	/* schema 7: not separable on this NIC (it runs on the host's CPU, its
	 * work in o_s and o_r): not drawn over EEL, nor the signature's in their place */
	jr_bool(jr_get(root, "parameters.o_s"), "separable", sep);
	if (!*sep)
		o_s = o_r = NAN;
	if (!isfinite(o_s) && *sep)
		o_s = num_at(root, "signature.o_s_ns");
	if (!isfinite(o_r) && *sep)
		o_r = num_at(root, "signature.o_r_ns");
	if (isfinite(eel) && eel > 0) {
		b->top = fmax(b->top, eel);
		sb_printf(&b->tics, "%s\"%s\" %g", b->nbars ? ", " : "",
			  isfinite(o_s) || isfinite(o_r) ? "EEL with\\no_s and o_r" : "EEL", b->x);
		sb_printf(&b->labels, "%g %g \"EEL %.0f ns\"\n", b->x, eel, eel);
		if (isfinite(o_s) && o_s > 0) {
			sb_printf(gp, "set object 1 rect from %g,0 to %g,%g fc rgb \"#1f77b4\" fs transparent solid 0.45 border "
				      "lc rgb \"#1f77b4\"\n", b->x - 0.3, b->x, o_s);
			sb_printf(gp, "set label 1 \"o_s %.0f ns\" at %g,%g right offset -0.5,0 font \",9\"\n", o_s, b->x - 0.3,
				  o_s / 2);
			b->top = fmax(b->top, o_s);
		}
		if (isfinite(o_r) && o_r > 0) {
			sb_printf(gp, "set object 2 rect from %g,%g to %g,%g fc rgb \"#d62728\" fs transparent solid 0.45 "
				      "border lc rgb \"#d62728\"\n", b->x, fmax(eel - o_r, 0), b->x + 0.3, eel);
			sb_printf(gp, "set label 2 \"o_r %.0f ns\" at %g,%g left offset 0.5,0 font \",9\"\n", o_r, b->x + 0.3,
				  fmax(eel - o_r, 0) + fmin(o_r, eel) / 2);
		}
		sb_printf(gp, "set object 3 rect from %g,0 to %g,%g fs empty border lc rgb \"black\" lw 1.5\n", b->x - 0.3,
			  b->x + 0.3, eel);
		sb_printf(gp, "set arrow 1 from graph 0, first %g to graph 1, first %g nohead dt 2 lc rgb \"#555555\"\n", eel,
			  eel);
		b->x += STEP;
		b->nbars++;
	}
	return eel;
}

static void bars_free(struct bars *b)
{
	sb_free(&b->boxes);
	sb_free(&b->labels);
	sb_free(&b->keys);
	sb_free(&b->tics);
}

/* What the bars are, under the plot. */
static void say_caption(struct sbuf *caption, const struct jr_val *root, const struct jr_val *bd,
			const struct jr_val *dec, double eel, int sep)
{
	sb_printf(caption, "Stacked bars, bottom to top in the order of the stages.");
	if (jr_len(bd, ""))
		sb_printf(caption, " Stamped stages: eel-bench's breakdown table, part by part at its mean (labelled with "
				   "the table's figure: mean +- its 95%% uncertainty, or < its bound where not resolved), "
				   "then the turnaround, up to the table's sum; the black line is the table's EEL (the "
				   "ping-pong's RTT/2, stamps off), with the residual (the sum less EEL).");
	if (jr_len(dec, ""))
		sb_printf(caption, " Decompose: each part says how it was obtained (stamped, nic_clock, difference, "
				   "modelled, remainder).");
	if (isfinite(eel) && sep)
		sb_printf(caption, " Right: EEL (ping-pong RTT/2, minimum) with o_s from the bottom and o_r from the top, "
				   "as in Bell et al. 2003 Fig. 3; where they overlap, o_s + o_r > EEL.");
	else if (isfinite(eel))
		sb_printf(caption, " Right: EEL (ping-pong RTT/2, minimum); o_s and o_r are not separable on this NIC (%s), "
				   "so they are not drawn over it.", jr_str(jr_get(root, "parameters.o_s"), "why") ?
				   jr_str(jr_get(root, "parameters.o_s"), "why") : "it runs on the host's CPU");
}

int plot_breakdown(const struct plot *self, const struct report *r, struct sbuf *gp, struct sbuf *caption)
{
	const struct jr_val *root = r->run->root;
	const struct jr_val *bd = jr_get(root, "breakdown.parts"), *dec = jr_get(root, "decompose.parts");
	struct bars b = { .seen = { .n = 0 }, .x = 1 };
	int sep = 1;
	double eel;

	if (!jr_len(bd, "") && !jr_len(dec, "")) {
		sb_printf(caption, "not measured: the run has no stage breakdown (stamps) and no decompose section "
				   "(eel-bench -t decompose)");
		return 0;
	}
	if (jr_len(bd, ""))
		table_bar(&b, root, bd, gp);
	stage_bar(&b, root, dec, gp);
	eel = eel_bar(&b, root, gp, &sep);
	if (!(b.top > 0)) {
		/* every figure 0 or null (a run that measured nothing): said, not
		 * plotted (gnuplot refuses an empty y range, and that would cost
		 * the whole report) */
		sb_printf(caption, "not measured: every figure of the breakdown, decompose and EEL is 0 or null");
		bars_free(&b);
		return 0;
	}
	gp_title(gp, r, self);
	sb_printf(gp, "$boxes << EOD\n%sEOD\n$totals << EOD\n%sEOD\n", sb_str(&b.boxes), sb_str(&b.labels));
	sb_printf(gp, "set ylabel \"ns (one 8-byte put)\"\nset xrange [0.3:%g]\nset yrange [0:%g]\n", b.x - STEP + 1.6,
		  b.top * 1.12);
	sb_printf(gp, "set xtics (%s) nomirror\nset ytics nomirror\nset grid ytics lc rgb \"#dddddd\"\n", sb_str(&b.tics));
	sb_printf(gp, "set key outside right top vertical font \",9\" title \"stage\"\nset style fill solid 0.85 border lc rgb \"white\"\n");
	sb_printf(gp, "set bmargin 4\n");
	sb_printf(gp, "plot $boxes using 1:2:3:4:5:6:7 with boxxyerror lc rgb variable notitle, \\\n"
		      "     $boxes using ($1+0.32):2:(($6-$5) >= %g ? stringcolumn(8) : \"\") with labels left font \",8\" notitle, \\\n"
		      "     $totals using 1:2:3 with labels offset 0,0.7 font \",9\" notitle%s\n",
		  b.top * 0.04, sb_str(&b.keys));
	say_caption(caption, root, bd, dec, eel, sep);
	bars_free(&b);
	return 1;
}
