/* SPDX-License-Identifier: MIT */
/* firmware/fw_fetch.c — the fetch: descriptors taken from the send queue
 * (a DMA read of each 64-byte SQE) into the message table, each message's
 * PSNs assigned as it is taken. E-register commands are fetched beside it
 * (fw_ereg.c), into the same table. */
#include "fw_fetch.h"
#include "fw_ack.h"
#include "fw_host.h"

/* Descriptor d, just read, into the message table, which its caller saw
 * room in (fw_msg_room; fetch_many: room). Returns 0 when it must wait (a
 * bad descriptor behind messages in flight: read again later). */
static inline __attribute__((always_inline)) int fetch_one(struct fw *fw, const struct eel_fw_sqe *d)
{
	struct fw_msg *m;
	uint32_t npkts;
	int ok;

	fw->sq_fetched++;
	npkts = d->len <= fw->mtu ? 1 : (d->len + fw->mtu - 1) / fw->mtu; /* no divide for one packet */
	m = fw_msg_take(fw, npkts);
	fw_msg_fill(fw, m, d, fw_sqe_trace(fw, d));
	ok = fw_sqe_source_ok(fw, d);
	if (d->opcode != EEL_FW_OP_PUT || !ok || fw->error) {
		/* Nothing of it goes on the wire: give its PSNs back. */
		uint32_t status = fw->error ? EEL_FW_ERR_FLUSHED :
				  d->opcode != EEL_FW_OP_PUT ? EEL_FW_ERR_BAD_DESC :
				  (d->flags & EEL_FW_SQE_INLINE) ? EEL_FW_ERR_BAD_DESC :
				  EEL_FW_ERR_LOCAL_ACCESS;

		fw->msg_tail--;
		fw->psn_next -= npkts;
		fw->next_msg_id--;
		/* In order with everything before it: wait until those are done. */
		if (fw->msg_head != fw->msg_tail) {
			fw->sq_fetched--;
			return 0;
		}
		fw_complete(fw, m, status);
		if (status != EEL_FW_ERR_FLUSHED)
			fw_fail(fw, status, (uint32_t)fw->sq_fetched - 1);
	}
	return 1;
}

/* The descriptors whose reads are in flight (fw->fetch_tag, fetch_i up to
 * fetch_n: the SQEs from sq_fetched on), taken in order as each read's data
 * is in. While payload reads issued ahead fly (fw_send.c) the NIC has
 * packets to build: it does not wait for a descriptor that has not come
 * (hal.h, dma_read_done) but takes it at a later pass; else it waits.
 * Returns 0 when it stopped short (not in yet, or a descriptor that must
 * wait: fetch_one, the rest dropped to be read again in their turn). */
static int fetch_pending(struct fw *fw)
{
	const struct fw_hal *h = &fw->hal;
	struct eel_fw_sqe d;

	while (fw->fetch_i != fw->fetch_n) {
		uint32_t tag = fw->fetch_tag[fw->fetch_i];

		if (fw->ahead_head != fw->ahead_tail && !hal_dma_read_done(h, tag))
			return 0;
		fw->fetch_i++;
		hal_dma_read_wait(h, tag, &d);
		if (!fetch_one(fw, &d)) {
			while (fw->fetch_i != fw->fetch_n)
				hal_dma_read_wait(h, fw->fetch_tag[fw->fetch_i++], 0);
			return 0;
		}
	}
	return 1;
}

/* The reads of up to FW_FETCH_AHEAD descriptors issued at once (hal.h:
 * they fly together, one round trip for all), then taken (fetch_pending). */
static __attribute__((noinline)) int fetch_many(struct fw *fw, uint64_t db)
{
	const struct fw_hal *h = &fw->hal;
	uint32_t n = 0, room = FW_MSGS - (fw->msg_tail - fw->msg_head);

	while (n < FW_FETCH_AHEAD && n < room && fw->sq_fetched + n != db) {
		fw->fetch_tag[n] = hal_dma_read_issue(h, fw_sqe_addr(fw, fw->sq_fetched + n), sizeof(struct eel_fw_sqe));
		n++;
	}
	fw->fetch_n = n;
	fw->fetch_i = 0;
	return fetch_pending(fw);
}

/* Take new descriptors from the send queue while there is room for them in
 * flight: one waiting, with no payload read in flight, is read and taken (a
 * DMA read of its 64-byte SQE; where a DMA is a copy on the firmware's own
 * addresses, hal.h dma_direct, it is taken where it lies, not copied first:
 * the host does not write it again until sq_cons has passed it); more, or
 * one behind payload reads, are read together (fetch_many). With an emulated fetch delay, one at a time, the
 * delay before each read as before. */
int fw_fetch_sq(struct fw *fw)
{
	const struct fw_hal *h = &fw->hal;
	uint64_t db = hal_reg_read64(h, FW_REG(sq_doorbell));
	int work = 0;

	if (fw->fetch_i != fw->fetch_n) { /* reads from an earlier pass */
		uint32_t i0 = fw->fetch_i;

		if (!fetch_pending(fw))
			return fw->fetch_i != i0;
		work = 1;
	}
	while (fw->sq_fetched != db && fw_msg_room(fw)) {
		struct eel_fw_sqe d;
		const struct eel_fw_sqe *sqe = &d;
		uint64_t bus;

		work = 1;
		if (fw->delay_fetch) {
			fw_delay(fw, fw->delay_fetch);
		} else if (fw->sq_fetched + 1 != db || fw->ahead_head != fw->ahead_tail) {
			if (!fetch_many(fw, db))
				break;
			continue;
		}
		bus = fw_sqe_addr(fw, fw->sq_fetched);
		if (h->dma_direct)
			sqe = (const struct eel_fw_sqe *)(uintptr_t)bus;
		else
			hal_dma_read(h, &d, bus, sizeof(d));
		if (!fetch_one(fw, sqe))
			break;
	}
	return work;
}
