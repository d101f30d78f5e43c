/* SPDX-License-Identifier: MIT */
/* userlib/verbs/backend_verbs.c — any RDMA NIC rdma-core drives (mlx5, rxe, siw,
 * efa where it applies), through libibverbs: one RC queue pair per device.
 *
 * URI: verbs:<ibdev>[:port][?gid_index=N]
 *   ibdev      the device as `ibv_devices` names it (may be left out when there is one)
 *   port       the port, from 1 (default 1)
 *   gid_index  RoCE: the GID to use (default: RoCE v2 with an IPv4-mapped
 *              address, then any RoCE v2, then RoCE v1)
 *   spin_us    a blocking call spins this long, then naps between looks (1/64
 *              of the wait so far, 50 us to 1 ms: verbs_wait.c);
 *              0: spins for ever (default on NICs; 1000 on rxe and siw, whose
 *              RDMA work is done by the kernel on the hosts' own CPUs)
 *
 * Open: the device, its port and GID (verbs_dev.c); a protection domain; a
 * send and a receive CQ (verbs_cq.c: with the NIC's completion timestamps
 * where it has them); the QP (ibv_create_qp(3)), asking for as much inline
 * data as the device gives; a staging region for eget results and eput
 * sources. Connect: verbs_conn.c. Data: verbs_data.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rdma/rdma_cma.h>

#include "userlib/core/backends.h"
#include "userlib/verbs/verbs.h"

static void vb_close(struct eel_dev *dev)
{
	struct verbs *v = VERBS(dev);

	if (!v)
		return;
	if (v->rx_fd >= 0)
		close(v->rx_fd);
	vb_cm_close(v);
	if (v->qp)
		ibv_destroy_qp(v->qp);
	vb_cq_destroy(&v->scq);
	vb_cq_destroy(&v->rcq);
	if (v->stage_mr)
		ibv_dereg_mr(v->stage_mr);
	if (v->pd)
		ibv_dealloc_pd(v->pd);
	if (v->cm_devs)
		rdma_free_devices(v->cm_devs); /* iWARP: ctx was one of them */
	else if (v->ctx)
		ibv_close_device(v->ctx);
	free(v->stage);
	free(v->ring);
	free(v->pend);
	free(v->tx);
	free(v->rx);
	free(v);
	dev->priv = NULL;
}

/* The QP, with the most inline data the device takes (ibv_create_qp(3): on
 * return cap.max_inline_data holds what it gave). */
static int create_qp(struct verbs *v, uint32_t *max_inline)
{
	static const uint32_t tries[] = { 256, 128, 64, 32, 16, 8, 0 };
	int err = 0;

	for (size_t i = 0; i < sizeof(tries) / sizeof(tries[0]); i++) {
		struct ibv_qp_init_attr a;

		memset(&a, 0, sizeof(a));
		a.send_cq = v->scq.cq;
		a.recv_cq = v->rcq.cq;
		a.qp_type = IBV_QPT_RC;
		a.sq_sig_all = 0;
		a.cap.max_send_wr = v->sq_depth;
		a.cap.max_recv_wr = VB_RQ_DEPTH;
		a.cap.max_send_sge = 1;
		a.cap.max_recv_sge = 1;
		a.cap.max_inline_data = tries[i];
		v->qp = ibv_create_qp(v->pd, &a);
		if (v->qp) {
			*max_inline = a.cap.max_inline_data;
			return 0;
		}
		err = errno ? errno : ENOMEM;
	}
	return eel_err(-err, "cannot create an RC queue pair of %u entries on %s: %s (lower sq_depth=?)", v->sq_depth,
		       v->ibdev, strerror(err));
}

static uint32_t pow2_at_least(uint32_t n)
{
	uint32_t p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

static int alloc_state(struct verbs *v)
{
	v->ring = calloc(v->sq_depth, sizeof(*v->ring));
	v->pend_cap = pow2_at_least(v->sq_depth + VB_RQ_DEPTH);
	v->pend = calloc(v->pend_cap, sizeof(*v->pend));
	v->tx = calloc(VB_TRACE_RECS, sizeof(*v->tx));
	v->rx = calloc(VB_TRACE_RECS, sizeof(*v->rx));
	v->stage = aligned_alloc(4096, ((size_t)v->sq_depth * 8 + 4095) & ~(size_t)4095);
	if (!v->ring || !v->pend || !v->tx || !v->rx || !v->stage)
		return eel_err(-ENOMEM, "verbs: out of memory");
	memset(v->stage, 0, (size_t)v->sq_depth * 8);
	return 0;
}

static int vb_open(struct eel_dev *dev, struct eel_uri *u)
{
	struct verbs *v = calloc(1, sizeof(*v));
	struct eel_caps *c = &dev->caps;
	char ibdev[64];
	unsigned port;
	uint32_t max_inline = 0;
	uint64_t gi, spin_us = UINT64_MAX;
	int forced = -1, ts, rc;

	if (!v)
		return eel_err(-ENOMEM, "verbs: out of memory");
	dev->priv = v;
	v->rx_fd = -1;
	v->sq_depth = dev->opts.sq_depth;
	v->stamp_every = dev->opts.stamp_every;
	v->last_sig = UINT64_MAX;
	if ((rc = vb_parse_path(u->path, ibdev, sizeof(ibdev), &port)))
		goto fail;
	if ((rc = eel_uri_u64(u, "gid_index", 0, 255, &gi)) < 0)
		goto fail;
	if (rc == 0)
		forced = (int)gi;
	if ((rc = eel_uri_u64(u, "spin_us", 0, 10000000, &spin_us)) < 0)
		goto fail;
	if ((rc = eel_uri_check_unused(u, VB_OPTIONS)) || (rc = vb_open_device(v, ibdev, port)) ||
	    (rc = vb_choose_gid(v, forced)) || (rc = alloc_state(v)))
		goto fail;

	v->pd = ibv_alloc_pd(v->ctx);
	if (!v->pd) {
		rc = eel_err(-ENOMEM, "cannot allocate a protection domain on %s", v->ibdev);
		goto fail;
	}
	v->stage_mr = ibv_reg_mr(v->pd, v->stage, (size_t)v->sq_depth * 8, IBV_ACCESS_LOCAL_WRITE);
	if (!v->stage_mr) {
		rc = eel_err(-(errno ? errno : ENOMEM), "cannot register %u bytes on %s: %s (the locked-memory "
			     "limit? `ulimit -l`)", v->sq_depth * 8, v->ibdev, strerror(errno ? errno : ENOMEM));
		goto fail;
	}
	ts = vb_clock_start(v);
	if ((rc = vb_cq_create(v, &v->scq, (int)v->sq_depth + 16, ts)) < 0)
		goto fail;
	ts &= rc;
	if ((rc = vb_cq_create(v, &v->rcq, VB_RQ_DEPTH + 16, ts)) < 0)
		goto fail;
	v->clk.on = ts & rc;
	if ((rc = create_qp(v, &max_inline)))
		goto fail;
	v->max_inline = max_inline;
	if (v->iwarp) {
		/* that QP only asked how much inline data the device gives: on
		 * iWARP the connection's own is made on its rdma_cm id */
		ibv_destroy_qp(v->qp);
		v->qp = NULL;
	}
	if (spin_us == UINT64_MAX)
		spin_us = v->software ? VB_SPIN_US_SOFT : 0;
	v->spin_cycles = eel_ns_to_cycles(eel_clock(), (double)spin_us * 1000);
	vb_rx_counter_open(v);
	/* async events are looked at from the wait loops: never block on them */
	fcntl(v->ctx->async_fd, F_SETFL, fcntl(v->ctx->async_fd, F_GETFL) | O_NONBLOCK);
	/* a starting PSN of our own, not the program's random generator's */
	v->psn = (uint32_t)(((eel_cycles() ^ (uint64_t)getpid() << 20) * 0x9e3779b97f4a7c15ull) >> 40);

	snprintf(c->backend, sizeof(c->backend), "verbs");
	snprintf(c->name, sizeof(c->name), "%s", v->ibdev);
	/* rxe and siw do the RDMA work in the kernel, on the hosts' CPUs: one-sided
	 * for the program, but not in hardware (Bell et al. 2003 Table 1's sense). */
	c->flags = EEL_CAP_EREGS | EEL_CAP_RELIABLE_HW | (v->software ? 0 : EEL_CAP_ONESIDED_HW) |
		   (v->notify ? EEL_CAP_NOTIFY : 0) | (v->clk.on ? EEL_CAP_NIC_CLOCK : 0);
	c->max_inline = max_inline;
	c->max_put = v->max_msg ? v->max_msg : 1u << 30;
	c->mtu = vb_mtu_bytes(v->mtu);
	c->sq_depth = v->sq_depth;
	c->stamp_mask = 1u << EEL_ST_POST | 1u << EEL_ST_DOORBELL | 1u << EEL_ST_DOORBELL_DONE |
			1u << EEL_ST_DETECT | 1u << EEL_ST_COMPLETE | (v->clk.on ? 1u << EEL_ST_DMA_DONE : 0);
	c->nic_stamp_mask = v->clk.on ? 1u << EEL_ST_DMA_DONE : 0;
	vb_describe(v, c);
	return 0;
fail:
	vb_close(dev);
	return rc;
}

static int vb_mr_reg(struct eel_dev *dev, struct eel_mr *mr, unsigned access)
{
	struct verbs *v = VERBS(dev);
	int flags = IBV_ACCESS_LOCAL_WRITE | (access & EEL_ACCESS_REMOTE_WRITE ? IBV_ACCESS_REMOTE_WRITE : 0) |
		    (access & EEL_ACCESS_REMOTE_READ ? IBV_ACCESS_REMOTE_READ : 0);
	struct ibv_mr *m = ibv_reg_mr(v->pd, mr->addr, mr->len, flags);

	if (!m) {
		int e = errno ? errno : ENOMEM;

		return eel_err(-e, "cannot register %zu bytes at %p with %s: %s%s", mr->len, mr->addr, v->ibdev,
			       strerror(e), e == ENOMEM || e == EPERM ? " (the locked-memory limit? `ulimit -l`)" : "");
	}
	mr->priv = m;
	mr->lkey = m->lkey;
	mr->win.addr = (uintptr_t)mr->addr;
	mr->win.len = mr->len;
	mr->win.rkey = m->rkey;
	mr->win.rsvd = 0;
	return 0;
}

static int vb_mr_dereg(struct eel_dev *dev, struct eel_mr *mr)
{
	struct ibv_mr *m = mr->priv;
	int rc;

	/* a region of another device (its protection domain) stays registered there */
	if (!m || m->pd != VERBS(dev)->pd)
		return eel_err(-EINVAL, "eel_mr_dereg: not a region of %s: deregister it on the device that "
			       "registered it", VERBS(dev)->ibdev);
	rc = ibv_dereg_mr(m);
	if (rc)
		return eel_err(-rc, "cannot deregister a region of %s: %s", VERBS(dev)->ibdev, strerror(rc));
	return 0;
}

const struct eel_backend eel_backend_verbs = {
	.scheme = "verbs",
	.open = vb_open,
	.close = vb_close,
	.conn_info = vb_conn_info,
	.connect = vb_connect,
	.mr_reg = vb_mr_reg,
	.mr_dereg = vb_mr_dereg,
	.put = vb_put,
	.eput = vb_eput,
	.eget = vb_eget,
	.poll = vb_poll,
	.quiet = vb_quiet,
	.wait_u64 = vb_wait_u64,
	.progress = vb_progress,
	.set_stamp_every = vb_set_stamp_every,
	.trace_drain = vb_trace_drain,
	.counters = vb_counters,
	.nic_info = vb_nic_info,
};
