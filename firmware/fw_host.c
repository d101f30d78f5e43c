/* firmware/fw_host.c — what the NIC writes for its host: completions, the
 * status block, trace stamps (struct layouts in eel/fw_abi.h); the
 * counters are fw_count, inline in fw_host.h. */
#include "fw_host.h"

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

/* A message is finished: acknowledged, refused, or flushed. Send-queue
 * descriptors get a CQE when signalled and always on error (as verbs does);
 * E-registers get their status; the host learns the freed SQ slots. */
void fw_complete(struct fw *fw, struct fw_msg *m, uint32_t status)
{
	if (m->kind == FW_MSG_SQE) {
		if ((m->flags & EEL_FW_SQE_SIGNALED) || status != EEL_FW_OK)
			fw_cqe(fw, EEL_FW_CQE_PUT, (uint8_t)status, m->wr_id, m->len, 0,
			       m->msg_id, m->trace);
		fw->sq_cons++;
		fw_status_write(fw, offsetof(struct eel_fw_status, sq_cons), &fw->sq_cons, 8);
	} else if (m->kind == FW_MSG_EPUT || (m->kind == FW_MSG_EGET && !m->answered)) {
		fw_ereg_done(fw, m, status, 0);
	}
	if (status == EEL_FW_OK)
		fw_count(fw, EEL_FW_CNT_TX_MSGS, 1);
}

void fw_status_write(struct fw *fw, uint32_t field_off, const void *v, uint32_t len)
{
	hal_dma_write(&fw->hal, fw->status_base + field_off, v, len);
}

static uint64_t trace_addr(struct fw *fw, int rx, uint32_t rec)
{
	uint32_t i = (rx ? fw->trace_size : 0) + (rec & (fw->trace_size - 1));

	return fw->trace_base + (uint64_t)i * sizeof(struct eel_trace);
}

void fw_stamp(struct fw *fw, int rx, uint32_t rec, int stage, uint64_t t)
{
	hal_dma_write(&fw->hal, trace_addr(fw, rx, rec) + offsetof(struct eel_trace, t[0]) +
				       (uint64_t)stage * 8, &t, 8);
}

void fw_stamp_null(struct fw *fw, int rx, uint32_t rec, uint64_t t)
{
	hal_dma_write(&fw->hal, trace_addr(fw, rx, rec) + offsetof(struct eel_trace, t_null), &t, 8);
}

/* Stamp `stage` now if the message asks for it (want; 0: every stamp), and
 * where the null interval is read (EEL_TRACE_NULL, its last stamp) read the
 * clock again at once, after the first stamp's write: what a stamp adds to
 * the stage it begins. */
void fw_stamp_now(struct fw *fw, int rx, uint32_t rec, uint32_t want, int stage)
{
	if (want && !(want & (1u << stage)))
		return;
	fw_stamp(fw, rx, rec, stage, hal_now(&fw->hal));
	if (eel_trace_null_here(want, stage))
		fw_stamp_null(fw, rx, rec, hal_now(&fw->hal));
}

/* Start a record. A TX record's want was written by the host that posted
 * the message. An RX record is the NIC's: a message that asks for all its
 * stamps (want 0, a sender before stamps were chosen) has it cleared whole;
 * one that chose its stamps, only its header (the rest is read by want) and
 * DETECT, which the host stamps once. */
void fw_trace_begin(struct fw *fw, int rx, uint32_t rec, uint32_t msg_id, uint32_t want)
{
	uint64_t at = trace_addr(fw, rx, rec);

	if (rx && !want) {
		struct eel_trace zero = { 0 };

		hal_dma_write(&fw->hal, at, &zero, sizeof(zero));
	} else if (rx) {
		uint32_t head[4] = { msg_id, 0, want, 0 };
		uint64_t none = 0;

		hal_dma_write(&fw->hal, at, head, sizeof(head));
		if (want & (1u << EEL_ST_DETECT))
			hal_dma_write(&fw->hal, at + offsetof(struct eel_trace, t[EEL_ST_DETECT]), &none, 8);
		return;
	}
	hal_dma_write(&fw->hal, at + offsetof(struct eel_trace, msg_id), &msg_id, 4);
}

void fw_trace_end(struct fw *fw, int rx, uint32_t rec)
{
	uint32_t one = 1;

	hal_dma_write(&fw->hal, trace_addr(fw, rx, rec) + offsetof(struct eel_trace, valid), &one, 4);
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
	fw->msg_tx = fw->msg_head;
	fw->snd_una = fw->snd_nxt = fw->snd_max = fw->psn_next;
	fw->rto_deadline = 0;
}
