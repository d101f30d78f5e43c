/* SPDX-License-Identifier: MIT */
/* firmware/fw_main.c — power-on, configuration, and the main loop. */
#include "fw_main.h"
#include "fw_recv.h"
#include "fw_fetch.h"
#include "fw_send.h"
#include "fw_ereg.h"
#include "fw_host.h"
#include "fw_rto.h"

/* Power-on reset: everything cleared, the ABI version published. */
void fw_reset(struct fw *fw, const struct fw_hal *hal)
{
	uint8_t *p = (uint8_t *)fw;

	for (size_t i = 0; i < sizeof(*fw); i++)
		p[i] = 0;
	fw->hal = *hal;
	hal_reg_write32(&fw->hal, FW_REG(abi), EEL_FW_ABI_VERSION);
	for (int c = 0; c < EEL_FW_COUNTERS; c++)
		hal_reg_write64(&fw->hal, FW_REG(counters[c]), 0);
}

static int is_pow2(uint32_t v)
{
	return v && !(v & (v - 1));
}

/* Take the configuration the host wrote before it set ENABLE. A layout the
 * firmware cannot run with fails the NIC, which the host sees in its status
 * block (EEL_FW_ERR_BAD_DESC). */
static void fw_start(struct fw *fw)
{
	const struct fw_hal *h = &fw->hal;
	uint32_t sq_size = hal_reg_read32(h, FW_REG(sq_size));
	uint32_t cq_size = hal_reg_read32(h, FW_REG(cq_size));

	fw->sq_base = hal_reg_read64(h, FW_REG(sq_base));
	fw->cq_base = hal_reg_read64(h, FW_REG(cq_base));
	fw->mr_base = hal_reg_read64(h, FW_REG(mr_base));
	fw->mr_size = hal_reg_read32(h, FW_REG(mr_size));
	fw->status_base = hal_reg_read64(h, FW_REG(status_base));
	fw->trace_base = hal_reg_read64(h, FW_REG(trace_base));
	fw->trace_size = hal_reg_read32(h, FW_REG(trace_size));
	fw->mtu = hal_reg_read32(h, FW_REG(mtu));
	fw->rto = hal_reg_read64(h, FW_REG(rto));
	fw->rto_min = hal_reg_read64(h, FW_REG(rto_min));
	fw_rto_init(fw);
	fw->retry_limit = hal_reg_read32(h, FW_REG(retry_limit));
	fw->recovery = hal_reg_read32(h, FW_REG(recovery));
	fw->delay_fetch = hal_reg_read64(h, FW_REG(delay_fetch));
	fw->delay_tx = hal_reg_read64(h, FW_REG(delay_tx));
	fw->delay_rx = hal_reg_read64(h, FW_REG(delay_rx));
	fw->delay_dma = hal_reg_read64(h, FW_REG(delay_dma));
	fw->delay_payload = hal_reg_read64(h, FW_REG(delay_payload));
	fw->rx_plain = h->regs && h->dma_direct && !fw->delay_rx && !fw->delay_dma;
	fw->rx_delayed = h->regs && h->dma_direct && (fw->delay_rx || fw->delay_dma);
	/* a cached key's index was inside the table it was fetched from
	 * (fw_mr.h): a new configuration's table starts with none */
	for (uint32_t i = 0; i < FW_MR_CACHE; i++)
		fw->mr_cache[i] = (struct fw_mr_slot){ 0 };
	fw->sq_mask = sq_size - 1;
	fw->cq_mask = cq_size - 1;
	fw->running = 1;
	fw->tx_plain = h->regs && h->dma_direct && !(fw->delay_fetch | fw->delay_tx | fw->delay_payload);

	if (!is_pow2(sq_size) || !is_pow2(cq_size) || !fw->status_base ||
	    (fw->trace_size && !is_pow2(fw->trace_size)) ||
	    fw->mtu < EEL_FW_MTU_MIN || fw->mtu > EEL_FW_MTU_MAX || !fw->rto ||
	    fw->recovery > EEL_FW_RECOVERY_SR)
		fw_fail(fw, EEL_FW_ERR_BAD_DESC, 0);
}

/* One pass of the main loop. Returns non-zero when it did any work, so that a
 * host with spare time can tell an idle NIC from a busy one. */
int fw_step(struct fw *fw)
{
	uint32_t ctrl = hal_reg_read32(&fw->hal, FW_REG(ctrl));
	int work, got, sent;

	if (!(ctrl & EEL_FW_CTRL_ENABLE)) {
		fw->running = 0;
		return 0;
	}
	if (!fw->running)
		fw_start(fw);
	if (!(ctrl & EEL_FW_CTRL_LINK))
		return 0;

	got = fw_recv(fw);
	work = got | fw_fetch_eregs(fw);
	work |= fw_fetch_sq(fw);
	sent = fw_send(fw);
	/* a received message's trace record, once what this pass had to send
	 * is out, or on a pass with nothing to do: not in the pass that took
	 * the message in, while its host may be answering it */
	if (sent || !(work | got))
		fw_trace_rx_flush(fw);
	return work | sent;
}

/* The two halves of a pass, for a host that runs the firmware on its own
 * thread (the software NIC inline): the doorbell's half is the send side
 * (E-registers, the send queue, the wire), so a put goes out when it is rung
 * without first polling the wire; the receive half takes the wire's frames
 * in, so a host waiting for data looks at memory as soon as they landed. */
int fw_doorbell(struct fw *fw)
{
	int work;

	if (!fw_ready(fw))
		return fw_step(fw);
	/* the send queue's packets go out before the E-registers are looked
	 * at (a put's path is the one eel times most); a command found there
	 * goes out after them. One send pass when only one of them rang: an
	 * E-register store does not wait for a send pass with nothing of its
	 * own to send. A lone put with nothing else to do goes straight to the
	 * wire (fw_send_lone); anything else through the fetch and fw_send */
	work = fw_send_lone(fw);
	if (!work && (work = fw_fetch_sq(fw)))
		work |= fw_send(fw);
	if (fw_fetch_eregs(fw))
		work |= fw_send(fw) | 1;
	else if (!work)
		work = fw_send(fw);
	fw_trace_rx_flush(fw); /* what was sent is out */
	return work;
}

/* fw_receive's other cases: registers through the HAL's calls, or a NIC
 * not ready (fw_step does what is due). */
int fw_receive_step(struct fw *fw)
{
	return fw_ready(fw) ? fw_recv(fw) : fw_step(fw);
}
