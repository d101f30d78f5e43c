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
 *   recovery=gbn|sr (go-back-N or selective repeat, firmware/pkt.h),
 *   oversubscribe=1 (thread mode on too few cores), fw_cpu (pin the firmware)
 *
 * Connecting: both ends exchange their connection information (struct
 * sn_conn); once the client's has been checked, the server creates the wire
 * in /dev/shm under a random name (wire_name.c) and sends the name over the
 * out-of-band channel (SN_OOB_WIRE); the client checks the object before it
 * maps it, removes the name and says so (SN_OOB_ATTACHED); the server removes
 * the name too. The name lives only until the client has attached, so a
 * SIGKILL of either end after that leaves nothing behind.
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
#include "userlib/softnic/wire_name.h"
#include "userlib/softnic/wire_shm.h"

#define SN_CONN_MAGIC 0x4e534e53u /* "SNSN" */
#define SN_OOB_ATTACHED 3
#define SN_OOB_WIRE 4     /* the server's wire name (struct sn_wire) */

struct softnic {
	struct shm_wire wire;
	char shm_name[WIRE_NAME_MAX]; /* the wire's name until the client attached */
	uint64_t nonce;               /* the client's: the wire's names come from it (wire_name.c) */
};

/* What an end tells its peer to connect (sent as is over the OOB channel). */
struct sn_conn {
	uint32_t magic;
	uint32_t wire_version;
	struct engine_conn engine;
	int32_t pid;
	char boot_id[40];   /* the shared wire needs both ends on one running kernel */
	uint64_t nonce;     /* the client's: the server names the wire from it (wire_name.c) */
};

/* The server's wire, sent once the client's connection info was checked. */
struct sn_wire {
	char name[WIRE_NAME_MAX];
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
	wire_name_remove(sn->shm_name);
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
static int create_wire(struct engine *e, struct softnic *sn, uint64_t nonce)
{
	size_t size = shm_wire_size(engine_max_frame(e));
	int fd = wire_name_create(nonce, sn->shm_name, size);
	void *p;

	if (fd < 0)
		return fd;
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
	struct sn_conn c = { .magic = SN_CONN_MAGIC, .wire_version = SHM_WIRE_VERSION, .pid = getpid() };
	int rc;

	(void)server;
	if ((rc = wire_name_nonce(&SOFTNIC(dev)->nonce)))
		return rc;
	c.nonce = SOFTNIC(dev)->nonce;
	engine_conn_info(e, &c.engine);
	boot_id(c.boot_id, sizeof(c.boot_id));
	if (cap < sizeof(c))
		return eel_err(-EINVAL, "softnic: connection info does not fit");
	memcpy(buf, &c, sizeof(c));
	*len = sizeof(c);
	return 0;
}

/* The client maps the wire the server named, once it has checked the object
 * (wire_name_open_peer) and the header (shm_wire_attach): a peer that names
 * a file of the wrong size, owner or kind gets a message, never a SIGBUS. */
static int join_wire(struct engine *e, struct softnic *sn, const char *name)
{
	size_t size = shm_wire_size(engine_max_frame(e));
	int fd = wire_name_open_peer(name, sn->nonce, size);
	struct shm_wire_hdr *m;

	if (fd < 0)
		return fd;
	m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return eel_err(-ENOMEM, "softnic: cannot map the peer's wire");
	if (m->max_frame != engine_max_frame(e) || shm_wire_attach(&sn->wire, m, size, 1)) {
		munmap(m, size);
		return eel_err(-EPROTO, "softnic: the peer's wire /dev/shm%s is not a wire of this version and mtu (its header is wrong)", name);
	}
	m->pid[1] = getpid();
	return 0;
}

/* Server: the wire is made only now, for a client whose connection info
 * passed, and its name exists until the client attached (or failed to). */
static int serve_wire(struct eel_dev *dev, struct engine *e, struct softnic *sn, struct eel_oob *oob,
		      uint64_t nonce)
{
	struct sn_wire w = { { 0 } };
	uint32_t got = 0;
	int rc = create_wire(e, sn, nonce);

	if (!rc) {
		memcpy(w.name, sn->shm_name, sizeof(w.name));
		rc = eel_oob_send(oob, SN_OOB_WIRE, &w, sizeof(w));
	}
	if (!rc)
		rc = eel_oob_recv(oob, SN_OOB_ATTACHED, NULL, 0, &got, dev->opts.timeout_ms, NULL);
	wire_name_remove(sn->shm_name); /* on every path: attached, failed or silent */
	return rc;
}

/* Client: the name from the server, checked, joined, removed, acknowledged. */
static int join_served_wire(struct eel_dev *dev, struct engine *e, struct softnic *sn, struct eel_oob *oob)
{
	struct sn_wire w;
	int rc = eel_oob_recv(oob, SN_OOB_WIRE, &w, sizeof(w), NULL, dev->opts.timeout_ms, NULL);

	if (rc) {
		/* the server went away (or never said): whatever it made under
		 * this end's nonce is removed here, even after its SIGKILL */
		wire_name_forget(sn->nonce);
		return rc;
	}
	w.name[sizeof(w.name) - 1] = 0;
	if ((rc = join_wire(e, sn, w.name))) {
		wire_name_forget(sn->nonce);
		return rc;
	}
	/* mapped: the name is no longer needed, and removing it here too means
	 * a server killed before it could leaves nothing behind */
	shm_unlink(w.name);
	return eel_oob_send(oob, SN_OOB_ATTACHED, NULL, 0);
}

static int sn_connect(struct eel_dev *dev, int server, const void *peer, uint32_t len, struct eel_oob *oob)
{
	struct engine *e = ENGINE(dev);
	struct softnic *sn = SOFTNIC(dev);
	struct sn_conn p;
	char mine[40];
	int rc;

	if (len != sizeof(p))
		return eel_err(-EPROTO, "the peer is not a softnic (connection info of %u bytes): both ends "
			       "must use the same kind of NIC", len);
	memcpy(&p, peer, sizeof(p));
	p.boot_id[sizeof(p.boot_id) - 1] = 0;
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
	rc = server ? serve_wire(dev, e, sn, oob, p.nonce) : join_served_wire(dev, e, sn, oob);
	if (rc)
		return rc;
	return engine_link_up(e, (struct wire){ .ops = &shm_wire_ops, .ctx = &sn->wire }, &p.engine);
}

/* eel_nic_info: the software NIC is eel's own firmware, so its firmware's
 * version is the commit libeel was built from, and its ABI the one the
 * firmware wrote into BAR0 (fw_abi.h). */
static int sn_nic_info(struct eel_dev *dev, struct eel_nic_info *info)
{
	engine_nic_info(ENGINE(dev), info);
	snprintf(info->driver, sizeof(info->driver), "eel firmware");
	snprintf(info->driver_from, sizeof(info->driver_from), "built into libeel (firmware/)");
	snprintf(info->fw_version, sizeof(info->fw_version), "eel %s", info->eel_commit);
	/* as caps.attach says it: a model bus, or none */
	if (ENGINE(dev)->bus_on)
		snprintf(info->bus_info, sizeof(info->bus_info), "model bus %.30s (shared memory)",
			 ENGINE(dev)->bus.name);
	else
		snprintf(info->bus_info, sizeof(info->bus_info), "shared memory (no bus)");
	snprintf(info->stack, sizeof(info->stack), "eel");
	snprintf(info->stack_version, sizeof(info->stack_version), "%s", EEL_VERSION);
	snprintf(info->stack_built, sizeof(info->stack_built), "%s", EEL_VERSION);
	snprintf(info->module_why, sizeof(info->module_why), "none: the software NIC needs no kernel module");
	return 0;
}

const struct eel_backend eel_backend_softnic = {
	.scheme = "softnic",
	.open = sn_open,
	.close = sn_close,
	.conn_info = sn_conn_info,
	.connect = sn_connect,
	ENGINE_DATA_PATH, /* the firmware's data path (engine.h) */
	.progress = engine_progress,
	.trace_drain = engine_trace_drain,
	.counters = engine_counters,
	.nic_info = sn_nic_info,
};
