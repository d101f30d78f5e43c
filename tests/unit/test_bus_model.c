/* SPDX-License-Identifier: MIT */
/* tests/unit/test_bus_model.c — the bus model's arithmetic (userlib/engine/
 * bus_model.c) against cases computed by hand, and the presets, the preset
 * file and the URI options (bus_preset.c) with the errors a person sees.
 *
 * Hand computations (Neugebauer et al. 2018 section 3's model):
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
	CHECK_EQ_U(eel_bus_read_req_bytes(&p, 2048), 96);     /* four MRd at MRRS 512 */
	CHECK_EQ_U(eel_bus_read_cpl_bytes(&p, 2048), 2208);   /* eight CplD of 256 */
	p.rcb_chunks = 1;
	CHECK_EQ_U(eel_bus_read_cpl_bytes(&p, 2048), 2688);   /* 32 of 64 (RCB) */
	p = preset("membus");
	CHECK_EQ_U(eel_bus_write_bytes(&p, 8), 64);           /* a whole line */
	CHECK_EQ_U(eel_bus_read_cpl_bytes(&p, 100), 128);
	CHECK_EQ_U(eel_bus_read_req_bytes(&p, 100), 0);
}

static void test_bandwidth(void)
{
	struct eel_bus p = preset("pcie-gen3x8");

	/* pcie-bench's published efficiencies (data/pcie_bench.csv) */
	CHECK_EQ_D(eel_bus_write_gbps(&p, 64), 57.8848 * 64 / 88, 1e-3);
	CHECK_EQ_D(eel_bus_write_gbps(&p, 64), 42.1, 0.01);
	CHECK_EQ_D(eel_bus_write_gbps(&p, 256), 52.92, 0.01);
	CHECK_EQ_D(eel_bus_read_gbps(&p, 64), 44.10, 0.01);
	CHECK_EQ_D(eel_bus_read_gbps(&p, 256), 53.69, 0.01);
	/* nothing read, no bandwidth */
	CHECK_EQ_D(eel_bus_read_gbps(&p, 0), 0.0, 1e-12);
}

static void test_latency(void)
{
	struct eel_bus p = preset("pcie-gen3x8");
	double s = 8.0 / 57.8848; /* ns per byte */

	/* 8 B: 530 + MRd 24 B + CplD 28 B + one line 9.2 */
	CHECK_EQ_D(eel_bus_read_ns(&p, 8), 530 + 24 * s + 28 * s + 9.2, 1e-3);
	/* 2048 B: + eight CplD (2208 B) + 32 lines */
	CHECK_EQ_D(eel_bus_read_ns(&p, 2048), 530 + 24 * s + 2208 * s + 32 * 9.2, 1e-3);
	CHECK_EQ_D(eel_bus_write_ns(&p, 8), 265 + 32 * s, 1e-3);
	CHECK_EQ_D(eel_bus_write_issue_ns(&p, 8), 32 * s, 1e-3);
	p.numa_ns = 100;
	p.cold_ns = 50;
	CHECK_EQ_D(eel_bus_read_ns(&p, 8), 530 + 100 + 50 + 24 * s + 28 * s + 9.2, 1e-3);
	CHECK_EQ_D(eel_bus_write_ns(&p, 8), 265 + 100 + 32 * s, 1e-3);
	p = preset("membus");
	CHECK_EQ_D(eel_bus_write_ns(&p, 8), 100 + 64 / 25.6, 1e-9);
	CHECK_EQ_D(eel_bus_read_ns(&p, 64), 200 + 64 / 25.6, 1e-9);
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
	const char *names[] = { "none", "pcie-gen3x8", "pcie-gen4x16", "pcie-gen5x16", "pcie-gen6x16", "membus", "cxl" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		p = preset(names[i]);
		CHECK(!strcmp(p.name, names[i]), "name '%s'", p.name);
	}
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
	      p.posted_ns == 265, "file: %s", eel_errmsg());
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

/* The ping-pong put's path (bench/bus_runs.c): doorbell 265 + 32 B, the
 * descriptor's read (64 B), the ACK's and the payload's 8-byte TLPs (the NIC
 * does not wait for them: within the posted credits), and the status
 * write's whole flight, its TLP's 4.42 ns included: 269.42 + 554.13 + 0 + 0
 * + 269.42. */
static void test_path(void)
{
	struct eel_bus p = preset("pcie-gen3x8");
	struct bus_path t;

	bus_path(&p, &t);
	CHECK_EQ_D(t.doorbell_ns, 269.42, 0.01);
	CHECK_EQ_D(t.descriptor_ns, 554.13, 0.01);
	CHECK_EQ_D(t.ack_status_ns + t.payload_issue_ns, 0, 0); /* within the posted credits */
	CHECK_EQ_D(t.payload_seen_ns, 269.42, 0.01);
	CHECK_EQ_D(t.sum_ns, 1092.98, 0.05);
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

	CHECK_EQ_D(eel_bus_reads_ns(&p, 64, 1), eel_bus_read_ns(&p, 64), 0.01);
	CHECK_EQ_D(eel_bus_reads_ns(&p, 4096, 1), one, 0.01);
	t32 = eel_bus_reads_ns(&p, 4096, 16);
	CHECK_EQ_D(t32, one + 15 * cpl, 1.0); /* the downstream link is the bound */
	p.tags = 1;
	t1 = eel_bus_reads_ns(&p, 4096, 16);
	CHECK_EQ_D(t1, 16 * one, 1.0);
	CHECK(t1 > 2 * t32, "tags=1 %.0f ns, tags=32 %.0f ns", t1, t32);
	printf("16 reads of 4096 B on pcie-gen3x8: %.0f ns with 32 tags (%.1f Gb/s), %.0f ns with 1 (%.1f Gb/s)\n", t32,
	       16 * 4096 * 8 / t32, t1, 16 * 4096 * 8 / t1);
	bus_path(&p, &t);
	CHECK(t.k_reads == 1 && t.k_posted == 3 && t.k_doorbells == 1 && t.k_host_waits == 1, "k by kind");
	CHECK(t.k_read_rtt == 1 && t.k_posted_flight == 2, "k of read_rtt_ns, posted_ns");
}

int main(void)
{
	test_path();
	test_link();
	test_rates();
	test_tlps();
	test_bandwidth();
	test_latency();
	test_iotlb();
	test_presets_and_errors();
	test_uri();
	test_file();
	CHECK_DONE();
}
