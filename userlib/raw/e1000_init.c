/* SPDX-License-Identifier: MIT */
/* userlib/raw/e1000_init.c — resetting and initialising an 82540EM or 82574L
 * for eel's raw driver: the sequences of [SDM] chapter 14 (14.3 general
 * configuration, 14.4 receive, 14.5 transmit) and of [82574] 4.6 (global
 * reset and general configuration, receive and transmit initialisation),
 * legacy descriptors, interrupts masked, polling only. Abbreviations as in
 * e1000_regs.h. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "userlib/core/dev.h"
#include "userlib/raw/e1000.h"

static const struct e1000_model models[] = {
	{ E1000_DEV_82540EM, "82540EM", "QEMU e1000", 0 },
	{ E1000_DEV_82574L, "82574L", "QEMU e1000e", 1 },
};

static const uint16_t ids[][2] = {
	{ E1000_VENDOR_INTEL, E1000_DEV_82540EM },
	{ E1000_VENDOR_INTEL, E1000_DEV_82574L },
};

const char e1000_supported[] = "8086:100e (Intel 82540EM, QEMU's e1000) and 8086:10d3 (Intel 82574L, "
			       "QEMU's e1000e)";

const struct e1000_model *e1000_model_of(uint16_t device)
{
	for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++)
		if (models[i].device == device)
			return &models[i];
	return NULL;
}

/* Poll reg until (reg & mask) == want, for at most timeout_ms. */
static int wait_reg(struct e1000 *nic, uint32_t reg, uint32_t mask, uint32_t want, uint32_t timeout_ms)
{
	for (uint64_t us = 0;; us += 100) {
		if ((e1000_rd(nic, reg) & mask) == want)
			return 0;
		if (us >= (uint64_t)timeout_ms * 1000)
			return -ETIMEDOUT;
		usleep(100);
	}
}

/* One PHY register through MDIC ([SDM] 13.4, MDI Control): write the
 * command, poll READY, check ERROR. */
static int phy_cmd(struct e1000 *nic, uint32_t op, uint32_t reg, uint16_t *v)
{
	uint32_t m = op | reg << E1000_MDIC_REG_SHIFT | E1000_PHY_ADDR << E1000_MDIC_PHY_SHIFT |
		     (op == E1000_MDIC_OP_WRITE ? *v : 0);

	e1000_wr(nic, E1000_MDIC, m);
	for (int i = 0; i < 1000; i++) {
		m = e1000_rd(nic, E1000_MDIC);
		if (m & E1000_MDIC_READY) {
			if (m & E1000_MDIC_ERROR)
				return -EIO;
			*v = (uint16_t)(m & E1000_MDIC_DATA_MASK);
			return 0;
		}
		usleep(10);
	}
	return -ETIMEDOUT;
}

/* Stop receive and transmit DMA and mask every interrupt ([SDM] 14.3;
 * [82574] 4.6: interrupts off before and after a reset). */
static void quiesce(struct e1000 *nic)
{
	e1000_wr(nic, E1000_IMC, E1000_IMC_ALL);
	e1000_wr(nic, E1000_RCTL, 0);
	e1000_wr(nic, E1000_TCTL, 0);
	(void)e1000_rd(nic, E1000_STATUS); /* flush the posted writes */
	usleep(10000);                     /* let a frame in flight finish its DMA */
}

/* Global reset: CTRL.RST ([SDM] 13.4.1: wait before touching the device
 * again; it clears itself), then interrupts masked again and ICR cleared. */
static int reset(struct e1000 *nic, uint32_t timeout_ms)
{
	quiesce(nic);
	e1000_wr(nic, E1000_CTRL, e1000_rd(nic, E1000_CTRL) | E1000_CTRL_RST);
	usleep(nic->model->is_82574 ? 10000 : 1000);
	if (wait_reg(nic, E1000_CTRL, E1000_CTRL_RST, 0, timeout_ms))
		return eel_err(-ETIMEDOUT, "raw: %s (%s) did not come out of reset (CTRL.RST still set after "
			       "%u ms)", nic->pci.addr, nic->model->chip, timeout_ms);
	e1000_wr(nic, E1000_IMC, E1000_IMC_ALL);
	(void)e1000_rd(nic, E1000_ICR);
	return 0;
}

/* The station address: RAL0/RAH0 as the EEPROM loaded them; if not valid,
 * the EEPROM's words 0-2 through EERD. Written back with RAH.AV set, so the
 * NIC's unicast filter passes frames for it ([SDM] 14.4). */
static int read_mac(struct e1000 *nic)
{
	uint32_t ral = e1000_rd(nic, E1000_RAL0), rah = e1000_rd(nic, E1000_RAH0);

	if (!(rah & E1000_RAH_AV)) {
		int e = nic->model->is_82574;
		uint32_t done = e ? E1000_EERD_DONE_82574 : E1000_EERD_DONE;
		uint32_t shift = e ? E1000_EERD_ADDR_SHIFT_82574 : E1000_EERD_ADDR_SHIFT;
		uint16_t w[3];

		for (uint32_t i = 0; i < 3; i++) {
			e1000_wr(nic, E1000_EERD, E1000_EERD_START | i << shift);
			if (wait_reg(nic, E1000_EERD, done, done, 100))
				return eel_err(-EIO, "raw: %s has no valid MAC address in RAL0/RAH0 and its EEPROM does "
					       "not answer: is it the NIC you meant?", nic->pci.addr);
			w[i] = (uint16_t)(e1000_rd(nic, E1000_EERD) >> E1000_EERD_DATA_SHIFT);
		}
		ral = w[0] | (uint32_t)w[1] << 16;
		rah = w[2];
	}
	for (int i = 0; i < 4; i++)
		nic->mac[i] = (uint8_t)(ral >> (8 * i));
	nic->mac[4] = (uint8_t)rah;
	nic->mac[5] = (uint8_t)(rah >> 8);
	if (!(nic->mac[0] | nic->mac[1] | nic->mac[2] | nic->mac[3] | nic->mac[4] | nic->mac[5]) ||
	    (nic->mac[0] & 1))
		return eel_err(-EIO, "raw: %s's MAC address %02x:%02x:%02x:%02x:%02x:%02x is not a unicast "
			       "address: give the NIC one (QEMU: -device e1000,mac=52:54:00:...)", nic->pci.addr,
			       nic->mac[0], nic->mac[1], nic->mac[2], nic->mac[3], nic->mac[4], nic->mac[5]);
	e1000_wr(nic, E1000_RAL0, ral);
	e1000_wr(nic, E1000_RAH0, (rah & 0xffff) | E1000_RAH_AV);
	return 0;
}

/* General configuration and link ([SDM] 14.3; [82574] 4.6): link up set by
 * software (CTRL.SLU), speed and duplex from the PHY (no forcing), no VLAN
 * mode, no flow control; the internal PHY powered up (a kernel driver
 * powers it down when it lets go of the NIC); then STATUS.LU, waited for. */
static int link_up(struct e1000 *nic, uint32_t timeout_ms)
{
	uint32_t ctrl = e1000_rd(nic, E1000_CTRL);
	uint16_t bmcr;

	ctrl &= ~(E1000_CTRL_LRST | E1000_CTRL_FRCSPD | E1000_CTRL_FRCDPX | E1000_CTRL_ILOS | E1000_CTRL_VME |
		  E1000_CTRL_PHY_RST);
	e1000_wr(nic, E1000_CTRL, ctrl | E1000_CTRL_SLU);
	e1000_wr(nic, E1000_FCAL, 0);
	e1000_wr(nic, E1000_FCAH, 0);
	e1000_wr(nic, E1000_FCT, 0);
	e1000_wr(nic, E1000_FCTTV, 0);
	if (nic->model->is_82574)
		e1000_wr(nic, E1000_CTRL_EXT, e1000_rd(nic, E1000_CTRL_EXT) | E1000_CTRL_EXT_DRV_LOAD);
	if (!phy_cmd(nic, E1000_MDIC_OP_READ, E1000_PHY_CTRL, &bmcr) && (bmcr & E1000_PHY_CTRL_PDOWN)) {
		bmcr &= (uint16_t)~E1000_PHY_CTRL_PDOWN;
		phy_cmd(nic, E1000_MDIC_OP_WRITE, E1000_PHY_CTRL, &bmcr);
	}
	if (wait_reg(nic, E1000_STATUS, E1000_STATUS_LU, E1000_STATUS_LU, timeout_ms))
		return eel_err(-ENOLINK, "raw: %s (%s) has no link after %u ms (STATUS.LU is 0): is a cable "
			       "(or QEMU netdev) attached?", nic->pci.addr, nic->model->chip, timeout_ms);
	return 0;
}

/* Receive initialisation ([SDM] 14.4; [82574] 4.6, legacy descriptors):
 * multicast table cleared, the ring's base, length, head 0 and tail at the
 * last descriptor (every buffer but one given to the NIC), then RCTL:
 * receiver on, broadcasts accepted, no promiscuity, no loopback, 2048-byte
 * buffers, Ethernet CRC stripped. */
static void rx_init(struct e1000 *nic, uint64_t ring_bus)
{
	for (uint32_t i = 0; i < E1000_MTA_ENTRIES; i++)
		e1000_wr(nic, E1000_MTA + 4 * i, 0);
	for (uint32_t i = 0; i < E1000_NRX; i++) {
		nic->rxd[i].addr = nic->rx_buf_bus + (uint64_t)i * E1000_BUF;
		nic->rxd[i].status = 0;
	}
	if (nic->model->is_82574) {
		/* [82574] 10.2.5: legacy descriptors (RFCTL.EXTEN = 0), one queue
		 * (MRQC: no RSS), each descriptor written back when done (RXDCTL
		 * WTHRESH = 1, in descriptors). */
		e1000_wr(nic, E1000_RFCTL, 0);
		e1000_wr(nic, E1000_MRQC, 0);
		e1000_wr(nic, E1000_RXDCTL, E1000_XDCTL_GRAN | 1u << E1000_XDCTL_WTHRESH_SHIFT);
	}
	e1000_wr(nic, E1000_RDTR, 0);
	e1000_wr(nic, E1000_RDBAL, (uint32_t)ring_bus);
	e1000_wr(nic, E1000_RDBAH, (uint32_t)(ring_bus >> 32));
	e1000_wr(nic, E1000_RDLEN, E1000_NRX * (uint32_t)sizeof(struct e1000_rx_desc));
	e1000_wr(nic, E1000_RDH, 0);
	e1000_wr(nic, E1000_RDT, 0);
	e1000_wmb();
	e1000_wr(nic, E1000_RDT, E1000_NRX - 1);
	e1000_wr(nic, E1000_RCTL, E1000_RCTL_EN | E1000_RCTL_BAM | E1000_RCTL_SECRC | E1000_RCTL_BSIZE_2048 |
				  E1000_RCTL_LBM_NONE | E1000_RCTL_RDMTS_HALF | E1000_RCTL_MO_36 |
				  E1000_RCTL_DTYP_LEGACY);
}

/* Transmit initialisation ([SDM] 14.5; [82574] 4.6): the ring's base,
 * length, head = tail = 0 (empty), then TCTL: transmitter on, short frames
 * padded, collision threshold 0Fh and full-duplex collision distance 40h as
 * recommended ([SDM] 13.4.33), and the inter-packet gap ([SDM] 13.4.34). */
static void tx_init(struct e1000 *nic, uint64_t ring_bus)
{
	memset((void *)nic->txd, 0, E1000_NTX * sizeof(struct e1000_tx_desc));
	if (nic->model->is_82574) {
		/* [82574] 10.2.6 TXDCTL: write every descriptor back as soon as it
		 * is done (WTHRESH = 1, in descriptors), as Intel's driver does. */
		uint32_t t = e1000_rd(nic, E1000_TXDCTL) & ~E1000_XDCTL_WTHRESH_MASK;

		e1000_wr(nic, E1000_TXDCTL, t | E1000_XDCTL_GRAN | E1000_TXDCTL_COUNT_DESC |
					    1u << E1000_XDCTL_WTHRESH_SHIFT);
	}
	e1000_wr(nic, E1000_TIDV, 0);
	e1000_wr(nic, E1000_TDBAL, (uint32_t)ring_bus);
	e1000_wr(nic, E1000_TDBAH, (uint32_t)(ring_bus >> 32));
	e1000_wr(nic, E1000_TDLEN, E1000_NTX * (uint32_t)sizeof(struct e1000_tx_desc));
	e1000_wr(nic, E1000_TDH, 0);
	e1000_wr(nic, E1000_TDT, 0);
	e1000_wr(nic, E1000_TIPG, E1000_TIPG_COPPER);
	e1000_wr(nic, E1000_TCTL, E1000_TCTL_EN | E1000_TCTL_PSP | E1000_TCTL_CT | E1000_TCTL_COLD_FD);
}

/* Rings and buffers in one DMA region: RX ring, TX ring (4 KB each, so
 * 128-byte aligned), RX buffers, TX buffers. */
static int carve(struct e1000 *nic)
{
	size_t rx_ring = E1000_NRX * sizeof(struct e1000_rx_desc);
	size_t tx_ring = E1000_NTX * sizeof(struct e1000_tx_desc);
	size_t len = rx_ring + tx_ring + (size_t)(E1000_NRX + E1000_NTX) * E1000_BUF;
	uint8_t *va;
	int rc;

	_Static_assert(E1000_NRX * sizeof(struct e1000_rx_desc) % E1000_RING_ALIGN == 0, "RDLEN: 128-byte multiple");
	_Static_assert(E1000_NTX * sizeof(struct e1000_tx_desc) % E1000_RING_ALIGN == 0, "TDLEN: 128-byte multiple");
	if ((rc = raw_dma_alloc(&nic->pci, len, &nic->dma)))
		return rc;
	va = nic->dma.va;
	nic->rxd = (volatile struct e1000_rx_desc *)va;
	nic->txd = (volatile struct e1000_tx_desc *)(va + rx_ring);
	nic->rx_buf = va + rx_ring + tx_ring;
	nic->rx_buf_bus = nic->dma.bus + rx_ring + tx_ring;
	nic->tx_buf = nic->rx_buf + (size_t)E1000_NRX * E1000_BUF;
	nic->tx_buf_bus = nic->rx_buf_bus + (uint64_t)E1000_NRX * E1000_BUF;
	return 0;
}

int e1000_open(struct e1000 *nic, const char *addr, uint32_t timeout_ms)
{
	int rc;

	memset(nic, 0, sizeof(*nic));
	if ((rc = raw_pci_open(&nic->pci, addr, ids, (int)(sizeof(ids) / sizeof(ids[0])), e1000_supported)))
		return rc;
	nic->model = e1000_model_of(nic->pci.device);
	nic->regs = nic->pci.bar0;
	if (nic->pci.bar0_len < E1000_RAH0 + 4) {
		rc = eel_err(-ENODEV, "raw: %s's BAR 0 is only %zu bytes: not an e1000", addr, nic->pci.bar0_len);
		goto fail;
	}
	if ((rc = carve(nic)) || (rc = reset(nic, timeout_ms)) || (rc = read_mac(nic)) ||
	    (rc = link_up(nic, timeout_ms)))
		goto fail;
	/* Statistics from zero ([SDM] 13.7: they clear on read). */
	(void)e1000_rd(nic, E1000_GPRC);
	(void)e1000_rd(nic, E1000_GPTC);
	rx_init(nic, nic->dma.bus);
	tx_init(nic, nic->dma.bus + E1000_NRX * sizeof(struct e1000_rx_desc));
	nic->running = 1;
	return 0;
fail:
	e1000_close(nic);
	return rc;
}

void e1000_close(struct e1000 *nic)
{
	if (nic->regs) {
		/* Nothing may reach the memory after it is freed: receive and
		 * transmit off, the rings' addresses gone, then a reset. */
		quiesce(nic);
		e1000_wr(nic, E1000_RDLEN, 0);
		e1000_wr(nic, E1000_RDBAL, 0);
		e1000_wr(nic, E1000_RDBAH, 0);
		e1000_wr(nic, E1000_TDLEN, 0);
		e1000_wr(nic, E1000_TDBAL, 0);
		e1000_wr(nic, E1000_TDBAH, 0);
		if (nic->model && nic->model->is_82574)
			e1000_wr(nic, E1000_CTRL_EXT, e1000_rd(nic, E1000_CTRL_EXT) & ~E1000_CTRL_EXT_DRV_LOAD);
		e1000_wr(nic, E1000_CTRL, e1000_rd(nic, E1000_CTRL) | E1000_CTRL_RST);
		usleep(1000);
		nic->running = 0;
	}
	raw_dma_free(&nic->pci, &nic->dma);
	raw_pci_close(&nic->pci);
	nic->regs = NULL;
}
