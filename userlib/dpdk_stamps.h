/* userlib/dpdk_stamps.h — stamps the DPDK wire takes for traced messages,
 * matched to the engine's trace records when they are drained.
 *
 * A queue of (message number, cycles), in the order the wire saw them: the
 * firmware sends and delivers messages in order, and the engine drains its
 * records in order, so a merge on the message number joins them. One
 * producer (the thread running the firmware) and one consumer (the host's
 * thread draining the records): a full queue drops the new stamp, and
 * the record keeps the firmware's own.
 */
#ifndef EEL_USERLIB_DPDK_STAMPS_H
#define EEL_USERLIB_DPDK_STAMPS_H

#include <stdint.h>

#define DPDK_STAMPS 1024u   /* as many as the engine keeps trace records */

struct dpdk_stamps {
	uint32_t head;      /* the consumer's */
	uint32_t tail;      /* the producer's */
	struct {
		uint32_t msg_id;
		uint64_t t;
	} e[DPDK_STAMPS];
};

static inline void dpdk_stamps_push(struct dpdk_stamps *s, uint32_t msg_id, uint64_t t)
{
	uint32_t tail = s->tail;

	if (tail - __atomic_load_n(&s->head, __ATOMIC_ACQUIRE) == DPDK_STAMPS)
		return;
	s->e[tail % DPDK_STAMPS].msg_id = msg_id;
	s->e[tail % DPDK_STAMPS].t = t;
	__atomic_store_n(&s->tail, tail + 1, __ATOMIC_RELEASE);
}

/* The latest stamp of msg_id in [lo, hi], or 0; the stamps of earlier
 * messages are dropped on the way (their records were drained, or lost). */
static inline uint64_t dpdk_stamps_take(struct dpdk_stamps *s, uint32_t msg_id, uint64_t lo, uint64_t hi)
{
	uint32_t tail = __atomic_load_n(&s->tail, __ATOMIC_ACQUIRE), head = s->head;
	uint64_t t = 0;

	for (; head != tail; head++) {
		uint32_t id = s->e[head % DPDK_STAMPS].msg_id;
		uint64_t v = s->e[head % DPDK_STAMPS].t;

		if ((int32_t)(id - msg_id) > 0)
			break;   /* a later message's: it stays */
		if (id == msg_id && v >= lo && v <= hi)
			t = v;
	}
	__atomic_store_n(&s->head, head, __ATOMIC_RELEASE);
	return t;
}

#endif
