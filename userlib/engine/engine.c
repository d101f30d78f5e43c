/* SPDX-License-Identifier: MIT */
/* userlib/engine/engine.c — setting up eel's firmware hosted on this machine
 * (userlib/engine/engine.h): its URI options, BAR0 and the host memory it
 * reaches, its stage delays measured, power on, link up, off and freed, its
 * capabilities. The data path: engine_data.c, engine_mr.c, engine_trace.c.
 * The layout and the protocol with the firmware: include/eel/fw_abi.h. */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "firmware/fw_host.h"
#include "userlib/engine/engine.h"
#include "userlib/engine/engine_bus.h"

static int opt_ns(struct eel_uri *u, const char *key, uint64_t *cycles)
{
	uint64_t ns = 0;
	int rc = eel_uri_u64(u, key, 0, 1000000000, &ns);

	if (rc < 0)
		return rc;
	*cycles = eel_ns_to_cycles(eel_clock(), (double)ns);
	return 0;
}

int engine_parse(struct engine *e, struct eel_dev *dev, struct eel_uri *u, const char *mode,
		 int threads_per_machine)
{
	const char *str;
	uint64_t v;
	int rc, n;

	if (!strcmp(mode, "") || !strcmp(mode, "inline"))
		e->mode = ENGINE_INLINE;
	else if (!strcmp(mode, "thread"))
		e->mode = ENGINE_THREAD;
	else
		return eel_err(-EINVAL, "unknown mode '%s' in %s: use :inline or :thread", mode, u->text);

	if ((rc = opt_ns(u, "doorbell_ns", &e->doorbell_cycles)) || (rc = opt_ns(u, "fetch_ns", &e->delay_fetch)) ||
	    (rc = opt_ns(u, "tx_ns", &e->delay_tx)) || (rc = opt_ns(u, "wire_ns", &e->fo.delay)) ||
	    (rc = opt_ns(u, "rx_ns", &e->delay_rx)) || (rc = opt_ns(u, "dma_ns", &e->delay_dma)) ||
	    (rc = opt_ns(u, "payload_ns", &e->delay_payload)))
		return rc;
	if ((rc = bus_from_uri(u, &e->bus)))
		return rc;
	engine_bus_setup(e);
	if ((rc = eel_uri_prob(u, "drop", &e->fo.drop)) < 0 || (rc = eel_uri_prob(u, "dup", &e->fo.dup)) < 0 ||
	    (rc = eel_uri_prob(u, "reorder", &e->fo.reorder)) < 0 ||
	    (rc = eel_uri_prob(u, "corrupt", &e->fo.corrupt)) < 0)
		return rc;
	e->fo.seed = 1;
	if ((rc = eel_uri_u64(u, "seed", 0, UINT64_MAX, &e->fo.seed)) < 0)
		return rc;
	e->mtu = 4096;
	if ((rc = eel_uri_u64(u, "mtu", EEL_FW_MTU_MIN, EEL_FW_MTU_MAX, &v)) < 0)
		return rc;
	if (rc == 0)
		e->mtu = (uint32_t)v;
	v = 4000; /* 4 ms: longer than a scheduler's hiccup, as RC NICs' timeouts are */
	if ((rc = eel_uri_u64(u, "rto_us", 1, 10000000, &v)) < 0)
		return rc;
	e->rto_cycles = eel_ns_to_cycles(eel_clock(), (double)v * 1000);
	/* the adaptive timer's floor (firmware/fw_rto.c, RFC 6298 §2.4): by
	 * default the initial timeout, as long as a host's scheduler may keep
	 * the peer's firmware (a process, or a thread) off its core: a
	 * descheduled peer is not a loss. The timer adapts above it. */
	if ((rc = eel_uri_u64(u, "rto_min_us", 1, 10000000, &v)) < 0)
		return rc;
	e->rto_min_cycles = eel_ns_to_cycles(eel_clock(), (double)v * 1000);
	/* loss recovery (firmware/pkt.h): go-back-N, as an InfiniBand RC NIC, or
	 * selective repeat, as newer RoCE NICs offer */
	e->recovery = EEL_FW_RECOVERY_GBN;
	if ((str = eel_uri_str(u, "recovery")) && !strcmp(str, "sr"))
		e->recovery = EEL_FW_RECOVERY_SR;
	else if (str && strcmp(str, "gbn"))
		return eel_err(-EINVAL, "recovery=%s in %s: use recovery=gbn (go-back-N) or recovery=sr "
			       "(selective repeat)", str, u->text);
	v = dev->opts.oversubscribe != 0; /* the URI's overrides the caller's */
	if ((rc = eel_uri_u64(u, "oversubscribe", 0, 1, &v)) < 0)
		return rc;
	e->oversubscribe = (int)v;
	e->fw_cpu = -1;
	if ((rc = eel_uri_u64(u, "fw_cpu", 0, CPU_SETSIZE - 1, &v)) < 0)
		return rc;
	if (rc == 0) {
		cpu_set_t allowed;

		if (e->mode != ENGINE_THREAD)
			return eel_err(-EINVAL, "fw_cpu in %s: it pins thread mode's firmware thread, and in "
				       "inline mode the firmware runs in the host's calls: open the NIC in thread "
				       "mode (softnic:thread), or leave fw_cpu out", u->text);
		if (!sched_getaffinity(0, sizeof(allowed), &allowed) && !CPU_ISSET((int)v, &allowed))
			return eel_err(-EINVAL, "fw_cpu=%d in %s: this process may not run on CPU %d (it may "
				       "use %d CPUs: taskset -cp %d lists them): give one of those",
				       (int)v, u->text, (int)v, CPU_COUNT(&allowed), (int)getpid());
		e->fw_cpu = (int)v;
	}
	e->stamp_every = dev->opts.stamp_every;
	e->sq_depth = dev->opts.sq_depth;
	e->cq_size = 4 * e->sq_depth;

	/* Thread mode spins a firmware thread beside each host thread. */
	n = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (e->mode == ENGINE_THREAD && !e->oversubscribe && n < threads_per_machine)
		return eel_err(-EBUSY, "%s:thread runs a firmware thread beside each host thread: %d busy threads "
			       "on this machine, and it has %d core%s: use :inline, or add ?oversubscribe=1 "
			       "(correct, but slow)", u->scheme, threads_per_machine, n, n == 1 ? "" : "s");
	return 0;
}

/* Host memory for the NIC, carved out of one mapping. */
static int alloc_host_memory(struct engine *e)
{
	size_t sq = (size_t)e->sq_depth * sizeof(struct eel_fw_sqe);
	size_t cq = (size_t)e->cq_size * sizeof(struct eel_fw_cqe);
	size_t mr = ENGINE_MR_ENTRIES * sizeof(struct eel_fw_mr);
	size_t st = 64;
	size_t tr = 2 * ENGINE_TRACE_RECS * sizeof(struct eel_trace);
	char *p;

	e->mem_len = (sq + cq + mr + st + tr + 4095) & ~(size_t)4095;
	p = mmap(NULL, e->mem_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		e->mem = NULL;
		return eel_err(-ENOMEM, "cannot map %zu bytes of host memory for the NIC", e->mem_len);
	}
	e->mem = p;
	e->sq = (void *)p;
	e->cq = (void *)(p + sq);
	e->mrt = (void *)(p + sq + cq);
	e->status = (void *)(p + sq + cq + mr);
	e->trace = (void *)(p + sq + cq + mr + st);
	return 0;
}

/* The mean of the middle half of n values (sorted in place): an
 * interruption (the peer's process on this core) lands in the top quarter. */
static double u64_iqm(uint64_t *v, int n)
{
	double sum = 0;

	for (int i = 1; i < n; i++)
		for (int k = i; k > 0 && v[k - 1] > v[k]; k--) {
			uint64_t x = v[k];

			v[k] = v[k - 1];
			v[k - 1] = x;
		}
	for (int i = n / 4; i < n - n / 4; i++)
		sum += (double)v[i];
	return sum / (n - 2 * (n / 4));
}

/* What a spin of `ticks` lasts on average, ns: SPUN spins, each timed alone
 * after a pause of a pseudo-random length (so that it starts anywhere within
 * a step of the counter: spins back to back all start just after one),
 * beside as many empty timings; the two middle halves' means, one less the
 * other. host: the host's spin (the doorbell's), else the firmware's
 * (fw_delay, through its HAL). In place, on a message's path, a spin costs a
 * few ns more (here ~5 at 60 ns: what EEL grows by): the reads of the
 * counter around it no longer overlap other work. */
#define SPUN 256
static double spun_ns(struct engine *e, uint64_t ticks, int host)
{
	uint64_t t[2][SPUN];
	uint32_t x = 12345;

	if (!ticks)
		return 0;
	for (int i = 0; i < 2 * SPUN; i++) {
		uint64_t a, b;
		int spin = i & 1;

		x = x * 1103515245u + 12345u;
		for (uint32_t k = 0; k < (x >> 16) % 64; k++)
			__asm__ volatile("" : : : "memory");
		a = eel_cycles();
		if (spin && host)
			eel_spin_cycles(ticks);
		else if (spin)
			fw_delay(&e->fw, ticks);
		b = eel_cycles();
		t[spin][i / 2] = b - a;
	}
	return eel_cycles_to_ns(eel_clock(), u64_iqm(t[1], SPUN) - u64_iqm(t[0], SPUN));
}

static void delays_measure(struct engine *e)
{
	e->delay_ns[EEL_ST_DOORBELL] = spun_ns(e, e->doorbell_cycles, 1);
	e->delay_ns[EEL_ST_DOORBELL_DONE] = spun_ns(e, e->delay_fetch, 0);
	e->delay_ns[EEL_ST_NIC_FETCH] = spun_ns(e, e->delay_tx, 0) + spun_ns(e, e->delay_payload, 0);
	e->delay_ns[EEL_ST_NIC_RX] = spun_ns(e, e->delay_rx, 0);
	e->delay_ns[EEL_ST_DMA_START] = spun_ns(e, e->delay_dma, 0);
}

int engine_start(struct engine *e)
{
	struct eel_fw_bar *bar;
	struct fw_hal hal = { .ops = &engine_hal_ops, .ctx = e, .wire = &e->wire };
	int rc;

	/* BAR0: a shared-memory page, as a PCI BAR mapped into the host */
	e->bar = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (e->bar == MAP_FAILED) {
		e->bar = NULL;
		return eel_err(-ENOMEM, "cannot map the NIC's BAR");
	}
	if ((rc = alloc_host_memory(e)))
		return rc;
	bar = e->bar;
	/* no bus to charge: the firmware reaches BAR0 and host memory itself,
	 * as these calls would (engine_hal.c) */
	hal.regs = e->bus_on ? NULL : (void *)bar;
	hal.dma_direct = !e->bus_on;
	e->db_plain = !e->bus_on && !e->doorbell_cycles;

	/* Power on, then configure and enable (fw_abi.h, bring-up). */
	fw_reset(&e->fw, &hal);
	bar->sq_base = (uintptr_t)e->sq;
	bar->sq_size = e->sq_depth;
	bar->cq_base = (uintptr_t)e->cq;
	bar->cq_size = e->cq_size;
	bar->mr_base = (uintptr_t)e->mrt;
	bar->mr_size = ENGINE_MR_ENTRIES;
	bar->status_base = (uintptr_t)e->status;
	bar->trace_base = (uintptr_t)e->trace;
	bar->trace_size = ENGINE_TRACE_RECS;
	bar->mtu = e->mtu;
	bar->rto = e->rto_cycles;
	bar->rto_min = e->rto_min_cycles;
	bar->retry_limit = 0; /* never give up: the host's timeout and peer watch decide */
	bar->recovery = e->recovery;
	bar->delay_fetch = e->delay_fetch;
	bar->delay_tx = e->delay_tx;
	bar->delay_rx = e->delay_rx;
	bar->delay_dma = e->delay_dma;
	bar->delay_payload = e->delay_payload;
	delays_measure(e);
	e->rx_seen = UINT32_MAX; /* no message seen (numbers start at 0) */
	__atomic_store_n(&bar->ctrl, EEL_FW_CTRL_ENABLE, __ATOMIC_RELEASE);
	if (e->mode == ENGINE_THREAD)
		return engine_thread_start(e);
	return 0;
}

uint32_t engine_max_frame(const struct engine *e)
{
	return FW_PKT_HDR + e->mtu + 4;
}

void engine_conn_info(const struct engine *e, struct engine_conn *c)
{
	c->mtu = e->mtu;
	c->crc = e->fo.corrupt > 0;
}

int engine_link_up(struct engine *e, struct wire carrier, const struct engine_conn *peer)
{
	/* A frame CRC (the FCS) where either end may corrupt a frame; drops,
	 * duplicates, reordering and delay need none, and a CRC costs the
	 * software wire time in every frame (the wire stage would grow by it). */
	int crc = e->fo.corrupt > 0 || peer->crc;

	if (peer->mtu != e->mtu)
		return eel_err(-EINVAL, "the two ends' mtu differ: %u here, %u at the peer: give both the same mtu=",
			       e->mtu, peer->mtu);
	e->wire = carrier;
	if (crc || wire_faults_wanted(&e->fo)) {
		struct wire_faults_opts none = { 0 };

		if (wire_faults_init(&e->faults, wire_faults_wanted(&e->fo) ? &e->fo : &none, carrier,
				     FW_PKT_HDR + e->mtu, crc))
			return eel_err(-ENOMEM, "out of memory for the fault layer");
		e->faulty = 1;
		e->wire.ops = &wire_faults_ops;
		e->wire.ctx = &e->faults;
	}
	__atomic_store_n(&e->bar->ctrl, EEL_FW_CTRL_ENABLE | EEL_FW_CTRL_LINK, __ATOMIC_RELEASE);
	return 0;
}

void engine_stop(struct engine *e)
{
	if (e->bar)
		__atomic_store_n(&e->bar->ctrl, 0, __ATOMIC_RELEASE);
	engine_thread_stop(e);
}

void engine_close(struct eel_dev *dev, void (*release)(struct engine *e))
{
	struct engine *e = ENGINE(dev);

	if (!e)
		return;
	engine_stop(e); /* the firmware off the wire before its wire goes */
	if (e->backend)
		release(e);
	e->backend = NULL;
	engine_free(e);
	dev->priv = NULL;
}

void engine_free(struct engine *e)
{
	engine_stop(e);
	if (e->faulty)
		wire_faults_free(&e->faults);
	if (e->mem)
		munmap(e->mem, e->mem_len);
	if (e->bar)
		munmap(e->bar, 4096);
	free(e);
}

void engine_nic_info(const struct engine *e, struct eel_nic_info *info)
{
	info->fw_abi = e->bar ? e->bar->abi : 0;
}

int engine_needs_caller(const struct engine *e)
{
	return e->mode == ENGINE_INLINE;
}

void engine_caps(const struct engine *e, struct eel_caps *c)
{
	c->flags = EEL_CAP_EREGS | EEL_CAP_NOTIFY | EEL_CAP_RELIABLE_HW |
		   (e->mode == ENGINE_THREAD ? EEL_CAP_ONESIDED_HW : 0) |
		   (engine_needs_caller(e) ? EEL_CAP_NEEDS_CALLER : 0);
	c->max_inline = EEL_FW_MAX_INLINE;
	c->max_put = 1u << 30;
	c->mtu = e->mtu;
	c->sq_depth = e->sq_depth;
	c->stamp_mask = (1u << EEL_STAGES) - 1;
	/* the emulated stage costs, by the stamp that begins their stage */
	c->delay_asked_ns[EEL_ST_DOORBELL] = eel_cycles_to_ns(eel_clock(), (double)e->doorbell_cycles);
	c->delay_asked_ns[EEL_ST_DOORBELL_DONE] = eel_cycles_to_ns(eel_clock(), (double)e->delay_fetch);
	c->delay_asked_ns[EEL_ST_NIC_FETCH] = eel_cycles_to_ns(eel_clock(), (double)(e->delay_tx + e->delay_payload));
	c->delay_asked_ns[EEL_ST_NIC_RX] = eel_cycles_to_ns(eel_clock(), (double)e->delay_rx);
	c->delay_asked_ns[EEL_ST_DMA_START] = eel_cycles_to_ns(eel_clock(), (double)e->delay_dma);
	memcpy(c->delay_ns, e->delay_ns, sizeof(c->delay_ns));
}
