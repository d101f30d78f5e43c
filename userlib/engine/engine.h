/* SPDX-License-Identifier: MIT */
/* userlib/engine/engine.h — eel's NIC firmware hosted on this machine, and its host
 * driver.
 *
 * Three backends run the very same firmware (firmware/) on a host core and
 * differ only in the wire its frames travel on: the software NIC (a shared-
 * memory wire, wire_shm.c), DPDK (any PMD's port) and eel's raw e1000
 * driver. The engine is everything they share: the NIC's BAR0 (a page of
 * memory), its firmware's state (the NIC's on-chip memory), the host memory it
 * reaches by DMA — send queue, completion queue, memory-region table, status
 * block, trace records — laid out exactly as include/eel/fw_abi.h says, the
 * host driver behind every eel_* call, and the optional fault layer.
 *
 * The firmware runs either on the caller's thread — once at each doorbell and
 * whenever the host polls or waits (inline: correct on any number of cores;
 * the NIC works only while the host is in the library) — or on a thread of its
 * own (thread: a communication processor beside the CPU, as on the Paragon,
 * Culler et al. 1996 Table 2).
 */
#ifndef EEL_USERLIB_ENGINE_H
#define EEL_USERLIB_ENGINE_H

#include <pthread.h>
#include <stdint.h>

#include <eel/fw_abi.h>

#include "userlib/core/dev.h"
#include "firmware/fw_main.h"
#include "userlib/engine/wire.h"
#include "userlib/engine/wire_faults.h"
#include "userlib/engine/bus_preset.h"

enum engine_mode { ENGINE_INLINE = 0, ENGINE_THREAD = 1 };

#define ENGINE_MR_ENTRIES 256u /* a key holds the index in its top 8 bits (fw_abi.h) */
#define ENGINE_TRACE_RECS 1024u
#define ENGINE_BUS_MEMO 4           /* transaction lengths whose cost is remembered */

/* URI options every engine-hosting backend takes. */
#define ENGINE_OPTIONS "doorbell_ns fetch_ns payload_ns tx_ns wire_ns rx_ns dma_ns drop dup reorder corrupt seed " \
		       "mtu rto_us rto_min_us recovery oversubscribe fw_cpu timeout_ms stamp_every sq_depth " BUS_OPTIONS

/* What one end tells the other about its engine, inside its connection info. */
struct engine_conn {
	uint32_t mtu;
	uint32_t crc;  /* this end corrupts frames (corrupt=): both ends carry a frame CRC */
};

struct engine {
	struct eel_fw_bar *bar;
	struct fw fw;
	struct wire wire;           /* what the firmware's frames go through: its HAL calls it */
	struct wire_faults faults;  /* between the firmware and the carrier, when asked */
	int faulty;
	int mode;
	int oversubscribe;          /* more busy threads than cores: waits yield (engine_idle.h) */
	uint32_t idle_passes;       /* inline, oversubscribed: idle passes in a row */
	int fw_cpu;                 /* thread mode: pin the firmware here (-1: no) */
	pthread_t thread;
	int thread_running;
	int stop;

	/* host memory the NIC reaches by DMA (one mapping) */
	void *mem;
	size_t mem_len;
	struct eel_fw_sqe *sq;
	struct eel_fw_cqe *cq;
	struct eel_fw_mr *mrt;
	struct eel_fw_status *status;
	struct eel_trace *trace;    /* ENGINE_TRACE_RECS TX records, then as many RX */
	uint32_t rx_seen;           /* the last message detected() saw in last_rx */
	struct engine_detect {      /* DETECT of the message in RX record k (engine_data.c detected) */
		uint32_t msg_id;
		uint64_t t;
	} detect[ENGINE_TRACE_RECS];

	/* host driver state */
	uint32_t sq_depth, cq_size;
	uint64_t sq_prod, sq_cons_seen;
	uint64_t cq_cons;
	uint32_t signaled_out;      /* signalled puts whose CQE is not yet read */
	uint32_t stamp_pos;         /* where the puts are in the stamping period (eel_stamp_due) */
	struct eel_stamp_turn stamps; /* which stamps a traced put takes (stamp_pick.c) */
	uint32_t stamp_every;
	uint32_t tx_trace_next, tx_drain, rx_drain;
	uint32_t ereg_seq[EEL_FW_EREGS];
	uint32_t ereg_next;
	uint64_t ereg_db;

	/* options */
	uint32_t mtu;
	uint64_t rto_cycles;
	uint64_t rto_min_cycles;    /* the timer's floor (fw_rto.c) */
	uint32_t recovery;          /* enum eel_fw_recovery: how this end receives through loss */
	uint64_t doorbell_cycles;   /* emulated stage costs */
	uint64_t delay_fetch, delay_tx, delay_rx, delay_dma, delay_payload;
	double delay_ns[EEL_STAGES];        /* each as it lasts, measured (engine_start) */
	struct wire_faults_opts fo;

	/* the bus model (bus_model.c, engine_bus.h): none unless bus= */
	struct eel_bus bus;
	struct eel_bus_iotlb iotlb;
	int bus_on;
	int db_plain;               /* the doorbell a store alone: no bus, no doorbell_ns (engine.c) */
	double bus_cyc_per_ns;
	uint64_t bus_land;          /* cycles: the NIC's last posted write reaches host memory */
	uint64_t bus_land_at;       /* cycles: ... and when the NIC issued it */
	uint64_t bus_db_at[2];      /* cycles: the host's last doorbell store: SQ, E-registers */
	uint64_t bus_db_seen[2];    /* doorbell values the NIC has seen: SQ, E-registers */
	uint64_t bus_db_cyc[2];     /* a doorbell's write: SQ (8 bytes), E-register (32) */
	uint64_t bus_flight_cyc;    /* a posted write's flight */
	struct engine_bus_memo {
		uint32_t len, valid;
		uint64_t cyc;                /* a read's whole time (rd.first + rd.cpl), a write's issue */
		struct eel_bus_read_cost rd; /* a read's parts on the link */
		struct eel_bus_write_cost wr; /* a write's */
	} bus_memo[2][ENGINE_BUS_MEMO];
	uint32_t bus_memo_next[2];
	uint64_t bus_stamp_cyc;     /* a counter read */
	uint64_t bus_bk_cyc;        /* a charge's own bookkeeping, taken off its spin */
	uint64_t bus_write_cyc;     /* what a posted write too short to spin for costs itself */
	uint64_t bus_credit[2];     /* cycles paid beyond the model, given back by the next
				     * spin: the host's thread, the NIC's (one in inline mode) */
	uint64_t bus_cnt[6];        /* transactions charged, by kind (ENGINE_BUS_CNT_*, engine_bus.h) */
	uint64_t bus_mmio_cyc;      /* the host's MMIO read of a register: a read round trip */
	uint64_t bus_posted_cyc;    /* the posted credits' TLPs on the link (EEL_BUS_POSTED_CREDIT) */
	struct eel_bus_link bus_link; /* the link's queues and tags, in cycles (engine_bus.c) */
	/* the NIC's DMA reads issued and not yet waited for (engine_hal.c), by tag */
	struct engine_read { uint64_t bus, done; uint32_t len; } rd[FW_HAL_READS];
	uint64_t rd_busy;           /* the tags in use, a bit each */

	void *backend;              /* the hosting backend's own state */
};

/* The engine of a device. */
static inline struct engine *ENGINE(struct eel_dev *dev)
{
	return dev->priv;
}

/* Parse the engine's URI options and the mode ("", "inline" or "thread").
 * threads_per_machine: busy threads a connected pair keeps on one machine in
 * thread mode (4 when both ends share it, as the software NIC's do; 2 else). */
int engine_parse(struct engine *e, struct eel_dev *dev, struct eel_uri *u, const char *mode,
		 int threads_per_machine);
/* Power the NIC on: host memory, firmware reset and configuration, thread. */
int engine_start(struct engine *e);
/* The largest frame the carrier must carry (firmware packet + CRC). */
uint32_t engine_max_frame(const struct engine *e);
void engine_conn_info(const struct engine *e, struct engine_conn *c);
/* Join the carrier and bring the link up; checks the peer's engine agrees. */
int engine_link_up(struct engine *e, struct wire carrier, const struct engine_conn *peer);
/* NIC off and the firmware thread joined: after this the carrier may go. */
void engine_stop(struct engine *e);
void engine_free(struct engine *e);
/* A hosting backend's close: the firmware off the wire, then release(e) (the
 * backend's wire and NIC, and e->backend itself) when it has any, then the
 * engine; dev->priv is cleared. Safe on a half-opened device. */
void engine_close(struct eel_dev *dev, void (*release)(struct engine *e));
/* The capabilities every engine has; the backend then says its own. */
void engine_caps(const struct engine *e, struct eel_caps *c);
int engine_needs_caller(const struct engine *e);
/* What every engine says of itself in eel_nic_info: the ABI its firmware
 * reported in BAR0 (fw_abi.h's `abi`). */
void engine_nic_info(const struct engine *e, struct eel_nic_info *info);

/* The eel_backend operations, shared by every backend that hosts the engine:
 * each backend's struct eel_backend takes them as ENGINE_DATA_PATH (below)
 * beside its own open, close, conn_info, connect, progress, trace_drain,
 * counters and nic_info. */
int engine_mr_reg(struct eel_dev *dev, struct eel_mr *mr, unsigned access);
int engine_mr_dereg(struct eel_dev *dev, struct eel_mr *mr);
int engine_put(struct eel_dev *dev, const struct eel_mr *lmr, const void *src, size_t len,
	       const struct eel_window *dst, uint64_t dst_off, unsigned flags, uint64_t wr_id, uint32_t imm);
int engine_eput(struct eel_dev *dev, const struct eel_window *dst, uint64_t off, uint64_t v);
int engine_eget(struct eel_dev *dev, const struct eel_window *src, uint64_t off, uint64_t *v);
int engine_poll(struct eel_dev *dev, struct eel_cqe *cqe, int max);
int engine_quiet(struct eel_dev *dev);
int engine_wait_u64(struct eel_dev *dev, const volatile uint64_t *addr, uint64_t value);
int engine_progress(struct eel_dev *dev);
void engine_set_stamp_every(struct eel_dev *dev, uint32_t every);
int engine_trace_drain(struct eel_dev *dev, enum eel_trace_dir dir, struct eel_trace *out, int max);
int engine_counters(struct eel_dev *dev, struct eel_counter *out, int max);
/* engine_floor.c: eel_floor on the backend's own carrier, the firmware paused */
int engine_floor(struct eel_dev *dev, int server, uint32_t iters, double *one_way_ns);

/* The firmware's data path, as every engine-hosting backend's struct
 * eel_backend names it (engine_data.c, engine_mr.c, engine_trace.c); eel_floor:
 * the bare echo on the backend's wire (engine_floor.c). */
#define ENGINE_DATA_PATH                                   \
	.mr_reg = engine_mr_reg, .mr_dereg = engine_mr_dereg,  \
	.put = engine_put, .eput = engine_eput,                \
	.eget = engine_eget, .poll = engine_poll,              \
	.quiet = engine_quiet, .wait_u64 = engine_wait_u64,    \
	.floor = engine_floor,                                 \
	.set_stamp_every = engine_set_stamp_every

/* engine_hal.c: the HAL that hosts the firmware */
extern const struct fw_hal_ops engine_hal_ops;
/* engine_thread.c: thread mode's firmware thread, started and joined */
int engine_thread_start(struct engine *e);
void engine_thread_stop(struct engine *e);

#endif
