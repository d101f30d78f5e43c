/* SPDX-License-Identifier: MIT */
/* include/eel/bus.h — the arithmetic of a host bus: what one DMA read,
 * one posted write or one doorbell costs a NIC on a PCIe link or on a
 * coherent link (the memory bus, CXL.cache), and the bandwidth a stream of
 * them gets. Pure functions of the parameters: no libc, no libm, no clock
 * (freestanding-friendly: userlib/engine/bus_model.c); the engine's HAL
 * (userlib/engine/engine_bus.c) spins what they say; the presets, preset
 * files and URI options that fill the parameters in are at the end
 * (userlib/engine/bus_preset.c).
 *
 * The PCIe side follows the model of Neugebauer et al., "Understanding PCIe
 * performance for end host networking", SIGCOMM 2018, section 3: a TLP
 * carries 24 bytes of framing, DLLP header and TLP header with its payload
 * (MWr and MRd with 64-bit addresses), a CplD 20; writes are split at MPS,
 * read requests at MRRS, completions at MPS (or RCB: rcb_chunks); the usable
 * TLP bandwidth is the lanes' rate after the line code (8b/10b at 2.5 and 5
 * GT/s, 128b/130b from 8 GT/s, FLIT mode's 242/256 at 64 GT/s) less the ACK
 * and flow-control DLLPs at the rates the PCIe Base Specification rev 5.0
 * recommends (Tables 3-7..3-9 and 2-46..2-48, as pcie-bench tabulates them)
 * and the SKP ordered sets (4 symbols in 1538).
 *
 * Latency is this model's own: a non-posted read costs a fixed round trip
 * (read_rtt_ns), the serialisation of its request and of its completions at
 * the usable bandwidth, and line_ns for each 64-byte line the completer reads
 * from memory in series; a posted write costs its serialisation (the NIC's
 * time) and a one-way flight (posted_ns) before the host can see it.
 */
#ifndef EEL_BUS_H
#define EEL_BUS_H

#include <stdint.h>

#define EEL_BUS_LINE 64u           /* a cache line: the unit of a coherent link and of line_ns */
#define EEL_BUS_TLP_MWR 24u        /* MWr, 64-bit address: 8 framing + DLLP, 4 TLP, 12 address (pcie-bench) */
#define EEL_BUS_TLP_MRD 24u        /* MRd, likewise */
#define EEL_BUS_TLP_CPLD 20u       /* CplD: 8 framing + DLLP, 4 TLP, 8 completion */
#define EEL_BUS_DLLP 8u            /* an ACK or an UpdateFC DLLP on the link */
#define EEL_BUS_IOTLB_MAX 256u
#define EEL_BUS_PAGE 4096u

enum eel_bus_kind {
	EEL_BUS_NONE = 0,      /* no bus: today's software NIC (the default) */
	EEL_BUS_PCIE = 1,      /* TLPs on a PCIe link */
	EEL_BUS_COHERENT = 2,  /* whole cache lines on a coherent link (memory bus, CXL.cache) */
};

struct eel_bus {
	char name[48];          /* the preset's name, or the preset file's */
	uint32_t kind;          /* enum eel_bus_kind */
	double read_rtt_ns;     /* a non-posted read's fixed round trip */
	double posted_ns;       /* a posted write's one-way flight to host memory */
	double gts;             /* PCIe: GT/s per lane */
	uint32_t lanes;         /* PCIe: link width */
	uint32_t mps;           /* PCIe: max payload size, bytes */
	uint32_t mrrs;          /* PCIe: max read request size, bytes */
	uint32_t rcb;           /* PCIe: read completion boundary, bytes */
	uint32_t rcb_chunks;    /* PCIe: 1 = completions in RCB pieces, 0 = in MPS pieces (pcie-bench's default) */
	double line_ns;         /* the completer's time per 64-byte line read, in series within one read */
	double link_gbs;        /* coherent: the link's usable bandwidth, GB/s (bytes/ns) */
	double iommu_miss_ns;   /* an IOTLB miss: the page walk before the access goes on */
	uint32_t iotlb_entries; /* IOTLB size in 4 KiB pages (0: no IOMMU) */
	double numa_ns;         /* a remote NUMA node: added to each read's round trip and each write's flight */
	double cold_ns;         /* a cold cache (data from DRAM, not the LLC): added to each read */
	uint32_t tags;          /* read requests in flight at once: 32 (PCIe's 5-bit tag), 256 (extended
				 * tags, gen4 on); 1 = one read at a time, each waited for */
	double dma_rd_ns;       /* the NIC's DMA engine: per read in a stream, beyond its completions' serialisation */
	double dma_wr_ns;       /* the NIC's DMA engine: per write issued in a stream (fixed part) ... */
	double dma_wr_line_ns;  /* ... and per 64-byte line of it (the engine's time is fixed + lines x this) */
	uint32_t superpages;    /* 1: the IOTLB's entries cover 2 MiB pages (superpages), 0: 4 KiB pages */
};

/* What a warm local host's presets leave out, to give as cold_ns= and
 * numa_ns= (fitted to pcie-bench's cold_read_latency and remote_read_latency
 * rows of data/pcie_bench.csv: the mean over the hosts measured). */
#define EEL_BUS_COLD_NS 44.0       /* a line from DRAM rather than the LLC: 35-49 ns on five E5 hosts */
#define EEL_BUS_NUMA_NS 99.0       /* memory on the other socket: 95 (Broadwell), 103 (Ivy Bridge) */
#define EEL_BUS_SUPERPAGE (2u << 20)

/* The IOTLB: the last iotlb_entries pages translated, least recently used out. */
struct eel_bus_iotlb {
	uint64_t page[EEL_BUS_IOTLB_MAX];
	uint64_t used[EEL_BUS_IOTLB_MAX];
	uint64_t tick;
	uint32_t n;
};

/* Gb/s of the lanes after the line code; of the TLP layer after DLLPs and SKPs. */
double eel_bus_raw_gbps(const struct eel_bus *p);
double eel_bus_tlp_gbps(const struct eel_bus *p);
/* Bytes on the link for one transfer of len bytes: a posted write's TLPs; a
 * read's requests (to the host) and its completions (to the NIC). */
uint64_t eel_bus_write_bytes(const struct eel_bus *p, uint64_t len);
uint64_t eel_bus_read_req_bytes(const struct eel_bus *p, uint64_t len);
uint64_t eel_bus_read_cpl_bytes(const struct eel_bus *p, uint64_t len);
/* ns to put `bytes` on the link at its usable bandwidth. */
double eel_bus_ser_ns(const struct eel_bus *p, uint64_t bytes);
/* A posted write of len bytes: the issuer's time (its TLPs leaving), and the
 * whole of it until the host can see the data (issue + flight + numa). */
double eel_bus_write_issue_ns(const struct eel_bus *p, uint64_t len);
double eel_bus_write_ns(const struct eel_bus *p, uint64_t len);
/* A non-posted read of len bytes, until the last byte is at the reader. */
double eel_bus_read_ns(const struct eel_bus *p, uint64_t len);
/* The NIC's DMA engine's time for one write of len bytes (dma_wr_ns + lines
 * x dma_wr_line_ns): before its TLPs go (a lone write's latency), and the
 * least time between two writes' (a stream's). A DMA write of len bytes
 * until the host can see it: that engine time, then eel_bus_write_ns. */
double eel_bus_write_engine_ns(const struct eel_bus *p, uint64_t len);
double eel_bus_dma_write_ns(const struct eel_bus *p, uint64_t len);
/* A DMA write then a read of the same address (pcie-bench's LAT_WRRD): the
 * read may not pass the posted write (PCIe Base Specification rev 5.0,
 * section 2.4.1, Table 2-40), so it starts when the write has landed:
 * eel_bus_dma_write_ns + eel_bus_read_ns. */
double eel_bus_write_read_ns(const struct eel_bus *p, uint64_t len);
/* ---- the link as a queue (bus_model.c, "The link") ----
 * Each direction carries one TLP at a time at eel_bus_tlp_gbps: upstream the
 * NIC's posted writes and its read requests, downstream the reads'
 * completions. A read holds one tag for each of its requests (MRRS pieces,
 * a line on a coherent link), each until that request's completions are in,
 * at most `tags` at once. The NIC's DMA engine: a read's completions take
 * dma_rd_ns more of it before the next read's, a write's TLPs go no sooner
 * than dma_wr_ns + lines x dma_wr_line_ns after the previous write's. Times
 * are in the caller's ticks (the engine's cycles; the model's picoseconds).
 * This is the model: the live firmware runs on it (engine_bus.c) and a
 * stream's bandwidth is what it gives (eel_bus_read_stream_gbps). */
#define EEL_BUS_TAGS_MAX 1024u  /* the most tags a bus may have (the preset's range) */

struct eel_bus_link {
	uint64_t up_free;        /* the upstream link is free from */
	uint64_t down_free;      /* the downstream link (and the engine taking reads in) is free from */
	uint64_t wr_free;        /* the DMA engine may issue the next write's TLPs from */
	uint64_t req_next;       /* read requests sent so far */
	uint64_t tag_free[EEL_BUS_TAGS_MAX]; /* by request % EEL_BUS_TAGS_MAX: its tag free again */
	uint32_t tags;           /* the bus's tags, 1..EEL_BUS_TAGS_MAX */
};

/* What one read of len bytes takes, in ticks (tick_per_ns of them a ns):
 * one request's serialisation upstream; from the first request to the first
 * completion (read_rtt_ns, numa_ns, cold_ns, the request, line_ns a line of
 * the read); from a later request that waited for a tag to its own first
 * completion (the same, its own lines); the read's completions downstream
 * (cpl) and one whole request's (cpl_one); the DMA engine's dma_rd_ns.
 * first + cpl is eel_bus_read_ns. */
struct eel_bus_read_cost {
	uint64_t req, first, again, cpl, cpl_one, engine;
	uint32_t nreq;           /* its requests (tags it holds) */
};
void eel_bus_read_cost(const struct eel_bus *p, uint64_t len, double tick_per_ns, struct eel_bus_read_cost *c);
/* A posted write of len bytes in ticks: its TLPs' serialisation
 * (eel_bus_write_issue_ns), the DMA engine's time before the next write. */
struct eel_bus_write_cost {
	uint64_t issue, engine;
};
void eel_bus_write_cost(const struct eel_bus *p, uint64_t len, double tick_per_ns, struct eel_bus_write_cost *c);
/* An empty link for bus p. */
void eel_bus_link_init(struct eel_bus_link *l, const struct eel_bus *p);
/* A read issued at `now` (extra: ticks added to its fixed part, an IOTLB
 * miss's walk): each request goes up when the link and a tag are free, the
 * completions come down when they are ready and the link is free, in order.
 * Returns when its last completion is in; *start: when its first request went. */
uint64_t eel_bus_link_read(struct eel_bus_link *l, const struct eel_bus_read_cost *c, uint64_t now, uint64_t extra,
			   uint64_t *start);
/* A posted write ready at `now`: when its last TLP has left (it waits for
 * the upstream link and the DMA engine). */
uint64_t eel_bus_link_write(struct eel_bus_link *l, const struct eel_bus_write_cost *c, uint64_t now);
/* A stream of len-byte reads (writes) issued back to back on an idle link:
 * the time between two starts once the stream has settled (the link's
 * picoseconds, over the second half of 512), and the Gb/s of data it gives
 * (pcie-bench's BW_DMA_RD, BW_DMA_WR). */
double eel_bus_read_slot_ns(const struct eel_bus *p, uint64_t len);
double eel_bus_read_stream_gbps(const struct eel_bus *p, uint64_t len);
double eel_bus_write_slot_ns(const struct eel_bus *p, uint64_t len);
double eel_bus_write_stream_gbps(const struct eel_bus *p, uint64_t len);
/* Posted credits: the NIC goes on while at most this much of its write
 * data waits for the upstream link, and waits for the rest to leave (an
 * assumption: 256 posted data credits of 16 bytes, PCIe Base Spec 2.6.1;
 * a root port's own advertisement is not modelled). */
#define EEL_BUS_POSTED_CREDIT 4096u
/* What the NIC waits for one posted write of len bytes on an idle link:
 * its TLPs beyond the posted credits (0 for a write within them). */
double eel_bus_write_wait_ns(const struct eel_bus *p, uint64_t len);

/* IOTLB misses of an access of len bytes at bus address addr (updating it);
 * an entry covers EEL_BUS_PAGE, or EEL_BUS_SUPERPAGE with superpages=1. */
uint32_t eel_bus_iotlb_misses(struct eel_bus_iotlb *t, const struct eel_bus *p, uint64_t addr, uint64_t len);

/* ---- buses by name (userlib/engine/bus_preset.c; these use libc) ---- */
#define EEL_BUS_PRESETS "none, pcie-gen3x8, pcie-gen3x8-bdw, pcie-gen3x8-hsw-e5, pcie-gen3x8-hsw-e3, " \
	"pcie-gen3x8-hsw-smc, pcie-gen3x8-ivb, pcie-gen3x8-snb, pcie-gen4x16, pcie-gen5x16, pcie-gen6x16, " \
	"membus-local (membus), membus-remote, cxl"

/* The preset `name` into *p; -EINVAL (eel_errmsg says why) when there is none. */
int eel_bus_preset(const char *name, struct eel_bus *p);
/* The bus a device URI asks for (bus=, a preset or a preset file, default
 * none, and any bus parameter given as an option); -EINVAL (eel_errmsg)
 * when the URI or the bus is bad, *p then none. */
int eel_bus_from_text(const char *uri, struct eel_bus *p);
/* The i-th numeric parameter's name, its value in *v; NULL past the last. */
const char *eel_bus_param(const struct eel_bus *p, int i, double *v);
/* The i-th preset's name (NULL past the last), and where preset `name`'s
 * parameter `key` comes from: text starting "measured", "fitted" or
 * "assumed" and naming its source; NULL for no such preset or key. */
const char *eel_bus_preset_name(int i);
const char *eel_bus_provenance(const char *name, const char *key);
/* One line describing the bus, for the NIC's attach text and the table: a 64-byte
 * read, an 8-byte DMA write until the host sees it (eel_bus_dma_write_ns). */
void eel_bus_describe(const struct eel_bus *p, char *out, unsigned n);

#endif
