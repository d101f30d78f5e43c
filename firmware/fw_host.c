/* SPDX-License-Identifier: MIT */
/* firmware/fw_host.c — what the NIC writes for its host: completions, the
 * status block, trace stamps (struct layouts in eel/fw_abi.h); the
 * counters are fw_count, inline in fw_host.h. */
#include "fw_host.h"
#include "fw_ahead.h"

/* A completion queue entry: body first, then `owner` (the pass over the ring,
 * starting at 1), so a host that sees the new owner sees the whole entry —
 * hal_dma_write keeps writes in order. */
void fw_cqe(struct fw *fw, uint8_t opcode, uint8_t status, uint64_t wr_id, uint32_t len,
	    uint32_t imm, uint32_t msg_id, uint32_t trace)
{
	struct eel_fw_cqe e = {
		.wr_id = wr_id, .len = len, .imm = imm, .opcode = opcode,
		.status = status, .msg_id = msg_id, .trace = trace,
	};
	uint64_t at = fw->cq_base + (fw->cq_prod & fw->cq_mask) * sizeof(e);
	uint32_t owner = (uint32_t)(((fw->cq_prod / (fw->cq_mask + 1)) + 1) & 1);

	hal_dma_write(&fw->hal, at, &e, offsetof(struct eel_fw_cqe, owner));
	hal_dma_write(&fw->hal, at + offsetof(struct eel_fw_cqe, owner), &owner, 4);
	fw->cq_prod++;
}

static uint64_t trace_addr(struct fw *fw, int rx, uint32_t rec)
{
	uint32_t i = (rx ? fw->trace_size : 0) + (rec & (fw->trace_size - 1));

	return fw->trace_base + (uint64_t)i * sizeof(struct eel_trace);
}

/* A traced message's records are written after the data they time has gone
 * (the frame sent, the payload and the status written), never on its path:
 * a stamp is kept in the firmware's own state as it is taken (the message,
 * fw->rx_tr) and the record written whole later, its `valid` last. */

/* A TX record: the host wrote its want and its own stamps; this NIC's
 * (NIC_FETCH, NIC_TX, each if asked for), the message number, done. */
void fw_trace_tx(struct fw *fw, const struct fw_msg *m, uint64_t t_tx)
{
	uint64_t at = trace_addr(fw, 0, m->trace - 1), t[2] = { m->t_fetch, t_tx };
	uint32_t one = 1;

	hal_dma_write(&fw->hal, at + offsetof(struct eel_trace, msg_id), &m->msg_id, 4);
	hal_dma_write(&fw->hal, at + offsetof(struct eel_trace, t[EEL_ST_NIC_FETCH]), t, sizeof(t));
	hal_dma_write(&fw->hal, at + offsetof(struct eel_trace, valid), &one, 4);
}

/* Write the RX record of the last message received, pending: NIC_RX..DMA_DONE
 * as taken, every other stamp 0 (DETECT is the host's, engine.c). Through
 * fw_trace_rx_flush (fw_host.h), when the NIC has sent what it had to
 * (fw_doorbell, fw_step), or before the next traced message's record is
 * begun. */
void fw_trace_rx_write(struct fw *fw)
{
	uint64_t at;
	uint32_t one = 1;
	struct eel_trace rec = { .msg_id = fw->rx_tr.msg_id, .want = fw->rx_tr.want };

	fw->rx_tr.pending = 0;
	at = trace_addr(fw, 1, fw->rx_tr.slot);
	for (int k = EEL_ST_NIC_RX; k <= EEL_ST_DMA_DONE; k++)
		rec.t[k] = fw->rx_tr.t[k - EEL_ST_NIC_RX];
	hal_dma_write(&fw->hal, at, &rec, sizeof(rec));
	hal_dma_write(&fw->hal, at + offsetof(struct eel_trace, valid), &one, 4);
}

/* Answer in the register: the loaded value first, then the status the host
 * waits on. */
void fw_ereg_done(struct fw *fw, const struct fw_msg *m, uint32_t status, const uint64_t *value)
{
	const struct fw_hal *h = &fw->hal;

	if (value)
		hal_reg_write64(h, EREG(m->ereg, value), *value);
	hal_reg_write32(h, EREG(m->ereg, status), m->ereg_seq << 8 | EEL_FW_EREG_DONE | status);
}

/* The connection failed (a refused access, a dead peer, a bad layout): remember
 * why, tell the host, and finish everything in flight as flushed. From now on
 * the NIC refuses new work with EEL_FW_ERR_FLUSHED, like an RC queue pair in
 * the error state. */
void fw_fail(struct fw *fw, uint32_t code, uint32_t info)
{
	if (fw->error)
		return;
	fw->error = code;
	fw->error_info = info;
	fw_status_write(fw, offsetof(struct eel_fw_status, error_info), &info, 4);
	fw_status_write(fw, offsetof(struct eel_fw_status, error), &code, 4);
	while (fw->msg_head != fw->msg_tail) {
		struct fw_msg *m = &fw->msg[fw->msg_head & (FW_MSGS - 1)];

		fw_complete(fw, m, EEL_FW_ERR_FLUSHED);
		fw->msg_head++;
	}
	fw_ahead_drop(fw); /* their messages are flushed */
	fw->msg_tx = fw->msg_head;
	fw->snd_una = fw->snd_nxt = fw->snd_max = fw->psn_next;
	fw->rto_deadline = 0;
}
