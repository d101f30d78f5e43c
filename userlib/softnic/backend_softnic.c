/* SPDX-License-Identifier: MIT */
/* userlib/softnic/backend_softnic.c — the built-in software NIC: eel's firmware
 * (hosted by the engine, userlib/engine/engine.h) on a shared-memory wire between
 * two processes of this machine (userlib/softnic/wire_shm.h).
 *
 * URI: softnic[:inline|:thread][?options]
 *   inline (default): the firmware runs on the caller's thread, once at each
 *   doorbell and whenever it polls or waits; thread: on a thread of its own
 *   emulate a slower NIC (ns): doorbell_ns fetch_ns payload_ns tx_ns wire_ns rx_ns dma_ns
 *   a bad wire (probability 0..1): drop dup reorder corrupt, and seed
 *   mtu (payload bytes per packet), rto_us (retransmission timeout),
 *   recovery=gbn|sr (go-back-N or selective repeat, firmware/wire.h),
 *   oversubscribe=1 (thread mode on too few cores), fw_cpu (pin the firmware)
 *
 * Connecting: the server end creates the wire in /dev/shm and sends its name
 * over the out-of-band channel; the client maps it and says so; the server
 * then unlinks the name, so nothing is left behind.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "userlib/core/backends.h"
#include "userlib/engine/engine.h"
#include "userlib/softnic/wire_shm.h"

#define SN_CONN_MAGIC 0x4e534e53u /* "SNSN" */
#define SN_OOB_ATTACHED 3

struct softnic {
	struct shm_wire wire;
	char shm_name[64];
	int shm_owner;      /* this end created the name (and unlinks it) */
};

/* What an end tells its peer to connect (sent as is over the OOB channel). */
struct sn_conn {
	uint32_t magic;
	uint32_t wire_version;
	struct engine_conn engine;
	int32_t pid;
	char boot_id[40];   /* the shared wire needs both ends on one running kernel */
	char shm[64];       /* the server's wire object */
};

static struct softnic *SOFTNIC(struct eel_dev *dev)
{
	return ENGINE(dev)->backend;
}

static void sn_release(struct engine *e)
{
	struct softnic *sn = e->backend;

	if (sn->wire.shm)
		munmap(sn->wire.shm, sn->wire.shm_len);
	if (sn->shm_owner && sn->shm_name[0])
		shm_unlink(sn->shm_name);
	free(sn);
}

static void sn_close(struct eel_dev *dev)
{
	engine_close(dev, sn_release);
}

static int sn_open(struct eel_dev *dev, struct eel_uri *u)
{
	struct engine *e = calloc(1, sizeof(*e));
	struct eel_caps *c = &dev->caps;
	int rc;

	if (!e)
		return eel_err(-ENOMEM, "softnic: out of memory");
	dev->priv = e;
	e->backend = calloc(1, sizeof(struct softnic));
	if (!e->backend) {
		rc = eel_err(-ENOMEM, "softnic: out of memory");
		goto fail;
	}
	/* Both ends of a softnic pair are on this machine: 4 busy threads. */
	if ((rc = engine_parse(e, dev, u, u->path, 4)) || (rc = eel_uri_check_unused(u, ENGINE_OPTIONS)) ||
	    (rc = engine_start(e)))
		goto fail;
	snprintf(c->backend, sizeof(c->backend), "softnic");
	snprintf(c->name, sizeof(c->name), "softnic:%s", e->mode == ENGINE_THREAD ? "thread" : "inline");
	engine_caps(e, c);
	c->flags |= EEL_CAP_NIC_CLOCK | EEL_CAP_SHARED_CLOCK;
	if (e->bus_on) {
		snprintf(c->doorbell, sizeof(c->doorbell), "store to the BAR page, a posted write on the model bus");
		snprintf(c->attach, sizeof(c->attach), "software NIC on model bus %.30s", e->bus.name);
	} else {
		snprintf(c->doorbell, sizeof(c->doorbell), "store to the BAR page (shared memory, no bus)");
		snprintf(c->attach, sizeof(c->attach), "software NIC in host memory (no bus)");
	}
	snprintf(c->clock, sizeof(c->clock), "host %s (the firmware's clock)", eel_clock()->source);
	return 0;
fail:
	sn_close(dev);
	return rc;
}

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

/* The server end creates the wire; the client joins it in sn_connect. */
static int create_wire(struct engine *e, struct softnic *sn)
{
	static unsigned counter;
	size_t size = shm_wire_size(engine_max_frame(e));
	void *p;
	int fd;

	snprintf(sn->shm_name, sizeof(sn->shm_name), "/eel-wire-%d-%u", (int)getpid(), counter++);
	fd = shm_open(sn->shm_name, O_RDWR | O_CREAT | O_EXCL, 0600);
	if (fd < 0)
		return eel_err(-errno, "softnic: cannot create the wire %s in /dev/shm: %s", sn->shm_name,
			       strerror(errno));
	sn->shm_owner = 1;
	if (ftruncate(fd, (off_t)size)) {
		close(fd);
		return eel_err(-errno, "softnic: cannot size the wire (%zu bytes): %s", size, strerror(errno));
	}
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return eel_err(-ENOMEM, "softnic: cannot map the wire");
	shm_wire_format(p, engine_max_frame(e));
	((struct shm_wire_hdr *)p)->pid[0] = getpid();
	if (shm_wire_attach(&sn->wire, p, size, 0)) {
		munmap(p, size);
		return eel_err(-EIO, "softnic: cannot set up the wire");
	}
	return 0;
}

static int sn_conn_info(struct eel_dev *dev, int server, void *buf, uint32_t cap, uint32_t *len)
{
	struct engine *e = ENGINE(dev);
	struct softnic *sn = SOFTNIC(dev);
	struct sn_conn c = { .magic = SN_CONN_MAGIC, .wire_version = SHM_WIRE_VERSION, .pid = getpid() };
	int rc;

	engine_conn_info(e, &c.engine);
	boot_id(c.boot_id, sizeof(c.boot_id));
	if (server) {
		if ((rc = create_wire(e, sn)))
			return rc;
		snprintf(c.shm, sizeof(c.shm), "%s", sn->shm_name);
	}
	if (cap < sizeof(c))
		return eel_err(-EINVAL, "softnic: connection info does not fit");
	memcpy(buf, &c, sizeof(c));
	*len = sizeof(c);
	return 0;
}

static int join_wire(struct engine *e, struct softnic *sn, const char *name)
{
	size_t size = shm_wire_size(engine_max_frame(e));
	int fd = shm_open(name, O_RDWR, 0);
	void *m;

	if (fd < 0)
		return eel_err(-errno, "softnic: cannot open the peer's wire %s: %s", name, strerror(errno));
	m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return eel_err(-ENOMEM, "softnic: cannot map the peer's wire");
	if (shm_wire_attach(&sn->wire, m, size, 1)) {
		munmap(m, size);
		return eel_err(-EPROTO, "softnic: the peer's wire %s is not a wire of this version", name);
	}
	((struct shm_wire_hdr *)m)->pid[1] = getpid();
	return 0;
}

static int sn_connect(struct eel_dev *dev, int server, const void *peer, uint32_t len, struct eel_oob *oob)
{
	struct engine *e = ENGINE(dev);
	struct softnic *sn = SOFTNIC(dev);
	struct sn_conn p;
	char mine[40];
	uint32_t got = 0;
	int rc;

	if (len != sizeof(p))
		return eel_err(-EPROTO, "the peer is not a softnic (connection info of %u bytes): both ends "
			       "must use the same kind of NIC", len);
	memcpy(&p, peer, sizeof(p));
	p.boot_id[sizeof(p.boot_id) - 1] = p.shm[sizeof(p.shm) - 1] = 0;
	boot_id(mine, sizeof(mine));
	if (p.magic != SN_CONN_MAGIC || p.wire_version != SHM_WIRE_VERSION)
		return eel_err(-EPROTO, "the peer is not a softnic of this version: use the same eel and the "
			       "same NIC on both ends");
	if (strcmp(p.boot_id, mine))
		return eel_err(-EXDEV, "softnic peers must run on one machine (the wire is shared memory): "
			       "between two hosts use verbs:<ibdev> or dpdk:<port>");
	if (p.engine.mtu != e->mtu)
		return eel_err(-EINVAL, "softnic mtu differs: %u here, %u at the peer: give both the same mtu=",
			       e->mtu, p.engine.mtu);
	if (!server) {
		if ((rc = join_wire(e, sn, p.shm)))
			return rc;
		rc = eel_oob_send(oob, SN_OOB_ATTACHED, NULL, 0);
	} else {
		/* The client has mapped the wire: its name is no longer needed. */
		rc = eel_oob_recv(oob, SN_OOB_ATTACHED, NULL, 0, &got, dev->opts.timeout_ms, NULL);
		shm_unlink(sn->shm_name);
		sn->shm_name[0] = 0;
	}
	if (rc)
		return rc;
	return engine_link_up(e, (struct wire){ &shm_wire_ops, &sn->wire }, &p.engine);
}

const struct eel_backend eel_backend_softnic = {
	.scheme = "softnic",
	.open = sn_open,
	.close = sn_close,
	.conn_info = sn_conn_info,
	.connect = sn_connect,
	ENGINE_DATA_OPS, /* the firmware's data path (engine.h); eel_floor: the bare echo on this wire */
	.progress = engine_progress,
	.trace_drain = engine_trace_drain,
	.counters = engine_counters,
};
