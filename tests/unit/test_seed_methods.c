/* SPDX-License-Identifier: MIT */
/* tests/unit/test_seed_methods.c — the extraction of the seed methods (docs/methods.md) on
 * synthetic data with known answers: Culler et al. 1996's signature (o_s, g, o_r, L),
 * the fits of seeds 002/003/004 and when a fit is no model (docs/methods.md, the breakdown), the
 * validation sizes, the Student t quantile of the 5%/95% rule, the
 * decomposition's labelling of what was stamped, differenced, modelled or
 * left as remainder, and what a derived figure (L, EEL - (o_s + o_r)) may be
 * said to be on a NIC (docs/methods.md, the breakdown: not separable, a bound, never below 0). */
#include <math.h>
#include <string.h>

#include "bench.h"
#include "check.h"

/* A signature curve from the LogP time line (Culler et al. 1996 Fig. 3/4): cost o_s
 * while only sending, o_s + D beyond; rising to the steady state max(g, o_s +
 * o_r + D) once replies come back (after RTT/o_s requests). */
static void synth_curve(struct sig_curve *c, double os, double orr, double g, double d, double rtt)
{
	static const uint32_t m[] = { 1, 2, 3, 4, 6, 8, 11, 16, 23, 32, 45, 64, 91, 128, 181, 256, 362, 512, 724, 1024 };
	double steady = fmax(g, os + orr + d), m0 = rtt / (os + d);

	memset(c, 0, sizeof(*c));
	c->d_ns = d;
	for (int i = 0; i < 20; i++) {
		double n = m[i], cost;

		if (n <= m0)
			cost = os + d; /* send only */
		else              /* the first m0 cheap, the rest at the steady cost */
			cost = (m0 * (os + d) + (n - m0) * steady) / n;
		c->pt[c->n].m = m[i];
		c->pt[c->n].cost_ns = cost;
		c->pt[c->n].converged = 1;
		c->n++;
	}
}



/* A signature of four curves, D = 0, 200 (beyond Idle = g - os - or = 150),
 * 400 and 800, and its round trip. */
static void synth_signature(struct signature_res *r, double os, double orr, double g, double rtt)
{
	memset(r, 0, sizeof(*r));
	synth_curve(&r->curve[0], os, orr, g, 0, rtt);
	synth_curve(&r->curve[1], os, orr, g, 200, rtt);
	synth_curve(&r->curve[2], os, orr, g, 400, rtt);
	synth_curve(&r->curve[3], os, orr, g, 800, rtt);
	r->ncurves = 4;
	r->rtt_ns = rtt;
}

static void signature(void)
{
	struct signature_res r;
	const double os = 100, orr = 150, g = 400, rtt = 1200;

	synth_signature(&r, os, orr, g, rtt);
	for (int k = 0; k < 4; k++)
		sig_regimes(&r.curve[k]);
	sig_extract(&r);
	CHECK_EQ_D(r.o_s_ns, os, 1e-9);
	CHECK(fabs(r.g_ns - g) <= 0.05 * g, "g %.1f, expected %.1f (the tail still carries the send-only start)",
	      r.g_ns, g);
	CHECK(r.o_r_curves == 3, "%d curves beyond Idle, expected 3", r.o_r_curves);
	CHECK(fabs(r.o_r_ns - orr) <= 0.05 * orr, "o_r %.1f, expected %.1f", r.o_r_ns, orr);
	CHECK(fabs(r.L_ns - (rtt / 2 - os - orr)) <= 0.05 * orr, "L %.1f, expected %.1f", r.L_ns, rtt / 2 - os - orr);
	CHECK(r.curve[0].send_only_max_m <= 12 && r.curve[0].send_only_max_m >= 8,
	      "send-only regime up to M = %u, expected about RTT/o_s = 12", r.curve[0].send_only_max_m);
}

/* A first sample that carries a fixed cost of its own (M = 1: the timer, a
 * cold path) is no part of the flat send-only head: o_s stays the head's. */
static void signature_cold_first_point(void)
{
	struct sig_curve c;
	const double os = 100, orr = 150, g = 400, rtt = 1200;

	synth_curve(&c, os, orr, g, 0, rtt);
	c.pt[0].cost_ns = 2.1 * os;
	sig_regimes(&c);
	CHECK(c.send_only_min_m == 2, "send-only regime from M = %u, expected 2", c.send_only_min_m);
	CHECK(c.send_only_max_m >= 8 && c.send_only_max_m <= 12, "send-only regime up to M = %u, expected about 12",
	      c.send_only_max_m);
	CHECK_EQ_D(sig_send_only_cost(&c), os, 1e-9);
	/* a flat curve (o_s determines the gap): every point is send-only */
	for (int i = 0; i < c.n; i++)
		c.pt[i].cost_ns = g;
	sig_regimes(&c);
	CHECK(c.send_only_min_m == 1 && c.send_only_max_m == c.pt[c.n - 1].m, "a flat curve: send-only M %u..%u",
	      c.send_only_min_m, c.send_only_max_m);
	CHECK_EQ_D(sig_send_only_cost(&c), g, 1e-9);
}

static void student_t(void)
{
	/* Student's t at 97.5%: 2.0096 for 49 degrees of freedom, 1.9720 for 199 */
	CHECK_EQ_D(t975(49), 2.0096, 0.002);
	CHECK_EQ_D(t975(199), 1.9720, 0.001);
	CHECK(t975(10) > t975(100), "t falls with more samples");
}

static void fits(void)
{
	double x[8], y[8];
	struct fit_line f;

	for (int i = 0; i < 8; i++) {
		x[i] = 8 << (2 * i);
		y[i] = 350 + 0.125 * x[i];
	}
	CHECK(fit_linear(x, y, 8, &f) == 0, "fit");
	CHECK_EQ_D(f.a, 350, 1e-6);
	CHECK_EQ_D(f.b, 0.125, 1e-12);
	CHECK(fit_linear(x, y, 1, &f) != 0, "one point is not a line");
	/* Taboada et al. 2003's model: t0 at n = 0; at large n it approaches ti + n tb */
	CHECK_EQ_D(model003(300, 500, 0.1, 0), 300, 1e-9);
	CHECK_EQ_D(model003(300, 500, 0.1, 1e9) - 1e8, 800, 0.01);
	double p[2] = { 110, 90 }, m[2] = { 100, 100 };
	CHECK_EQ_D(mean_abs_rel_err(p, m, 2), 0.10, 1e-12);
}

/* bulk_fit on T(n) and echo times from known laws: each fit recovers its
 * law's parameters, and the law the validation sizes follow is the one whose
 * error comes out zero (Taboada et al. 2003 section 3's judge, Dongarra & Dunigan 1997's n_1/2). */
static void bulk_fits(void)
{
	static struct results r;
	struct bulk_res *b = &r.bulk;
	const double alpha = 420, beta = 0.0625, T0 = 900, R = 5.0, os = 120, L = 150, orr = 90, G = 0.08;
	const uint32_t sizes[] = { 8, 64, 512, 4096, 32768, 131072 };

	memset(&r, 0, sizeof(r));
	b->npt = 6;
	for (int i = 0; i < 6; i++) {
		b->pt[i].size = sizes[i];
		b->pt[i].echo.min = alpha + beta * sizes[i];
		b->pt[i].t.min = T0 + sizes[i] / R;
	}
	r.sig.done = r.fl.done = 1;
	r.sig.o_s_ns = os;
	r.sig.L_ns = L;
	r.sig.o_r_ns = r.sig.o_r_raw_ns = orr;
	r.sig.L.separable = 1;
	r.fl.G_ns_per_byte = G;
	b->nv = VALIDATE_SIZES;
	for (int i = 0; i < VALIDATE_SIZES; i++) {
		b->v_size[i] = 8 + 6000 * i;
		b->v_meas[i] = alpha + beta * b->v_size[i];
		b->v_tmeas[i] = T0 + b->v_size[i] / R;
	}
	bulk_fit(b, &r);
	/* T0 + n/R judged on T(n) at the validation sizes (it had no error) */
	CHECK_EQ_D(b->err_t0r, 0, 1e-12);
	CHECK(b->valid_t0r && b->valid_hockney && b->valid_h003 && b->valid_003 && b->valid_loggp,
	      "every fit within 100%%: valid %d %d %d %d %d", b->valid_t0r, b->valid_hockney, b->valid_h003,
	      b->valid_003, b->valid_loggp);
	CHECK_EQ_D(b->nstar_fit, (alpha + beta * 8) / beta, 1e-6);
	/* Taboada et al. 2003's Hockney, t0 + n tb with t0 measured (not the regression's
	 * intercept, Dongarra & Dunigan 1997's alpha): off the line by t0 - alpha = 8 beta */
	CHECK(b->err_h003 > 0 && b->err_hockney < b->err_h003, "Taboada et al. 2003's Hockney %g beside Dongarra & Dunigan 1997's line %g",
	      b->err_h003, b->err_hockney);
	CHECK_EQ_D(b->lat0_ns, alpha + beta * 8, 1e-9);
	CHECK_EQ_D(b->hockney.a, alpha, 1e-6);
	CHECK_EQ_D(b->hockney.b, beta, 1e-12);
	CHECK_EQ_D(b->n_half, alpha / beta, 1e-6);
	CHECK_EQ_D(b->t0r.a, T0, 1e-6);
	CHECK_EQ_D(1 / b->t0r.b, R, 1e-9);
	/* Taboada et al. 2003: t0 the startup (the smallest size stands for n = 0), ti and tb the regression's */
	CHECK_EQ_D(b->m003_t0, alpha + beta * 8, 1e-9);
	CHECK_EQ_D(b->m003_ti, alpha, 1e-6);
	CHECK_EQ_D(b->m003_tb, beta, 1e-12);
	CHECK(b->have_loggp, "LogGP predicted from the signature and the flood");
	CHECK_EQ_D(b->err_hockney, 0, 1e-12);
	CHECK(b->err_003 > 0 && b->err_loggp > 0, "the other laws miss a Hockney line: %g %g", b->err_003,
	      b->err_loggp);
	/* the validation sizes on Taboada et al. 2003's curve, then on LogGP's line */
	for (int i = 0; i < VALIDATE_SIZES; i++)
		b->v_meas[i] = model003(alpha + beta * 8, alpha, beta, b->v_size[i]);
	bulk_fit(b, &r);
	CHECK_EQ_D(b->err_003, 0, 1e-12);
	CHECK(b->err_hockney > 0, "Hockney's line misses Taboada et al. 2003's curve");
	for (int i = 0; i < VALIDATE_SIZES; i++)
		b->v_meas[i] = os + L + orr + G * b->v_size[i];
	bulk_fit(b, &r);
	CHECK_EQ_D(b->err_loggp, 0, 1e-12);
	/* the measured points on Taboada et al. 2003's Hockney: its error 0, the line's not */
	for (int i = 0; i < VALIDATE_SIZES; i++)
		b->v_meas[i] = alpha + beta * 8 + beta * b->v_size[i];
	bulk_fit(b, &r);
	CHECK_EQ_D(b->err_h003, 0, 1e-12);
	/* a NIC on the host's CPU: o_s + L + o_r not separable, no LogGP error, no model */
	r.sig.L.separable = 0;
	bulk_fit(b, &r);
	CHECK(b->have_loggp && !b->loggp_separable && isnan(b->err_loggp) && !b->valid_loggp,
	      "LogGP not separable: separable %d, error %g, valid %d", b->loggp_separable, b->err_loggp, b->valid_loggp);
	r.sig.L.separable = 1;
	/* no signature: no LogGP prediction, no error claimed */
	r.sig.done = 0;
	bulk_fit(b, &r);
	CHECK(!b->have_loggp && isnan(b->err_loggp) && !b->valid_loggp, "LogGP without a signature");
	r.sig.done = 1;
	/* a flood that could not measure G (0: no size bandwidth-bound): no LogGP
	 * line drawn with G = 0, no error claimed */
	r.fl.G_ns_per_byte = 0;
	bulk_fit(b, &r);
	CHECK(!b->have_loggp && isnan(b->err_loggp) && !b->valid_loggp, "LogGP without a G: have %d, error %g",
	      b->have_loggp, b->err_loggp);
	r.fl.G_ns_per_byte = G;
	/* measured points a third of every fit's prediction (a 200% error): the
	 * curve is not of the fits' form, and no fit is valid; T(n) still on its line */
	for (int i = 0; i < VALIDATE_SIZES; i++)
		b->v_meas[i] = (alpha + beta * b->v_size[i]) / 3;
	bulk_fit(b, &r);
	CHECK(b->err_hockney > FIT_MAX_ERR && !b->valid_hockney, "Hockney's line at 200%%: error %g, valid %d",
	      b->err_hockney, b->valid_hockney);
	CHECK(b->err_h003 > FIT_MAX_ERR && !b->valid_h003, "Taboada et al. 2003's Hockney: error %g, valid %d",
	      b->err_h003, b->valid_h003);
	CHECK(b->err_003 > FIT_MAX_ERR && !b->valid_003, "Taboada et al. 2003's model: error %g, valid %d",
	      b->err_003, b->valid_003);
	CHECK(b->err_loggp > FIT_MAX_ERR && !b->valid_loggp, "LogGP: error %g, valid %d", b->err_loggp, b->valid_loggp);
	CHECK(b->valid_t0r, "T0 + n/R on T(n), which is on its line: error %g", b->err_t0r);
	/* just within: 90% (measured at 1/1.9 of the prediction) is still a model */
	for (int i = 0; i < VALIDATE_SIZES; i++)
		b->v_meas[i] = (alpha + beta * b->v_size[i]) / 1.9;
	bulk_fit(b, &r);
	CHECK(b->err_hockney < FIT_MAX_ERR && b->valid_hockney, "Hockney at 90%%: error %g, valid %d", b->err_hockney,
	      b->valid_hockney);
	/* T(n) at the validation sizes three times T0 + n/R's: not of that form */
	for (int i = 0; i < VALIDATE_SIZES; i++)
		b->v_tmeas[i] = (T0 + b->v_size[i] / R) / 3;
	bulk_fit(b, &r);
	CHECK(b->err_t0r > FIT_MAX_ERR && !b->valid_t0r, "T0 + n/R at 200%%: error %g, valid %d", b->err_t0r,
	      b->valid_t0r);
	for (int i = 0; i < VALIDATE_SIZES; i++) {
		b->v_meas[i] = alpha + beta * b->v_size[i];
		b->v_tmeas[i] = T0 + b->v_size[i] / R;
	}
	/* echo times that bend (flat, then steep): the least-squares line passes
	 * below 0 at n = 0. alpha is the paper's intercept, printed as such; an
	 * n_1/2 from a negative alpha is not a size: none is given */
	for (int i = 0; i < 6; i++)
		b->pt[i].echo.min = sizes[i] < 4096 ? 200 : 200 + (sizes[i] - 4096) * 0.5;
	bulk_fit(b, &r);
	CHECK(b->hockney.a < 0, "a bent curve's line meets n = 0 below 0: alpha %g", b->hockney.a);
	CHECK(isnan(b->n_half), "no n_1/2 from alpha %g below 0: %g", b->hockney.a, b->n_half);
}

/* The parts a NIC tells apart follow its stamp mask: a stage whose end is
 * not stamped merges with the next, named for both, never split by a guess. */
static void spans(void)
{
	struct eel_caps caps;
	struct breakdown bd;
	struct decompose_res d;
	uint32_t all = (1u << EEL_STAGES) - 1;

	/* raw e1000: eel's firmware on the host; no NIC_FETCH, DD stands for NIC_TX */
	memset(&caps, 0, sizeof(caps));
	caps.flags = EEL_CAP_HOSTED_FW;
	caps.stamp_mask = all & ~(1u << EEL_ST_NIC_FETCH);
	memset(&bd, 0, sizeof(bd));
	breakdown_spans(&bd, &caps);
	CHECK(bd.span_extra[2] == 1 && bd.absorbed[3] && !strcmp(bd.name[2], "fetch+tx"), "raw: fetch+tx, got %s",
	      bd.name[2]);
	CHECK(!bd.span_extra[4] && !strcmp(bd.name[4], "wire") && strstr(bd.what[2], "descriptor done"),
	      "raw: the wire on its own, fetch+tx ends at the descriptor done: %s", bd.what[2]);
	CHECK(strstr(bd.what[0], "eel's firmware") != NULL, "hosted: post holds eel's firmware: %s", bd.what[0]);
	/* dpdk: no NIC_FETCH, no NIC_TX: fetch, tx and the wire are one part */
	caps.stamp_mask = all & ~(1u << EEL_ST_NIC_FETCH | 1u << EEL_ST_NIC_TX);
	memset(&bd, 0, sizeof(bd));
	breakdown_spans(&bd, &caps);
	CHECK(bd.span_extra[2] == 2 && bd.absorbed[3] && bd.absorbed[4] && !strcmp(bd.name[2], "fetch+tx+wire"),
	      "dpdk: fetch+tx+wire, got %s", bd.name[2]);
	/* verbs: the host's stamps and DETECT: everything between is one part */
	caps.flags = 0;
	caps.stamp_mask = 1u << EEL_ST_POST | 1u << EEL_ST_DOORBELL | 1u << EEL_ST_DOORBELL_DONE | 1u << EEL_ST_DETECT;
	memset(&bd, 0, sizeof(bd));
	breakdown_spans(&bd, &caps);
	CHECK(!strcmp(bd.name[2], "fetch+tx+wire+rx+dma+detect"), "verbs: one part after the doorbell, got %s",
	      bd.name[2]);

	/* decompose on the raw-like parts: post, doorbell, fetch+tx stamped; the
	 * wire between two hosts not; rx, dma, detect stamped */
	caps.flags = EEL_CAP_HOSTED_FW;
	caps.stamp_mask = all & ~(1u << EEL_ST_NIC_FETCH);
	memset(&bd, 0, sizeof(bd));
	breakdown_spans(&bd, &caps);
	bd.done = 1;
	for (int k = 0; k < STAGE_PARTS; k++) {
		bd.have[k] = !bd.absorbed[k] && k != STAGE_WIRE;
		bd.part[k].mean = 100;
	}
	memset(&d, 0, sizeof(d));
	d.eel_ns = 1000;
	decompose_build(&d, &bd, NULL, NULL, NULL, 50);
	CHECK(d.nparts == 7 && !strcmp(d.part[2].name, "fetch+tx") && !strcmp(d.part[2].merged, "fetch,tx") &&
	      !strcmp(d.part[6].name, "remainder") && !strcmp(d.part[6].merged, "wire"),
	      "raw: 6 stamped parts (fetch+tx one of them), the wire the remainder: %d parts, %s, %s", d.nparts,
	      d.part[2].name, d.part[6].merged);
	CHECK_EQ_D(d.part[6].ns, 1000 - 600, 1e-9);
	/* a descriptor difference inside a stamped merged part is a check of fit */
	d.have_ereg = 1;
	d.fetch_diff_ns = 80;
	decompose_build(&d, &bd, NULL, NULL, NULL, 50);
	CHECK(d.nchecks == 1 && !strcmp(d.check[0].within, "fetch+tx") && d.check[0].agrees,
	      "fetch by difference fits inside fetch+tx: %d checks", d.nchecks);
	d.fetch_diff_ns = 180;
	decompose_build(&d, &bd, NULL, NULL, NULL, 50);
	CHECK(d.nchecks == 1 && !d.check[0].agrees, "180 ns does not fit inside 100 ns");
}

/* The PCIe link's payload bound, from the facts (bench/nic_pci.c). */
static void pci_model(void)
{
	struct nic_pci p;

	memset(&p, 0, sizeof(p));
	p.f.link_speed_mts = 8000;     /* PCIe 3.0 x8, MPS 256: 7.877 GB/s raw, 7.17 of payload */
	p.f.link_width = 8;
	p.f.max_payload = 256;
	nic_pci_model(&p);
	CHECK_EQ_D(p.link_bytes_per_ns, 8.0 * 8 * 128 / 130 / 8, 1e-12);
	CHECK_EQ_D(p.payload_bytes_per_ns, 8.0 * 8 * 128 / 130 / 8 * 256 / 280, 1e-12);
	p.f.link_speed_mts = 2500;     /* PCIe 1.0 x1, 8b/10b: 250 MB/s raw */
	p.f.link_width = 1;
	p.f.max_payload = 128;
	nic_pci_model(&p);
	CHECK_EQ_D(p.link_bytes_per_ns, 0.25, 1e-12);
	CHECK_EQ_D(p.payload_bytes_per_ns, 0.25 * 128 / 152, 1e-12);
	p.f.link_speed_mts = 0;        /* conventional PCI or an integrated endpoint: nothing modelled */
	nic_pci_model(&p);
	CHECK(p.link_bytes_per_ns == 0 && p.payload_bytes_per_ns == 0, "no link, no model");
}

static void decompose(void)
{
	struct breakdown bd;
	struct decompose_res d;
	double sum = 0;

	/* a NIC that stamps only the host's stages (verbs-like) */
	memset(&bd, 0, sizeof(bd));
	bd.done = 1;
	bd.have[0] = bd.have[1] = 1;
	bd.part[0].mean = 30;
	bd.part[1].mean = 200;
	memset(&d, 0, sizeof(d));
	d.eel_ns = d.eel_put = 2000;
	d.have_dma = 1;
	d.eel_dma = 2300;
	d.payload_diff_ns = 300;
	decompose_build(&d, &bd, NULL, NULL, NULL, 80);
	for (int i = 0; i < d.nparts; i++)
		sum += d.part[i].ns;
	/* the remainder closes the sum: no residual to give (null in the JSON) */
	CHECK_EQ_D(sum, 2000, 1e-9);
	CHECK(d.closed, "a remainder closes the sum, yet not said: closed %d", d.closed);
	CHECK(d.nparts == 5, "post, doorbell, payload, detect, remainder: %d parts", d.nparts);
	CHECK(!strcmp(d.part[2].name, "payload") && !strcmp(d.part[2].method, "difference") &&
	      fabs(d.part[2].ns - 300) < 1e-9, "payload by difference: %s %s %.1f", d.part[2].name,
	      d.part[2].method, d.part[2].ns);
	CHECK(!strcmp(d.part[3].method, "modelled") && fabs(d.part[3].ns - 40) < 1e-9, "detect modelled: %.1f",
	      d.part[3].ns);
	CHECK(!strcmp(d.part[4].method, "remainder") &&
	      !strcmp(d.part[4].merged, "fetch,tx less the payload,wire,rx,dma"),
	      "remainder merges '%s' (the payload fetch taken out of tx)", d.part[4].merged);
	CHECK_EQ_D(d.part[4].ns, 2000 - 30 - 200 - 300 - 40, 1e-9);

	/* a NIC that stamps everything (the software NIC): checks, no remainder */
	memset(&bd, 0, sizeof(bd));
	bd.done = 1;
	for (int k = 0; k <= STAGE_PARTS; k++)
		bd.have[k] = 1;
	for (int k = 0; k < STAGE_PARTS; k++)
		bd.part[k].mean = 100 * (k + 1);
	memset(&d, 0, sizeof(d));
	d.eel_ns = d.eel_put = 3700;
	d.have_ereg = 1;
	d.eel_ereg = 3700 - 290;          /* fetch stamped at 300: within 10% */
	d.have_dma = d.have_dma_tx = 1;
	d.eel_dma = 3700 + 1000;
	d.fetch_diff_ns = 290;
	d.payload_diff_ns = 1000;
	d.payload_stamped_ns = 1500;       /* stamped payload cost 1500 vs 1000 by difference: disagrees */
	decompose_build(&d, &bd, NULL, NULL, NULL, 80);
	CHECK(d.nparts == 8, "8 stamped parts: %d", d.nparts);
	CHECK_EQ_D(d.residual_ns, 3600 - 3700, 1e-9);   /* the parts' sum less EEL, as the breakdown's */
	CHECK(!d.closed, "no remainder, yet closed");
	CHECK(d.nchecks == 2 && !d.check[1].agrees,
	      "checks: %d; payload disagrees %d", d.nchecks, d.check[1].agrees);
	/* an E-register store is not stamped: the fetch check cannot say its
	 * variants differ in the fetch alone, and says so (it said DISAGREE) */
	CHECK(!d.check[0].isolated && strstr(d.check[0].why_not, "not stamped"),
	      "fetch: isolated %d (%s)", d.check[0].isolated, d.check[0].why_not);
	/* the same 500 ns apart, but the runs' differences themselves spread wider: agree */
	d.payload_noise_ns = 600;
	decompose_build(&d, &bd, NULL, NULL, NULL, 80);
	CHECK(d.check[1].agrees && d.check[1].noise_ns == 600, "payload within the runs' noise: agrees %d",
	      d.check[1].agrees);
	d.payload_noise_ns = 400;
	decompose_build(&d, &bd, NULL, NULL, NULL, 80);
	CHECK(!d.check[1].agrees, "payload beyond the runs' noise: agrees %d", d.check[1].agrees);
	/* both variants stamped: where they differ in tx alone, the check stands;
	 * where the stamps show another stage differing too, it says which */
	{
		static struct breakdown pair[2];

		pair[0] = pair[1] = bd;
		for (int k = 0; k < STAGE_PARTS; k++)
			pair[0].part[k].median = pair[1].part[k].median = bd.part[k].mean;
		pair[1].part[3].median = bd.part[3].mean + 1000;
		d.payload_stamped_ns = 1000;
		d.payload_noise_ns = 5;
		decompose_build(&d, &bd, &pair[0], &pair[1], NULL, 80);
		CHECK(d.check[1].isolated && d.check[1].agrees, "payload alone: isolated %d agrees %d",
		      d.check[1].isolated, d.check[1].agrees);
		/* small differences in every other stage, each within the noise,
		 * adding up to what the payload alone misses: cannot isolate (it
		 * said DISAGREE) */
		for (int k = 0; k < STAGE_PARTS; k++)
			pair[1].part[k].median = pair[0].part[k].median + (k == 3 ? 100 : 25);
		d.payload_diff_ns = 100 + 7 * 25 + 20;
		d.payload_noise_ns = 30;
		decompose_build(&d, &bd, &pair[0], &pair[1], NULL, 80);
		CHECK(!d.check[1].agrees && !d.check[1].isolated && strstr(d.check[1].why_not, "in all"),
		      "spread thin: agrees %d isolated %d (%s)", d.check[1].agrees, d.check[1].isolated,
		      d.check[1].why_not);
		for (int k = 0; k < STAGE_PARTS; k++)
			pair[1].part[k].median = pair[0].part[k].median + (k == 3 ? 1000 : 0);
		d.payload_noise_ns = 5;
		pair[1].part[5].median = bd.part[5].mean - 300;  /* rx cheaper too */
		d.payload_diff_ns = 700;
		decompose_build(&d, &bd, &pair[0], &pair[1], NULL, 80);
		CHECK(!d.check[1].isolated && strstr(d.check[1].why_not, "rx"), "payload and rx: isolated %d (%s)",
		      d.check[1].isolated, d.check[1].why_not);
	}

	/* two ends with different clocks (DPDK between two hosts): only the wire is left */
	memset(&bd, 0, sizeof(bd));
	bd.done = 1;
	for (int k = 0; k < STAGE_PARTS; k++)
		bd.have[k] = k != STAGE_WIRE;
	for (int k = 0; k < STAGE_PARTS; k++)
		bd.part[k].mean = 50;
	memset(&d, 0, sizeof(d));
	d.eel_ns = d.eel_put = 1000;
	decompose_build(&d, &bd, NULL, NULL, NULL, 0);
	CHECK(d.nparts == 8 && !strcmp(d.part[7].name, "remainder") && !strcmp(d.part[7].merged, "wire"),
	      "the wire alone is the remainder: %d parts, last %s merging %s", d.nparts, d.part[7].name,
	      d.part[7].merged);
	CHECK_EQ_D(d.part[7].ns, 1000 - 7 * 50, 1e-9);
}

/* Validation size v[i]: in the range, a multiple of 8, not a fitted size,
 * not one of v[0..i-1]. */
static void valid_size(const struct plan *p, const uint32_t *v, int i)
{
	CHECK(v[i] >= 8 && v[i] <= 1048576 && v[i] % 8 == 0, "size %u", v[i]);
	for (uint32_t k = 0; k < p->nbulk; k++)
		CHECK(v[i] != p->bulk_sizes[k], "size %u is a fitted size", v[i]);
	for (int j = 0; j < i; j++)
		CHECK(v[i] != v[j], "size %u twice", v[i]);
}

/* Taboada et al. 2003's 20 validation sizes: distinct, uniformly random over the
 * range, multiples of 8, none a fitted size (they were log-uniform, and
 * could repeat or land on a fitted size); with n* = t0/tb known, half of them
 * around it, where Hockney's line and Taboada et al. 2003's model differ (none of 20 uniform
 * sizes fell below 31 KB, and n* was 2-6 KB) */
static void validation_sizes(void)
{
	struct plan p;
	uint32_t v[VALIDATE_SIZES];
	int n, below_mid = 0, near = 0, under = 0, over = 0, far = 0;

	memset(&p, 0, sizeof(p));
	p.nbulk = 10;
	for (uint32_t k = 0; k < 10; k++)
		p.bulk_sizes[k] = k ? 16u << (2 * (k - 1)) : 8;  /* 8, 16, 64, ..., 1 MiB */
	/* n* = 4 KB: at least half the sizes in [n* / 8, 8 n*] = [512, 32768], on
	 * both sides of n*, and the rest still spread over the range */
	n = random_sizes(&p, 4096, v);
	CHECK(n == VALIDATE_SIZES, "%d sizes around n* = 4096", n);
	for (int i = 0; i < n; i++) {
		valid_size(&p, v, i);
		near += v[i] >= 512 && v[i] <= 32768;
		under += v[i] >= 512 && v[i] < 4096;
		over += v[i] > 4096 && v[i] <= 32768;
		far += v[i] > 65536;
	}
	CHECK(near >= VALIDATE_SIZES / 2, "%d of 20 sizes in [n*/8, 8 n*] = [512, 32768]", near);
	CHECK(under >= 3 && over >= 3, "around n* on both sides: %d below, %d above", under, over);
	CHECK(far >= 4, "the uniform half still reaches the large sizes: %d above 64 KB", far);
	/* n* near the bottom of the range: the band is clipped to it, sizes still distinct, none fitted */
	n = random_sizes(&p, 100, v);
	CHECK(n == VALIDATE_SIZES, "%d sizes around n* = 100", n);
	near = 0;
	for (int i = 0; i < n; i++) {
		near += v[i] <= 800;
		for (int j = 0; j < i; j++)
			CHECK(v[i] != v[j], "size %u twice (n* = 100)", v[i]);
	}
	CHECK(near >= VALIDATE_SIZES / 2, "%d of 20 sizes in [8, 800] (n* = 100)", near);
	/* n* above the range, or unknown: all uniform, as below */
	n = random_sizes(&p, 1e9, v);
	CHECK(n == VALIDATE_SIZES, "%d sizes with n* beyond the range", n);
	n = random_sizes(&p, NAN, v);
	CHECK(n == VALIDATE_SIZES, "%d sizes", n);
	for (int i = 0; i < n; i++) {
		valid_size(&p, v, i);
		below_mid += v[i] < 524288;
	}
	/* uniform, not log-uniform: about half below the middle (log-uniform put 19 of 20 there) */
	CHECK(below_mid >= 4 && below_mid <= 16, "%d of 20 below the middle of the range", below_mid);
	/* a range with fewer free sizes than 20: as many as there are, still distinct */
	p.nbulk = 2;
	p.bulk_sizes[0] = 8;
	p.bulk_sizes[1] = 64;
	n = random_sizes(&p, NAN, v);
	CHECK(n == 6, "8..64 leaves 6 sizes that are not fitted ones: %d", n);
	n = random_sizes(&p, 32, v);
	CHECK(n == 6, "8..64 leaves 6 sizes around n* = 32 too: %d", n);
}

/* What a figure derived from others may be said to be (docs/methods.md, the breakdown): on a NIC
 * that runs on the host's CPU, not separable (with why); elsewhere the
 * figure where it is above 0 by more than its uncertainty, a bound where it
 * is within it, and never a negative duration. */
static void derived_figures(void)
{
	struct eel_caps inl = { .flags = EEL_CAP_NEEDS_CALLER }, hosted = { .flags = EEL_CAP_HOSTED_FW },
			thr = { .flags = EEL_CAP_ONESIDED_HW }, hw = { .flags = EEL_CAP_ONESIDED_HW | EEL_CAP_RELIABLE_HW };
	static struct results r;
	struct session s;
	struct signature_res g;
	struct derived d;
	const char *why = NULL;

	CHECK(!overheads_separable(&inl, &why) && why && strstr(why, "host's CPU"),
	      "softnic:inline, dpdk, raw (the NIC in the host's calls): not separable, why '%s'", why ? why : "");
	CHECK(!overheads_separable(&hosted, &why) && why && strstr(why, "firmware"),
	      "eel's firmware hosted over a real NIC: not separable, why '%s'", why ? why : "");
	CHECK(overheads_separable(&thr, &why) && !why, "softnic:thread (a NIC processor of its own): separable");
	CHECK(overheads_separable(&hw, NULL), "verbs (the NIC is hardware): separable");
	d = derived_of(&inl, 120, 5, 0);
	CHECK(!d.separable && !d.resolved && isnan(d.ns) && isnan(d.bound_ns) && d.why,
	      "not separable: no figure, no bound (ns %g, bound %g)", d.ns, d.bound_ns);
	d = derived_of(&hw, 120, 5, 0);
	CHECK(d.separable && d.resolved && d.ns == 120 && !d.why, "120 +- 5 ns: resolved, %g", d.ns);
	d = derived_of(&hw, 4, 10, 0);
	CHECK(d.separable && !d.resolved && isnan(d.ns) && d.bound_ns == 14, "4 +- 10 ns: at most 14, bound %g",
	      d.bound_ns);
	d = derived_of(&hw, -6, 10, 0);
	CHECK(!d.resolved && isnan(d.ns) && d.bound_ns == 4, "-6 +- 10 ns: at most 4 (never -6), bound %g", d.bound_ns);
	d = derived_of(&hw, -40, 10, 0);
	CHECK(!d.resolved && isnan(d.ns) && isnan(d.bound_ns) && d.why,
	      "L -40 +- 10 ns: its parts contradict each other, no figure, no bound (%g)", d.bound_ns);
	d = derived_of(&hw, -40, 10, 1);
	CHECK(!d.resolved && isnan(d.ns) && d.bound_ns == 0, "EEL - (o_s + o_r) -40 +- 10 ns: none (bound %g)",
	      d.bound_ns);
	/* L with o_r not measured (no D raised the gap): RTT/2 - o_s is only its upper bound */
	memset(&g, 0, sizeof(g));
	g.L_ns = 200;
	g.L_u_ns = 10;
	d = sig_L(&hw, &g);
	CHECK(!d.resolved && d.bound_ns == 210, "o_r not measured: L at most 210, bound %g", d.bound_ns);
	g.o_r_curves = 3;
	d = sig_L(&hw, &g);
	CHECK(d.resolved && d.ns == 200, "o_r measured: L 200, %g", d.ns);
	/* EEL - (o_s + o_r) of the three medians: not EEL's minimum less the overheads' medians */
	memset(&s, 0, sizeof(s));
	s.caps = &hw;
	r.pp.done = r.ov.done = 1;
	r.pp.eel = (struct stat){ .n = 10, .min = 300, .p25 = 395, .median = 400, .p75 = 405, .max = 420 };
	r.ov.os_sweeps = (struct stat){ .n = 3, .min = 90, .p25 = 100, .median = 100, .p75 = 100, .max = 110 };
	r.ov.or_sweeps = (struct stat){ .n = 3, .min = 140, .p25 = 150, .median = 150, .p75 = 150, .max = 160 };
	r.ov.send.o_ns = 90;
	r.ov.recv.o_ns = 160;
	d = overlap_potential(&s, &r);
	CHECK(d.resolved && d.ns == 150 && d.u_ns == 5, "400 - 100 - 150 (medians): %g +- %g", d.ns, d.u_ns);
	r.pp.eel.median = 250;
	d = overlap_potential(&s, &r);
	CHECK(!d.resolved && isnan(d.ns) && d.bound_ns == 5, "250 - 100 - 150: at most 5, bound %g", d.bound_ns);
	r.pp.eel.median = 150;
	d = overlap_potential(&s, &r);
	CHECK(!d.resolved && isnan(d.ns) && d.bound_ns == 0, "150 - 100 - 150: none, bound %g", d.bound_ns);
	s.caps = &inl;
	d = overlap_potential(&s, &r);
	CHECK(!d.separable && isnan(d.ns), "softnic:inline: EEL - (o_s + o_r) not separable");
}

/* The signature's L is RTT/2 - (g' - D): its uncertainty is the RTT's and
 * the D curves' (o_s cancels); a D taken as spun moves o_r and L by it */
static void signature_uncertainty(void)
{
	struct signature_res r;
	const double os = 100, orr = 150, g = 400, rtt = 1200;
	double L0, or0;

	synth_signature(&r, os, orr, g, rtt);
	r.rtt_ci_ns = 40;
	for (int k = 0; k < 4; k++) {
		for (int i = 0; i < r.curve[k].n; i++)
			r.curve[k].pt[i].ci_ns = 6;
		sig_regimes(&r.curve[k]);
	}
	sig_extract(&r);
	CHECK(r.L_u_ns >= 20 + 6 && r.L_u_ns <= 20 + 6 + 0.05 * orr, "L's uncertainty %g: the RTT's 20, the points' 6",
	      r.L_u_ns);
	L0 = r.L_ns;
	or0 = r.o_r_ns;
	/* the same gaps with every D 15 ns more as spun than asked: o_r 15 less, L 15 more */
	for (int k = 1; k < 4; k++)
		r.curve[k].d_ns += 15;
	sig_extract(&r);
	CHECK_EQ_D(r.o_r_ns, or0 - 15, 1e-9);
	CHECK_EQ_D(r.L_ns, L0 + 15, 1e-9);
	/* every D 200 ns more as spun: g' - D below o_s, o_r -50: not separable
	 * here (NAN, the JSON's null, with why), never a negative o_r; L as computed */
	for (int k = 1; k < 4; k++)
		r.curve[k].d_ns += 185;
	sig_extract(&r);
	CHECK(isnan(r.o_r_ns) && r.o_r_why && strstr(r.o_r_why, "not separable here"),
	      "o_r %g from a raw %g: not separable here, why '%s'", r.o_r_ns, r.o_r_raw_ns, r.o_r_why ? r.o_r_why : "");
	CHECK_EQ_D(r.L_ns, L0 + 200, 1e-9);
	/* no curve beyond D = 0: o_r not measured (NAN, was 0 as if measured) */
	r.ncurves = 1;
	sig_extract(&r);
	CHECK(isnan(r.o_r_ns) && r.o_r_curves == 0 && r.o_r_why && strstr(r.o_r_why, "not measured"),
	      "no D curve: o_r %g, why '%s'", r.o_r_ns, r.o_r_why ? r.o_r_why : "");
}

/* One machine per run: two stats of one quantity differ when their medians
 * are apart by more than both interquartile ranges and by more than 10% */
static void machine_drift(void)
{
	struct stat a = { .n = 3, .p25 = 395, .median = 400, .p75 = 405 }, b = a;

	CHECK(!stats_differ(&a, &b), "the same machine");
	b.p25 = 795, b.median = 800, b.p75 = 805;
	CHECK(stats_differ(&a, &b) && stats_differ(&b, &a), "400 against 800 ns: changed");
	b.p25 = 425, b.median = 430, b.p75 = 435;
	CHECK(!stats_differ(&a, &b), "400 against 430 ns (7.5%%): not changed");
	b.p25 = 400, b.median = 460, b.p75 = 560;
	CHECK(!stats_differ(&a, &b), "400 against 460 ns, with 160 ns of spread: within it");
	b.n = 0;
	CHECK(!stats_differ(&a, &b), "nothing measured: nothing changed");
}

/* Culler et al. 1996's bulk o(n): no send-only regime when the first requests
 * already cost the steady state's gap, or more than T(n) */
static void send_only(void)
{
	struct sig_curve c;

	memset(&c, 0, sizeof(c));
	c.g_ns = 1000;
	CHECK(send_only_regime(&c, 300, 2000), "300 ns before a 1000 ns gap is send-only");
	CHECK(!send_only_regime(&c, 950, 2000), "950 ns before a 1000 ns gap is the gap");
	CHECK(!send_only_regime(&c, 500, 400), "o(n) above T(n)");
}

int main(void)
{
	derived_figures();
	signature_uncertainty();
	machine_drift();
	validation_sizes();
	send_only();
	signature();
	signature_cold_first_point();
	bulk_fits();
	spans();
	pci_model();
	student_t();
	fits();
	decompose();
	CHECK_DONE();
}
