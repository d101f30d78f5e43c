/* SPDX-License-Identifier: MIT */
/* tests/unit/test_bus_model.c — the bus model's arithmetic (userlib/engine/
 * bus_model.c) against cases computed by hand, and the presets, the preset
 * file and the URI options (bus_preset.c) with the errors a person sees.
 *
 * Hand computations (Neugebauer et al. 2018 section 3's model; the presets'
 * figures are bus_preset.c's fits to data/pcie_bench.csv):
 *   gen3 x8: 8 GT/s x 8 x 128/130 = 63.0154 Gb/s; ACK and UpdateFC every 203
 *   bytes at MPS 256 (8 bytes each) and SKP 4 in 1538: 16/203 + 4/1538 =
 *   0.0814188, so 63.0154 x 0.9185812 = 57.8848 Gb/s.
 *   gen1 x1 MPS 128: 2.5 x 0.8 = 2 Gb/s; 16/237 + 4/1538 = 0.0701117: 1.85978.
 *   gen6 x16 MPS 256: 64 x 16 x 242/256 = 968 Gb/s; 16/168 + 4/1538: 873.293.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "bus_runs.h"
#include "check.h"
#include "userlib/core/dev.h"
#include "userlib/engine/bus_preset.h"

static struct eel_bus preset(const char *name)
{
	struct eel_bus p;

	memset(&p, 0, sizeof(p));
	CHECK(eel_bus_preset(name, &p) == 0, "preset %s: %s", name, eel_errmsg());
	return p;
}

static void test_rates(void)
{
	struct eel_bus p = preset("pcie-gen3x8");

	CHECK_EQ_D(eel_bus_raw_gbps(&p), 63.0154, 0.001);
	CHECK_EQ_D(eel_bus_tlp_gbps(&p), 57.8848, 0.001);
	p.gts = 2.5;
	p.lanes = 1;
	p.mps = 128;
	CHECK_EQ_D(eel_bus_raw_gbps(&p), 2.0, 1e-9);
	CHECK_EQ_D(eel_bus_tlp_gbps(&p), 1.85978, 0.0001);
	p = preset("pcie-gen6x16");
	CHECK_EQ_D(eel_bus_raw_gbps(&p), 968.0, 1e-9);
	CHECK_EQ_D(eel_bus_tlp_gbps(&p), 873.293, 0.01);
	/* 5 GT/s is still 8b/10b, 16 GT/s 128b/130b */
	p.gts = 5;
	CHECK_EQ_D(eel_bus_raw_gbps(&p), 64.0, 1e-9);
	p.gts = 16;
	CHECK_EQ_D(eel_bus_raw_gbps(&p), 252.0615, 0.001);
}

static void test_tlps(void)
{
	struct eel_bus p = preset("pcie-gen3x8");

	CHECK_EQ_U(eel_bus_write_bytes(&p, 64), 88);          /* one MWr: 24 + 64 */
	CHECK_EQ_U(eel_bus_write_bytes(&p, 300), 348);        /* two at MPS 256 */
	CHECK_EQ_U(eel_bus_read_req_bytes(&p, 2048), 24);     /* one MRd at the Broadwell host's MRRS 4096 */
	p.mrrs = 512;
	CHECK_EQ_U(eel_bus_read_req_bytes(&p, 2048), 96);     /* four MRd at MRRS 512 */
	CHECK_EQ_U(eel_bus_read_cpl_bytes(&p, 2048), 2208);   /* eight CplD of 256 */
	p.rcb_chunks = 1;
	CHECK_EQ_U(eel_bus_read_cpl_bytes(&p, 2048), 2688);   /* 32 of 64 (RCB) */
	p = preset("membus");
	CHECK_EQ_U(eel_bus_write_bytes(&p, 8), 64);           /* a whole line */
	CHECK_EQ_U(eel_bus_read_cpl_bytes(&p, 100), 128);
	CHECK_EQ_U(eel_bus_read_req_bytes(&p, 100), 0);
}

/* The link alone, by hand (pcie-bench model/mem_bw.py write() and read():
 * data over data plus headers, of the completions for a read). */
static double link_write_gbps(const struct eel_bus *p, uint64_t len)
{
	return eel_bus_tlp_gbps(p) * (double)len / (double)eel_bus_write_bytes(p, len);
}

static double link_read_gbps(const struct eel_bus *p, uint64_t len)
{
	return eel_bus_tlp_gbps(p) * (double)len / (double)eel_bus_read_cpl_bytes(p, len);
}

/* n reads of len bytes issued at once on an idle link: ns until the last is in. */
static double reads_ns(const struct eel_bus *p, uint64_t len, uint64_t n)
{
	static struct eel_bus_link l;
	struct eel_bus_read_cost c;
	uint64_t done = 0, s;

	eel_bus_link_init(&l, p);
	eel_bus_read_cost(p, len, 1000, &c);
	for (uint64_t i = 0; i < n; i++)
		done = eel_bus_link_read(&l, &c, 0, 0, &s);
	return (double)done / 1000;
}

/* With the DMA engine free and tags to spare, the queue's streams are the
 * link's: pcie-bench's published efficiencies (data/pcie_bench.csv). */
static void test_bandwidth(void)
{
	struct eel_bus p = preset("pcie-gen3x8");

	p.dma_rd_ns = p.dma_wr_ns = p.dma_wr_line_ns = 0;
	p.tags = EEL_BUS_TAGS_MAX;
	CHECK_EQ_D(eel_bus_write_stream_gbps(&p, 64), 57.8848 * 64 / 88, 1e-3);
	CHECK_EQ_D(eel_bus_write_stream_gbps(&p, 64), 42.1, 0.01);
	CHECK_EQ_D(eel_bus_write_stream_gbps(&p, 256), 52.92, 0.01);
	CHECK_EQ_D(eel_bus_read_stream_gbps(&p, 64), 44.10, 0.01);
	CHECK_EQ_D(eel_bus_read_stream_gbps(&p, 256), 53.69, 0.01);
	/* nothing read, no bandwidth */
	CHECK_EQ_D(eel_bus_read_stream_gbps(&p, 0) + eel_bus_write_stream_gbps(&p, 0), 0.0, 0);
	/* a flood of 64 KB puts: the receiver's 4096-byte writes (MPS 256: 16
	 * MWr headers, 52.92 Gb/s) are the link's bound, not the sender's reads
	 * (MRRS 4096: one MRd, 16 CplD of 256, 53.54 with the engine's 1.7 ns) */
	p = preset("pcie-gen3x8");
	CHECK_EQ_D(eel_bus_write_stream_gbps(&p, 4096), 57.8848 * 4096 / (4096 + 16 * 24), 0.01);
	CHECK_EQ_D(eel_bus_read_stream_gbps(&p, 4096), 4096 * 8 / (4416 * 8 / 57.8848 + 1.7), 0.01);
	CHECK_EQ_D(bus_link_gbps(&p, 4096), eel_bus_write_stream_gbps(&p, 4096), 0);
	printf("a flood of 64 KB puts on pcie-gen3x8: the link lets %.2f Gb/s through (reads %.2f, writes %.2f); "
	       "pcie-bench's Broadwell host: reads 55.58, writes 53.01\n", bus_link_gbps(&p, 4096),
	       eel_bus_read_stream_gbps(&p, 4096), eel_bus_write_stream_gbps(&p, 4096));
	p = preset("none");
	CHECK_EQ_D(bus_link_gbps(&p, 4096), 0, 0);
}

/* A stream of reads: Little's law (tags in flight, each its round trip)
 * against the link plus the DMA engine's dma_rd_ns; writes: the link against
 * the engine's issue time. pcie-gen3x8 (Broadwell, 32 tags): at 64 B the tags
 * decide (32 x 512 bits / 558.06 ns = 29.36 Gb/s, pcie-bench 31.9), at
 * 2048 B the link (2048 x 8 / 53.68 Gb/s + 1.7 ns = 306.9 ns: 53.39 Gb/s). */
static void test_stream(void)
{
	struct eel_bus p = preset("pcie-gen3x8");
	double rd64 = eel_bus_read_ns(&p, 64);

	CHECK_EQ_D(eel_bus_read_slot_ns(&p, 64), rd64 / 32, 0.001);
	CHECK_EQ_D(eel_bus_read_stream_gbps(&p, 64), 32 * 512 / rd64, 0.001);
	CHECK_EQ_D(eel_bus_read_stream_gbps(&p, 64), 29.36, 0.01);
	CHECK(eel_bus_read_stream_gbps(&p, 64) < link_read_gbps(&p, 64), "tags below the link at 64 B");
	CHECK_EQ_D(eel_bus_read_slot_ns(&p, 2048), eel_bus_ser_ns(&p, eel_bus_read_cpl_bytes(&p, 2048)) + 1.7, 0.001);
	CHECK_EQ_D(eel_bus_read_stream_gbps(&p, 2048), 53.39, 0.01);
	/* one read at a time: each waits for its round trip */
	p.tags = 1;
	CHECK_EQ_D(eel_bus_read_slot_ns(&p, 2048), eel_bus_read_ns(&p, 2048), 0.001);
	/* 256 tags (gen4's extended tags) on the same host: the link decides at 64 B too */
	p.tags = 256;
	CHECK_EQ_D(eel_bus_read_slot_ns(&p, 64), eel_bus_ser_ns(&p, eel_bus_read_cpl_bytes(&p, 64)) + 1.7, 0.001);
	/* writes: the NFP's engine (15.5 + 4.7 a line) at 64 B, the link at 512 B */
	p = preset("pcie-gen3x8");
	CHECK_EQ_D(eel_bus_write_slot_ns(&p, 64), 15.5 + 4.7, 0.001);
	CHECK_EQ_D(eel_bus_write_stream_gbps(&p, 64), 512 / 20.2, 0.001);
	CHECK_EQ_D(eel_bus_write_stream_gbps(&p, 512), link_write_gbps(&p, 512), 0.001);
	/* gen5 x16 with no engine limit: the link */
	p = preset("pcie-gen5x16");
	CHECK_EQ_D(eel_bus_write_stream_gbps(&p, 64), link_write_gbps(&p, 64), 0.05); /* 1.5 ns a write: ps */
	CHECK_EQ_D(eel_bus_read_stream_gbps(&p, 2048), link_read_gbps(&p, 2048), 0.01);
	p = preset("none");
	CHECK_EQ_D(eel_bus_read_slot_ns(&p, 64) + eel_bus_write_slot_ns(&p, 64), 0, 0);
}

static void test_latency(void)
{
	struct eel_bus p = preset("pcie-gen3x8");
	double s = 8.0 / 57.8848; /* ns per byte */

	/* 8 B: 533.4 + MRd 24 B + CplD 28 B + one line 9.73 */
	CHECK_EQ_D(eel_bus_read_ns(&p, 8), 533.4 + 24 * s + 28 * s + 9.73, 1e-3);
	/* 2048 B: + eight CplD (2208 B) + 32 lines */
	CHECK_EQ_D(eel_bus_read_ns(&p, 2048), 533.4 + 24 * s + 2208 * s + 32 * 9.73, 1e-3);
	CHECK_EQ_D(eel_bus_write_ns(&p, 8), 191.5 + 32 * s, 1e-3);
	CHECK_EQ_D(eel_bus_write_issue_ns(&p, 8), 32 * s, 1e-3);
	/* the NFP's DMA engine before a write's TLPs: 15.5 + 4.7 a line; a
	 * write then a read waits for all of the write (engine, TLPs, flight):
	 * 2048 B: 15.5 + 32 x 4.7 + 191.5 + eight MWr (2240 B) + the read */
	CHECK_EQ_D(eel_bus_write_engine_ns(&p, 8), 15.5 + 4.7, 1e-9);
	CHECK_EQ_D(eel_bus_write_engine_ns(&p, 2048), 15.5 + 32 * 4.7, 1e-9);
	CHECK_EQ_D(eel_bus_dma_write_ns(&p, 8), 15.5 + 4.7 + 191.5 + 32 * s, 1e-3);
	CHECK_EQ_D(eel_bus_write_read_ns(&p, 2048), 15.5 + 32 * 4.7 + 191.5 + 2240 * s + eel_bus_read_ns(&p, 2048), 1e-3);
	CHECK_EQ_D(eel_bus_write_engine_ns(&p, 0), 0, 0);
	p.numa_ns = 100;
	p.cold_ns = 50;
	CHECK_EQ_D(eel_bus_read_ns(&p, 8), 533.4 + 100 + 50 + 24 * s + 28 * s + 9.73, 1e-3);
	CHECK_EQ_D(eel_bus_write_ns(&p, 8), 191.5 + 100 + 32 * s, 1e-3);
	/* the memory bus: a socket's DDR (4 x DDR4-2133, 68.28 GB/s), 41.3 ns a line one way */
	p = preset("membus");
	CHECK_EQ_D(eel_bus_write_ns(&p, 8), 41.3 + 64 / 68.28, 1e-9);
	CHECK_EQ_D(eel_bus_read_ns(&p, 64), 82.6 + 64 / 68.28, 1e-9);
	p = preset("membus-remote");
	CHECK_EQ_D(eel_bus_write_ns(&p, 8), 41.3 + EEL_BUS_NUMA_NS + 64 / 32.0, 1e-9);
	CHECK_EQ_D(eel_bus_read_ns(&p, 64), 82.6 + EEL_BUS_NUMA_NS + 64 / 32.0, 1e-9);
	p = preset("none");
	CHECK_EQ_D(eel_bus_read_ns(&p, 64) + eel_bus_write_ns(&p, 64) + eel_bus_write_issue_ns(&p, 64), 0, 0);
}

static void test_iotlb(void)
{
	struct eel_bus p = preset("pcie-gen3x8");
	static struct eel_bus_iotlb t;

	CHECK_EQ_U(eel_bus_iotlb_misses(&t, &p, 0, 8), 0);   /* no IOMMU */
	p.iotlb_entries = 2;
	CHECK_EQ_U(eel_bus_iotlb_misses(&t, &p, 0x1000, 8), 1);      /* A */
	CHECK_EQ_U(eel_bus_iotlb_misses(&t, &p, 0x2000, 8), 1);      /* B */
	CHECK_EQ_U(eel_bus_iotlb_misses(&t, &p, 0x1008, 8), 0);      /* A again */
	CHECK_EQ_U(eel_bus_iotlb_misses(&t, &p, 0x3000, 8), 1);      /* C out goes B (least recent) */
	CHECK_EQ_U(eel_bus_iotlb_misses(&t, &p, 0x1000, 8), 0);      /* A stayed */
	CHECK_EQ_U(eel_bus_iotlb_misses(&t, &p, 0x2000, 8), 1);      /* B was out */
	/* across a page: page 0 out goes A, then A (page 1) out goes B */
	CHECK_EQ_U(eel_bus_iotlb_misses(&t, &p, 0x0ff8, 16), 2);
	/* superpages: an entry covers 2 MiB; pages 1, 2 and 3 of 4 KiB are one */
	memset(&t, 0, sizeof(t));
	p.superpages = 1;
	CHECK_EQ_U(eel_bus_iotlb_misses(&t, &p, 0x1000, 8), 1);
	CHECK_EQ_U(eel_bus_iotlb_misses(&t, &p, 0x2000, 8), 0);
	CHECK_EQ_U(eel_bus_iotlb_misses(&t, &p, 0x1ff000, 8), 0);
	CHECK_EQ_U(eel_bus_iotlb_misses(&t, &p, 0x200000, 8), 1);  /* the next 2 MiB */
	CHECK_EQ_U(eel_bus_iotlb_misses(&t, &p, 0x1ffff8, 16), 0); /* across them: both held */
}

static void err_has(int rc, const char *words, const char *what)
{
	CHECK(rc == -EINVAL, "%s: rc %d", what, rc);
	CHECK(strstr(eel_errmsg(), words) != NULL, "%s: message '%s' lacks '%s'", what, eel_errmsg(), words);
	CHECK(!strchr(eel_errmsg(), '\n'), "%s: one line: '%s'", what, eel_errmsg());
}

static void test_presets_and_errors(void)
{
	struct eel_bus p;
	const char *names[] = { "none", "pcie-gen3x8", "pcie-gen3x8-bdw", "pcie-gen3x8-hsw-e5", "pcie-gen3x8-hsw-e3",
				"pcie-gen3x8-hsw-smc", "pcie-gen3x8-ivb", "pcie-gen3x8-snb", "pcie-gen4x16",
				"pcie-gen5x16", "pcie-gen6x16", "membus-local", "membus-remote", "cxl" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		p = preset(names[i]);
		CHECK(!strcmp(p.name, names[i]), "name '%s'", p.name);
		CHECK(eel_bus_preset_name((int)i) && !strcmp(eel_bus_preset_name((int)i), names[i]), "preset %zu", i);
		CHECK(strstr(EEL_BUS_PRESETS, names[i]) != NULL, "EEL_BUS_PRESETS lists %s", names[i]);
	}
	CHECK(eel_bus_preset_name((int)(sizeof(names) / sizeof(names[0]))) == NULL, "no preset past the last");
	p = preset("membus"); /* the old name: membus-local's figures */
	CHECK(!strcmp(p.name, "membus") && p.posted_ns == preset("membus-local").posted_ns, "membus alias");
	/* faster links are never slower: a 4 KiB read gets cheaper with the rate */
	CHECK(eel_bus_read_ns(&(struct eel_bus){ 0 }, 8) == 0, "a zeroed bus is none");
	{
		struct eel_bus a = preset("pcie-gen3x8"), b = preset("pcie-gen4x16"), c = preset("pcie-gen5x16"),
				  d = preset("pcie-gen6x16");

		CHECK(eel_bus_read_ns(&a, 4096) > eel_bus_read_ns(&b, 4096) && eel_bus_read_ns(&b, 4096) > eel_bus_read_ns(&c, 4096) &&
		      eel_bus_read_ns(&c, 4096) > eel_bus_read_ns(&d, 4096), "reads get cheaper gen3 -> gen6");
	}
	err_has(eel_bus_preset("pcie-gen9x1", &p), "unknown bus 'pcie-gen9x1'", "unknown preset");
	p = preset("pcie-gen3x8");
	err_has(bus_set(&p, "read_rtt_ns", "-5", "here"), "negative", "negative");
	err_has(bus_set(&p, "read_rtt_ns", "fast", "here"), "not a number", "not a number");
	err_has(bus_set(&p, "mps", "300", "here"), "power of two", "mps 300");
	err_has(bus_set(&p, "lanes", "64", "here"), "out of range", "lanes 64");
	err_has(bus_set(&p, "speed", "1", "here"), "unknown bus parameter 'speed'", "unknown parameter");
	err_has(bus_set(&p, "kind", "isa", "here"), "pcie or coherent", "kind");
	CHECK(bus_set(&p, "iommu_miss_ns", "300", "here") == 0 && p.iommu_miss_ns == 300, "iommu_miss_ns set");
	CHECK(bus_set(&p, "mps", "512", "here") == 0 && p.mps == 512, "mps set");
}

/* Each measured host's figures (the fits of bus_preset.c), gen4..gen6's
 * round trip without the NFP's engine and a line at their link's rate, and a
 * provenance for every parameter of every preset. */
static void test_preset_figures(void)
{
	struct {
		const char *name;
		double rtt, line, posted;
		uint32_t mps, mrrs;
	} host[] = {
		{ "pcie-gen3x8-bdw", 533.4, 9.73, 191.5, 256, 4096 }, { "pcie-gen3x8-hsw-e5", 529.4, 9.95, 198.2, 256, 512 },
		{ "pcie-gen3x8-hsw-e3", 1192.2, 5.98, 137.5, 128, 512 }, { "pcie-gen3x8-hsw-smc", 580.6, 9.56, 171.5, 256, 512 },
		{ "pcie-gen3x8-ivb", 539.4, 9.69, 191.5, 256, 512 }, { "pcie-gen3x8-snb", 540.5, 9.37, 191.5, 256, 512 },
	};
	const char *gen[] = { "pcie-gen4x16", "pcie-gen5x16", "pcie-gen6x16" }, *name, *key, *why;
	struct eel_bus p;
	double v;

	for (size_t i = 0; i < sizeof(host) / sizeof(host[0]); i++) {
		p = preset(host[i].name);
		CHECK(p.read_rtt_ns == host[i].rtt && p.line_ns == host[i].line && p.posted_ns == host[i].posted &&
		      p.mps == host[i].mps && p.mrrs == host[i].mrrs && p.tags == 32 && p.gts == 8 && p.lanes == 8,
		      "%s's figures", host[i].name);
	}
	p = preset("pcie-gen3x8");
	CHECK(p.read_rtt_ns == 533.4 && p.posted_ns == 191.5 && p.line_ns == 9.73, "pcie-gen3x8 is the Broadwell host's");
	for (size_t i = 0; i < 3; i++) {
		p = preset(gen[i]);
		CHECK_EQ_D(p.line_ns, 512 / eel_bus_tlp_gbps(&p), 0.001);
		CHECK_EQ_D(p.read_rtt_ns, 533.4 - (546.7 - 480.0), 1e-9);
		CHECK(p.posted_ns == 62.2 && p.tags == 256 &&
		      p.dma_wr_ns == 0 && p.dma_rd_ns == 0, "%s: the host without the NFP's engine", gen[i]);
	}
	p = preset("membus-local");
	CHECK_EQ_D(p.link_gbs, 4 * 17.07, 1e-9); /* a socket's four channels, not one */
	for (int i = 0; (name = eel_bus_preset_name(i)); i++) {
		p = preset(name);
		for (int k = 0; (key = eel_bus_param(&p, k, &v)); k++) {
			why = eel_bus_provenance(name, key);
			CHECK(why && (!strncmp(why, "measured", 8) || !strncmp(why, "fitted", 6) || !strncmp(why, "assumed", 7)),
			      "%s %s: provenance '%s'", name, key, why ? why : "(none)");
		}
	}
	CHECK(eel_bus_provenance("pcie-gen3x8", "width") == NULL, "no provenance of an unknown key");
	CHECK(!strncmp(eel_bus_provenance("pcie-gen3x8-hsw-e3", "dma_wr_line_ns"), "fitted: this host's", 19) &&
	      !strncmp(eel_bus_provenance("pcie-gen4x16", "dma_wr_line_ns"), "assumed", 7) &&
	      !strncmp(eel_bus_provenance("pcie-gen3x8-ivb", "read_rtt_ns"), "fitted: this host's", 19) &&
	      !strncmp(eel_bus_provenance("membus-remote", "numa_ns"), "fitted", 6) &&
	      !strncmp(eel_bus_provenance("membus", "link_gbs"), "measured", 8), "each family's own provenance");
}

/* The presets' fitted figures from data/pcie_bench.csv again, with this
 * model: read_rtt_ns and line_ns minimise the sum of the squared relative
 * errors of eel_bus_read_ns over the host's claimed dma_read_latency rows
 * (the tolerance is relative): with a read's fixed part y (the data less the
 * request's and the completions' serialisation) and x its lines, the normal
 * equations of sum ((a + b x - y) / v)^2; posted_ns the mean of the
 * dma_write_read_latency rows less the dma_read_latency rows, the DMA
 * engine's time for the write and its TLPs at 8 and 64 B. Each preset's figure is its fit rounded (to 0.1 ns,
 * line_ns to 0.01). */
struct rel_fit {
	double s1, sx, sxx, sy, sxy; /* sums of w, w x, w x^2, w y, w x y with w = 1 / v^2 */
};

static void rel_fit_add(struct rel_fit *f, double x, double y, double v)
{
	double w = 1 / (v * v);

	f->s1 += w, f->sx += w * x, f->sxx += w * x * x, f->sy += w * y, f->sxy += w * x * y;
}

static void rel_fit_solve(const struct rel_fit *f, double *a, double *b)
{
	double d = f->s1 * f->sxx - f->sx * f->sx;

	*a = (f->sy * f->sxx - f->sxy * f->sx) / d;
	*b = (f->s1 * f->sxy - f->sx * f->sy) / d;
}

static void test_preset_fits(void)
{
	const char *hosts[] = { "pcie-gen3x8-bdw", "pcie-gen3x8-hsw-e5", "pcie-gen3x8-hsw-e3", "pcie-gen3x8-hsw-smc",
				"pcie-gen3x8-ivb", "pcie-gen3x8-snb" };
	char path[4096], line[1024];
	FILE *f;

	REQUIRE(eel_data_path("pcie_bench.csv", path, sizeof(path)) == 0, "data/pcie_bench.csv: %s", eel_errmsg());
	for (size_t h = 0; h < sizeof(hosts) / sizeof(hosts[0]); h++) {
		struct eel_bus p = preset(hosts[h]);
		double rd[2] = { 0 }, wrrd[2] = { 0 }, a, b;
		struct rel_fit fit = { 0 };
		int n = 0;

		REQUIRE((f = fopen(path, "r")) != NULL, "%s", path);
		while (fgets(line, sizeof(line), f)) {
			char host[48], what[48], claim[8];
			unsigned long long size;
			double v;

			if (sscanf(line, "%47[^,],%47[^,],%llu,%lf,%*[^,],%*[^,],%7[^,],", host, what, &size, &v, claim) != 5 ||
			    strcmp(host, hosts[h]))
				continue;
			if (!strcmp(what, "dma_read_latency") && !strcmp(claim, "yes") && ++n)
				rel_fit_add(&fit, (double)((size + 63) / 64),
					    v - eel_bus_ser_ns(&p, 24) - eel_bus_ser_ns(&p, eel_bus_read_cpl_bytes(&p, size)), v);
			if (size == 8 || size == 64) {
				if (!strcmp(what, "dma_read_latency"))
					rd[size == 64] = v;
				if (!strcmp(what, "dma_write_read_latency"))
					wrrd[size == 64] = v - eel_bus_write_engine_ns(&p, size) - eel_bus_write_issue_ns(&p, size);
			}
		}
		fclose(f);
		REQUIRE(n >= 6, "%s: %d read rows", hosts[h], n);
		rel_fit_solve(&fit, &a, &b);
		CHECK_EQ_D(p.read_rtt_ns, a, 0.05 + 1e-9);
		CHECK_EQ_D(p.line_ns, b, 0.005 + 1e-9);
		CHECK_EQ_D(p.posted_ns, (wrrd[0] - rd[0] + wrrd[1] - rd[1]) / 2, 0.05 + 1e-9);
	}
}

/* measured-mem:<node>: node 0 is measured here; a node this machine lacks is one line naming the nodes. */
static void test_measured_mem(void)
{
	struct eel_bus p;

	p = preset("measured-mem:0");
	CHECK(p.kind == EEL_BUS_COHERENT && p.read_rtt_ns > 0 && p.posted_ns == p.read_rtt_ns / 2 &&
	      !strcmp(p.name, "measured-mem:0"), "measured-mem:0: %.1f ns", p.read_rtt_ns);
	if (access("/sys/devices/system/node/node1", F_OK))
		err_has(eel_bus_preset("measured-mem:1", &p), "no NUMA node 1: this machine has nodes 0..", "node 1");
	err_has(eel_bus_preset("measured-mem:x", &p), "not a NUMA node number", "node x");
}

static void test_uri(void)
{
	struct eel_uri u;
	struct eel_bus p;

	CHECK(eel_uri_parse("softnic:inline?bus=pcie-gen4x16&iommu_miss_ns=300&mtu=1024", &u) == 0, "parse");
	CHECK(bus_from_uri(&u, &p) == 0 && p.kind == EEL_BUS_PCIE && p.gts == 16 && p.lanes == 16 &&
	      p.iommu_miss_ns == 300, "gen4x16 with iommu_miss_ns: %s", eel_errmsg());
	CHECK(u.opt[0].used && u.opt[1].used && !u.opt[2].used, "bus options used, mtu left to the engine");
	CHECK(eel_uri_parse("softnic", &u) == 0 && bus_from_uri(&u, &p) == 0 && p.kind == EEL_BUS_NONE, "default none");
	CHECK(eel_uri_parse("softnic?read_rtt_ns=5", &u) == 0, "parse");
	err_has(bus_from_uri(&u, &p), "without a bus", "a parameter without a bus");
	CHECK(eel_uri_parse("softnic?bus=pcie-gen3x8&posted_ns=-1", &u) == 0, "parse");
	err_has(bus_from_uri(&u, &p), "negative", "negative in the URI");
	CHECK(eel_uri_parse("softnic?bus=isa", &u) == 0, "parse");
	err_has(bus_from_uri(&u, &p), "unknown bus 'isa'", "unknown preset in the URI");
}

static void test_file(void)
{
	char path[] = "/tmp/eel-bus-XXXXXX";
	int fd = mkstemp(path);
	FILE *f;
	struct eel_bus p;
	struct eel_uri u;
	char uri[128];

	REQUIRE(fd >= 0, "mkstemp");
	f = fdopen(fd, "w");
	fprintf(f, "# a lab's link\nbus = pcie-gen3x8\n  read_rtt_ns = 700   # measured\nlanes=4\n\n");
	fclose(f);
	CHECK(bus_load_file(path, &p) == 0 && p.kind == EEL_BUS_PCIE && p.read_rtt_ns == 700 && p.lanes == 4 &&
	      p.posted_ns == 191.5, "file: %s", eel_errmsg());
	snprintf(uri, sizeof(uri), "softnic?bus=%s&posted_ns=400", path);
	CHECK(eel_uri_parse(uri, &u) == 0 && bus_from_uri(&u, &p) == 0 && p.read_rtt_ns == 700 && p.posted_ns == 400,
	      "file then URI: %s", eel_errmsg());
	f = fopen(path, "w");
	fprintf(f, "bus = pcie-gen3x8\nread_rtt_ns 700\n");
	fclose(f);
	err_has(bus_load_file(path, &p), "line 2", "a line without =");
	f = fopen(path, "w");
	fprintf(f, "bus = pcie-gen3x8\nwidth = 8\n");
	fclose(f);
	err_has(bus_load_file(path, &p), "unknown bus parameter 'width'", "an unknown key");
	f = fopen(path, "w");
	fprintf(f, "gts = 8\nbus = cxl\n");
	fclose(f);
	err_has(bus_load_file(path, &p), "put it first", "bus = after a parameter");
	unlink(path);
	CHECK(bus_load_file(path, &p) == -ENOENT, "a missing file: %s", eel_errmsg());
}

/* The ping-pong put's path (bench/bus_runs.c): doorbell 191.5 + 32 B (the
 * host's store: no DMA engine), the descriptor's read (64 B: 533.4 + 24 + 84
 * B + a line of 9.73), the ACK's and the payload's 8-byte TLPs (the NIC does
 * not wait for them: within the posted credits), and the status write's
 * whole flight, the NIC's DMA engine's 15.5 + 4.7 and its TLP's 4.42 ns
 * included: 195.92 + 558.06 + 0 + 0 + 216.12. */
static void test_path(void)
{
	struct eel_bus p = preset("pcie-gen3x8");
	struct bus_path t;

	bus_path(&p, &t);
	CHECK_EQ_D(t.doorbell_ns, 195.92, 0.01);
	CHECK_EQ_D(t.descriptor_ns, 558.06, 0.01);
	CHECK_EQ_D(t.ack_status_ns + t.payload_issue_ns, 0, 0); /* within the posted credits */
	CHECK_EQ_D(t.payload_seen_ns, 216.12, 0.01);
	CHECK_EQ_D(t.sum_ns, 970.10, 0.05);
	p = preset("none");
	bus_path(&p, &t);
	CHECK_EQ_D(t.sum_ns, 0, 0);
}

/* The link (eel_bus_link_read): a read alone takes eel_bus_read_ns; a
 * 64 KB put's sixteen 4096-byte payload reads issued at once fly together
 * with gen3's 32 tags (8 requests each at MRRS 512: four reads in flight),
 * bound by the completions' link, and one after another with one tag.
 * And the path's transactions by kind (bus.k): one read, two flights waited for. */
static void test_link(void)
{
	struct eel_bus p = preset("pcie-gen3x8");
	struct bus_path t;
	double one = eel_bus_read_ns(&p, 4096), cpl = eel_bus_ser_ns(&p, eel_bus_read_cpl_bytes(&p, 4096));
	double t32, t1;

	CHECK_EQ_D(reads_ns(&p, 64, 1), eel_bus_read_ns(&p, 64), 0.01);
	CHECK_EQ_D(reads_ns(&p, 4096, 1), one, 0.01);
	t32 = reads_ns(&p, 4096, 16);
	CHECK_EQ_D(t32, one + 15 * (cpl + 1.7), 1.0); /* the downstream link and the DMA engine's dma_rd_ns */
	p.tags = 1;
	t1 = reads_ns(&p, 4096, 16);
	CHECK_EQ_D(t1, 16 * one, 1.0);
	CHECK(t1 > 2 * t32, "tags=1 %.0f ns, tags=32 %.0f ns", t1, t32);
	printf("16 reads of 4096 B on pcie-gen3x8: %.0f ns with 32 tags (%.1f Gb/s), %.0f ns with 1 (%.1f Gb/s)\n", t32,
	       16 * 4096 * 8 / t32, t1, 16 * 4096 * 8 / t1);
	bus_path(&p, &t);
	CHECK(t.k_reads == 1 && t.k_posted == 3 && t.k_doorbells == 1 && t.k_host_waits == 1, "k by kind");
	CHECK(t.k_read_rtt == 1 && t.k_posted_flight == 2, "k of read_rtt_ns, posted_ns");
}

/* Tags are freed request by request: on a coherent link a 4096-byte read is
 * 64 line requests against 32 tags. Its second 32 lines go as its first 32
 * come in (a lone read takes two round trips), and a second such read issued
 * with it goes as the first read's lines come in, before that read is done:
 * two end before twice one (with the tags freed at a read's last completion
 * the second went only then: exactly twice). A stream of them runs at the
 * tags' rate, 32 lines per a line's round trip (Little's law). */
static void test_link_tags(void)
{
	const char *names[] = { "membus-local", "cxl" };

	for (int i = 0; i < 2; i++) {
		struct eel_bus p = preset(names[i]);
		struct eel_bus_link *l = calloc(1, sizeof(*l));
		struct eel_bus_read_cost c;
		double one = reads_ns(&p, 4096, 1), two = reads_ns(&p, 4096, 2);
		double line = eel_bus_read_ns(&p, 64), rate = 32 * 512 / line;
		uint64_t s1, s2, d1, d2;

		REQUIRE(l, "calloc");
		eel_bus_link_init(l, &p);
		eel_bus_read_cost(&p, 4096, 1000, &c);
		d1 = eel_bus_link_read(l, &c, 0, 0, &s1);
		d2 = eel_bus_link_read(l, &c, 0, 0, &s2);
		CHECK(s2 < d1 && d2 > d1, "%s: the second read's first line went at %.1f ns, the first read is in at %.1f",
		      names[i], s2 / 1000.0, d1 / 1000.0);
		CHECK(two < 2 * one - 10, "%s: two 4096-byte reads %.1f ns, one %.1f", names[i], two, one);
		CHECK(one > 2 * eel_bus_read_ns(&p, 64) && one < eel_bus_read_ns(&p, 4096) + line + 1,
		      "%s: a lone 4096-byte read %.1f ns: two rounds of 32 lines", names[i], one);
		CHECK_EQ_D(eel_bus_read_stream_gbps(&p, 4096), rate, rate * 0.01);
		printf("%s: a 4096-byte read %.1f ns, two together %.1f ns, a stream of them %.1f Gb/s (the tags' rate "
		       "%.1f)\n", names[i], one, two, eel_bus_read_stream_gbps(&p, 4096), rate);
		free(l);
	}
}

/* The membus presets' calibration from -t limit (bench/bus_runs.c): a line
 * of a quiet machine (302 ns, this VM's two vCPUs) calibrates posted_ns and
 * read_rtt_ns; runs that disagree, a median no line takes (1298 ns: a busy
 * machine, a peer not running), the NIC's floor or no limit do not, and say
 * why. (Before, any median above 0 calibrated: the busy machine's 1298 ns
 * became a memory bus's posted write.) */
static void test_membus_calibration(void)
{
	struct limit_res lim = { .done = 1 };
	char extra[128], why[256];

	lim.one_way.median = 302.0;
	lim.one_way.spread = 0.03;
	CHECK(bus_membus_calibration(&lim, extra, sizeof(extra), why, sizeof(why)) == 1, "a quiet line calibrates");
	CHECK(!strcmp(extra, "&posted_ns=302.0&read_rtt_ns=604.0") && !why[0], "calibrated as '%s' (why '%s')", extra,
	      why);
	lim.one_way.median = 1298.0;
	CHECK(bus_membus_calibration(&lim, extra, sizeof(extra), why, sizeof(why)) == 0 && !extra[0],
	      "a 1298-ns line calibrated: '%s'", extra);
	CHECK(strstr(why, "1298.0 ns") && strstr(why, "more than 1000 ns"), "why: %s", why);
	lim.one_way.median = 302.0;
	lim.one_way.spread = 0.4;
	CHECK(bus_membus_calibration(&lim, extra, sizeof(extra), why, sizeof(why)) == 0 && !extra[0],
	      "runs 40%% apart calibrated: '%s'", extra);
	CHECK(strstr(why, "disagree") && strstr(why, "40%"), "why: %s", why);
	lim.one_way.spread = 0.03;
	lim.floor = 1;
	CHECK(bus_membus_calibration(&lim, extra, sizeof(extra), why, sizeof(why)) == 0 && strstr(why, "--pair"),
	      "the NIC's floor calibrated: '%s'", extra);
	lim.floor = 0;
	lim.done = 0;
	CHECK(bus_membus_calibration(&lim, extra, sizeof(extra), why, sizeof(why)) == 0 && strstr(why, "--pair"),
	      "no limit calibrated: '%s'", extra);
}

int main(void)
{
	test_membus_calibration();
	test_path();
	test_link();
	test_link_tags();
	test_rates();
	test_tlps();
	test_bandwidth();
	test_stream();
	test_latency();
	test_iotlb();
	test_presets_and_errors();
	test_preset_figures();
	test_preset_fits();
	test_measured_mem();
	test_uri();
	test_file();
	CHECK_DONE();
}
