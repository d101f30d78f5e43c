/* SPDX-License-Identifier: MIT */
/* firmware/fw_host.h — what the NIC writes for its host (fw_host.c):
 * completions, E-register answers, the status block and the error state,
 * trace stamps, counters. */
#ifndef EEL_FW_HOST_H
#define EEL_FW_HOST_H

#include "fw.h"

void fw_cqe(struct fw *fw, uint8_t opcode, uint8_t status, uint64_t wr_id, uint32_t len,
	    uint32_t imm, uint32_t msg_id, uint32_t trace);
void fw_ereg_done(struct fw *fw, const struct fw_msg *m, uint32_t status, const uint64_t *value);
void fw_fail(struct fw *fw, uint32_t code, uint32_t info);
void fw_trace_tx(struct fw *fw, const struct fw_msg *m, uint64_t t_tx);
void fw_trace_rx_write(struct fw *fw);

/* Write the RX record of the last message received, if not yet done
 * (fw_trace_rx_write). Inline: every doorbell passes here, nearly always
 * with nothing to write. */
static inline void fw_trace_rx_flush(struct fw *fw)
{
	if (fw->rx_tr.pending)
		fw_trace_rx_write(fw);
}

/* Does a traced message that asked for want (0: every stamp) take `stage`? */
static inline int fw_wants(uint32_t want, int stage)
{
	return !want || (want & (1u << stage));
}

/* A counter moved: kept here, mirrored in the BAR for the host. Inline: a
 * handful a message, each a call and return more than its work. */
static inline __attribute__((always_inline)) void fw_count(struct fw *fw, int counter, uint64_t n)
{
	fw->cnt[counter] += n;
	hal_reg_write64(&fw->hal, FW_REG(counters[counter]), fw->cnt[counter]);
}

/* A field of the status block in host memory (struct eel_fw_status). Inline:
 * once a message sent and once received. */
static inline __attribute__((always_inline)) void fw_status_write(struct fw *fw, uint32_t field_off, const void *v,
							    uint32_t len)
{
	hal_dma_write(&fw->hal, fw->status_base + field_off, v, len);
}

/* A message is finished: acknowledged, refused, or flushed. Send-queue
 * descriptors get a CQE when signalled and always on error (as verbs does);
 * E-registers get their status; the host learns the freed SQ slots. Inline:
 * once a message sent, at its ACK, and its call was ~10 of the ~30
 * instructions an unsignalled put's completion takes. */
static inline __attribute__((always_inline)) void fw_complete(struct fw *fw, struct fw_msg *m, uint32_t status)
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

#endif
