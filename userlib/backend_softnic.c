/* userlib/backend_softnic.c — the host driver of the built-in software NIC.
 *
 * URI: softnic[:inline|:thread][?options]
 *   mode       inline (default): the firmware runs on the caller's thread,
 *              once at each doorbell and whenever it polls or waits;
 *              thread: on a thread of its own
 *   emulate a slower NIC (ns): doorbell_ns fetch_ns tx_ns wire_ns rx_ns dma_ns
 *   a bad wire (probability 0..1): drop dup reorder corrupt, and seed
 *   mtu (payload bytes per packet), rto_us (retransmission timeout),
 *   oversubscribe=1 (thread mode on too few cores), fw_cpu (pin the firmware)
 *
 * The NIC's layout and protocol with its firmware: include/eel/fw_abi.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "dev.h"
#include "softnic.h"

#define SN_OPTIONS "doorbell_ns fetch_ns tx_ns wire_ns rx_ns dma_ns drop dup reorder corrupt seed " \
		   "mtu rto_us oversubscribe fw_cpu timeout_ms stamp_every sq_depth"
#define SN_CONN_MAGIC 0x4e534e53u /* "SNSN" */
#define SN_OOB_ATTACHED 3

static const char *const fw_counter_names[EEL_FW_COUNTERS] = {
	[EEL_FW_CNT_TX_PKTS] = "tx_packets", [EEL_FW_CNT_RX_PKTS] = "rx_packets",
	[EEL_FW_CNT_TX_MSGS] = "tx_messages", [EEL_FW_CNT_RX_MSGS] = "rx_messages",
	[EEL_FW_CNT_RETRANSMITS] = "retransmits", [EEL_FW_CNT_TIMEOUTS] = "timeouts",
	[EEL_FW_CNT_NAKS_TX] = "naks_sent", [EEL_FW_CNT_NAKS_RX] = "naks_received",
	[EEL_FW_CNT_DUPS] = "duplicates_dropped", [EEL_FW_CNT_OOO] = "out_of_order_dropped",
	[EEL_FW_CNT_BAD] = "malformed_dropped", [EEL_FW_CNT_ACCESS_ERRS] = "access_errors",
	[EEL_FW_CNT_ACKS_TX] = "acks_sent", [EEL_FW_CNT_RNR] = "receiver_not_ready",
};

static const char *const wire_counter_names[SN_COUNTERS] = {
	[SN_CNT_DROPPED] = "wire_dropped", [SN_CNT_DUPLICATED] = "wire_duplicated",
	[SN_CNT_REORDERED] = "wire_reordered", [SN_CNT_CORRUPTED] = "wire_corrupted",
	[SN_CNT_FCS_ERRORS] = "wire_fcs_errors",
};

/* What a side tells its peer to connect (sent as is over the OOB channel). */
struct sn_conn {
	uint32_t magic;
	uint32_t wire_version;
	uint32_t mtu;
	int32_t pid;
	char boot_id[40];   /* the shared wire needs both ends on one running kernel */
	char shm[64];       /* the server's wire object */
};

static struct softnic *SN(struct eel_dev *dev)
{
	return dev->priv;
}

static int step(struct softnic *sn)
{
	if (sn->mode == SN_INLINE)
		return fw_step(&sn->fw);
	if (sn->oversubscribe)
		sched_yield();
	else
		sn_relax();
	return 0;
}

/* Inline mode: a doorbell runs the firmware once at once, so the NIC starts
 * sending when it is rung, as a NIC does, not at the next poll. */
static void kick(struct softnic *sn)
{
	if (sn->mode == SN_INLINE)
		fw_step(&sn->fw);
}

/* The connection's sticky error, as the firmware reported it. */
static int conn_error(struct softnic *sn)
{
	uint32_t e = __atomic_load_n(&sn->status->error, __ATOMIC_ACQUIRE);
	uint32_t info = sn->status->error_info;

	switch (e) {
	case EEL_FW_OK:
		return 0;
	case EEL_FW_ERR_REMOTE_ACCESS:
		return eel_err(-EREMOTEIO, "connection failed: a put or get was refused by the receiving NIC "
			       "(bad key, or outside the registered window; packet %u): check the window "
			       "and offset", info);
	case EEL_FW_ERR_LOCAL_ACCESS:
		return eel_err(-EFAULT, "connection failed: a put's source is outside its registered region");
	case EEL_FW_ERR_RETRY:
		return eel_err(-ECONNRESET, "connection failed: the peer stopped answering (retransmission "
			       "limit at packet %u)", info);
	default:
		return eel_err(-EIO, "the software NIC failed (code %u): its configuration was rejected", e);
	}
}

static int cqe_status(uint8_t s)
{
	switch (s) {
	case EEL_FW_OK:
		return 0;
	case EEL_FW_ERR_REMOTE_ACCESS:
		return -EREMOTEIO;
	case EEL_FW_ERR_LOCAL_ACCESS:
		return -EFAULT;
	case EEL_FW_ERR_FLUSHED:
		return -ECANCELED;
	case EEL_FW_ERR_RETRY:
		return -ETIMEDOUT;
	default:
		return -EINVAL;
	}
}

/* ---- opening ---- */

static int opt_ns(struct eel_uri *u, const char *key, uint64_t *cycles)
{
	uint64_t ns = 0;
	int rc = eel_uri_u64(u, key, 0, 1000000000, &ns);

	if (rc < 0)
		return rc;
	*cycles = eel_ns_to_cycles(eel_clock(), (double)ns);
	return 0;
}

static int parse_options(struct softnic *sn, struct eel_uri *u, struct eel_dev *dev)
{
	uint64_t v, fetch = 0, tx = 0, rx = 0, dma = 0;
	int rc;

	if (!strcmp(u->path, "") || !strcmp(u->path, "inline"))
		sn->mode = SN_INLINE;
	else if (!strcmp(u->path, "thread"))
		sn->mode = SN_THREAD;
	else
		return eel_err(-EINVAL, "unknown softnic mode '%s': use softnic:inline or softnic:thread", u->path);

	if ((rc = opt_ns(u, "doorbell_ns", &sn->doorbell_cycles)) || (rc = opt_ns(u, "fetch_ns", &fetch)) ||
	    (rc = opt_ns(u, "tx_ns", &tx)) || (rc = opt_ns(u, "wire_ns", &sn->faults.delay)) ||
	    (rc = opt_ns(u, "rx_ns", &rx)) || (rc = opt_ns(u, "dma_ns", &dma)))
		return rc;
	if ((rc = eel_uri_prob(u, "drop", &sn->faults.drop)) < 0 ||
	    (rc = eel_uri_prob(u, "dup", &sn->faults.dup)) < 0 ||
	    (rc = eel_uri_prob(u, "reorder", &sn->faults.reorder)) < 0 ||
	    (rc = eel_uri_prob(u, "corrupt", &sn->faults.corrupt)) < 0)
		return rc;
	sn->faults.seed = 1;
	if ((rc = eel_uri_u64(u, "seed", 0, UINT64_MAX, &sn->faults.seed)) < 0)
		return rc;
	sn->mtu = 4096;
	if ((rc = eel_uri_u64(u, "mtu", EEL_FW_MTU_MIN, EEL_FW_MTU_MAX, &v)) < 0)
		return rc;
	if (rc == 0)
		sn->mtu = (uint32_t)v;
	v = 1000;
	if ((rc = eel_uri_u64(u, "rto_us", 1, 10000000, &v)) < 0)
		return rc;
	sn->rto_cycles = eel_ns_to_cycles(eel_clock(), (double)v * 1000);
	v = 0;
	if ((rc = eel_uri_u64(u, "oversubscribe", 0, 1, &v)) < 0)
		return rc;
	sn->oversubscribe = (int)v;
	sn->fw_cpu = -1;
	if ((rc = eel_uri_u64(u, "fw_cpu", 0, CPU_SETSIZE - 1, &v)) < 0)
		return rc;
	if (rc == 0)
		sn->fw_cpu = (int)v;
	if ((rc = eel_uri_check_unused(u, SN_OPTIONS)))
		return rc;

	sn->bar->delay_fetch = fetch;
	sn->bar->delay_tx = tx;
	sn->bar->delay_rx = rx;
	sn->bar->delay_dma = dma;
	sn->stamp_every = dev->opts.stamp_every;
	return 0;
}

/* Thread mode spins two threads per NIC, and both NICs of a pair are on this
 * machine: four busy threads need four cores, or they must take turns. */
static int check_cores(struct softnic *sn)
{
	int n;

	if (sn->mode != SN_THREAD || sn->oversubscribe)
		return 0;
	n = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (n >= 4)
		return 0;
	return eel_err(-EBUSY, "softnic:thread runs a firmware thread beside each host thread: a pair keeps "
		       "4 threads busy and this machine gives eel %d core%s: use softnic:inline, or "
		       "softnic:thread?oversubscribe=1 (correct, but slow)", n, n == 1 ? "" : "s");
}

/* Host memory for the NIC, carved out of one mapping. */
static int alloc_host_memory(struct softnic *sn)
{
	size_t sq = (size_t)sn->sq_depth * sizeof(struct eel_fw_sqe);
	size_t cq = (size_t)sn->cq_size * sizeof(struct eel_fw_cqe);
	size_t mr = SN_MR_ENTRIES * sizeof(struct eel_fw_mr);
	size_t st = 64;
	size_t tr = 2 * SN_TRACE_RECS * sizeof(struct eel_trace);
	char *p;

	sn->mem_len = (sq + cq + mr + st + tr + 4095) & ~(size_t)4095;
	p = mmap(NULL, sn->mem_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return eel_err(-ENOMEM, "softnic: cannot map %zu bytes of host memory", sn->mem_len);
	sn->mem = p;
	sn->sq = (void *)p;
	sn->cq = (void *)(p + sq);
	sn->mrt = (void *)(p + sq + cq);
	sn->status = (void *)(p + sq + cq + mr);
	sn->trace = (void *)(p + sq + cq + mr + st);
	return 0;
}

static void sn_close(struct eel_dev *dev)
{
	struct softnic *sn = SN(dev);

	if (!sn)
		return;
	if (sn->bar)
		__atomic_store_n(&sn->bar->ctrl, 0, __ATOMIC_RELEASE);
	sn_thread_stop(sn);
	if (sn->wire.shm) {
		munmap(sn->wire.shm, sn->wire.shm_len);
		sn_wire_detach(&sn->wire);
	}
	if (sn->shm_owner && sn->shm_name[0])
		shm_unlink(sn->shm_name);
	if (sn->mem)
		munmap(sn->mem, sn->mem_len);
	if (sn->bar)
		munmap(sn->bar, 4096);
	free(sn);
	dev->priv = NULL;
}

static int sn_open(struct eel_dev *dev, struct eel_uri *u)
{
	struct softnic *sn = calloc(1, sizeof(*sn));
	struct eel_fw_bar *bar;
	struct fw_hal hal;
	struct eel_caps *c = &dev->caps;
	int rc;

	if (!sn)
		return eel_err(-ENOMEM, "softnic: out of memory");
	dev->priv = sn;
	/* BAR0: a shared-memory page, as a PCI BAR mapped into the host */
	sn->bar = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sn->bar == MAP_FAILED) {
		sn->bar = NULL;
		rc = eel_err(-ENOMEM, "softnic: cannot map its BAR");
		goto fail;
	}
	bar = sn->bar;
	sn->sq_depth = dev->opts.sq_depth;
	sn->cq_size = 4 * sn->sq_depth;
	if ((rc = parse_options(sn, u, dev)) || (rc = check_cores(sn)) || (rc = alloc_host_memory(sn)))
		goto fail;

	/* Power on, then configure and enable (fw_abi.h, bring-up). */
	hal.ops = &sn_hal_ops;
	hal.ctx = sn;
	fw_reset(&sn->fw, &hal);
	bar->sq_base = (uintptr_t)sn->sq;
	bar->sq_size = sn->sq_depth;
	bar->cq_base = (uintptr_t)sn->cq;
	bar->cq_size = sn->cq_size;
	bar->mr_base = (uintptr_t)sn->mrt;
	bar->mr_size = SN_MR_ENTRIES;
	bar->status_base = (uintptr_t)sn->status;
	bar->trace_base = (uintptr_t)sn->trace;
	bar->trace_size = SN_TRACE_RECS;
	bar->mtu = sn->mtu;
	bar->rto = sn->rto_cycles;
	bar->retry_limit = 0; /* never give up: the host's timeout and peer watch decide */
	__atomic_store_n(&bar->ctrl, EEL_FW_CTRL_ENABLE, __ATOMIC_RELEASE);
	if (sn->mode == SN_THREAD && (rc = sn_thread_start(sn)))
		goto fail;

	snprintf(c->backend, sizeof(c->backend), "softnic");
	snprintf(c->name, sizeof(c->name), "softnic:%s", sn->mode == SN_THREAD ? "thread" : "inline");
	c->flags = EEL_CAP_EREGS | EEL_CAP_NOTIFY | EEL_CAP_RELIABLE_HW | EEL_CAP_NIC_CLOCK |
		   EEL_CAP_SHARED_CLOCK | (sn->mode == SN_THREAD ? EEL_CAP_ONESIDED_HW : 0);
	c->max_inline = EEL_FW_MAX_INLINE;
	c->max_put = 1u << 30;
	c->mtu = sn->mtu;
	c->sq_depth = sn->sq_depth;
	c->stamp_mask = (1u << EEL_STAGES) - 1;
	snprintf(c->doorbell, sizeof(c->doorbell), "store to the BAR page (shared memory, no bus)");
	snprintf(c->attach, sizeof(c->attach), "software NIC in host memory (no bus)");
	snprintf(c->clock, sizeof(c->clock), "host %s (the firmware's clock)", eel_clock()->source);
	return 0;
fail:
	sn_close(dev);
	return rc;
}

/* ---- connecting: the server side creates the wire, the client joins it ---- */

static void boot_id(char *out, size_t n)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");

	out[0] = 0;
	if (f) {
		if (fgets(out, (int)n, f))
			out[strcspn(out, "\n")] = 0;
		fclose(f);
	}
}

static int sn_conn_info(struct eel_dev *dev, int server, void *buf, uint32_t cap, uint32_t *len)
{
	struct softnic *sn = SN(dev);
	struct sn_conn c = { SN_CONN_MAGIC, SN_WIRE_VERSION, sn->mtu, getpid(), "", "" };
	static unsigned counter;

	boot_id(c.boot_id, sizeof(c.boot_id));
	if (server) {
		size_t size = sn_wire_size(sn->mtu);
		int fd;
		void *p;

		snprintf(sn->shm_name, sizeof(sn->shm_name), "/eel-wire-%d-%u", (int)getpid(), counter++);
		fd = shm_open(sn->shm_name, O_RDWR | O_CREAT | O_EXCL, 0600);
		if (fd < 0)
			return eel_err(-errno, "softnic: cannot create the wire %s in /dev/shm: %s",
				       sn->shm_name, strerror(errno));
		sn->shm_owner = 1;
		if (ftruncate(fd, (off_t)size)) {
			close(fd);
			return eel_err(-errno, "softnic: cannot size the wire (%zu bytes): %s", size, strerror(errno));
		}
		p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		close(fd);
		if (p == MAP_FAILED)
			return eel_err(-ENOMEM, "softnic: cannot map the wire");
		sn_wire_format(p, sn->mtu);
		((struct sn_shm *)p)->pid[0] = getpid();
		if (sn_wire_attach(&sn->wire, p, size, 0, &sn->faults)) {
			munmap(p, size);
			return eel_err(-ENOMEM, "softnic: cannot set up the wire");
		}
		snprintf(c.shm, sizeof(c.shm), "%s", sn->shm_name);
	}
	if (cap < sizeof(c))
		return eel_err(-EINVAL, "softnic: connection info does not fit");
	memcpy(buf, &c, sizeof(c));
	*len = sizeof(c);
	return 0;
}

static int sn_connect(struct eel_dev *dev, int server, const void *peer, uint32_t len, struct eel_oob *oob)
{
	struct softnic *sn = SN(dev);
	struct sn_conn p, mine;
	uint32_t got = 0;
	int rc;

	if (len != sizeof(p))
		return eel_err(-EPROTO, "the peer is not a softnic (connection info of %u bytes): both ends "
			       "must use the same kind of NIC", len);
	memcpy(&p, peer, sizeof(p));
	boot_id(mine.boot_id, sizeof(mine.boot_id));
	p.boot_id[sizeof(p.boot_id) - 1] = p.shm[sizeof(p.shm) - 1] = 0;
	if (p.magic != SN_CONN_MAGIC || p.wire_version != SN_WIRE_VERSION)
		return eel_err(-EPROTO, "the peer is not a softnic of this version: use the same eel and the "
			       "same NIC on both ends");
	if (strcmp(p.boot_id, mine.boot_id))
		return eel_err(-EXDEV, "softnic peers must run on one machine (the wire is shared memory): "
			       "between two hosts use verbs:<ibdev> or dpdk:<port>");
	if (p.mtu != sn->mtu)
		return eel_err(-EINVAL, "softnic mtu differs: %u here, %u at the peer: give both the same mtu=",
			       sn->mtu, p.mtu);
	if (!server) {
		size_t size = sn_wire_size(sn->mtu);
		int fd = shm_open(p.shm, O_RDWR, 0);
		void *m;

		if (fd < 0)
			return eel_err(-errno, "softnic: cannot open the peer's wire %s: %s", p.shm, strerror(errno));
		m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		close(fd);
		if (m == MAP_FAILED)
			return eel_err(-ENOMEM, "softnic: cannot map the peer's wire");
		if (sn_wire_attach(&sn->wire, m, size, 1, &sn->faults)) {
			munmap(m, size);
			return eel_err(-EPROTO, "softnic: the peer's wire %s is not a wire of this version", p.shm);
		}
		((struct sn_shm *)m)->pid[1] = getpid();
		rc = eel_oob_send(oob, SN_OOB_ATTACHED, NULL, 0);
	} else {
		/* The client has mapped the wire: its name is no longer needed. */
		rc = eel_oob_recv(oob, SN_OOB_ATTACHED, NULL, 0, &got, dev->opts.timeout_ms, NULL);
		shm_unlink(sn->shm_name);
		sn->shm_name[0] = 0;
	}
	if (rc)
		return rc;
	__atomic_store_n(&sn->bar->ctrl, EEL_FW_CTRL_ENABLE | EEL_FW_CTRL_LINK, __ATOMIC_RELEASE);
	return 0;
}

/* ---- memory regions ---- */

static int sn_mr_reg(struct eel_dev *dev, struct eel_mr *mr, unsigned access)
{
	struct softnic *sn = SN(dev);

	for (uint32_t i = 1; i < SN_MR_ENTRIES; i++) {
		struct eel_fw_mr *e = &sn->mrt[i];
		uint32_t tag;

		if (e->access & EEL_FW_MR_VALID)
			continue;
		tag = (++sn->mr_tag * 167u + 13u) & 0xff;
		e->addr = (uintptr_t)mr->addr;
		e->len = mr->len;
		e->tag = tag;
		__atomic_store_n(&e->access, EEL_FW_MR_VALID | EEL_FW_MR_LOCAL_READ |
			(access & EEL_ACCESS_REMOTE_WRITE ? EEL_FW_MR_REMOTE_WRITE : 0) |
			(access & EEL_ACCESS_REMOTE_READ ? EEL_FW_MR_REMOTE_READ : 0), __ATOMIC_RELEASE);
		__atomic_add_fetch(&sn->bar->mr_gen, 1, __ATOMIC_RELEASE);
		mr->lkey = EEL_FW_KEY(i, tag);
		mr->win.addr = (uintptr_t)mr->addr;
		mr->win.len = mr->len;
		mr->win.rkey = mr->lkey;
		return 0;
	}
	return eel_err(-ENOSPC, "softnic: all %u memory regions are in use: deregister some", SN_MR_ENTRIES - 1);
}

static int sn_mr_dereg(struct eel_dev *dev, struct eel_mr *mr)
{
	struct softnic *sn = SN(dev);
	uint32_t i = EEL_FW_KEY_INDEX(mr->lkey);

	if (i == 0 || i >= SN_MR_ENTRIES)
		return eel_err(-EINVAL, "softnic: not a region of this NIC");
	__atomic_store_n(&sn->mrt[i].access, 0, __ATOMIC_RELEASE);
	__atomic_add_fetch(&sn->bar->mr_gen, 1, __ATOMIC_RELEASE);
	return 0;
}

/* ---- data ---- */

static int sn_put(struct eel_dev *dev, const struct eel_mr *lmr, const void *src, size_t len,
		  const struct eel_window *dst, uint64_t dst_off, unsigned flags, uint64_t wr_id, uint32_t imm)
{
	struct softnic *sn = SN(dev);
	int traced = sn->stamp_every && sn->puts++ % sn->stamp_every == 0;
	uint64_t t_post = traced ? eel_stamp() : 0, t_db = 0;
	struct eel_fw_sqe *d;
	struct eel_trace *rec = NULL;

	if (flags & ~(unsigned)(EEL_PUT_SIGNALED | EEL_PUT_INLINE | EEL_PUT_NOTIFY))
		return eel_err(-EINVAL, "eel_put: unknown flags 0x%x", flags);
	if (len > dev->caps.max_put)
		return eel_err(-EMSGSIZE, "eel_put: %zu bytes is more than this NIC's largest put (%llu)",
			       len, (unsigned long long)dev->caps.max_put);
	if (flags & EEL_PUT_INLINE) {
		if (len > EEL_FW_MAX_INLINE)
			return eel_err(-EINVAL, "eel_put: %zu bytes inline, this NIC carries at most %u",
				       len, EEL_FW_MAX_INLINE);
	} else if (!lmr || (const char *)src < (const char *)lmr->addr ||
		   (size_t)((const char *)src - (const char *)lmr->addr) > lmr->len ||
		   len > lmr->len - (size_t)((const char *)src - (const char *)lmr->addr)) {
		return eel_err(-EINVAL, "eel_put: the source (%zu bytes at %p) is not inside the local region "
			       "given: register it, or pass EEL_PUT_INLINE for small puts", len, src);
	}
	if (__builtin_expect(sn->status->error != 0, 0))
		return conn_error(sn);
	if (sn->sq_prod - sn->sq_cons_seen >= sn->sq_depth) {
		sn->sq_cons_seen = __atomic_load_n(&sn->status->sq_cons, __ATOMIC_ACQUIRE);
		if (sn->sq_prod - sn->sq_cons_seen >= sn->sq_depth)
			return eel_err(-EAGAIN, "send queue full (%u puts in flight): poll, then post again",
				       sn->sq_depth);
	}
	if ((flags & EEL_PUT_SIGNALED) && sn->signaled_out >= sn->sq_depth)
		return eel_err(-EAGAIN, "%u signalled puts not yet polled: poll their completions first",
			       sn->signaled_out);

	d = &sn->sq[sn->sq_prod & (sn->sq_depth - 1)];
	d->opcode = EEL_FW_OP_PUT;
	d->flags = (uint8_t)((flags & EEL_PUT_SIGNALED ? EEL_FW_SQE_SIGNALED : 0) |
			     (flags & EEL_PUT_INLINE ? EEL_FW_SQE_INLINE : 0) |
			     (flags & EEL_PUT_NOTIFY ? EEL_FW_SQE_NOTIFY : 0));
	d->len = (uint32_t)len;
	d->wr_id = wr_id;
	d->laddr = (uintptr_t)src;
	d->lkey = lmr ? lmr->lkey : 0;
	d->rkey = dst->rkey;
	d->raddr = dst->addr + dst_off;
	d->imm = imm;
	if (flags & EEL_PUT_INLINE)
		memcpy(d->inline_data, src, len);
	if (flags & EEL_PUT_SIGNALED)
		sn->signaled_out++;
	if (traced) {
		uint32_t slot = sn->tx_trace_next++ & (SN_TRACE_RECS - 1);

		rec = &sn->trace[slot];
		memset(rec, 0, sizeof(*rec));
		rec->t[EEL_ST_POST] = t_post;
		d->flags |= EEL_FW_SQE_TRACE;
		d->trace = slot;
		t_db = eel_stamp();
	}
	/* The doorbell: one store of the new producer index to BAR0. */
	__atomic_store_n(&sn->bar->sq_doorbell, ++sn->sq_prod, __ATOMIC_RELEASE);
	if (sn->doorbell_cycles)
		eel_spin_cycles(sn->doorbell_cycles);
	if (rec) {
		rec->t[EEL_ST_DOORBELL] = t_db;
		rec->t[EEL_ST_DOORBELL_DONE] = eel_stamp();
	}
	kick(sn);
	return 0;
}

static int sn_poll(struct eel_dev *dev, struct eel_cqe *out, int max)
{
	struct softnic *sn = SN(dev);
	int n = 0;

	if (sn->mode == SN_INLINE)
		fw_step(&sn->fw);
	while (n < max) {
		struct eel_fw_cqe *e = &sn->cq[sn->cq_cons & (sn->cq_size - 1)];
		uint32_t owner = (uint32_t)(((sn->cq_cons / sn->cq_size) + 1) & 1);

		if (__atomic_load_n(&e->owner, __ATOMIC_ACQUIRE) != owner)
			break;
		out[n].wr_id = e->wr_id;
		out[n].len = e->len;
		out[n].imm = e->imm;
		out[n].status = cqe_status(e->status);
		out[n].kind = e->opcode == EEL_FW_CQE_NOTIFY ? EEL_CQE_NOTIFY : EEL_CQE_PUT;
		out[n].msg_id = e->msg_id;
		if (e->opcode == EEL_FW_CQE_PUT) {
			if (sn->signaled_out)
				sn->signaled_out--;
			if (e->trace)
				sn->trace[(e->trace - 1) & (SN_TRACE_RECS - 1)].t[EEL_ST_COMPLETE] = eel_stamp();
		}
		if (out[n].status)
			eel_err(out[n].status, "put %llu (message %u) failed: %s",
				(unsigned long long)e->wr_id, e->msg_id, eel_strerror(out[n].status));
		sn->cq_cons++;
		n++;
	}
	if (n)
		__atomic_store_n(&sn->bar->cq_doorbell, sn->cq_cons, __ATOMIC_RELEASE);
	return n;
}

/* The receiving host saw a put: stamp DETECT on its trace record, when the
 * last message delivered here was traced and not yet detected. */
static void detected(struct softnic *sn)
{
	uint64_t last = __atomic_load_n(&sn->status->last_rx, __ATOMIC_ACQUIRE);

	if (last & EEL_FW_LAST_RX_TRACED) {
		uint32_t slot = (uint32_t)(last >> 32) & (SN_TRACE_RECS - 1);
		struct eel_trace *r = &sn->trace[SN_TRACE_RECS + slot];

		if (!r->t[EEL_ST_DETECT] && r->msg_id == (uint32_t)last)
			r->t[EEL_ST_DETECT] = eel_stamp();
	}
}

static int sn_wait_u64(struct eel_dev *dev, const volatile uint64_t *addr, uint64_t value)
{
	struct softnic *sn = SN(dev);
	struct eel_wait w;
	int rc;

	if (*addr == value)
		goto seen;
	eel_wait_start(dev, &w, "waiting for a put to land");
	for (;;) {
		step(sn);
		if (*addr == value)
			goto seen;
		if (__builtin_expect(!(++w.spins & 255), 0)) {
			if ((rc = eel_wait_slow(dev, &w)) || (rc = conn_error(sn)))
				return rc;
		}
	}
seen:
	if (sn->stamp_every)
		detected(sn);
	return 0;
}

static int ereg_done(struct softnic *sn, uint32_t i)
{
	uint32_t s = __atomic_load_n(&sn->bar->ereg[i].status, __ATOMIC_ACQUIRE);

	return (s >> 8) == sn->ereg_seq[i] && (s & EEL_FW_EREG_DONE);
}

/* The E-register's last answer as an error code (0 when it succeeded). */
static int ereg_result(struct softnic *sn, uint32_t i)
{
	uint32_t s = sn->bar->ereg[i].status;

	if (!sn->ereg_seq[i] || (s & 0x7f) == EEL_FW_OK)
		return 0;
	if ((s & 0x7f) == EEL_FW_ERR_FLUSHED)
		return conn_error(sn) ? conn_error(sn) : eel_err(-ECANCELED, "E-register operation flushed");
	return eel_err(cqe_status((uint8_t)(s & 0x7f)), "E-register operation failed: %s",
		       eel_strerror(cqe_status((uint8_t)(s & 0x7f))));
}

static int ereg_wait(struct eel_dev *dev, uint32_t i, const char *what)
{
	struct softnic *sn = SN(dev);
	struct eel_wait w;
	int rc;

	eel_wait_start(dev, &w, what);
	while (!ereg_done(sn, i)) {
		step(sn);
		if ((rc = eel_wait_check(dev, &w)))
			return rc;
	}
	return 0;
}

/* Issue an E-register command: operands, then the command with a fresh
 * sequence number, then the E-register doorbell (fw_abi.h, struct eel_fw_ereg). */
static int ereg_issue(struct eel_dev *dev, uint32_t op, const struct eel_window *win, uint64_t off,
		      uint64_t value, uint32_t *reg)
{
	struct softnic *sn = SN(dev);
	uint32_t i = sn->ereg_next++ % EEL_FW_EREGS;
	struct eel_fw_ereg *r = &sn->bar->ereg[i];
	int rc;

	if (sn->status->error)
		return conn_error(sn);
	if (sn->ereg_seq[i] && !ereg_done(sn, i) && (rc = ereg_wait(dev, i, "waiting for a free E-register")))
		return rc;
	if ((rc = ereg_result(sn, i)))
		return rc;
	sn->ereg_seq[i] = (sn->ereg_seq[i] + 1) & 0xffffff;
	if (!sn->ereg_seq[i])
		sn->ereg_seq[i] = 1;
	r->value = value;
	r->raddr = win->addr + off;
	r->rkey = win->rkey;
	__atomic_store_n(&r->cmd, sn->ereg_seq[i] << 8 | op, __ATOMIC_RELEASE);
	__atomic_store_n(&sn->bar->ereg_doorbell, ++sn->ereg_db, __ATOMIC_RELEASE);
	*reg = i;
	kick(sn);
	return 0;
}

static int sn_eput(struct eel_dev *dev, const struct eel_window *dst, uint64_t off, uint64_t v)
{
	uint32_t i;

	return ereg_issue(dev, EEL_FW_EREG_PUT, dst, off, v, &i);
}

static int sn_eget(struct eel_dev *dev, const struct eel_window *src, uint64_t off, uint64_t *v)
{
	struct softnic *sn = SN(dev);
	uint32_t i;
	int rc = ereg_issue(dev, EEL_FW_EREG_GET, src, off, 0, &i);

	if (!rc)
		rc = ereg_wait(dev, i, "eel_eget: waiting for the value");
	if (!rc)
		rc = ereg_result(sn, i);
	if (!rc)
		*v = __atomic_load_n(&sn->bar->ereg[i].value, __ATOMIC_ACQUIRE);
	return rc;
}

static int sn_quiet(struct eel_dev *dev)
{
	struct softnic *sn = SN(dev);
	struct eel_wait w;
	int rc;

	eel_wait_start(dev, &w, "eel_quiet: waiting for puts to be delivered");
	for (;;) {
		uint32_t busy = 0;

		for (uint32_t i = 0; i < EEL_FW_EREGS; i++)
			busy |= sn->ereg_seq[i] && !ereg_done(sn, i);
		if (!busy && __atomic_load_n(&sn->status->sq_cons, __ATOMIC_ACQUIRE) == sn->sq_prod)
			break;
		if ((rc = conn_error(sn)))
			return rc;
		step(sn);
		if ((rc = eel_wait_check(dev, &w)))
			return rc;
	}
	for (uint32_t i = 0; i < EEL_FW_EREGS; i++)
		if ((rc = ereg_result(sn, i)))
			return rc;
	return conn_error(sn);
}

static int sn_progress(struct eel_dev *dev)
{
	struct softnic *sn = SN(dev);

	if (sn->mode != SN_INLINE)
		return 0;
	fw_step(&sn->fw);
	return 1;
}

static void sn_set_stamp_every(struct eel_dev *dev, uint32_t every)
{
	SN(dev)->stamp_every = every;
}

static int sn_trace_drain(struct eel_dev *dev, enum eel_trace_dir dir, struct eel_trace *out, int max)
{
	struct softnic *sn = SN(dev);
	int n = 0;

	if (dir == EEL_TRACE_TX) {
		if (sn->tx_trace_next - sn->tx_drain > SN_TRACE_RECS)
			sn->tx_drain = sn->tx_trace_next - SN_TRACE_RECS; /* older ones were reused */
		while (n < max && sn->tx_drain != sn->tx_trace_next) {
			struct eel_trace *r = &sn->trace[sn->tx_drain & (SN_TRACE_RECS - 1)];

			if (!__atomic_load_n(&r->valid, __ATOMIC_ACQUIRE))
				break;
			out[n++] = *r;
			sn->tx_drain++;
		}
		return n;
	}
	while (n < max) {
		struct eel_trace *r = &sn->trace[SN_TRACE_RECS + (sn->rx_drain & (SN_TRACE_RECS - 1))];

		if (!__atomic_load_n(&r->valid, __ATOMIC_ACQUIRE))
			break;
		out[n++] = *r;
		__atomic_store_n(&r->valid, 0, __ATOMIC_RELEASE);
		sn->rx_drain++;
	}
	return n;
}

static int sn_counters(struct eel_dev *dev, struct eel_counter *out, int max)
{
	struct softnic *sn = SN(dev);
	int n = 0;

	for (int i = 0; i < EEL_FW_COUNTERS && n < max; i++, n++) {
		out[n].name = fw_counter_names[i];
		out[n].value = __atomic_load_n(&sn->bar->counters[i], __ATOMIC_ACQUIRE);
	}
	for (int i = 0; i < SN_COUNTERS && n < max; i++, n++) {
		out[n].name = wire_counter_names[i];
		out[n].value = sn->wire.cnt[i];
	}
	return n;
}

const struct eel_backend eel_backend_softnic = {
	.scheme = "softnic",
	.open = sn_open,
	.close = sn_close,
	.conn_info = sn_conn_info,
	.connect = sn_connect,
	.mr_reg = sn_mr_reg,
	.mr_dereg = sn_mr_dereg,
	.put = sn_put,
	.eput = sn_eput,
	.eget = sn_eget,
	.poll = sn_poll,
	.quiet = sn_quiet,
	.wait_u64 = sn_wait_u64,
	.progress = sn_progress,
	.set_stamp_every = sn_set_stamp_every,
	.trace_drain = sn_trace_drain,
	.counters = sn_counters,
};
