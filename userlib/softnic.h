/* userlib/softnic.h — the built-in software NIC: one NIC of a pair.
 *
 * The NIC is its BAR0 (a shared-memory page), its firmware (firmware/, whose
 * state here stands for the NIC's on-chip memory) and its wire
 * (softnic_wire.c). Its host driver (backend_softnic.c) sets up the host
 * memory the NIC reaches by DMA — send queue, completion queue, memory-region
 * table, status block, trace records — exactly as fw_abi.h describes.
 *
 * The firmware runs either on the caller's thread, one step at each doorbell
 * and each time the host polls or waits (inline: correct on any number of
 * cores; the NIC works only while the host is in the library),
 * or on a thread of its own (thread: a communication processor beside the
 * CPU, as on the Paragon — seed 002 Table 2).
 */
#ifndef EEL_USERLIB_SOFTNIC_H
#define EEL_USERLIB_SOFTNIC_H

#include <pthread.h>
#include <stdint.h>

#include <eel/fw_abi.h>

#include "firmware/fw.h"
#include "softnic_wire.h"

enum sn_mode { SN_INLINE = 0, SN_THREAD = 1 };

#define SN_MR_ENTRIES 256u
#define SN_TRACE_RECS 1024u

struct softnic {
	struct eel_fw_bar *bar;
	struct fw fw;
	struct sn_wire wire;
	int mode;
	int oversubscribe;       /* thread mode on too few cores: every loop yields */
	int fw_cpu;              /* thread mode: pin the firmware here (-1: no) */
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
	struct eel_trace *trace;  /* SN_TRACE_RECS TX records, then as many RX */

	/* host driver state */
	uint32_t sq_depth, cq_size;
	uint64_t sq_prod, sq_cons_seen;
	uint64_t cq_cons;
	uint32_t signaled_out;     /* signalled puts whose CQE is not yet read */
	uint64_t puts;             /* for choosing which puts to stamp */
	uint32_t stamp_every;
	uint32_t tx_trace_next, tx_drain, rx_drain;
	uint32_t ereg_seq[EEL_FW_EREGS];
	uint32_t ereg_next;
	uint64_t ereg_db;
	uint32_t mr_tag;
	uint64_t doorbell_cycles;  /* emulated doorbell cost */

	/* options and connection */
	uint32_t mtu;
	uint64_t rto_cycles;
	struct sn_faults faults;
	char shm_name[64];
	int shm_owner;             /* this side created the shared object */
};

/* softnic_hal.c: the HAL that hosts the firmware, and thread mode */
extern const struct fw_hal_ops sn_hal_ops;
int sn_thread_start(struct softnic *sn);
void sn_thread_stop(struct softnic *sn);

static inline void sn_relax(void)
{
#if defined(__x86_64__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ volatile("yield");
#endif
}

#endif
