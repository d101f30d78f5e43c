/* SPDX-License-Identifier: MIT */
/* userlib/core/eel.c — the public API: open a device by URI and pass every call
 * to its backend (userlib/core/dev.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "userlib/core/dev.h"
#include "userlib/core/registry.h"

void eel_opts_default(struct eel_opts *o)
{
	o->timeout_ms = 10000;
	o->stamp_every = 64;
	o->sq_depth = 256;
	o->backend_args = NULL;
	o->oversubscribe = 0;
}

int eel_open(const char *uri, const struct eel_opts *opts, struct eel_dev **out)
{
	struct eel_uri u;
	struct eel_dev *dev;
	const struct eel_backend *be = NULL;
	uint64_t v;
	int rc;

	if (!out)
		return eel_err(-EINVAL, "eel_open: out is NULL: pass the address of a struct eel_dev pointer");
	*out = NULL;
	if (!uri)
		return eel_err(-EINVAL, "eel_open: the NIC's URI is NULL: give one, e.g. \"softnic\"");
	rc = eel_uri_parse(uri, &u);
	if (rc)
		return rc;
	rc = eel_backend_by_scheme(u.scheme, uri, &be);
	if (rc)
		return rc;
	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return eel_err(-ENOMEM, "out of memory opening %s", uri);
	dev->be = be;
	if (opts)
		dev->opts = *opts;
	else
		eel_opts_default(&dev->opts);
	/* Options every backend takes. */
	if ((rc = eel_uri_u64(&u, "timeout_ms", 1, 3600000, &v)) < 0)
		goto fail;
	if (rc == 0)
		dev->opts.timeout_ms = (uint32_t)v;
	if ((rc = eel_uri_u64(&u, "stamp_every", 0, 1u << 20, &v)) < 0)
		goto fail;
	if (rc == 0)
		dev->opts.stamp_every = (uint32_t)v;
	if ((rc = eel_uri_u64(&u, "sq_depth", 16, 4096, &v)) < 0)
		goto fail;
	if (rc == 0)
		dev->opts.sq_depth = (uint32_t)v;
	/* the URI's bounds hold for struct eel_opts too */
	if (!dev->opts.timeout_ms) {
		rc = eel_err(-EINVAL, "bad options: timeout_ms is 0: give a timeout of 1 ms or more (the URI's "
			     "timeout_ms=)");
		goto fail;
	}
	if (dev->opts.sq_depth < 16 || dev->opts.sq_depth > 4096 || (dev->opts.sq_depth & (dev->opts.sq_depth - 1))) {
		rc = eel_err(-EINVAL, "bad options: sq_depth %u: give a power of two from 16 to 4096 (the URI's "
			     "sq_depth=)", dev->opts.sq_depth);
		goto fail;
	}
	if (dev->opts.backend_args && dev->opts.backend_args[0] && strcmp(be->scheme, "dpdk")) {
		rc = eel_err(-EINVAL, "backend arguments (\"%s\") are for dpdk: ports (EAL arguments); "
			     "%s takes none: drop them", dev->opts.backend_args, be->scheme);
		goto fail;
	}
	dev->timeout_cycles = (uint64_t)(eel_clock()->hz / 1000.0 * dev->opts.timeout_ms);
	rc = be->open(dev, &u);
	if (rc)
		goto fail;
	*out = dev;
	return 0;
fail:
	free(dev);
	return rc;
}

void eel_close(struct eel_dev *dev)
{
	if (!dev)
		return;
	dev->be->close(dev);
	free(dev);
}

const struct eel_caps *eel_caps(const struct eel_dev *dev)
{
	return &dev->caps;
}

int eel_conn_info(struct eel_dev *dev, int server, void *buf, uint32_t cap, uint32_t *len)
{
	if (dev->connected)
		return eel_err(-EISCONN, "this device is already connected: open another for a second peer");
	return dev->be->conn_info(dev, server, buf, cap, len);
}

int eel_connect_peer(struct eel_dev *dev, struct eel_oob *oob, int server, const void *peer, uint32_t len)
{
	int rc;

	if (server != eel_oob_is_server(oob))
		return eel_err(-EINVAL, "eel_connect_peer: this end's connection information was made for the %s "
			       "role, its out-of-band channel has the other: the end that accepted is the server",
			       server ? "server" : "client");
	if (len > EEL_CONN_INFO_MAX)
		return eel_err(-EPROTO, "the peer's connection information is %u bytes, more than %u: run the "
			       "same eel version on every end", len, EEL_CONN_INFO_MAX);
	rc = dev->be->connect(dev, server, peer, len, oob);
	if (rc)
		return rc;
	dev->oob = oob;
	dev->connected = 1;
	return 0;
}

/* The two steps with the information carried by oob itself. */
int eel_connect(struct eel_dev *dev, struct eel_oob *oob)
{
	enum { OOB_CONN = 2 };
	uint8_t mine[EEL_CONN_INFO_MAX], theirs[EEL_CONN_INFO_MAX];
	uint32_t n = 0, m = 0;
	int server, rc;

	if (!dev || !oob)
		return eel_err(-EINVAL, "eel_connect: the %s is NULL: open the NIC (eel_open) and its out-of-band "
			       "channel (eel_oob_listen and eel_oob_accept, or eel_oob_connect) first", dev ? "channel" : "NIC");
	server = eel_oob_is_server(oob);
	rc = eel_conn_info(dev, server, mine, sizeof(mine), &n);
	if (!rc)
		rc = eel_oob_send(oob, OOB_CONN, mine, n);
	if (!rc)
		rc = eel_oob_recv(oob, OOB_CONN, theirs, sizeof(theirs), &m, dev->opts.timeout_ms, NULL);
	return rc ? rc : eel_connect_peer(dev, oob, server, theirs, m);
}

int eel_mr_reg(struct eel_dev *dev, void *addr, size_t len, unsigned access, struct eel_mr **out)
{
	struct eel_mr *mr;
	int rc;

	if (!dev || !out)
		return eel_err(-EINVAL, "eel_mr_reg: no %s given", dev ? "place for the region (mr)" : "device");
	*out = NULL;
	if (!addr || !len)
		return eel_err(-EINVAL, "eel_mr_reg: empty region (address %p, %zu bytes)", addr, len);
	if (access & ~(unsigned)(EEL_ACCESS_REMOTE_WRITE | EEL_ACCESS_REMOTE_READ))
		return eel_err(-EINVAL, "eel_mr_reg: unknown access bits 0x%x", access);
	if ((uintptr_t)addr + len < (uintptr_t)addr)
		return eel_err(-EINVAL, "eel_mr_reg: %zu bytes at %p run past the end of the address space: give "
			       "the region's real length", len, addr);
	mr = calloc(1, sizeof(*mr));
	if (!mr)
		return eel_err(-ENOMEM, "eel_mr_reg: out of memory");
	mr->addr = addr;
	mr->len = len;
	rc = dev->be->mr_reg(dev, mr, access);
	if (rc) {
		free(mr);
		return rc;
	}
	*out = mr;
	return 0;
}

int eel_mr_dereg(struct eel_dev *dev, struct eel_mr *mr)
{
	int rc;

	if (!mr)
		return 0;
	if (!dev)
		return eel_err(-EINVAL, "eel_mr_dereg: no device given");
	/* a region of another device is refused there and stays registered */
	rc = dev->be->mr_dereg(dev, mr);
	if (!rc)
		free(mr);
	return rc;
}

static int need_link(struct eel_dev *dev, const char *call)
{
	if (dev->connected)
		return 0;
	return eel_err(-ENOTCONN, "%s: not connected: call eel_connect first", call);
}

int eel_put(struct eel_dev *dev, const struct eel_mr *lmr, const void *src, size_t len,
	    const struct eel_window *dst, uint64_t dst_off, unsigned flags, uint64_t wr_id, uint32_t imm)
{
	if (__builtin_expect(!dev->connected, 0))
		return need_link(dev, "eel_put");
	return dev->be->put(dev, lmr, src, len, dst, dst_off, flags, wr_id, imm);
}

int eel_eput(struct eel_dev *dev, const struct eel_window *dst, uint64_t off, uint64_t value)
{
	if (!dev->connected)
		return need_link(dev, "eel_eput");
	if (!dev->be->eput)
		return eel_err(-EOPNOTSUPP, "%s has no E-registers", dev->caps.name);
	return dev->be->eput(dev, dst, off, value);
}

int eel_eget(struct eel_dev *dev, const struct eel_window *src, uint64_t off, uint64_t *value)
{
	if (!dev->connected)
		return need_link(dev, "eel_eget");
	if (!value)
		return eel_err(-EINVAL, "eel_eget: no place for the value given");
	if (!dev->be->eget)
		return eel_err(-EOPNOTSUPP, "%s has no E-registers", dev->caps.name);
	return dev->be->eget(dev, src, off, value);
}

int eel_poll(struct eel_dev *dev, struct eel_cqe *cqe, int max)
{
	if (max < 0 || (max && !cqe))
		return eel_err(-EINVAL, "eel_poll: %s", max < 0 ? "max below 0" : "no place for the completions (cqe)");
	return dev->be->poll(dev, cqe, max);
}

int eel_quiet(struct eel_dev *dev)
{
	if (!dev->connected)
		return need_link(dev, "eel_quiet");
	return dev->be->quiet(dev);
}

int eel_wait_u64(struct eel_dev *dev, const volatile uint64_t *addr, uint64_t value)
{
	if (__builtin_expect(!dev->connected, 0))
		return need_link(dev, "eel_wait_u64");
	return dev->be->wait_u64(dev, addr, value);
}

int eel_progress(struct eel_dev *dev)
{
	return dev->be->progress ? dev->be->progress(dev) : 0;
}

int eel_peer_check(struct eel_dev *dev)
{
	if (dev->oob && eel_oob_peer_gone(dev->oob))
		return eel_err(-ECONNRESET, "the peer's process is gone (the %s: its out-of-band connection "
			       "closed): check the %s's output", eel_oob_peer_role(dev->oob),
			       eel_oob_peer_role(dev->oob));
	return 0;
}

int eel_floor(struct eel_dev *dev, int server, uint32_t iters, double *one_way_ns)
{
	if (!dev->connected)
		return need_link(dev, "eel_floor");
	if (!dev->be->floor)
		return eel_err(-EOPNOTSUPP, "%s has no carrier of its own to measure a bare echo on",
			       dev->caps.name);
	if (!iters || !one_way_ns)
		return eel_err(-EINVAL, "eel_floor: %s", iters ? "no place for the figure (one_way_ns)" : "zero iterations");
	return dev->be->floor(dev, server, iters, one_way_ns);
}

void eel_set_stamp_every(struct eel_dev *dev, uint32_t every)
{
	dev->opts.stamp_every = every;
	if (dev->be->set_stamp_every)
		dev->be->set_stamp_every(dev, every);
}

int eel_trace_drain(struct eel_dev *dev, enum eel_trace_dir dir, struct eel_trace *out, int max)
{
	if (max < 0 || (max && !out))
		return eel_err(-EINVAL, "eel_trace_drain: %s", max < 0 ? "max below 0" : "no place for the records (out)");
	if (!dev->be->trace_drain)
		return 0;
	return dev->be->trace_drain(dev, dir, out, max);
}

int eel_counters(struct eel_dev *dev, struct eel_counter *out, int max)
{
	if (max < 0 || (max && !out))
		return eel_err(-EINVAL, "eel_counters: %s", max < 0 ? "max below 0" : "no place for the counters (out)");
	if (!dev->be->counters)
		return 0;
	return dev->be->counters(dev, out, max);
}
