/* SPDX-License-Identifier: MIT */
/* userlib/engine/bus_provenance.c — where each preset's parameter comes from
 * (eel_bus_provenance, bus.h): "measured" (a figure read off a source),
 * "fitted" (least squares to data rows) or "assumed" (and why). The rows are
 * data/pcie_bench.csv's (pcie-bench's data repository, Neugebauer et al.,
 * "Understanding PCIe performance for end host networking", SIGCOMM 2018). */
#include <stddef.h>
#include <string.h>

#include <eel/bus.h>

struct prov {
	const char *key, *text;
};

/* The six hosts pcie-bench measured (pcie-gen3x8 is the Broadwell host's). */
static const struct prov host[] = {
	{ "read_rtt_ns", "fitted: this host's claimed dma_read_latency rows, 8-2048 B (least squares on relative error)" },
	{ "posted_ns", "fitted: this host's dma_write_read_latency rows less its dma_read_latency rows, the DMA "
		       "engine's time for the write and its TLPs, mean of 8 and 64 B" },
	{ "gts", "measured: sys-lspci.txt LnkSta 8GT/s" },
	{ "lanes", "measured: sys-lspci.txt LnkSta x8" },
	{ "mps", "measured: sys-lspci.txt DevCtl MaxPayload" },
	{ "mrrs", "measured: sys-lspci.txt DevCtl MaxReadReq" },
	{ "rcb", "assumed: 64 B, the root port's usual RCB; unused with rcb_chunks=0" },
	{ "rcb_chunks", "assumed: 0, completions in MPS pieces as pcie-bench's model has them" },
	{ "line_ns", "fitted: this host's claimed dma_read_latency rows, 8-2048 B (least squares on relative error)" },
	{ "link_gbs", "assumed: 0, a PCIe link's rate is gts x lanes" },
	{ "iommu_miss_ns", "measured: this host's iommu_read_latency row (-iommu-nosp, 4 MB window) less the "
			   "model's read" },
	{ "iotlb_entries", "assumed: 0, pcie-bench's sizes runs had no IOMMU" },
	{ "numa_ns", "assumed: 0, memory on the NIC's socket; the other socket: numa_ns=99 (remote_read_latency rows)" },
	{ "cold_ns", "assumed: 0, warm cache (HWarm); a cold line: cold_ns=44 (cold_read_latency rows)" },
	{ "tags", "measured: sys-lspci.txt DevCtl ExtTag- (5-bit tags: 32)" },
	{ "dma_rd_ns", "fitted: pcie-gen3x8-bdw's read_bandwidth rows (the NFP-6000's DMA engine, the same card)" },
	{ "dma_wr_ns", "fitted: pcie-gen3x8-bdw's write_bandwidth rows 64 and 128 B (the NFP-6000's DMA engine: "
		       "47.4 M writes/s to 64 B on all five E5 hosts)" },
	{ "dma_wr_line_ns", "fitted: pcie-gen3x8-bdw's write_bandwidth rows 64 and 128 B (the NFP-6000's DMA engine)" },
	{ "superpages", "assumed: 0, 4 KiB IOTLB pages (pcie-bench's -iommu-nosp runs)" },
};

/* The Xeon E3 host's own write limit. */
static const struct prov host_e3[] = {
	{ "dma_wr_ns", "fitted: 0, this host's write_bandwidth rows 256, 512 and 2048 B (its own write limit)" },
	{ "dma_wr_line_ns", "fitted: this host's write_bandwidth rows 256, 512 and 2048 B: 14 ns a line, ~36 Gb/s, "
			    "below the NFP's engine and the link's 47.7" },
};

/* Gen4..gen6: the Broadwell host without the NFP's DMA engine, on a faster link. */
static const struct prov link[] = {
	{ "read_rtt_ns", "fitted: pcie-gen3x8-bdw's read_rtt_ns less LAT_DMA_RD - LAT_CMD_RD at 8 B (546.7 - 480.0 "
			 "ns, lat_cmd_sizes.csv: the NFP's DMA engine's share)" },
	{ "posted_ns", "measured: the Broadwell host's LAT_CMD_WRRD - LAT_CMD_RD at 8 B (66.7 ns, lat_cmd_sizes.csv) "
		       "less the write's gen3 serialisation (4.4)" },
	{ "gts", "assumed: the generation's rate (PCIe Base Specification)" },
	{ "lanes", "assumed: x16, a server NIC's slot" },
	{ "mps", "assumed: 256 B, as on the measured hosts" },
	{ "mrrs", "assumed: 512 B, as on five of the six measured hosts" },
	{ "rcb", "assumed: 64 B, the root port's usual RCB; unused with rcb_chunks=0" },
	{ "rcb_chunks", "assumed: 0, completions in MPS pieces as pcie-bench's model has them" },
	{ "line_ns", "assumed: a 64-byte line's serialisation at the link's TLP rate (512 / tlp_gbps)" },
	{ "link_gbs", "assumed: 0, a PCIe link's rate is gts x lanes" },
	{ "iommu_miss_ns", "measured: pcie-gen3x8-bdw's (the host's page walk, not the link's)" },
	{ "iotlb_entries", "assumed: 0, no IOMMU" },
	{ "numa_ns", "assumed: 0, memory on the NIC's socket" },
	{ "cold_ns", "assumed: 0, warm cache" },
	{ "tags", "assumed: 256, extended tags (8-bit), standard from gen4" },
	{ "dma_rd_ns", "assumed: 0, a NIC whose DMA engine keeps up with its link" },
	{ "dma_wr_ns", "assumed: 0, a NIC whose DMA engine keeps up with its link" },
	{ "dma_wr_line_ns", "assumed: 0, a NIC whose DMA engine keeps up with its link" },
	{ "superpages", "assumed: 0, 4 KiB IOTLB pages" },
};

/* membus-local and membus-remote; cxl; none: the keys they set, the rest below. */
static const struct prov membus[] = {
	{ "read_rtt_ns", "measured: two same-socket line transfers (posted_ns's source); eel-bench --bus measures "
			 "this machine's (-t limit)" },
	{ "posted_ns", "measured: Intel MLC's same-socket L2-to-L2 modified intervention on a Xeon E5-2660 v4 "
		       "(Broadwell EP), 40.3-42.3 ns (McCalpin, Intel forum topic 700477); eel-bench --bus measures "
		       "this machine's cache-line one-way (-t limit)" },
	{ "link_gbs", "measured: a socket's DDR, Xeon E5-2630 v4 (pcie-bench's Broadwell): 4 DDR4-2133 channels, "
		      "68.3 GB/s (Intel ARK)" },
	{ "numa_ns", "assumed: 0, the same socket" },
};
static const struct prov membus_remote[] = {
	{ "link_gbs", "measured: two QPI links of 8 GT/s, 16 GB/s each way each (Xeon E5-2630 v4, Intel ARK)" },
	{ "numa_ns", "fitted: remote_read_latency rows less the model's local read (95 ns Broadwell, 103 Ivy "
		     "Bridge: memory on the other socket, -s0-s1-s1)" },
};
static const struct prov cxl[] = {
	{ "read_rtt_ns", "assumed: 2.5 x a 100-ns DRAM access (Real-world CXL 2024: CXL memory at 2-5x)" },
	{ "posted_ns", "assumed: half the round trip" },
	{ "link_gbs", "measured: PCIe 5.0 x16 PHY, 68-byte flits of 64 bytes (CXL 2.0 specification): 59.3 GB/s" },
};
static const struct prov coherent[] = {
	{ "gts", "assumed: unused by a coherent link" }, { "lanes", "assumed: unused by a coherent link" },
	{ "mps", "assumed: unused by a coherent link" }, { "mrrs", "assumed: unused by a coherent link" },
	{ "rcb", "assumed: unused by a coherent link" }, { "rcb_chunks", "assumed: unused by a coherent link" },
	{ "line_ns", "assumed: 0, the line's time is in link_gbs" },
	{ "iommu_miss_ns", "assumed: 0, no IOMMU on the memory bus" },
	{ "iotlb_entries", "assumed: 0, no IOMMU on the memory bus" },
	{ "numa_ns", "assumed: 0, the same socket" }, { "cold_ns", "assumed: 0, warm cache" },
	{ "tags", "assumed: 32, as gen3 (a coherent agent's outstanding line requests)" },
	{ "dma_rd_ns", "assumed: 0, no DMA engine" }, { "dma_wr_ns", "assumed: 0, no DMA engine" },
	{ "dma_wr_line_ns", "assumed: 0, no DMA engine" }, { "superpages", "assumed: 0, no IOMMU" },
};

static const char *find(const struct prov *t, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(t[i].key, key))
			return t[i].text;
	return NULL;
}

#define FIND(t, key) find(t, sizeof(t) / sizeof(t[0]), key)

const char *eel_bus_provenance(const char *name, const char *key)
{
	struct eel_bus p = { 0 };
	const char *t = NULL;
	double v;
	int known = 0;

	for (int i = 0; !known && eel_bus_param(&p, i, &v); i++)
		known = !strcmp(eel_bus_param(&p, i, &v), key);
	if (!known)
		return NULL;
	if (!strcmp(name, "none"))
		return "assumed: no bus, unused";
	if (!strcmp(name, "pcie-gen3x8-hsw-e3") && (t = FIND(host_e3, key)))
		return t;
	if (!strcmp(name, "pcie-gen3x8") || !strncmp(name, "pcie-gen3x8-", 12))
		return FIND(host, key);
	if (!strncmp(name, "pcie-gen", 8))
		return FIND(link, key);
	if (!strcmp(name, "membus-remote"))
		t = FIND(membus_remote, key);
	if (!t && (!strcmp(name, "membus-local") || !strcmp(name, "membus") || !strcmp(name, "membus-remote")))
		t = FIND(membus, key);
	if (!t && !strcmp(name, "cxl"))
		t = FIND(cxl, key);
	if (!t && (!strncmp(name, "membus", 6) || !strcmp(name, "cxl")))
		t = FIND(coherent, key);
	return t;
}
