/* SPDX-License-Identifier: MIT */
/* userlib/engine/bus_preset.c — buses by name, file and URI (bus_preset.h).
 *
 * Where each preset's figures come from (each parameter's own source is in
 * provenance[] below, printed by eel-bench -t busmodel and docs/bus.md):
 * - pcie-gen3x8-bdw, -hsw-e5, -hsw-e3, -hsw-smc, -ivb, -snb: pcie-bench's
 *   NFP-6000 in six hosts (Neugebauer et al. 2018; data/pcie_bench.csv from
 *   github.com/pcie-bench/data, medians of sequential warm reads). Per host:
 *   read_rtt_ns and line_ns the least-squares fit (on relative error:
 *   the tolerance is relative) of eel_bus_read_ns to its claimed
 *   dma_read_latency rows (tests/unit/test_bus_model.c fits them again); posted_ns its
 *   dma_write_read_latency rows (a write then a read of the same address)
 *   less the read, the DMA engine's time for the write (dma_wr_ns + lines x
 *   dma_wr_line_ns) and its TLPs, mean of 8 and 64 B (eel_bus_write_read_ns:
 *   the read waits for the whole write); iommu_miss_ns its
 *   iommu_read_latency row less the model's read; MPS, MRRS, 8 GT/s x8 and
 *   32 tags (ExtTag-) from its sys-lspci.txt. The NFP's DMA engine (the
 *   same card in every host): dma_wr_ns 15.5 + dma_wr_line_ns 4.7 per line
 *   fitted to the Broadwell host's write_bandwidth rows (47.4 M writes/s up
 *   to 64 B, the same on all five E5 hosts), dma_rd_ns 1.7 to its
 *   read_bandwidth rows; the Xeon E3 host takes writes slower than that:
 *   14 ns a line (dma_wr_line_ns, its 256-2048 B write rows, ~36 Gb/s).
 *   pcie-gen3x8 is the Broadwell host's.
 * - pcie-gen4x16 .. gen6x16: a host's own round trip without the NFP's DMA
 *   engine: the Broadwell fit less that engine's share of a read, LAT_DMA_RD
 *   less LAT_CMD_RD at 8 B (546.7 - 480.0 = 66.7 ns: lat_cmd reads host
 *   memory from the NFP's cores without the DMA engine); posted_ns that
 *   host's LAT_CMD_WRRD less LAT_CMD_RD at 8 B (66.7 ns) less the 8-byte
 *   write's gen3 serialisation (4.4); line_ns a 64-byte line's serialisation
 *   at the link's TLP rate (512 bits / eel_bus_tlp_gbps), not gen3's 9.7;
 *   no DMA engine limit (a NIC whose engine keeps up with its link); 256
 *   tags (extended tags). Gen6 runs in FLIT mode (242/256, bus_model.c).
 * - membus-local (alias membus): an agent on the memory bus moves whole
 *   64-byte lines; a posted write is one line moving from one agent to the
 *   other, a read two trips. One way: 41.3 ns, Intel MLC's same-socket
 *   L2-to-L2 modified intervention on a Xeon E5-2660 v4 (Broadwell EP,
 *   40.3-42.3 ns by snoop mode and uncore clock; J. McCalpin, Intel
 *   Developer Zone forum "Core-to-Core Communication Latency in Skylake/Kaby
 *   Lake", topic 700477); eel-bench --bus calibrates posted_ns and
 *   read_rtt_ns on this host from the bare cache-line ping-pong (-t limit)
 *   in the same run. The link: a socket's
 *   DDR, the Broadwell host's four DDR4-2133 channels (Xeon E5-2630 v4),
 *   4 x 17.07 = 68.3 GB/s. membus-remote: the same across the sockets:
 *   numa_ns 99 (pcie-bench's remote_read_latency rows: memory on the other
 *   socket costs 95 ns on Broadwell, 103 on Ivy Bridge), the link the two
 *   QPI links of 8 GT/s, 16 GB/s each way each: 32 GB/s.
 * - cxl: CXL.cache on a PCIe 5.0 x16 PHY (32 GT/s, 128b/130b), 68-byte flits
 *   carrying 64 bytes (CXL 1.1/2.0): 59.3 GB/s. Its round trip: 250 ns,
 *   2.5 times a 100-ns local DRAM access, the low end of the 2-5x measured on
 *   three CXL memory cards (Real-world CXL 2024 in data/papers.md: "Exploring
 *   and Evaluating Real-world CXL: Use Cases and System Adoption", arXiv
 *   2405.14209); a device
 *   reading host lines crosses the same link and controller the other way.
 * - measured-mem:<node>: this machine's cache line on NUMA node <node>
 *   (bus_mem.c): read_rtt_ns the median dependent load, posted_ns half.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <eel/pci_facts.h>

#include "userlib/core/dev.h"
#include "userlib/engine/bus_mem.h"
#include "userlib/engine/bus_preset.h"

struct param {
	const char *key;
	size_t off;
	int is_u32;
	double min, max;
	int pow2;        /* a power of two (lanes, sizes) */
};

#define D(k, lo, hi) { #k, offsetof(struct eel_bus, k), 0, lo, hi, 0 }
#define U(k, lo, hi, p2) { #k, offsetof(struct eel_bus, k), 1, lo, hi, p2 }

static const struct param params[] = {
	D(read_rtt_ns, 0, 1e7), D(posted_ns, 0, 1e7), D(gts, 0.1, 1024), U(lanes, 1, 32, 1),
	U(mps, 128, 4096, 1), U(mrrs, 128, 4096, 1), U(rcb, 64, 512, 1), U(rcb_chunks, 0, 1, 0),
	D(line_ns, 0, 1e6), D(link_gbs, 0.01, 1e4), D(iommu_miss_ns, 0, 1e7), U(iotlb_entries, 0, EEL_BUS_IOTLB_MAX, 0),
	D(numa_ns, 0, 1e7), D(cold_ns, 0, 1e7), U(tags, 1, 1024, 0), D(dma_rd_ns, 0, 1e6), D(dma_wr_ns, 0, 1e6),
	D(dma_wr_line_ns, 0, 1e6), U(superpages, 0, 1, 0),
};

/* A host pcie-bench measured (gen3 x8, its MPS and MRRS, 32 tags, the NFP's DMA engine). */
#define HOST(nm, rtt, line, post, mp, mr, miss) { .name = nm, .kind = EEL_BUS_PCIE, .read_rtt_ns = rtt, \
	.posted_ns = post, .gts = 8.0, .lanes = 8, .mps = mp, .mrrs = mr, .rcb = 64, .line_ns = line, .tags = 32, \
	.iommu_miss_ns = miss, .dma_rd_ns = 1.7, .dma_wr_ns = 15.5, .dma_wr_line_ns = 4.7 }
/* The Xeon E3 host takes writes slower than the NFP issues them: its own limit per line. */
#define HOST_E3(nm, rtt, line, post, mp, mr, miss) { .name = nm, .kind = EEL_BUS_PCIE, .read_rtt_ns = rtt, \
	.posted_ns = post, .gts = 8.0, .lanes = 8, .mps = mp, .mrrs = mr, .rcb = 64, .line_ns = line, .tags = 32, \
	.iommu_miss_ns = miss, .dma_rd_ns = 1.7, .dma_wr_ns = 0, .dma_wr_line_ns = 14.0 }
/* A faster link on the Broadwell host without the NFP's DMA engine; line_ns = 512 / eel_bus_tlp_gbps. */
#define LINK(nm, g, line) { .name = nm, .kind = EEL_BUS_PCIE, .read_rtt_ns = 466.7, .posted_ns = 62.2, .gts = g, \
	.lanes = 16, .mps = 256, .mrrs = 512, .rcb = 64, .line_ns = line, .tags = 256, .iommu_miss_ns = 281.9 }
#define MEMBUS(nm, numa, gbs) { .name = nm, .kind = EEL_BUS_COHERENT, .read_rtt_ns = 82.6, .posted_ns = 41.3, \
	.numa_ns = numa, .link_gbs = gbs, .gts = 8, .lanes = 8, .mps = 256, .mrrs = 512, .rcb = 64, .tags = 32 }

static const struct eel_bus presets[] = {
	{ .name = "none", .kind = EEL_BUS_NONE, .gts = 8, .lanes = 8, .mps = 256, .mrrs = 512, .rcb = 64, .tags = 32 },
	HOST("pcie-gen3x8", 533.4, 9.73, 191.5, 256, 4096, 281.9),
	HOST("pcie-gen3x8-bdw", 533.4, 9.73, 191.5, 256, 4096, 281.9),
	HOST("pcie-gen3x8-hsw-e5", 529.4, 9.95, 198.2, 256, 512, 219.1),
	HOST_E3("pcie-gen3x8-hsw-e3", 1192.2, 5.98, 137.5, 128, 512, 306.6),
	HOST("pcie-gen3x8-hsw-smc", 580.6, 9.56, 171.5, 256, 512, 248.2),
	HOST("pcie-gen3x8-ivb", 539.4, 9.69, 191.5, 256, 512, 289.3),
	HOST("pcie-gen3x8-snb", 540.5, 9.37, 191.5, 256, 512, 235.2),
	LINK("pcie-gen4x16", 16.0, 2.252),
	LINK("pcie-gen5x16", 32.0, 1.126),
	LINK("pcie-gen6x16", 64.0, 0.586),
	MEMBUS("membus-local", 0.0, 4 * 17.07),
	MEMBUS("membus-remote", EEL_BUS_NUMA_NS, 32.0),
	{ .name = "cxl", .kind = EEL_BUS_COHERENT, .read_rtt_ns = 250.0, .posted_ns = 125.0,
	  .link_gbs = 32.0 * 16 / 8 * 128.0 / 130.0 * 64.0 / 68.0, .gts = 32, .lanes = 16, .mps = 256, .mrrs = 512,
	  .rcb = 64, .tags = 32 },
};

/* measured:<pci address>: read_rtt_ns is the function's MMIO read round trip
 * as eel_pci times it (userlib/pci/mmio_rtt.c), posted_ns half of it (the
 * model's rule: a posted write is one way of a read's two; eel stores to no
 * register of a function it does not know). The rest from the preset of the
 * function's link generation (pcie-gen3x8 up to 8 GT/s and where the link is
 * unknown or there is none, as conventional PCI; gen4x16, gen5x16, gen6x16),
 * with the link's own rate, width, MPS and MRRS where the function says them
 * (its PCIe capability; MPS and MRRS need root). */
static int measured(const char *addr, struct eel_bus *p)
{
	struct eel_pci_mmio_rtt m;
	struct eel_pci_facts f;
	struct eel_pci_facts_opts o = { 0 };
	char why[300];
	int have = 0;

	if (eel_pci_mmio_rtt(addr, &m)) {
		snprintf(why, sizeof(why), "%s", eel_errmsg());
		return eel_err(-EINVAL, "bus=measured:%s: %s", addr, why);
	}
	have = !eel_pci_facts_get(&o, addr, &f) && f.link_speed_mts;
	eel_bus_preset(!have || f.link_speed_mts <= 8000 ? "pcie-gen3x8" : f.link_speed_mts <= 16000 ? "pcie-gen4x16" :
		       f.link_speed_mts <= 32000 ? "pcie-gen5x16" : "pcie-gen6x16", p);
	if (have) {
		p->gts = f.link_speed_mts / 1000.0;
		if (f.link_width && f.link_width <= 32 && !(f.link_width & (f.link_width - 1)))
			p->lanes = f.link_width;
		if (f.max_payload >= 128 && f.max_payload <= 4096)
			p->mps = f.max_payload;
		if (f.max_read_req >= 128 && f.max_read_req <= 4096)
			p->mrrs = f.max_read_req;
	}
	p->read_rtt_ns = m.read_ns;
	p->posted_ns = m.read_ns / 2;
	snprintf(p->name, sizeof(p->name), "measured:%.30s", f.addr[0] && have ? f.addr : addr);
	return 0;
}

/* measured-mem:<node>: membus-local with this machine's load from memory on
 * that node as its read round trip, half of it a line one way. */
static int measured_mem(const char *node, struct eel_bus *p)
{
	double ns;
	int rc;

	if ((rc = bus_mem_load_ns(node, &ns)))
		return rc;
	eel_bus_preset("membus-local", p);
	p->read_rtt_ns = ns;
	p->posted_ns = ns / 2;
	snprintf(p->name, sizeof(p->name), "measured-mem:%.30s", node);
	return 0;
}

int eel_bus_preset(const char *name, struct eel_bus *p)
{
	if (!strncmp(name, "measured:", 9))
		return measured(name + 9, p);
	if (!strncmp(name, "measured-mem:", 13))
		return measured_mem(name + 13, p);
	if (!strcmp(name, "membus")) { /* the old name: membus-local's figures, under the name asked for */
		eel_bus_preset("membus-local", p);
		snprintf(p->name, sizeof(p->name), "membus");
		return 0;
	}
	for (size_t i = 0; i < sizeof(presets) / sizeof(presets[0]); i++)
		if (!strcmp(presets[i].name, name)) {
			*p = presets[i];
			return 0;
		}
	return eel_err(-EINVAL, "unknown bus '%s': give one of %s, measured:<pci address>, measured-mem:<numa node>, "
		       "or a preset file (bus=./my.bus)", name, EEL_BUS_PRESETS);
}

const char *eel_bus_preset_name(int i)
{
	return i >= 0 && (size_t)i < sizeof(presets) / sizeof(presets[0]) ? presets[i].name : NULL;
}

static int is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

int bus_set(struct eel_bus *p, const char *key, const char *val, const char *where)
{
	char *end;
	double x;

	if (!strcmp(key, "kind")) {
		if (!strcmp(val, "pcie"))
			p->kind = EEL_BUS_PCIE;
		else if (!strcmp(val, "coherent"))
			p->kind = EEL_BUS_COHERENT;
		else
			return eel_err(-EINVAL, "%s: kind=%s: give pcie or coherent", where, val);
		return 0;
	}
	for (size_t i = 0; i < sizeof(params) / sizeof(params[0]); i++) {
		const struct param *q = &params[i];

		if (strcmp(q->key, key))
			continue;
		errno = 0;
		x = strtod(val, &end);
		if (errno || end == val || *end || x != x)
			return eel_err(-EINVAL, "%s: %s=%s is not a number: give %s a number from %g to %g", where,
				       key, val, key, q->min, q->max);
		if (x < 0)
			return eel_err(-EINVAL, "%s: %s=%s is negative: a bus parameter is a time, a size or a count, "
				       "from %g to %g", where, key, val, q->min, q->max);
		if (x < q->min || x > q->max || (q->is_u32 && x != (double)(uint32_t)x) ||
		    (q->pow2 && !is_pow2((uint64_t)x)))
			return eel_err(-EINVAL, "%s: %s=%s is out of range: give %s%s from %g to %g", where, key, val,
				       q->is_u32 ? "a whole number" : "a number", q->pow2 ? " (a power of two)" : "",
				       q->min, q->max);
		if (q->is_u32)
			*(uint32_t *)((char *)p + q->off) = (uint32_t)x;
		else
			*(double *)((char *)p + q->off) = x;
		return 0;
	}
	return eel_err(-EINVAL, "%s: unknown bus parameter '%s': known are %s", where, key, BUS_OPTIONS);
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
		*--e = 0;
	return s;
}

/* The bus as a whole, once every parameter is in: parameters over no bus
 * are refused (the URI's rule, bus_from_uri, now the file's too), and a
 * coherent bus needs its link's rate (a PCIe preset has none: 0 GB/s would
 * model an infinitely fast link). */
static int bus_check(const struct eel_bus *p, int with_params, const char *where)
{
	if (with_params && p->kind == EEL_BUS_NONE)
		return eel_err(-EINVAL, "%s: bus parameters without a bus: add bus=pcie-gen3x8 (or %s)", where,
			       EEL_BUS_PRESETS);
	if (p->kind == EEL_BUS_COHERENT && !(p->link_gbs > 0))
		return eel_err(-EINVAL, "%s: a coherent bus without link_gbs (its link's GB/s): add link_gbs=25.6, "
			       "or start from bus=membus or bus=cxl", where);
	return 0;
}

/* A preset file is at most this long: a few dozen key = value lines. */
#define BUS_FILE_MAX (64 * 1024)

int bus_load_file(const char *path, struct eel_bus *p)
{
	FILE *f;
	char line[256], where[200];
	int n = 0, rc, params_seen = 0, lines = 0;

	snprintf(where, sizeof(where), "bus preset file %.150s", path);
	if ((rc = eel_input_open(path, BUS_FILE_MAX, &f))) {
		char why[400];

		snprintf(why, sizeof(why), "%s", eel_errmsg());
		return eel_err(rc, "bus preset file %s (key = value lines)", why);
	}
	eel_bus_preset("none", p);
	while (!rc && fgets(line, sizeof(line), f)) {
		char *s, *eq, *key, *val;

		n++;
		snprintf(where, sizeof(where), "bus preset file %.150s line %d", path, n);
		if (!strchr(line, '\n') && !feof(f)) {
			rc = eel_err(-EINVAL, "%s: longer than %zu characters", where, sizeof(line) - 2);
			break;
		}
		if ((s = strchr(line, '#')))
			*s = 0;
		s = trim(line);
		if (!*s)
			continue;
		if (!(eq = strchr(s, '='))) {
			rc = eel_err(-EINVAL, "%s: '%s' is not key = value (e.g. read_rtt_ns = 500)", where, s);
			break;
		}
		*eq = 0;
		key = trim(s);
		val = trim(eq + 1);
		lines++;
		if (!strcmp(key, "bus")) {
			if (params_seen) {
				rc = eel_err(-EINVAL, "%s: bus = %s after other parameters: put it first", where, val);
				break;
			}
			if ((rc = eel_bus_preset(val, p)))
				rc = eel_err(rc, "%s: unknown bus '%s': give one of %s", where, val, EEL_BUS_PRESETS);
		} else {
			rc = bus_set(p, key, val, where);
			params_seen = 1;
		}
	}
	fclose(f);
	snprintf(where, sizeof(where), "bus preset file %.150s", path);
	if (!rc && !lines)
		rc = eel_err(-EINVAL, "%s: no key = value line: give bus = <preset> and its parameters", where);
	if (!rc)
		rc = bus_check(p, params_seen, where);
	if (!rc)
		snprintf(p->name, sizeof(p->name), "%.47s", strrchr(path, '/') ? strrchr(path, '/') + 1 : path);
	return rc;
}

int bus_from_uri(struct eel_uri *u, struct eel_bus *p)
{
	const char *name = eel_uri_str(u, "bus");
	char where[300];
	int rc, any = 0;

	if (!name || !*name)
		name = "none";
	if ((rc = strchr(name, '/') ? bus_load_file(name, p) : eel_bus_preset(name, p)))
		return rc;
	snprintf(where, sizeof(where), "%s", u->text);
	for (int i = 0; i < u->nopt; i++) {
		struct eel_uri_opt *o = &u->opt[i];
		char k[40];

		snprintf(k, sizeof(k), " %s ", o->key);
		if (!strcmp(o->key, "bus") || !strstr(" " BUS_OPTIONS " ", k))
			continue;
		o->used = 1;
		any = 1;
		if ((rc = bus_set(p, o->key, o->val, where)))
			return rc;
	}
	return bus_check(p, any, u->text);
}

const char *eel_bus_param(const struct eel_bus *p, int i, double *v)
{
	const struct param *q;

	if (i < 0 || (size_t)i >= sizeof(params) / sizeof(params[0]))
		return NULL;
	q = &params[i];
	*v = q->is_u32 ? (double)*(const uint32_t *)((const char *)p + q->off) :
			 *(const double *)((const char *)p + q->off);
	return q->key;
}

int eel_bus_from_text(const char *uri, struct eel_bus *p)
{
	struct eel_uri u;
	int rc;

	if ((rc = eel_uri_parse(uri, &u)) || (rc = bus_from_uri(&u, p))) {
		eel_bus_preset("none", p);
		return rc;
	}
	return 0;
}

void eel_bus_describe(const struct eel_bus *p, char *out, unsigned n)
{
	if (p->kind == EEL_BUS_NONE)
		snprintf(out, n, "no bus");
	else if (p->kind == EEL_BUS_PCIE)
		snprintf(out, n, "model bus %s: PCIe %g GT/s x%u, MPS %u, MRRS %u, read %.0f ns, write %.0f ns",
			 p->name, p->gts, p->lanes, p->mps, p->mrrs, eel_bus_read_ns(p, 64), eel_bus_dma_write_ns(p, 8));
	else
		snprintf(out, n, "model bus %s: coherent %.1f GB/s, read %.0f ns, write %.0f ns", p->name,
			 p->link_gbs, eel_bus_read_ns(p, 64), eel_bus_dma_write_ns(p, 8));
}
