/* SPDX-License-Identifier: MIT */
/* userlib/raw/e1000_regs.h — the registers and descriptors of Intel's e1000
 * family that eel's raw driver uses, named as the datasheets name them.
 *
 *   [SDM]   Intel PCI/PCI-X Family of Gigabit Ethernet Controllers Software
 *           Developer's Manual (317453006, rev. 4.0): 82540EP/EM and kin,
 *           QEMU's `e1000` (82540EM). Section numbers below are this manual's.
 *   [82574] Intel 82574 GbE Controller Family Datasheet (317694):
 *           QEMU's `e1000e` (82574L). Its registers keep the 8254x offsets
 *           and bit positions for everything here; what it adds is marked.
 *
 * Everything is little-endian; every register is 32 bits wide and must be
 * accessed as such (QEMU's models reject other widths).
 */
#ifndef EEL_USERLIB_E1000_REGS_H
#define EEL_USERLIB_E1000_REGS_H

#include <stdint.h>

/* PCI device IDs: [SDM] Table 5-1 (82540EM 100Eh); [82574] 10D3h (82574L). */
#define E1000_VENDOR_INTEL	0x8086
#define E1000_DEV_82540EM	0x100e	/* QEMU -device e1000 */
#define E1000_DEV_82574L	0x10d3	/* QEMU -device e1000e */

/* ---- general registers, [SDM] 13.4 (Table 13-2), [82574] 10.2.2 ---- */
#define E1000_CTRL	0x00000	/* 13.4.1 Device Control */
#define E1000_STATUS	0x00008	/* 13.4.2 Device Status */
#define E1000_EERD	0x00014	/* EEPROM Read */
#define E1000_CTRL_EXT	0x00018	/* Extended Device Control */
#define E1000_MDIC	0x00020	/* MDI Control (PHY registers) */
#define E1000_FCAL	0x00028	/* Flow Control Address Low */
#define E1000_FCAH	0x0002c	/* Flow Control Address High */
#define E1000_FCT	0x00030	/* Flow Control Type */
#define E1000_FCTTV	0x00170	/* Flow Control Transmit Timer Value */

/* CTRL, [SDM] 13.4.1 */
#define E1000_CTRL_FD		(1u << 0)	/* full duplex */
#define E1000_CTRL_LRST		(1u << 3)	/* link reset */
#define E1000_CTRL_SLU		(1u << 6)	/* set link up */
#define E1000_CTRL_ILOS		(1u << 7)	/* invert loss-of-signal */
#define E1000_CTRL_FRCSPD	(1u << 11)	/* force speed */
#define E1000_CTRL_FRCDPX	(1u << 12)	/* force duplex */
#define E1000_CTRL_RST		(1u << 26)	/* device reset (self-clearing) */
#define E1000_CTRL_VME		(1u << 30)	/* VLAN mode enable */
#define E1000_CTRL_PHY_RST	(1u << 31)	/* PHY reset */

/* STATUS, [SDM] 13.4.2 */
#define E1000_STATUS_FD		(1u << 0)
#define E1000_STATUS_LU		(1u << 1)	/* link up */
#define E1000_STATUS_SPEED_SHIFT 6		/* 00: 10, 01: 100, 1x: 1000 Mb/s */

/* EERD, [SDM] 13.4: the 82540EM's layout; [82574] 10.2.2 moves the done
 * bit and the address down (the EEPROM is read through it alike). */
#define E1000_EERD_START	(1u << 0)
#define E1000_EERD_DONE		(1u << 4)
#define E1000_EERD_ADDR_SHIFT	8
#define E1000_EERD_DONE_82574	(1u << 1)
#define E1000_EERD_ADDR_SHIFT_82574 2
#define E1000_EERD_DATA_SHIFT	16

/* CTRL_EXT, [82574] 10.2.2: DRV_LOAD tells the manageability firmware a
 * driver owns the device (Intel's drivers set it at load, clear it at unload). */
#define E1000_CTRL_EXT_DRV_LOAD	(1u << 28)

/* MDIC, [SDM] 13.4: one PHY register at a time; the internal PHY is at address 1. */
#define E1000_MDIC_DATA_MASK	0xffffu
#define E1000_MDIC_REG_SHIFT	16
#define E1000_MDIC_PHY_SHIFT	21
#define E1000_MDIC_OP_WRITE	(1u << 26)
#define E1000_MDIC_OP_READ	(2u << 26)
#define E1000_MDIC_READY	(1u << 28)
#define E1000_MDIC_ERROR	(1u << 30)
#define E1000_PHY_ADDR		1u
/* PHY Control: PHY register 0 (IEEE 802.3 clause 22), [SDM] chapter 13 PHY registers */
#define E1000_PHY_CTRL		0u
#define E1000_PHY_CTRL_PDOWN	(1u << 11)	/* power down */

/* ---- interrupts, [SDM] 13.4 (ICR, IMS, IMC) ---- */
#define E1000_ICR	0x000c0	/* Interrupt Cause Read (clear on read) */
#define E1000_IMS	0x000d0	/* Interrupt Mask Set/Read */
#define E1000_IMC	0x000d8	/* Interrupt Mask Clear */
#define E1000_IMC_ALL	0xffffffffu

/* ---- receive, [SDM] 13.4.22 onwards, [82574] 10.2.5 ---- */
#define E1000_RCTL	0x00100	/* 13.4.22 Receive Control */
#define E1000_RDBAL	0x02800	/* Receive Descriptor Base Address Low */
#define E1000_RDBAH	0x02804	/* ... High */
#define E1000_RDLEN	0x02808	/* Receive Descriptor Length (bytes, multiple of 128) */
#define E1000_RDH	0x02810	/* Receive Descriptor Head */
#define E1000_RDT	0x02818	/* Receive Descriptor Tail */
#define E1000_RDTR	0x02820	/* Receive Delay Timer */
#define E1000_RXDCTL	0x02828	/* Receive Descriptor Control */
#define E1000_RADV	0x0282c	/* Receive Interrupt Absolute Delay */
#define E1000_RXCSUM	0x05000	/* Receive Checksum Control */
#define E1000_RFCTL	0x05008	/* [82574] Receive Filter Control (EXTEN: extended descriptors) */
#define E1000_MRQC	0x05818	/* [82574] Multiple Receive Queues Command (RSS) */

/* RCTL, [SDM] 13.4.22 */
#define E1000_RCTL_EN		(1u << 1)	/* receiver enable */
#define E1000_RCTL_SBP		(1u << 2)	/* store bad packets */
#define E1000_RCTL_UPE		(1u << 3)	/* unicast promiscuous */
#define E1000_RCTL_MPE		(1u << 4)	/* multicast promiscuous */
#define E1000_RCTL_LPE		(1u << 5)	/* long packets (> 1522 bytes) */
#define E1000_RCTL_LBM_NONE	(0u << 6)	/* no loopback */
#define E1000_RCTL_RDMTS_HALF	(0u << 8)	/* RX descriptor minimum threshold: 1/2 */
#define E1000_RCTL_DTYP_LEGACY	(0u << 10)	/* [82574] legacy descriptors */
#define E1000_RCTL_MO_36	(0u << 12)	/* multicast offset: bits 47:36 */
#define E1000_RCTL_BAM		(1u << 15)	/* broadcast accept mode */
#define E1000_RCTL_BSIZE_2048	(0u << 16)	/* with BSEX = 0 */
#define E1000_RCTL_VFE		(1u << 18)	/* VLAN filter enable */
#define E1000_RCTL_BSEX		(1u << 25)	/* buffer size extension (x16) */
#define E1000_RCTL_SECRC	(1u << 26)	/* strip Ethernet CRC */

/* RXDCTL / TXDCTL, [SDM] 13.4 (Table 13-86 for TXDCTL), [82574] 10.2.5 / 10.2.6 */
#define E1000_XDCTL_WTHRESH_SHIFT 16
#define E1000_XDCTL_WTHRESH_MASK (0x3fu << 16)
#define E1000_XDCTL_GRAN	(1u << 24)	/* thresholds in descriptors, not cache lines */
#define E1000_TXDCTL_COUNT_DESC	(1u << 22)	/* [82574] set by Intel's e1000e driver, as TXDCTL's reset value has it */

/* ---- transmit, [SDM] 13.4.33-13.4.44, [82574] 10.2.6 ---- */
#define E1000_TCTL	0x00400	/* 13.4.33 Transmit Control */
#define E1000_TIPG	0x00410	/* 13.4.34 Transmit IPG */
#define E1000_TDBAL	0x03800	/* Transmit Descriptor Base Address Low */
#define E1000_TDBAH	0x03804	/* ... High */
#define E1000_TDLEN	0x03808	/* Transmit Descriptor Length */
#define E1000_TDH	0x03810	/* 13.4.39 Transmit Descriptor Head */
#define E1000_TDT	0x03818	/* 13.4.40 Transmit Descriptor Tail: the doorbell */
#define E1000_TIDV	0x03820	/* 13.4.41 Transmit Interrupt Delay */
#define E1000_TXDCTL	0x03828	/* Transmit Descriptor Control */

/* TCTL, [SDM] 13.4.33 */
#define E1000_TCTL_EN		(1u << 1)	/* transmit enable */
#define E1000_TCTL_PSP		(1u << 3)	/* pad short packets (to 64 bytes with the FCS) */
#define E1000_TCTL_CT_SHIFT	4		/* collision threshold; recommended 0Fh */
#define E1000_TCTL_COLD_SHIFT	12		/* collision distance; full duplex: 40h */
#define E1000_TCTL_CT		(0x0fu << E1000_TCTL_CT_SHIFT)
#define E1000_TCTL_COLD_FD	(0x40u << E1000_TCTL_COLD_SHIFT)

/* TIPG, [SDM] 13.4.34: IPGT 9:0, IPGR1 19:10, IPGR2 29:20, in MAC clocks.
 * IPGT 8, IPGR1 8, IPGR2 6: the IEEE 802.3 gap on copper, as Intel's drivers
 * program it for the 82540EM and the 82574L alike. */
#define E1000_TIPG_COPPER	(8u | 8u << 10 | 6u << 20)

/* ---- filters, [SDM] 13.4 (receive address and multicast tables) ---- */
#define E1000_MTA	0x05200	/* Multicast Table Array, 128 registers */
#define E1000_MTA_ENTRIES 128u
#define E1000_RAL0	0x05400	/* Receive Address Low: MAC bytes 0-3 */
#define E1000_RAH0	0x05404	/* Receive Address High: MAC bytes 4-5, AV */
#define E1000_RAH_AV	(1u << 31)	/* address valid */

/* ---- statistics, [SDM] 13.7 (clear on read) ---- */
#define E1000_GPRC	0x04074	/* Good Packets Received Count */
#define E1000_GPTC	0x04080	/* Good Packets Transmitted Count */

/* ---- descriptors ---- */

/* Receive descriptor, [SDM] 3.2.3 (legacy format; [82574] 7.1 keeps it
 * while RFCTL.EXTEN = 0 and RCTL.DTYP = 0). */
struct e1000_rx_desc {
	uint64_t addr;     /* buffer bus address */
	uint16_t length;   /* bytes DMA'd into the buffer (CRC stripped with SECRC) */
	uint16_t csum;
	uint8_t status;    /* DD, EOP, ... */
	uint8_t errors;    /* CE, SE, SEQ, RXE, ... */
	uint16_t special;
};
_Static_assert(sizeof(struct e1000_rx_desc) == 16, "receive descriptor is 16 bytes");

#define E1000_RXD_STAT_DD	(1u << 0)	/* descriptor done */
#define E1000_RXD_STAT_EOP	(1u << 1)	/* end of packet */
#define E1000_RXD_ERR_MASK	0xffu		/* CE SE SEQ RXE ...: any error */

/* Transmit descriptor, [SDM] 3.3.3 (legacy format: DEXT = 0; [82574] 7.2). */
struct e1000_tx_desc {
	uint64_t addr;     /* buffer bus address */
	uint16_t length;   /* bytes to send from the buffer */
	uint8_t cso;
	uint8_t cmd;       /* EOP, IFCS, RS, ... */
	uint8_t status;    /* DD, written back when RS was set */
	uint8_t css;
	uint16_t special;
};
_Static_assert(sizeof(struct e1000_tx_desc) == 16, "transmit descriptor is 16 bytes");

#define E1000_TXD_CMD_EOP	(1u << 0)	/* end of packet */
#define E1000_TXD_CMD_IFCS	(1u << 1)	/* insert the Ethernet FCS */
#define E1000_TXD_CMD_RS	(1u << 3)	/* report status: write DD back */
#define E1000_TXD_CMD_DEXT	(1u << 5)	/* extension: 0 = legacy */
#define E1000_TXD_STAT_DD	(1u << 0)	/* descriptor done */

/* Ring lengths: RDLEN and TDLEN ([SDM] 13.4) want a multiple of 128 bytes. */
#define E1000_RING_ALIGN	128u

#endif
