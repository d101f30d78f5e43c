/* SPDX-License-Identifier: MIT */
/* firmware/fw_ereg.c — the E-register engine (Bell et al. 2003 §2, Cray T3E).
 *
 * An E-register is a line of BAR0 (struct eel_fw_ereg). The host stores the
 * operands and a command with a fresh sequence number, then bumps
 * ereg_doorbell; the NIC reads the operands from its own registers — no
 * descriptor DMA — and sends one fixed-length 8-byte store or load. The
 * answer goes back into the same register: `value` for a load, then `status`.
 */
#include "fw_ereg.h"
#include "fw_fetch.h"
#include "fw_host.h"

_Static_assert((EEL_FW_EREGS & (EEL_FW_EREGS - 1)) == 0, "the scan wraps with a mask");

/* The doorbell counts the commands stored since the NIC last looked
 * (fw_abi.h: bumped once after each), so the scan stops when it has found
 * that many. It looks first at the register after the one found last (a
 * host that takes them in turn, as eel's does), then at that one (a host
 * that uses one register), then on round: one read for either, not all
 * EEL_FW_EREGS (each a register read, ~2.5 ns on the software NIC: the
 * whole scan made an E-register store's EEL ~50 ns above a descriptor
 * put's, whose fetch it was meant to save). A register stored twice before
 * the NIC looked holds one new command for two counts: the scan then goes
 * round them all. */
int fw_ereg_scan(struct fw *fw, uint64_t db)
{
	const struct fw_hal *h = &fw->hal;
	uint32_t want, found = 0, start = fw->ereg_next;
	int work = 0;

	want = db - fw->ereg_db_seen < EEL_FW_EREGS ? (uint32_t)(db - fw->ereg_db_seen) : EEL_FW_EREGS;
	for (uint32_t k = 0; k < EEL_FW_EREGS && found < want; k++) {
		uint32_t i = (start + (k == 0 ? 1 : k == 1 ? 0 : k)) & (EEL_FW_EREGS - 1);
		uint32_t cmd = hal_reg_read32(h, EREG(i, cmd));
		uint32_t seq = cmd >> 8, op = cmd & 0xff;
		struct fw_msg *m;

		if (seq == fw->ereg_seq[i])
			continue;
		found++;
		fw->ereg_next = i;
		if (op != EEL_FW_EREG_PUT && op != EEL_FW_EREG_GET) {
			struct fw_msg bad = { .kind = FW_MSG_EPUT, .ereg = (uint8_t)i, .ereg_seq = seq };

			fw->ereg_seq[i] = seq;
			fw_ereg_done(fw, &bad, EEL_FW_ERR_BAD_DESC, 0);
			continue;
		}
		m = fw_msg_alloc(fw, 1);
		if (!m)
			return work; /* full: ereg_db_seen stays old, we look again */
		fw->ereg_seq[i] = seq;
		m->kind = op == EEL_FW_EREG_PUT ? FW_MSG_EPUT : FW_MSG_EGET;
		m->flags = 0;
		m->ereg = (uint8_t)i;
		m->ereg_seq = seq;
		m->raddr = hal_reg_read64(h, EREG(i, raddr));
		m->rkey = hal_reg_read32(h, EREG(i, rkey));
		m->len = 8;
		/* a traced store: its record, and NIC_FETCH once the registers are read */
		m->trace = fw->trace_size ? hal_reg_read32(h, EREG(i, trace)) : 0;
		if (m->trace) {
			m->stamps = hal_reg_read32(h, EREG(i, stamps));
			m->t_fetch = fw_wants(m->stamps, EEL_ST_NIC_FETCH) ? hal_now(h) : 0;
		}
		if (op == EEL_FW_EREG_PUT) {
			uint64_t v = hal_reg_read64(h, EREG(i, value));

			fw_copy(m->data, &v, 8);
		}
		if (fw->error) {
			/* Refused like a descriptor would be: give the PSN back. */
			fw->msg_tail--;
			fw->psn_next--;
			fw->next_msg_id--;
			fw_ereg_done(fw, m, EEL_FW_ERR_FLUSHED, 0);
		}
		work = 1;
	}
	fw->ereg_db_seen = db;
	return work;
}
