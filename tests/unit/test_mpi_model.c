/* SPDX-License-Identifier: MIT */
/* tests/unit/test_mpi_model.c — eel-mpi's model (tools/mpi/model.c): LogGP
 * from Figure 2's timers as Al-Tawil & Moritz 2001 take it (o_s by timer11,
 * o_r by the non-blocking timer21, L = timer21 - timer12 of MPI_Ssend, G the
 * slope of the blocking receive less the non-blocking one), formulas (1)-(7)
 * on known parameters, and the protocol nearest a sender's time. */
#include "check.h"
#include "model.h"

static void test_formulas(void)
{
	struct mpi_loggp m = { .o_s = 100, .o_r = 50, .L = 200, .g = 100, .G = 0.5, .have_G = 1 };

	CHECK_EQ_D(proto_send_ns(&m, PROTO_T, 1001), 100, 1e-9);      /* (1) o_s */
	CHECK_EQ_D(proto_deliver_ns(&m, PROTO_T, 1001), 350, 1e-9);   /* (2) o_s + L + o_r */
	CHECK_EQ_D(proto_send_ns(&m, PROTO_TA, 1001), 700, 1e-9);     /* (3) 2 o_s + 2 L + 2 o_r */
	CHECK_EQ_D(proto_deliver_ns(&m, PROTO_TA, 1001), 700, 1e-9);
	CHECK_EQ_D(proto_deliver_ns(&m, PROTO_RTA, 1001), 1150, 1e-9); /* (4) 2 o_s + 2 L + o_r + (k-1) G */
	CHECK_EQ_D(proto_send_ns(&m, PROTO_RTA, 1001), 1400, 1e-9);    /* (5) 2 o_s + 3 L + 2 o_r + (k-1) G */
	CHECK_EQ_D(proto_send_ns(&m, PROTO_RAT, 1001), 1600, 1e-9);    /* (6) 4 o_s + 3 L + 2 o_r + (k-1) G */
	CHECK_EQ_D(proto_deliver_ns(&m, PROTO_RAT, 1001), 1850, 1e-9); /* (7) 4 o_s + 4 L + 3 o_r + (k-1) G */
	CHECK_EQ_D(proto_send_ns(&m, PROTO_RAT, 0), 1100, 1e-9);       /* no (k-1) G below one byte */
	CHECK_EQ_U(proto_nearest(&m, 1001, 110), PROTO_T);
	CHECK_EQ_U(proto_nearest(&m, 1001, 690), PROTO_TA);
	CHECK_EQ_U(proto_nearest(&m, 1001, 1390), PROTO_RTA);
	CHECK_EQ_U(proto_nearest(&m, 1001, 1700), PROTO_RAT);
}

static void test_loggp(void)
{
	static struct fig2 f;
	const uint32_t size[] = { 0, 4096, 8192, 16384 };
	struct mpi_loggp m;

	f.nsizes = 4;
	for (int i = 0; i < 4; i++) {
		f.size[i] = size[i];
		f.t21[MODE_ISTANDARD][i] = 50 + i;                               /* grows a little: taken off */
		f.t21[MODE_STANDARD][i] = f.t21[MODE_ISTANDARD][i] + 1000 + 0.25 * size[i];
	}
	f.t11[MODE_ISTANDARD][0] = 100;
	f.t21[MODE_SYNCHRONOUS][0] = 300;
	f.t12[MODE_SYNCHRONOUS][0] = 100;
	mpi_loggp_of(&f, &m);
	CHECK_EQ_D(m.o_s, 100, 0);
	CHECK_EQ_D(m.o_r, 50, 0);
	CHECK_EQ_D(m.L, 200, 0);
	CHECK_EQ_D(m.g, m.o_s, 0);
	CHECK(m.have_G, "G from three sizes of 4 KiB and more");
	CHECK_EQ_D(m.G, 0.25, 1e-12);
	f.nsizes = 2; /* one size from 4 KiB: no slope */
	mpi_loggp_of(&f, &m);
	CHECK(!m.have_G && m.G == 0, "no G from one size");
	f.nsizes = 4; /* the blocking receive falls with the size (a noisy run): no G, not a negative one */
	for (int i = 1; i < 4; i++)
		f.t21[MODE_STANDARD][i] = f.t21[MODE_ISTANDARD][i] + 100000 - 2.0 * size[i];
	mpi_loggp_of(&f, &m);
	CHECK(!m.have_G && m.G == 0 && m.G_sizes == 3, "no G from a falling slope");
}

int main(void)
{
	test_formulas();
	test_loggp();
	CHECK_DONE();
}
