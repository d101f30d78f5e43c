/* SPDX-License-Identifier: MIT */
/* bench/bulk.c — bulk transfers, Culler et al. 1996 (Culler et al. 1996,
 * "Bulk-transfer microbenchmark"), and the echo test of Taboada et al. 2003 and Dongarra & Dunigan 1997.
 *
 * For each size n:
 *   T(n)  the time to complete an n-byte store and receive its reply (seed
 *         002): a signalled put of n bytes and its completion, which comes
 *         once the data is delivered; BW(n) = n / T(n);
 *   o(n)  the send overhead at n bytes, from the send-only regime of an m-D
 *         signature at that size (Culler et al. 1996, "Bulk-transfer overhead");
 *   echo  ping-pong of n bytes, RTT/2 (Taboada et al. 2003: 150 measurements per size,
 *         the minimum; Dongarra & Dunigan 1997: the echo test), the T(n) the fits model.
 * Sizes are the NIC's smallest (8 B) and powers of 4 up to 1 MiB (Taboada et al. 2003:
 * powers of 4 from 0 B). 20 random sizes (random_sizes: half around n* =
 * t0/tb, where the fits differ, half uniform over the range), distinct and
 * none a fitted size, are measured the same way (T(n) and echo), interleaved
 * with the fitted ones (two after each), to judge the fits (fit.c); and 10^6
 * B, for Dongarra & Dunigan 1997's bandwidth. Every figure is the minimum over bulk_reps
 * repetitions (Taboada et al. 2003, Dongarra & Dunigan 1997). Where a size's signature has no send-only
 * regime (its first requests already cost the steady state's gap, or more
 * than T(n)), o(n) is not reported: there is nothing to read it from.
 *
 * One size's stores and echoes are taken in alternating batches (BATCHES),
 * so that both see the same machine: run one after the other they were
 * seconds apart, and on a VM that moves its vCPUs echo/T(n) swung from 1.0
 * to 3.9 between runs, and the fits' errors from 4% to 264% (docs/methods.md).
 */
#include <math.h>
#include <string.h>

#include "bench.h"
#include "post.h"

enum bulk_kind { STORE = 1, ECHO = 2 };
/* what client_size measures at a size */
enum size_kind {
	FITTED,      /* T(n), o(n) (the signature at that size) and the echo */
	VALIDATION,  /* T(n) and the echo: the fits' validation (Taboada et al. 2003 3) */
	ECHO_ONLY,   /* the echo alone: 10^6 B (Dongarra & Dunigan 1997), the n* pilot */
};
#define BATCHES 5        /* store and echo batches of a size, alternating */
#define BATCH_MIN 10     /* ... of at least this many repetitions each */
#define PILOT_REPS 20    /* echoes at the smallest and largest size before the validation sizes are drawn */

static uint32_t max_size(const struct plan *p)
{
	uint32_t m = 0;

	for (uint32_t i = 0; i < p->nbulk; i++)
		m = p->bulk_sizes[i] > m ? p->bulk_sizes[i] : m;
	return m;
}

/* Message i of an echo: the size's bytes, its token in the last 8. */
static void fill(struct session *s, uint8_t *m, uint32_t size, uint32_t i)
{
	uint64_t tok = token(s, i);

	if (s->plan.verify)
		pattern_fill(m, size, s->point, i);
	else
		memcpy(m + size - 8, &tok, 8);
}

/* The echo: the client sends n bytes, the server sends them back. A put
 * that is not inline is read from its source while it goes out (a message
 * longer than the NIC's window of packets goes out as ACKs come back), so
 * each end takes its last put's completion before it fills the source again:
 * outside the timed round trip, and by then it is there (the peer's message
 * carried the ACK). */
static int echo(struct session *s, uint32_t size, uint32_t reps, double *v, int *nv)
{
	uint8_t *src = s->data + max_size(&s->plan);   /* the upper half is the source */
	unsigned flags = size <= s->caps->max_inline ? EEL_PUT_INLINE : EEL_PUT_SIGNALED;
	uint32_t bad = 0;

	for (uint32_t i = 0; i < reps; i++) {
		const volatile uint64_t *last = (const volatile uint64_t *)(s->data + size - 8);
		uint64_t t0, t1;

		if (i && (flags & EEL_PUT_SIGNALED) && poll_at_least(s, 1, "echo: the last put's completion") < 0)
			return -1;
		t0 = eel_cycles();
		fill(s, src, size, i);
		if (!s->server &&
		    eel_put(s->dev, s->data_mr, src, size, &s->peer_data, 0, flags, i, 0))
			return bench_fail("echo: put");
		if (eel_wait_u64(s->dev, last, token(s, i)))
			return bench_fail("echo: waiting for the message");
		if (s->plan.verify)
			bad += pattern_check(s->data, size, s->point, i);
		if (s->server &&
		    eel_put(s->dev, s->data_mr, src, size, &s->peer_data, 0, flags, i, 0))
			return bench_fail("echo: put back");
		t1 = eel_cycles();
		if (v && *nv < 1024)
			v[(*nv)++] = cyc_ns(s, (double)(t1 - t0 - s->clk->timer_cycles)) / 2;
	}
	if (reps && (flags & EEL_PUT_SIGNALED) && poll_at_least(s, 1, "echo: the last put's completion") < 0)
		return -1;
	if (bad) {
		fprintf(stderr, "eel-bench: --verify: %u words of %u-byte echoes arrived wrong\n", bad, size);
		return -1;
	}
	if (eel_quiet(s->dev))
		return bench_fail("echo: quiet");
	return 0;
}

/* T(n): store n bytes, wait for the reply (the completion); each one's time appended to v. */
static int store(struct session *s, uint32_t size, uint32_t reps, double *v, int *nv)
{
	unsigned flags = EEL_PUT_SIGNALED | (size <= s->caps->max_inline ? EEL_PUT_INLINE : 0);

	for (uint32_t i = 0; i < reps; i++) {
		uint64_t t0 = eel_cycles();

		if (eel_put(s->dev, s->data_mr, s->data, size, &s->peer_data, 0, flags, i, 0))
			return bench_fail("bulk: store");
		if (poll_at_least(s, 1, "bulk: the store's reply") < 0)
			return -1;
		if (*nv < 1024)
			v[(*nv)++] = cyc_ns(s, (double)(eel_cycles() - t0 - s->clk->timer_cycles));
	}
	return 0;
}

/* One size on the client: its repetitions in alternating batches of stores
 * (T(n); a fitted size's o(n) after the first batch's) and echoes, so that a
 * machine that changes speed during the size changes both alike. Every kind
 * takes as many repetitions as a fitted size (Taboada et al. 2003: the minimum of as
 * many repetitions, or the validation sizes would come out high against the
 * fits). */
static int client_size(struct session *s, uint32_t size, struct bulk_point *p, struct signature_res *sig,
		       enum size_kind kind, uint32_t reps)
{
	static double tv[1024], ev[1024];
	uint32_t nb = reps / BATCH_MIN < BATCHES ? reps / BATCH_MIN : BATCHES;
	int nt = 0, ne = 0;
	struct point_done d;
	struct sig_curve c;

	memset(&c, 0, sizeof(c));
	memset(p, 0, sizeof(*p));
	p->size = size;
	p->o_s_ns = NAN;
	progress(s, "bulk: %u B%s", size, kind == FITTED ? "" : kind == VALIDATION ? " (a random size, for the fits)" : "");
	if (!nb || kind == ECHO_ONLY)
		nb = 1;
	for (uint32_t b = 0; b < nb; b++) {
		uint32_t rb = reps / nb + (b < reps % nb);
		struct ov_point pt = { STORE, size, 0, rb, 0 };

		if (kind != ECHO_ONLY) {
			if (eel_oob_send(s->oob, OOB_POINT, &pt, sizeof(pt)) || client_await_ready(s))
				return bench_fail("bulk: starting a size");
			if (store(s, size, rb, tv, &nt))
				return -1;
			/* o(n): the mean cost over the send-only regime (Culler et al. 1996 Fig. 10) */
			if (kind == FITTED && !b) {
				if (sig_curve(s, size, 0, 16, 0, &c, sig))
					return -1;
				p->o_s_ns = sig_send_only_cost(&c);
			}
			if (sig_client_phase_end(s))
				return -1;
			s->point++;
		}
		pt.go = ECHO;
		if (eel_oob_send(s->oob, OOB_POINT, &pt, sizeof(pt)) || client_await_ready(s))
			return bench_fail("bulk: starting an echo");
		if (echo(s, size, rb, ev, &ne) || client_await_done(s, &d))
			return -1;
		s->point++;
	}
	p->t = stat_of(tv, nt);
	p->echo = stat_of(ev, ne);
	if (kind == FITTED && !send_only_regime(&c, p->o_s_ns, p->t.min))
		p->o_s_ns = NAN;
	return 0;
}

/* Does a size's signature have a send-only regime: a head cheaper than its
 * steady state (by 10%: the first requests only issue) and than T(n)? */
int send_only_regime(const struct sig_curve *c, double o_ns, double t_ns)
{
	return o_ns > 0 && o_ns < 0.9 * c->g_ns && o_ns < t_ns;
}

static int server_follow(struct session *s)
{
	for (;;) {
		struct ov_point pt;
		struct point_done d = { 0 };

		if (eel_oob_recv(s->oob, OOB_POINT, &pt, sizeof(pt), NULL, s->plan.timeout_ms, s->dev))
			return bench_fail("bulk: waiting for the next size");
		if (!pt.go)
			return 0;
		if (pt.n < 8 || pt.n > max_size(&s->plan) || pt.n % 8) {
			fprintf(stderr, "eel-bench: bulk: the client asked for %u bytes\n", pt.n);
			return -1;
		}
		if (pt.go == STORE) {
			if (sig_server_phase(s, 0))
				return -1;
		} else if (!pt.reps || pt.reps > 100000 || server_ready(s) || echo(s, pt.n, pt.reps, NULL, NULL) ||
			   server_done(s, &d)) {
			return -1;
		}
		s->point++;
	}
}

static uint32_t min_size(const struct plan *p)
{
	uint32_t m = p->nbulk ? p->bulk_sizes[0] : 8;

	for (uint32_t i = 0; i < p->nbulk; i++)
		m = p->bulk_sizes[i] < m ? p->bulk_sizes[i] : m;
	return m;
}

/* xorshift64*: the next of a fixed sequence, as a fraction in [0, 1) */
static double next_unit(uint64_t *x)
{
	*x ^= *x >> 12;
	*x ^= *x << 25;
	*x ^= *x >> 27;
	return (double)((*x * 0x2545F4914F6CDD1Dull) >> 11) / 9007199254740992.0;
}

/* The validation sizes (Taboada et al. 2003 3: 20 random sizes): multiples
 * of 8, distinct, none a fitted size, the same on every run (a fixed seed).
 * Hockney's t0 + n tb and Taboada et al. 2003's model differ where n tb is
 * near t0 (the model's middle term is half of ti at n* = t0/tb, and goes from
 * 0 to ti over a decade or two around it) and agree far above; sizes drawn
 * uniformly over a range up to 1 MiB all but never fall near n* (2-6 KB here:
 * none of 20 below 31 KB), so the comparison could not tell the two apart.
 * Every other size (half of them) is drawn log-uniformly over [n* / 8, 8 n*],
 * clipped to the fitted range; the rest uniformly over the whole range, as
 * before. nstar not above 0 (not known): all uniform. Returns how many
 * (fewer when the range has too few). */
int random_sizes(const struct plan *p, double nstar, uint32_t *out)
{
	uint32_t lo = min_size(p) / 8, hi = max_size(p) / 8;
	double nlo = 0, nhi = 0;
	uint64_t x = 0x9E3779B97F4A7C15ull;
	int n = 0, near = isfinite(nstar) && nstar > 0;

	if (near) {
		nlo = fmax(nstar / 8, 8.0 * lo);
		nhi = fmin(nstar * 8, 8.0 * hi);
		near = nhi > nlo;
	}
	for (int tries = 0; n < VALIDATE_SIZES && tries < 100 * VALIDATE_SIZES; tries++) {
		double u = next_unit(&x);
		uint32_t v;
		int dup = 0;

		/* around n* for every other size, while that range has room (tries run out before it is full) */
		if (near && n % 2 == 0 && tries < 50 * VALIDATE_SIZES)
			v = 8 * (uint32_t)fmin(hi, fmax(lo, floor(nlo * pow(nhi / nlo, u) / 8 + 0.5)));
		else
			v = 8 * (lo + (uint32_t)(u * (double)(hi - lo + 1)));
		if (v > 8 * hi)
			v = 8 * hi;
		for (uint32_t k = 0; k < p->nbulk; k++)
			dup |= p->bulk_sizes[k] == v;
		for (int k = 0; k < n; k++)
			dup |= out[k] == v;
		if (!dup)
			out[n++] = v;
	}
	return n;
}

/* Is a fit of the curve's form? Its error on the validation sizes at most
 * FIT_MAX_ERR (100%): beyond, its parameters describe no model of the
 * curve (an error not measured does not say it is not). */
static int fit_valid(double err)
{
	return !(err > FIT_MAX_ERR);
}

void bulk_fit(struct bulk_res *b, const struct results *r)
{
	double x[MAX_SIZES], ty[MAX_SIZES], ey[MAX_SIZES], ph[VALIDATE_SIZES], p3[VALIDATE_SIZES],
		pl[VALIDATE_SIZES], h3[VALIDATE_SIZES], pt[VALIDATE_SIZES];
	int have_t = b->nv > 0;

	for (int i = 0; i < b->npt; i++) {
		x[i] = b->pt[i].size;
		ty[i] = b->pt[i].t.min;
		ey[i] = b->pt[i].echo.min;
	}
	fit_linear(x, ty, b->npt, &b->t0r);
	fit_linear(x, ey, b->npt, &b->hockney);
	/* n_1/2 = alpha/beta (Dongarra & Dunigan 1997 2.2) is a size only for a line
	 * that meets n = 0 above 0: a curve that bends up past its flat small sizes
	 * gives a least-squares alpha below 0, and no half-bandwidth size (NAN: JSON null) */
	b->n_half = b->hockney.a > 0 && b->hockney.b > 0 ? b->hockney.a / b->hockney.b : NAN;
	/* Taboada et al. 2003: t0 the measured startup, ti and tb the regression's intercept and slope */
	b->m003_t0 = b->npt ? b->pt[0].echo.min : 0;
	b->m003_ti = b->hockney.a;
	b->m003_tb = b->hockney.b;
	b->nstar_fit = b->m003_tb > 0 ? b->m003_t0 / b->m003_tb : NAN;
	b->lat0_ns = b->m003_t0;
	/* LogGP's line needs the flood's G: none where the flood could not measure it */
	b->have_loggp = r->sig.done && r->fl.done && flood_G_measured(&r->fl);
	/* o_s + L + o_r: not separable where the NIC runs on the host's CPU (derived.c) */
	b->loggp_separable = b->have_loggp && r->sig.L.separable;
	if (b->have_loggp) {
		b->loggp_os = r->sig.o_s_ns;
		b->loggp_L = r->sig.L_ns;
		b->loggp_or = r->sig.o_r_raw_ns;   /* o_s + L + o_r = RTT/2 even where o_r is not stated */
		b->loggp_G = r->fl.G_ns_per_byte;
	}
	for (int i = 0; i < b->nv; i++) {
		double n = b->v_size[i];

		ph[i] = b->hockney.a + b->hockney.b * n;
		p3[i] = model003(b->m003_t0, b->m003_ti, b->m003_tb, n);
		pl[i] = b->loggp_os + b->loggp_L + b->loggp_or + b->loggp_G * n;
		h3[i] = b->m003_t0 + b->m003_tb * n;
		pt[i] = b->t0r.a + b->t0r.b * n;
		have_t &= b->v_tmeas[i] > 0;
	}
	b->err_hockney = mean_abs_rel_err(ph, b->v_meas, b->nv);
	b->err_003 = mean_abs_rel_err(p3, b->v_meas, b->nv);
	b->err_h003 = mean_abs_rel_err(h3, b->v_meas, b->nv);
	b->err_loggp = b->loggp_separable ? mean_abs_rel_err(pl, b->v_meas, b->nv) : NAN;
	/* T0 + n/R is fitted to T(n): judged on T(n) at the validation sizes */
	b->err_t0r = have_t ? mean_abs_rel_err(pt, b->v_tmeas, b->nv) : NAN;
	b->valid_t0r = fit_valid(b->err_t0r);
	b->valid_hockney = fit_valid(b->err_hockney);
	b->valid_h003 = fit_valid(b->err_h003);
	b->valid_003 = fit_valid(b->err_003);
	b->valid_loggp = b->loggp_separable && fit_valid(b->err_loggp);
}

/* n* = t0/tb from a short echo at the smallest and the largest size: where
 * the validation sizes are drawn around (random_sizes), before they are. */
static int pilot_nstar(struct session *s, struct signature_res *sig, double *nstar)
{
	uint32_t lo = min_size(&s->plan), hi = max_size(&s->plan);
	struct bulk_point a, z;
	double tb;

	*nstar = NAN;
	if (hi <= lo)
		return 0;
	if (client_size(s, lo, &a, sig, ECHO_ONLY, PILOT_REPS) || client_size(s, hi, &z, sig, ECHO_ONLY, PILOT_REPS))
		return -1;
	tb = (z.echo.min - a.echo.min) / (hi - lo);
	if (tb > 0)
		*nstar = a.echo.min / tb;
	return 0;
}

int bulk_run(struct session *s, struct results *r)
{
	struct bulk_res *b = &r->bulk;
	struct ov_point stop = { 0, 0, 0, 0, 0 };
	uint32_t reps = s->plan.bulk_reps;
	int v = 0;

	if (s->server)
		return server_follow(s);
	if (pilot_nstar(s, &r->sig, &b->nstar_pilot))
		return -1;
	b->nv = random_sizes(&s->plan, b->nstar_pilot, b->v_size);
	/* the fitted sizes, each followed by its share of the random ones */
	for (uint32_t i = 0; i < s->plan.nbulk; i++) {
		int upto = (int)((i + 1) * (uint32_t)b->nv / s->plan.nbulk);

		if (client_size(s, s->plan.bulk_sizes[i], &b->pt[b->npt++], &r->sig, FITTED, reps))
			return -1;
		for (; v < upto; v++) {
			struct bulk_point p;

			if (client_size(s, b->v_size[v], &p, &r->sig, VALIDATION, reps))
				return -1;
			b->v_meas[v] = p.echo.min;
			b->v_tmeas[v] = p.t.min;
		}
	}
	/* Dongarra & Dunigan 1997's bandwidth: n / (RTT/2) at 10^6 bytes, where the sizes reach it */
	if (max_size(&s->plan) >= 1000000) {
		struct bulk_point p;

		if (client_size(s, 1000000, &p, &r->sig, ECHO_ONLY, reps))
			return -1;
		b->bw_1e6 = 1e6 / p.echo.min;
	}
	if (eel_oob_send(s->oob, OOB_POINT, &stop, sizeof(stop)))
		return bench_fail("bulk: ending");
	bulk_fit(b, r);
	b->done = 1;
	return 0;
}
