/* SPDX-License-Identifier: MIT */
/* firmware/fw_fetch.c — the fetch: descriptors taken from the send queue
 * (a DMA read of each 64-byte SQE) into the message table, each message's
 * PSNs assigned as it is taken. E-register commands are fetched beside it
 * (fw_ereg.c), into the same table. */
#include "fw_fetch.h"
#include "fw_ack.h"
#include "fw_host.h"
#include "fw_mr.h"

/* Take new descriptors from the send queue (DMA read of each 64-byte SQE)
 * while there is room for them in flight. */
int fw_fetch_sq(struct fw *fw)
{
	const struct fw_hal *h = &fw->hal;
	uint64_t db = hal_reg_read64(h, FW_REG(sq_doorbell));
	int work = 0;

	while (fw->sq_fetched != db && fw_msg_room(fw)) {
		struct eel_fw_sqe d;
		struct fw_msg *m;
		uint32_t npkts, trace;
		int ok;

		if (fw->delay_fetch)
			fw_delay(fw, fw->delay_fetch);
		hal_dma_read(h, &d, fw->sq_base + (fw->sq_fetched & fw->sq_mask) * sizeof(d),
			     sizeof(d));
		fw->sq_fetched++;
		work = 1;

		npkts = d.len <= fw->mtu ? 1 : (d.len + fw->mtu - 1) / fw->mtu; /* no divide for one packet */
		m = fw_msg_alloc(fw, npkts);
		m->kind = FW_MSG_SQE;
		m->flags = d.flags;
		m->wr_id = d.wr_id;
		m->laddr = d.laddr;
		m->raddr = d.raddr;
		m->len = d.len;
		m->lkey = d.lkey;
		m->rkey = d.rkey;
		m->imm = d.imm;
		trace = (d.flags & EEL_FW_SQE_TRACE) && fw->trace_size ? d.trace + 1 : 0;
		m->trace = trace;
		m->stamps = d.stamps;
		m->t_fetch = trace && fw_wants(m->stamps, EEL_ST_NIC_FETCH) ? hal_now(h) : 0;

		if (d.flags & EEL_FW_SQE_INLINE) {
			ok = d.len <= EEL_FW_MAX_INLINE;
			fw_copy(m->data, d.inline_data, EEL_FW_MAX_INLINE);
		} else {
			ok = fw_mr_check(fw, d.lkey, d.laddr, d.len, EEL_FW_MR_LOCAL_READ);
		}
		if (d.opcode != EEL_FW_OP_PUT || !ok || fw->error) {
			/* Nothing of it goes on the wire: give its PSNs back. */
			uint32_t status = fw->error ? EEL_FW_ERR_FLUSHED :
					  d.opcode != EEL_FW_OP_PUT ? EEL_FW_ERR_BAD_DESC :
					  (d.flags & EEL_FW_SQE_INLINE) ? EEL_FW_ERR_BAD_DESC :
					  EEL_FW_ERR_LOCAL_ACCESS;

			fw->msg_tail--;
			fw->psn_next -= npkts;
			fw->next_msg_id--;
			/* In order with everything before it: wait until those are done. */
			if (fw->msg_head == fw->msg_tail) {
				fw_complete(fw, m, status);
				if (status != EEL_FW_ERR_FLUSHED)
					fw_fail(fw, status, (uint32_t)fw->sq_fetched - 1);
			} else {
				fw->sq_fetched--;
				break;
			}
		}
	}
	return work;
}
