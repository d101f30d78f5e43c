/* SPDX-License-Identifier: MIT */
/* userlib/raw/e1000.h — eel's register-level driver for Intel's e1000 family
 * (82540EM, QEMU's e1000; 82574L, QEMU's e1000e): the device, its rings,
 * and the rings as an eel wire.
 *
 *   e1000_init.c    reset and initialisation, from the datasheets' sequences
 *   wire_e1000.c    the TX/RX descriptor rings carrying the firmware's frames
 *                   in Ethernet frames, and the TDT-to-DD measurement
 *   backend_raw_e1000.c   the raw:<pci address> backend hosting the engine
 *
 * No interrupts: the driver polls descriptor-done bits, and rings the NIC
 * by writing tail registers (TDT, RDT).
 */
#ifndef EEL_USERLIB_E1000_H
#define EEL_USERLIB_E1000_H

#include <stdint.h>

#include "userlib/raw/e1000_regs.h"
#include "userlib/raw/raw_pci.h"
#include "userlib/engine/wire.h"
#include "userlib/engine/wire_stamps.h"

#define E1000_NRX 256u              /* receive descriptors (RDLEN = 4 KB) */
#define E1000_NTX 256u              /* transmit descriptors */
#define E1000_BUF 2048u             /* one packet buffer (RCTL.BSIZE = 2048) */

/* eel's frames on Ethernet: the firmware's frame behind an Ethernet header
 * whose EtherType is 88B5h — "Local Experimental EtherType 1" of IEEE Std
 * 802 (for experiments and private protocols; the DPDK backend uses it too) — and a 16-bit
 * big-endian length of the firmware's frame, since short Ethernet frames
 * arrive padded to 60 bytes. */
#define E1000_ETHERTYPE_EEL 0x88b5u
#define E1000_ETH_HDR 14u
#define E1000_EEL_HDR (E1000_ETH_HDR + 2u)
#define E1000_ETH_MTU 1500u         /* Ethernet payload bytes */
#define E1000_ETH_MIN 60u           /* shortest frame without the FCS */
#define E1000_MAX_FRAME (E1000_ETH_MTU - 2u) /* firmware frame bytes one Ethernet frame carries */

struct e1000_model {
	uint16_t device;
	const char *chip;           /* "82540EM" */
	const char *qemu;           /* the QEMU device that emulates it */
	int is_82574;
};

struct e1000 {
	struct raw_pci pci;
	const struct e1000_model *model;
	volatile uint8_t *regs;     /* BAR 0 */
	struct raw_dma dma;         /* rings and packet buffers, one region */
	volatile struct e1000_rx_desc *rxd;
	volatile struct e1000_tx_desc *txd;
	uint8_t *rx_buf, *tx_buf;   /* E1000_BUF bytes per descriptor */
	uint64_t rx_buf_bus, tx_buf_bus;
	uint8_t mac[6];
	int running;                /* RX and TX enabled: stop before freeing the memory */
};

/* ---- MMIO: 32-bit volatile accesses; barriers for DMA memory vs. registers ---- */

static inline uint32_t e1000_rd(const struct e1000 *nic, uint32_t reg)
{
	return *(const volatile uint32_t *)(nic->regs + reg);
}

static inline void e1000_wr(struct e1000 *nic, uint32_t reg, uint32_t v)
{
	*(volatile uint32_t *)(nic->regs + reg) = v;
}

/* Descriptor and buffer stores visible to the device before a tail-register
 * store (Linux's wmb(): sfence on x86-64, dsb st on arm64). */
static inline void e1000_wmb(void)
{
#if defined(__x86_64__)
	__asm__ volatile("sfence" ::: "memory");
#elif defined(__aarch64__)
	__asm__ volatile("dsb st" ::: "memory");
#else
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}

/* A descriptor's status read before the data it describes (Linux's dma_rmb()). */
static inline void e1000_rmb(void)
{
#if defined(__x86_64__)
	__asm__ volatile("" ::: "memory");
#elif defined(__aarch64__)
	__asm__ volatile("dmb oshld" ::: "memory");
#else
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}

/* ---- e1000_init.c ---- */

/* The supported devices, for a message: "8086:100e (82540EM, QEMU e1000), ..." */
extern const char e1000_supported[];
const struct e1000_model *e1000_model_of(uint16_t device);
/* Open the PCI function at addr (canonical), reset and initialise it, rings
 * running. timeout_ms bounds each wait on the device (reset, link). */
int e1000_open(struct e1000 *nic, const char *addr, uint32_t timeout_ms);
/* eel_nic_info's part the NIC knows (raw_info.c). */
struct eel_nic_info;
void e1000_info(const struct e1000 *nic, struct eel_nic_info *info);
/* Receive and transmit off, device reset, memory freed, function closed. */
void e1000_close(struct e1000 *nic);

/* ---- wire_e1000.c ---- */

#define E1000_DD_WINDOW 1024u       /* TDT-to-DD samples kept for the median */

struct e1000_wire {
	struct e1000 *nic;
	uint8_t src[6], dst[6];
	uint32_t max_frame;         /* firmware frame bytes, at most E1000_MAX_FRAME */
	uint32_t tx_tail;           /* next descriptor to fill (the TDT we write) */
	uint32_t tx_clean;          /* oldest descriptor not yet seen done */
	uint32_t rx_next;           /* next descriptor to look at */
	uint64_t tdt_at[E1000_NTX]; /* cycle count of the TDT store that sent it; 0: seen done */
	uint64_t tdt_done[E1000_NTX]; /* ... and when that store returned */
	uint32_t traced[E1000_NTX]; /* a traced message's last frame: its number + 1 (0: none) */
	struct wire_stamps tx_db;   /* traced messages: TDT store, its return, DD seen */

	/* counters (written by the firmware's thread, read by the host's) */
	uint64_t tx_frames, rx_frames, rx_dropped, tx_full;
	uint64_t dd_first_look;     /* DD already set when looked at right after the store */
	uint64_t samples;           /* TDT-to-DD samples taken */
	uint64_t hw_rx, hw_tx;      /* the NIC's own GPRC and GPTC, summed (read by the host's thread) */
	uint64_t dd_cycles[E1000_DD_WINDOW];    /* TDT store to DD seen */
	uint64_t store_cycles[E1000_DD_WINDOW]; /* the TDT store itself */
};

extern const struct wire_ops e1000_wire_ops;
/* Rings ready on a running NIC; dst is the peer's MAC address. */
void e1000_wire_init(struct e1000_wire *w, struct e1000 *nic, const uint8_t dst[6], uint32_t max_frame);
/* The wire's counters (names static), up to max. */
int e1000_wire_counters(struct e1000_wire *w, const char **names, uint64_t *values, int max);

#endif
