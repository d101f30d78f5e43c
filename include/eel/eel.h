/* SPDX-License-Identifier: MIT */
/* include/eel/eel.h — libeel: one small API over every NIC eel drives.
 *
 * Every backend (the software NIC, verbs, DPDK, eel's raw driver) implements
 * these calls, so every benchmark runs unchanged on every NIC.
 *
 *   eel_open("softnic", NULL, &dev);           a NIC, by URI
 *   eel_oob_connect(host, port, ms, &oob);     out-of-band channel to the peer
 *   eel_connect(dev, oob);                     exchange connection info, link up
 *   eel_mr_reg(dev, buf, len, access, &mr);    a buffer the NIC may use
 *   ... send mr->win to the peer over oob, receive its window ...
 *   eel_put(dev, mr, src, 8, &peer_win, off, flags, wr_id, 0);
 *   eel_wait_u64(dev, &slot, value);           wait for the peer's put to land
 *
 * Rules: every call returns 0 (or a count) on success and a negative errno
 * code on failure; eel_errmsg() then says what went wrong and how to fix it.
 * The library never prints and never exits. A device is used by one thread
 * at a time. Every blocking call gives up after the device's timeout with
 * -ETIMEDOUT, and returns -ECONNRESET as soon as it sees the peer is gone.
 */
#ifndef EEL_H
#define EEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cycles.h"
#include "stamps.h"

#define EEL_VERSION "0.1.0"

struct eel_dev;
struct eel_oob;
struct eel_oob_listener;

/* ---- errors ---- */

/* The last error of this thread: one line naming the problem and the fix. */
const char *eel_errmsg(void);
/* A short name for an error code, negative as eel returns it or positive
 * ("-ETIMEDOUT" -> "timed out"): a static string, safe from any thread. */
const char *eel_strerror(int err);

/* ---- opening a NIC ---- */

struct eel_opts {
	uint32_t timeout_ms;  /* longest any call may block (default 10000) */
	uint32_t stamp_every; /* stamp one message in this many; 0 = stamps off (default 64) */
	uint32_t sq_depth;    /* puts in flight (default 256, power of two) */
	const char *backend_args; /* arguments for the backend's own library, read
				   * during eel_open only (dpdk: EAL arguments,
				   * whitespace-separated, e.g. "--no-huge -m 512");
				   * NULL: none (default) */
	int oversubscribe;    /* 1: more busy processes or threads than cores on
			       * this machine (a launcher's local ranks > cores):
			       * the NIC's waits yield the core rather than spin,
			       * and thread mode runs on too few cores; the
			       * softnic URI's oversubscribe= overrides it
			       * (default 0) */
};

/* Fill opts with the defaults. */
void eel_opts_default(struct eel_opts *opts);

/* Open a NIC by URI:
 *   softnic[:inline|:thread][?option=value&...]   the built-in software NIC
 *   verbs:<ibdev>[:port]                          an RDMA device (rdma-core)
 *   dpdk:<pci address or vdev args>               a DPDK port
 *   raw:<pci address>                             eel's own e1000 driver
 * opts may be NULL (defaults). Options in the URI override opts. */
int eel_open(const char *uri, const struct eel_opts *opts, struct eel_dev **dev);
void eel_close(struct eel_dev *dev);

/* The NIC types eel knows, for i = 0, 1, ... until NULL: the URI scheme
 * ("softnic", "dpdk", "verbs", "raw"), and in *built (if not NULL) whether
 * this libeel has it (DPDK and rdma-core are optional at build time; eel_open
 * of a missing one fails with -ENOTSUP and says how to get it). */
const char *eel_backend_name(int i, int *built);

/* Where eel's data file name (pcie_bench.csv, historical.csv, papers.md) is:
 * $EEL_DATA_DIR/name if that variable is set; else beside the running program
 * as `make install` lays it out (<bindir>/../share/eel/name) or as the build
 * tree has it (<build>/../data/name); else in the source tree libeel was built
 * from. 0 with the path in out (n bytes), or -ENOENT with eel_errmsg() naming
 * the places looked in. */
int eel_data_path(const char *name, char *out, size_t n);

/* Opens a file a person named (a bus preset, eel's data files, a NetPIPE
 * output, an lspci dump) for reading, if it is a regular file that is not
 * empty and holds at most max_bytes (0: any size; a kernel's file, /proc or
 * /sys, says size 0: it is opened when it gives a byte, non-blocking, and
 * the reader bounds what it reads). Never blocks: a FIFO is refused without
 * waiting for a writer, a device (/dev/zero) without being read. 0 with *f open for reading (fclose it), or a negative errno with
 * eel_errmsg() naming the path, what is wrong and the fix: the open's own
 * error (-ENOENT, -EACCES, ...), -EISDIR for a folder, -EINVAL for a FIFO, a
 * device or a socket, -ENODATA for an empty file, -EFBIG for a larger one. */
int eel_input_open(const char *path, size_t max_bytes, FILE **f);

/* What the NIC can do and how it is attached. */
enum eel_cap_flag {
	EEL_CAP_EREGS = 1u << 0,        /* eel_eput / eel_eget */
	EEL_CAP_NOTIFY = 1u << 1,       /* EEL_PUT_NOTIFY */
	EEL_CAP_ONESIDED_HW = 1u << 2,  /* puts land without the receiving CPU */
	EEL_CAP_RELIABLE_HW = 1u << 3,  /* the NIC retransmits, delivery exactly once */
	EEL_CAP_NIC_CLOCK = 1u << 4,    /* NIC stamps mapped onto the host clock */
	EEL_CAP_SHARED_CLOCK = 1u << 5, /* both ends stamp with one clock: one-way stages are exact */
	EEL_CAP_HOSTED_FW = 1u << 6,    /* eel's firmware runs on the host's core over a real NIC
					 * (dpdk, raw): its work is host software, DOORBELL is the
					 * NIC's own doorbell, and the NIC's fetch and transmit are
					 * stamped only where it says when (stamp_mask) */
	EEL_CAP_NEEDS_CALLER = 1u << 7, /* the NIC makes progress only inside the host's eel calls
					 * (its firmware runs in them: softnic:inline, dpdk, raw):
					 * nothing arrives or is acknowledged while the host computes */
};

struct eel_caps {
	char backend[16];       /* "softnic", "verbs", "dpdk", "raw" */
	char name[64];          /* which device: "softnic:inline", "rxe0", "0000:00:03.0" */
	uint32_t flags;         /* enum eel_cap_flag */
	uint32_t max_inline;    /* bytes a put may carry in its descriptor */
	uint64_t max_put;       /* bytes in one put */
	uint32_t mtu;           /* payload bytes per wire packet */
	uint32_t sq_depth;      /* puts in flight */
	uint32_t stamp_mask;    /* 1 << enum eel_stage, for each stage this NIC stamps */
	uint32_t nic_stamp_mask;/* ... of those, the ones read off the NIC's own clock (mapped) */
	char doorbell[64];      /* how a post reaches the NIC */
	char attach[64];        /* how the NIC is attached to the host */
	char clock[64];         /* which clock stamps the NIC's stages */
	char pci[16];           /* the PCI function that carries the NIC's traffic ("0000:00:03.0"),
				 * "" when none (the software NIC) */
	/* The software NIC's emulated stage costs (its URI's doorbell_ns, fetch_ns,
	 * tx_ns + payload_ns, rx_ns, dma_ns), by the stamp that begins the stage
	 * they lengthen (enum eel_stage): as asked, and as they last on average,
	 * measured (a spin on a counter that steps by ~10 ns lasts longer than
	 * asked by part of a step and a read). 0: none. */
	double delay_asked_ns[EEL_STAGES], delay_ns[EEL_STAGES];
};

const struct eel_caps *eel_caps(const struct eel_dev *dev);

/* What the NIC is and which versions drive it: what a firmware engineer
 * compares first between two runs. Every text is "" where it is not known,
 * and where that matters its *_why says why (one line). */
struct eel_nic_info {
	char device[64];         /* the device as its own stack names it: "rxe0", a DPDK port's
				  * name, "0000:00:03.0", "softnic:inline" */
	char driver[64];         /* what drives it: the PCI function's kernel driver (mlx5_core), a
				  * soft RDMA device's kernel module (rdma_rxe), a DPDK PMD
				  * (net_af_packet), eel_pci, eel's firmware */
	char driver_from[96];    /* where `driver` was read */
	char fw_version[64];     /* the NIC's own firmware: ibv_query_device's fw_ver,
				  * rte_eth_dev_fw_version_get(); softnic: "eel <commit>" */
	char fw_why[128];        /* why fw_version is "" */
	char hw_version[32];     /* ibv_query_device's hw_ver, a PCI function's revision id ("0x03") */
	uint32_t vendor_id;      /* the PCI vendor id, ibv_query_device's vendor_id; 0 unknown */
	uint32_t part_id;        /* the PCI device id, ibv_query_device's vendor_part_id; 0 unknown */
	char node_guid[24];      /* verbs: "0011:2233:4455:6677"; "" elsewhere */
	char bus_info[64];       /* the device on its bus: a PCI address, DPDK's bus name and
				  * device, a soft RDMA device's network device ("netdev eth0") */
	char stack[16];          /* the user-space stack under the backend: "rdma-core", "DPDK",
				  * "eel" (its own driver or NIC) */
	char stack_version[64];  /* its version as running (rdma-core: the loaded libibverbs's) */
	char stack_built[64];    /* the version libeel was built against (pkg-config --modversion) */
	char stack_why[128];     /* why stack_version is "" */
	char module[32];         /* the kernel module the backend goes through ("" none) */
	char module_version[32]; /* its MODULE_VERSION (/sys/module/<module>/version) */
	char module_why[128];    /* why module_version is "" */
	uint32_t fw_abi;         /* where eel's firmware runs (softnic, dpdk, raw): its ABI,
				  * EEL_FW_ABI_VERSION (include/eel/fw_abi.h); 0 elsewhere */
	char eel_commit[48];     /* the commit libeel was built from (git describe) */
};

/* Fill *info for dev (every field set, "" where unknown): 0, or a negative
 * errno code with eel_errmsg(). */
int eel_nic_info(struct eel_dev *dev, struct eel_nic_info *info);

/* ---- memory ---- */

/* What a peer needs to put into (or get from) a region: send it as is
 * (little-endian, fixed layout) over the out-of-band channel. */
struct eel_window {
	uint64_t addr;
	uint64_t len;
	uint32_t rkey;
	uint32_t rsvd;
};

enum eel_access {
	EEL_ACCESS_REMOTE_WRITE = 1u << 0,
	EEL_ACCESS_REMOTE_READ = 1u << 1,
};

struct eel_mr {
	void *addr;
	size_t len;
	uint32_t lkey;
	struct eel_window win; /* the remote window of this region */
	void *priv;            /* backend's */
};

/* Registers len bytes at addr for dev's NIC: a put's source (read), and with
 * EEL_ACCESS_REMOTE_WRITE (REMOTE_READ) a window the peer may write (read).
 * The memory must be mapped in this process, readable, and writable for
 * REMOTE_WRITE: else -EFAULT and nothing registered (verbs: ibv_reg_mr's
 * check; the other NICs: the process's map, /proc/self/maps, where it can
 * be read). Keep it mapped until eel_mr_dereg. */
int eel_mr_reg(struct eel_dev *dev, void *addr, size_t len, unsigned access, struct eel_mr **mr);
/* Deregisters mr on the device that registered it and frees it (mr is then
 * gone: a second call with it is a use after free). A region of another
 * device: -EINVAL, and it stays registered there, mr still valid. */
int eel_mr_dereg(struct eel_dev *dev, struct eel_mr *mr);

/* ---- out of band: TCP, perftest style ---- */

/* Server: listen on addr (NULL = any) and port (0 = pick one). */
int eel_oob_listen(const char *addr, uint16_t port, struct eel_oob_listener **l);
uint16_t eel_oob_listener_port(const struct eel_oob_listener *l);
/* Wait up to wait_ms for a connection, then up to hello_ms for its hello.
 * -ECONNABORTED: a connection came that was not an eel peer (the message
 * says from where and why); the listener is fine, wait again. */
int eel_oob_accept(struct eel_oob_listener *l, uint32_t wait_ms, uint32_t hello_ms, struct eel_oob **oob);
void eel_oob_listener_close(struct eel_oob_listener *l);
/* Client: connect, retrying until timeout_ms while the server starts. */
int eel_oob_connect(const char *host, uint16_t port, uint32_t timeout_ms, struct eel_oob **oob);
/* Typed messages. recv waits up to timeout_ms; while it waits it keeps the
 * device (if any) making progress, so a NIC whose firmware runs on this
 * thread keeps answering its peer. A message of another type (or longer
 * than cap) is read and dropped: -EPROTO, and the next recv reads the next. */
int eel_oob_send(struct eel_oob *oob, uint16_t type, const void *buf, uint32_t len);
int eel_oob_recv(struct eel_oob *oob, uint16_t type, void *buf, uint32_t cap, uint32_t *len,
		 uint32_t timeout_ms, struct eel_dev *progress);
void eel_oob_close(struct eel_oob *oob);
/* Message types at and above this are the application's. */
#define EEL_OOB_USER 0x100

/* Exchange connection information with the peer over oob and bring the link
 * up. The device keeps using oob to notice a peer that died; close the device
 * before the channel. */
int eel_connect(struct eel_dev *dev, struct eel_oob *oob);

/* The same in two steps, for a launcher that carries the connection
 * information itself (eel-bench under mpirun or srun puts it in PMIx):
 * eel_conn_info gives this end's (at most EEL_CONN_INFO_MAX bytes, sent as
 * is; `server`: the out-of-band role this end will have, the accepting end),
 * eel_connect_peer takes the peer's and brings the link up, using oob for
 * what the backend still says to its peer and to watch for its death. */
#define EEL_CONN_INFO_MAX 512
int eel_conn_info(struct eel_dev *dev, int server, void *buf, uint32_t cap, uint32_t *len);
int eel_connect_peer(struct eel_dev *dev, struct eel_oob *oob, int server, const void *peer, uint32_t len);

/* ---- data ---- */

enum eel_put_flag {
	EEL_PUT_SIGNALED = 1u << 0, /* a completion (eel_poll) when delivered */
	EEL_PUT_INLINE = 1u << 1,   /* payload copied at post: src reusable at once, lmr may be NULL */
	EEL_PUT_NOTIFY = 1u << 2,   /* the receiver gets a completion carrying imm */
};

/* Non-blocking RDMA write of len bytes from src (inside lmr) to
 * dst->addr + dst_off. -EAGAIN when the send queue is full: poll, then retry.
 * dev and dst must be valid (the data path's pointers are not checked, as
 * ibv_post_send's are not); lmr, src and len are. */
int eel_put(struct eel_dev *dev, const struct eel_mr *lmr, const void *src, size_t len,
	    const struct eel_window *dst, uint64_t dst_off, unsigned flags, uint64_t wr_id,
	    uint32_t imm);

/* E-register style (Bell et al. 2003, Cray T3E): a fixed-length 8-byte remote store
 * or load, issued by programmed I/O with no descriptor. eput is non-blocking
 * (eel_quiet waits for it); eget blocks until the value is back. */
int eel_eput(struct eel_dev *dev, const struct eel_window *dst, uint64_t dst_off, uint64_t value);
int eel_eget(struct eel_dev *dev, const struct eel_window *src, uint64_t src_off, uint64_t *value);

enum eel_cqe_kind { EEL_CQE_PUT = 1, EEL_CQE_NOTIFY = 2 };

struct eel_cqe {
	uint64_t wr_id;
	uint32_t len;
	uint32_t imm;
	int status;       /* 0, or a negative errno code (-EREMOTEIO: the peer refused) */
	uint32_t kind;    /* enum eel_cqe_kind */
	uint32_t msg_id;
};

/* Completions seen so far, up to max; never blocks. */
int eel_poll(struct eel_dev *dev, struct eel_cqe *cqe, int max);
/* Block until every put and eput posted on dev is delivered at the peer. */
int eel_quiet(struct eel_dev *dev);
/* Block until *addr == value: how a receiver detects a put (as perftest polls
 * the last byte). Keeps the NIC making progress while it waits. addr must
 * be valid (the data path's, not checked). */
int eel_wait_u64(struct eel_dev *dev, const volatile uint64_t *addr, uint64_t value);
/* Let the NIC make progress without waiting. Returns 1 when the NIC needs the
 * caller's thread to run (the software NIC inline), 0 when it runs by itself. */
int eel_progress(struct eel_dev *dev);
/* Is the peer still there? 0 while its process is; -ECONNRESET (with the
 * message) once its out-of-band connection closed, or the connection's
 * error (a NAK, a retry limit). For a loop that polls completions itself,
 * about once a millisecond (eel_wait_u64 and eel_quiet look on their own). */
int eel_peer_check(struct eel_dev *dev);

/* The floor under this NIC's EEL: a bare echo of one minimum-size frame on
 * the NIC's own carrier (a DPDK port's tx/rx burst, an e1000's descriptor
 * rings), with none of eel's protocol. Both ends call it at the same time
 * with the same iters, everything delivered before (eel_quiet); the server
 * echoes, the client gets the one-way time in ns: the median of the iters
 * round trips, each timed alone, / 2 (a round trip preempted by another
 * process does not move it). -EOPNOTSUPP where the NIC has no carrier of its
 * own to echo on (verbs). */
int eel_floor(struct eel_dev *dev, int server, uint32_t iters, double *one_way_ns);

/* ---- stamps and counters ---- */

/* Stamp one put in `every` from now on (0: stamping off): the next put, then
 * every every-th (a receiver that stamps its own detections does the same),
 * so two ends that set it at the same point of a ping-pong stamp the same
 * rounds. Both ends of a connection should agree, since the receiver stamps
 * what the sender marks. */
void eel_set_stamp_every(struct eel_dev *dev, uint32_t every);

/* Trace records completed since the last drain, up to max (eel/stamps.h).
 * TX records are this device's messages, RX records the peer's. */
int eel_trace_drain(struct eel_dev *dev, enum eel_trace_dir dir, struct eel_trace *out, int max);

struct eel_counter {
	const char *name;
	uint64_t value;
};
/* The NIC's own counters (packets, retransmissions, ...), up to max. */
int eel_counters(struct eel_dev *dev, struct eel_counter *out, int max);

#endif
