/* SPDX-License-Identifier: MIT */
/* userlib/engine/bus_model.c — the host bus's arithmetic (bus_model.h).
 * Sources: Neugebauer et al., "Understanding PCIe performance for end host
 * networking", SIGCOMM 2018, section 3 (TLP sizes, DLLP rates, the bandwidth
 * of writes and reads); PCI Express Base Specification rev 5.0, Tables 3-7..
 * 3-9 (ACK latency limits, in symbol times of a TLP's bytes) and 2-46..2-48
 * (UpdateFC rates), as pcie-bench's model/pcie.py tabulates them. */
#include <eel/bus.h>

/* Bytes of TLP traffic after which one ACK and one UpdateFC DLLP go the other
 * way, by rate (gen1, gen2, gen3 and later), link width (x1..x32) and MPS
 * (128..4096). pcie-bench's table; it uses the gen5 values for gen6 (FLIT
 * mode has no such DLLPs of its own: an approximation it and eel keep). */
static const uint16_t ack_limit[3][6][6] = {
	{ { 237, 416, 559, 1071, 2095, 4143 }, { 128, 217, 289, 545, 1057, 2081 },
	  { 73, 118, 154, 282, 538, 1050 }, { 67, 107, 86, 150, 278, 534 },
	  { 48, 72, 86, 150, 278, 534 }, { 33, 45, 52, 84, 148, 276 } },
	{ { 288, 467, 610, 1122, 2146, 4194 }, { 179, 268, 340, 596, 1108, 2132 },
	  { 124, 169, 205, 333, 589, 1101 }, { 118, 158, 137, 201, 329, 585 },
	  { 99, 123, 137, 201, 329, 585 }, { 84, 96, 103, 135, 199, 237 } },
	{ { 333, 512, 655, 1167, 2191, 4239 }, { 224, 313, 385, 641, 1153, 2177 },
	  { 169, 214, 250, 378, 634, 1146 }, { 163, 203, 182, 246, 374, 630 },
	  { 144, 168, 182, 246, 374, 630 }, { 129, 141, 148, 180, 244, 372 } },
};

/* SKP ordered sets: 4 symbols in every 1538 (pcie-bench, SKIP_Interval). */
#define SKP_LEN 4.0
#define SKP_INTERVAL 1538.0

static uint64_t div_up(uint64_t a, uint64_t b)
{
	return b ? (a + b - 1) / b : 0;
}

/* Index of a power of two from `lo` (0) up to lo << 5, else -1. */
static int pow2_index(uint32_t v, uint32_t lo)
{
	for (int i = 0; i < 6; i++)
		if (v == lo << i)
			return i;
	return -1;
}

/* The line code follows the rate: 8b/10b at 2.5 and 5 GT/s, 128b/130b from
 * 8 GT/s (PCIe 3.0), FLIT mode at 64 GT/s (PCIe 6.0: 242 of every 256 bytes
 * carry TLPs and DLLPs, the rest FEC and CRC; pcie-bench's figure). */
double eel_bus_raw_gbps(const struct eel_bus *p)
{
	double code = p->gts < 8.0 ? 8.0 / 10.0 : p->gts < 64.0 ? 128.0 / 130.0 : 242.0 / 256.0;

	if (p->kind == EEL_BUS_COHERENT)
		return p->link_gbs * 8.0;
	return p->gts * (double)p->lanes * code;
}

/* Usable at the TLP layer: less one ACK and one UpdateFC DLLP per ack_limit
 * bytes and the SKP ordered sets (SIGCOMM 2018 section 3, "57.88 Gb/s" for
 * gen3 x8 at MPS 256). A width or MPS outside the table has no DLLP share. */
double eel_bus_tlp_gbps(const struct eel_bus *p)
{
	int g = p->gts <= 2.5 ? 0 : p->gts <= 5.0 ? 1 : 2;
	int l = pow2_index(p->lanes, 1), m = pow2_index(p->mps, 128);
	double raw = eel_bus_raw_gbps(p), over = SKP_LEN / SKP_INTERVAL;

	if (p->kind == EEL_BUS_COHERENT)
		return raw;
	if (l >= 0 && m >= 0)
		over += 2.0 * EEL_BUS_DLLP / ack_limit[g][l][m];
	return raw * (1.0 - over);
}

uint64_t eel_bus_write_bytes(const struct eel_bus *p, uint64_t len)
{
	if (p->kind == EEL_BUS_COHERENT)
		return div_up(len, EEL_BUS_LINE) * EEL_BUS_LINE;
	return div_up(len, p->mps) * EEL_BUS_TLP_MWR + len;
}

uint64_t eel_bus_read_req_bytes(const struct eel_bus *p, uint64_t len)
{
	if (p->kind == EEL_BUS_COHERENT)
		return 0; /* a line request is a message, not counted as data on the link */
	return div_up(len, p->mrrs) * EEL_BUS_TLP_MRD;
}

uint64_t eel_bus_read_cpl_bytes(const struct eel_bus *p, uint64_t len)
{
	if (p->kind == EEL_BUS_COHERENT)
		return div_up(len, EEL_BUS_LINE) * EEL_BUS_LINE;
	return div_up(len, p->rcb_chunks ? p->rcb : p->mps) * EEL_BUS_TLP_CPLD + len;
}

double eel_bus_ser_ns(const struct eel_bus *p, uint64_t bytes)
{
	double gbps = eel_bus_tlp_gbps(p);

	return gbps > 0 ? (double)bytes * 8.0 / gbps : 0.0;
}

double eel_bus_write_issue_ns(const struct eel_bus *p, uint64_t len)
{
	if (p->kind == EEL_BUS_NONE)
		return 0;
	return eel_bus_ser_ns(p, eel_bus_write_bytes(p, len));
}

double eel_bus_write_ns(const struct eel_bus *p, uint64_t len)
{
	if (p->kind == EEL_BUS_NONE)
		return 0;
	return p->posted_ns + p->numa_ns + eel_bus_write_issue_ns(p, len);
}

/* The first request's serialisation (later requests go out while earlier
 * completions come back), every completion's, and the completer's memory
 * reads in series. */
double eel_bus_read_ns(const struct eel_bus *p, uint64_t len)
{
	uint64_t req = p->kind == EEL_BUS_PCIE ? EEL_BUS_TLP_MRD : 0;

	if (p->kind == EEL_BUS_NONE)
		return 0;
	return p->read_rtt_ns + p->numa_ns + p->cold_ns + eel_bus_ser_ns(p, req) +
	       eel_bus_ser_ns(p, eel_bus_read_cpl_bytes(p, len)) + (double)div_up(len, EEL_BUS_LINE) * p->line_ns;
}

/* The NIC's DMA engine as a stage before the link: a lone write's TLPs go
 * its time after the write is issued; a stream's writes go one such time
 * apart (eel_bus_link_write: the same pipeline, seen from its TLPs). */
double eel_bus_write_engine_ns(const struct eel_bus *p, uint64_t len)
{
	if (p->kind == EEL_BUS_NONE || !len)
		return 0;
	return p->dma_wr_ns + (double)div_up(len, EEL_BUS_LINE) * p->dma_wr_line_ns;
}

double eel_bus_dma_write_ns(const struct eel_bus *p, uint64_t len)
{
	return eel_bus_write_engine_ns(p, len) + eel_bus_write_ns(p, len);
}

/* pcie-bench's LAT_WRRD (Neugebauer et al. 2018, section 5.1: a write and a
 * read of the same address, the read's completion timed): PCIe's ordering
 * rules (Base Specification rev 5.0, 2.4.1, Table 2-40: a non-posted request
 * may not pass a posted one) hold the read behind the write until the write
 * is in host memory: the write's engine time, its TLPs and its flight, then
 * the read's own round trip. */
double eel_bus_write_read_ns(const struct eel_bus *p, uint64_t len)
{
	if (p->kind == EEL_BUS_NONE)
		return 0;
	return eel_bus_dma_write_ns(p, len) + eel_bus_read_ns(p, len);
}

uint32_t eel_bus_iotlb_misses(struct eel_bus_iotlb *t, const struct eel_bus *p, uint64_t addr, uint64_t len)
{
	uint32_t cap = p->iotlb_entries < EEL_BUS_IOTLB_MAX ? p->iotlb_entries : EEL_BUS_IOTLB_MAX, misses = 0;
	uint64_t page = p->superpages ? EEL_BUS_SUPERPAGE : EEL_BUS_PAGE;
	uint64_t first = addr / page, last = (addr + (len ? len : 1) - 1) / page;

	if (!cap || p->kind == EEL_BUS_NONE)
		return 0;
	for (uint64_t pg = first; pg <= last; pg++) {
		uint32_t i, lru = 0;

		t->tick++;
		for (i = 0; i < t->n && t->page[i] != pg; i++)
			if (t->used[i] < t->used[lru])
				lru = i;
		if (i < t->n) {
			t->used[i] = t->tick;
			continue;
		}
		misses++;
		if (t->n < cap)
			lru = t->n++;
		t->page[lru] = pg;
		t->used[lru] = t->tick;
	}
	return misses;
}

/* ---- The link ----
 * A queue each way (PCI Express Base Specification rev 5.0, section 2.6:
 * a transmitter sends a TLP only while it holds the receiver's credits for
 * it, per type: posted, non-posted, completion). An endpoint advertises
 * infinite completion credits (section 2.6.1), so what bounds its reads in
 * flight is its own completion buffer: the tags it may have outstanding
 * (`tags`, one a request, each free again when its request's completions
 * are in). The root complex's posted and non-posted credits are taken as
 * coming back as fast as the link carries the TLPs: each direction's rate
 * (eel_bus_tlp_gbps, with the TLP sizes of Neugebauer et al. 2018 section 3)
 * is what bounds them. A read's completions cannot come before its first
 * request is up plus the fixed part, nor before the downstream link is free;
 * a write's TLPs wait for the upstream link. The NIC's DMA engine (fitted to
 * pcie-bench's BW_DMA_RD and BW_DMA_WR rows, bus_preset.c) takes dma_rd_ns
 * per read beyond its completions' serialisation, and issues a write no
 * sooner than dma_wr_ns + lines x dma_wr_line_ns after the previous one. */
static uint64_t ticks(double ns, double tick_per_ns)
{
	return (uint64_t)(ns * tick_per_ns + 0.5);
}

void eel_bus_read_cost(const struct eel_bus *p, uint64_t len, double tick_per_ns, struct eel_bus_read_cost *c)
{
	uint64_t chunk = p->kind == EEL_BUS_PCIE ? p->mrrs : EEL_BUS_LINE, one = len < chunk ? len : chunk;
	uint64_t total = ticks(eel_bus_read_ns(p, len), tick_per_ns);
	double fixed = eel_bus_read_ns(p, 0);

	c->nreq = (uint32_t)(len && chunk ? div_up(len, chunk) : 1);
	c->cpl = ticks(eel_bus_ser_ns(p, eel_bus_read_cpl_bytes(p, len)), tick_per_ns);
	c->cpl_one = c->nreq > 1 ? ticks(eel_bus_ser_ns(p, eel_bus_read_cpl_bytes(p, one)), tick_per_ns) : c->cpl;
	if ((uint64_t)(c->nreq - 1) * c->cpl_one > c->cpl) /* rounding: the last request's share stays >= 0 */
		c->cpl_one = c->cpl / c->nreq;
	c->first = total > c->cpl ? total - c->cpl : 0;
	c->again = ticks(fixed + (double)div_up(one, EEL_BUS_LINE) * p->line_ns, tick_per_ns);
	c->req = ticks(eel_bus_ser_ns(p, eel_bus_read_req_bytes(p, one)), tick_per_ns);
	c->engine = p->kind == EEL_BUS_NONE ? 0 : ticks(p->dma_rd_ns, tick_per_ns);
}

void eel_bus_write_cost(const struct eel_bus *p, uint64_t len, double tick_per_ns, struct eel_bus_write_cost *c)
{
	c->issue = ticks(eel_bus_write_issue_ns(p, len), tick_per_ns);
	c->engine = ticks(eel_bus_write_engine_ns(p, len), tick_per_ns);
}

void eel_bus_link_init(struct eel_bus_link *l, const struct eel_bus *p)
{
	l->up_free = l->down_free = l->wr_free = l->req_next = 0;
	l->tags = p->tags < 1 ? 1 : p->tags > EEL_BUS_TAGS_MAX ? EEL_BUS_TAGS_MAX : p->tags;
}

static uint64_t later(uint64_t a, uint64_t b)
{
	return (int64_t)(a - b) > 0 ? a : b;
}

/* Request by request: each goes up when the link is free and the tag it
 * takes (that of the request `tags` before it) is free again; its
 * completions follow the previous request's on the downstream link, or come
 * its own round trip after it when it waited for its tag. Completions come
 * in order, so the oldest request's tag is always the next one free. The
 * live NIC runs this at each read it issues (64 requests for a coherent
 * link's 4096 bytes): the loop keeps its figures in locals (a store to
 * tag_free may alias any uint64_t, so the compiler would reload them). */
uint64_t eel_bus_link_read(struct eel_bus_link *l, const struct eel_bus_read_cost *c, uint64_t now, uint64_t extra,
			   uint64_t *start)
{
	uint64_t *tf = l->tag_free, tags = l->tags, r = l->req_next, n = c->nreq ? c->nreq : 1;
	uint64_t req = c->req, again = c->again, one = c->cpl_one, go = later(now, l->up_free), end;

	if (r >= tags)
		go = later(go, tf[(r - tags) % EEL_BUS_TAGS_MAX]);
	*start = go;
	end = later(go + c->first + extra, l->down_free) + (n > 1 ? one : c->cpl);
	tf[r % EEL_BUS_TAGS_MAX] = end;
	for (uint64_t q = r + 1; q < r + n; q++) {
		uint64_t t = q >= tags ? tf[(q - tags) % EEL_BUS_TAGS_MAX] : 0;

		go += req;
		if ((int64_t)(t - go) > 0) { /* it waits for its tag: its own round trip */
			go = t;
			end = later(go + again, end);
		}
		end += one;
		tf[q % EEL_BUS_TAGS_MAX] = end;
	}
	if (n > 1) { /* the last request's completions: what is left of the read's */
		end += c->cpl - n * one;
		tf[(r + n - 1) % EEL_BUS_TAGS_MAX] = end;
	}
	l->req_next = r + n;
	l->up_free = go + req;
	l->down_free = end + c->engine;
	return end;
}

uint64_t eel_bus_link_write(struct eel_bus_link *l, const struct eel_bus_write_cost *c, uint64_t now)
{
	uint64_t go = later(later(now, l->up_free), l->wr_free);

	l->wr_free = go + c->engine;
	l->up_free = go + c->issue;
	return l->up_free;
}

/* A stream through the link: STREAM transfers issued at once on an idle
 * link, in picoseconds; the slot is the second half's time between two
 * (the first half fills the tags and the queues). */
#define STREAM 512u
#define PS_PER_NS 1000.0

double eel_bus_read_slot_ns(const struct eel_bus *p, uint64_t len)
{
	struct eel_bus_link l;
	struct eel_bus_read_cost c;
	uint64_t done = 0, mid = 0, s;

	if (p->kind == EEL_BUS_NONE || !len)
		return 0;
	eel_bus_link_init(&l, p);
	eel_bus_read_cost(p, len, PS_PER_NS, &c);
	for (uint32_t i = 0; i < STREAM; i++) {
		done = eel_bus_link_read(&l, &c, 0, 0, &s);
		mid = i == STREAM / 2 - 1 ? done : mid;
	}
	return (double)(done - mid) / PS_PER_NS / (STREAM / 2);
}

double eel_bus_write_slot_ns(const struct eel_bus *p, uint64_t len)
{
	struct eel_bus_link l;
	struct eel_bus_write_cost c;
	uint64_t sent = 0, mid = 0;

	if (p->kind == EEL_BUS_NONE || !len)
		return 0;
	eel_bus_link_init(&l, p);
	eel_bus_write_cost(p, len, PS_PER_NS, &c);
	for (uint32_t i = 0; i < STREAM; i++) {
		sent = eel_bus_link_write(&l, &c, 0);
		mid = i == STREAM / 2 - 1 ? sent : mid;
	}
	return (double)(sent - mid) / PS_PER_NS / (STREAM / 2);
}

/* Gb/s of data of a stream that starts one len-byte transfer every slot ns. */
static double stream_gbps(uint64_t len, double slot)
{
	return slot > 0 ? (double)len * 8.0 / slot : 0;
}

double eel_bus_read_stream_gbps(const struct eel_bus *p, uint64_t len)
{
	return stream_gbps(len, eel_bus_read_slot_ns(p, len));
}

double eel_bus_write_stream_gbps(const struct eel_bus *p, uint64_t len)
{
	return stream_gbps(len, eel_bus_write_slot_ns(p, len));
}

double eel_bus_write_wait_ns(const struct eel_bus *p, uint64_t len)
{
	double w = eel_bus_write_issue_ns(p, len) - eel_bus_write_issue_ns(p, EEL_BUS_POSTED_CREDIT);

	return w > 0 ? w : 0;
}
