/* SPDX-License-Identifier: MIT */
/* userlib/verbs/verbs.h — inside the verbs backend (rdma-core): its state, and what
 * its files share.
 *
 *   backend_verbs.c  open and close, capabilities, the struct eel_backend
 *   verbs_dev.c      the device, its port, the GID, sysfs facts (attach, doorbell)
 *   verbs_conn.c     connection info and the QP state machine (RESET..RTS)
 *   verbs_cm.c       iWARP: the connection through the RDMA connection manager
 *   verbs_cq.c       completion queues, with or without NIC timestamps, and the NIC clock
 *   verbs_data.c     put, eput, eget, poll, quiet: the send queue and its signalling
 *   verbs_reap.c     completions, and errors (failed completions, async events)
 *   verbs_wait.c     the blocking loops, and the receive-side wait on memory
 *   verbs_trace.c    stamps, trace records, counters
 *   verbs_info.c     eel_nic_info: firmware, driver, rdma-core's version
 *
 * One RC queue pair per device (IBTA Vol. 1, ch. 9: the reliable connected
 * service). Every send WQE gets wr_id = its sequence number on the send queue,
 * so a completion tells which entry of `ring` it retires (ibv_poll_cq(3): on an
 * RC QP completions come in posting order, and a signalled completion retires
 * every unsignalled WQE posted before it).
 */
#ifndef EEL_USERLIB_VERBS_H
#define EEL_USERLIB_VERBS_H

#include <infiniband/verbs.h>
#include <stdint.h>

#include "userlib/core/dev.h"

#define VB_OPTIONS "gid_index spin_us timeout_ms stamp_every sq_depth"
#define VB_TRACE_RECS 1024u
#define VB_RQ_DEPTH 64u        /* receives posted for notified puts (WRITE_WITH_IMM) */
#define VB_OOB_RTS 0x10        /* backend's out-of-band message: "my QP is ready to send" */
#define VB_SPIN_US_SOFT 1000u  /* rxe, siw: a wait spins 1 ms, then naps between looks */
#define VB_NAP_NS 50000        /* the shortest nap */
#define VB_NAP_MAX_NS 1000000  /* the longest: naps grow to 1/64 of the wait so far, up to this */

/* The connection information one end sends the other (eel_connect). */
#define VB_CONN_MAGIC 0x56454c45u /* "ELEV" */
#define VB_CONN_VERSION 2u
struct vb_conn {
	uint32_t magic;
	uint32_t version;
	uint32_t qpn;       /* 0 on iWARP: the connection manager joins the QPs */
	uint32_t psn;
	uint16_t lid;
	uint8_t link_eth;   /* 1: Ethernet (RoCE), 0: InfiniBand */
	uint8_t mtu;        /* enum ibv_mtu of the port */
	uint8_t gid[16];
	uint32_t max_rd;    /* RDMA READs this end can answer at once (responder resources) */
	uint32_t notify;    /* this end can take WRITE_WITH_IMM */
	char ibdev[32];     /* for messages */
	uint8_t iwarp;      /* 1: iWARP, connected through rdma_cm (verbs_cm.c) */
	uint8_t ip[4];      /* iWARP: this end's IPv4 address */
	uint8_t rsvd;
	uint16_t cm_port;   /* iWARP, the server: the port its rdma_cm id listens on */
	uint16_t rsvd2;
};

/* What each posted send WQE was, by its sequence number. */
enum vb_kind { VB_PUT = 1, VB_EPUT, VB_EGET, VB_FENCE };
enum vb_ent_flag {
	VB_SIGNALED = 1u << 0,      /* posted with IBV_SEND_SIGNALED */
	VB_USER_SIGNALED = 1u << 1, /* the caller asked for a completion (eel_poll) */
	VB_TRACED = 1u << 2,        /* has a TX trace record */
};
struct vb_sq_ent {
	uint64_t wr_id;   /* the caller's */
	uint32_t len;
	uint16_t kind;
	uint16_t flags;
	uint32_t trace;   /* TX trace slot */
	uint32_t msg_id;
	uint32_t rkey;
	uint64_t raddr;
};

/* A completion, whichever way the CQ was created (verbs_cq.c). */
struct vb_wc {
	uint64_t wr_id;
	uint64_t ts;          /* NIC clock (raw), 0 without timestamps */
	uint32_t status;      /* enum ibv_wc_status */
	uint32_t vendor_err;
	uint32_t opcode;      /* enum ibv_wc_opcode */
	uint32_t byte_len;
	uint32_t imm;         /* host order */
};

struct vb_cq {
	struct ibv_cq *cq;    /* always set (ibv_cq_ex_to_cq of ex when extended) */
	struct ibv_cq_ex *ex; /* set when created with completion timestamps */
};

/* The NIC clock mapped onto the host's counter: host = host0 + (raw - raw0) * k. */
struct vb_nic_clock {
	int on;
	uint64_t mask;        /* completion_timestamp_mask */
	uint64_t khz;         /* hca_core_clock */
	uint64_t raw0;
	double host0;         /* host counter at raw0 */
	double k;             /* host cycles per NIC cycle */
};

enum vb_counter {
	VB_CNT_PUTS, VB_CNT_EPUTS, VB_CNT_EGETS, VB_CNT_HIDDEN_SIGNALS, VB_CNT_FENCES,
	VB_CNT_SEND_CQES, VB_CNT_NOTIFIES, VB_CNT_EAGAIN, VB_CNT_ERRORS,
	VB_SW_COUNTERS
};

struct rdma_event_channel;
struct rdma_cm_id;

struct verbs {
	struct ibv_context *ctx;
	/* iWARP (verbs_cm.c): ctx is librdmacm's, from this list; the ids */
	struct ibv_context **cm_devs;
	struct rdma_event_channel *cm_ch;
	struct rdma_cm_id *cm_listen, *cm_id;
	uint32_t max_inline;        /* inline bytes the device gave the QP */
	struct ibv_pd *pd;
	struct vb_cq scq, rcq;
	struct ibv_qp *qp;
	uint64_t *stage;            /* one 8-byte slot per send WQE: eget results, eput sources */
	struct ibv_mr *stage_mr;

	/* the device and its port (verbs_dev.c) */
	char ibdev[64];
	char netdev[32];            /* RoCE: the Ethernet device under the port */
	char driver[32];            /* kernel driver of the PCI function, or "rxe" / "siw" */
	char pci[32];               /* the PCI function, "" for a software device */
	int software;               /* rxe, siw: RDMA done by the kernel */
	int iwarp;
	uint8_t port;
	int gid_index;              /* -1: InfiniBand, LID-routed */
	int gid_tbl_len;
	union ibv_gid gid;
	int link_eth;
	uint16_t lid;
	enum ibv_mtu mtu;           /* the port's active MTU; then the path's */
	uint32_t max_rd;            /* max_qp_rd_atom */
	uint32_t max_rd_init;       /* max_qp_init_rd_atom */
	uint32_t psn;
	uint64_t max_msg;
	int notify;                 /* this device takes RDMA WRITE with immediate */

	/* send queue (verbs_data.c) */
	uint32_t sq_depth;
	uint64_t head;              /* next WQE's sequence number */
	uint64_t tail;              /* every WQE before it is retired */
	uint64_t last_sig;          /* the last signalled WQE */
	struct vb_sq_ent *ring;
	uint32_t user_sig_out;      /* caller-signalled puts not yet returned by eel_poll */
	uint32_t traced_out;        /* traced puts not yet completed */
	uint32_t last_rkey;         /* the last destination written: eel_quiet's fence goes there */
	uint64_t last_raddr;
	int have_last;

	/* completions waiting for eel_poll (a ring, pend_cap a power of two) */
	struct eel_cqe *pend;
	uint32_t pend_cap;
	uint64_t pend_head, pend_tail;
	uint32_t notify_pend;       /* notifications among them */

	/* the first error of the connection: every later call returns it */
	int err;
	char errmsg[400];
	int flushed;                /* a flushed work request was seen: a consequence, kept apart */
	int port_down;              /* the port went down (async event) and has not come back */
	char flushmsg[400];         /* until the cause is found (or there is none to find) */

	/* stamps (verbs_trace.c) */
	uint32_t stamp_every;
	uint64_t puts;              /* puts while stamping is on: their message numbers */
	uint32_t stamp_pos;         /* where the puts are in the stamping period (eel_stamp_due) */
	uint32_t detect_pos;        /* ... the detections */
	uint64_t detects;
	struct eel_trace *tx, *rx;  /* VB_TRACE_RECS each */
	uint32_t tx_next, tx_drain, rx_next, rx_drain;
	struct vb_nic_clock clk;

	uint64_t spin_cycles;       /* a wait spins this long, then naps (0: spins for ever) */
	uint64_t cnt[VB_SW_COUNTERS];
	uint64_t async_next;        /* when to look at the device's async events again */
	int rx_fd;                  /* the port's received-packets counter in sysfs, or -1 */
	uint64_t rx_pkts;           /* its last reading */
	uint64_t rx_read_next;      /* when to read it again */
};

int vb_nic_info(struct eel_dev *dev, struct eel_nic_info *info);

static inline struct verbs *VERBS(struct eel_dev *dev)
{
	return dev->priv;
}

/* verbs_dev.c */
int vb_parse_path(const char *path, char *ibdev, size_t n, unsigned *port);
int vb_open_device(struct verbs *v, const char *want, unsigned port);
int vb_choose_gid(struct verbs *v, int forced);
/* The GID choice, pure: RoCE v2 with an IPv4-mapped address, then any RoCE
 * v2, then RoCE v1; never an all-zero GID. Returns the index into e, or -1. */
int vb_pick_gid(const struct ibv_gid_entry *e, int n);
void vb_describe(const struct verbs *v, struct eel_caps *c);
uint32_t vb_mtu_bytes(enum ibv_mtu m);

/* verbs_conn.c */
int vb_conn_info(struct eel_dev *dev, int server, void *buf, uint32_t cap, uint32_t *len);
int vb_connect(struct eel_dev *dev, int server, const void *peer, uint32_t len, struct eel_oob *oob);
/* Checks a peer's connection info; 0 or a negative code with the message set. */
int vb_check_peer(const struct verbs *v, const void *peer, uint32_t len, struct vb_conn *out);

/* verbs_cm.c: iWARP */
struct ibv_context *vb_cm_context(struct verbs *v, const char *ibdev);
int vb_cm_info(struct verbs *v, int server, struct vb_conn *c);
int vb_cm_connect(struct verbs *v, int server, const struct vb_conn *p, uint32_t timeout_ms);
void vb_cm_close(struct verbs *v);

/* verbs_cq.c */
int vb_cq_create(struct verbs *v, struct vb_cq *cq, int cqe, int want_ts);
void vb_cq_destroy(struct vb_cq *cq);
int vb_cq_poll(struct vb_cq *cq, struct vb_wc *wc, int max);
int vb_clock_start(struct verbs *v);
void vb_clock_sync(struct verbs *v);
uint64_t vb_clock_to_host(const struct vb_nic_clock *c, uint64_t raw);

/* verbs_reap.c */
void vb_reap_send(struct verbs *v);
/* Both CQs; a flush with no cause seen becomes the connection's error. */
void vb_reap_all(struct verbs *v);
void vb_async_events(struct verbs *v);
/* The connection's first error, said again (and returned). */
int vb_error(struct verbs *v);
/* A failed work completion as an error code, and its message into buf. */
int vb_wc_error(const struct vb_wc *wc, const struct vb_sq_ent *e, const char *ibdev, char *buf, size_t n);
int vb_post_recvs(struct verbs *v, uint32_t n);

/* verbs_wait.c */
/* A blocking loop: wait.c's deadline and peer watch, and when it stops spinning. */
struct vb_wait {
	struct eel_wait w;
	uint64_t nap_at;    /* counter value after which it naps between looks (0: never) */
	uint64_t start;     /* counter value at the start of the wait */
	int napping;
};
void vb_wait_start(struct eel_dev *dev, struct vb_wait *vw, const char *what);
/* One turn of a blocking loop whose look found nothing yet. */
int vb_wait_turn(struct eel_dev *dev, struct vb_wait *vw);
/* Room for one more WQE: -EAGAIN when full, or (block) wait for it. */
int vb_sq_room(struct eel_dev *dev, int block, const char *what);
int vb_wait_u64(struct eel_dev *dev, const volatile uint64_t *addr, uint64_t value);
int vb_progress(struct eel_dev *dev);

/* verbs_data.c */
int vb_put(struct eel_dev *dev, const struct eel_mr *lmr, const void *src, size_t len,
	   const struct eel_window *dst, uint64_t dst_off, unsigned flags, uint64_t wr_id, uint32_t imm);
int vb_eput(struct eel_dev *dev, const struct eel_window *dst, uint64_t off, uint64_t value);
int vb_eget(struct eel_dev *dev, const struct eel_window *src, uint64_t off, uint64_t *value);
int vb_poll(struct eel_dev *dev, struct eel_cqe *cqe, int max);
int vb_quiet(struct eel_dev *dev);

/* verbs_trace.c */
void vb_rx_counter_open(struct verbs *v);
/* Packets this port received, as of the last reading (0 where sysfs has no counter). */
uint64_t vb_rx_counter(struct verbs *v);
struct eel_trace *vb_trace_tx(struct verbs *v, uint32_t *slot);
void vb_trace_rx(struct verbs *v, uint64_t dma_done, uint64_t detect);
void vb_set_stamp_every(struct eel_dev *dev, uint32_t every);
int vb_trace_drain(struct eel_dev *dev, enum eel_trace_dir dir, struct eel_trace *out, int max);
int vb_counters(struct eel_dev *dev, struct eel_counter *out, int max);

#endif
