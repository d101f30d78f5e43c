/* SPDX-License-Identifier: MIT */
/* userlib/engine/engine_thread.c — thread mode: the firmware's main loop on
 * a thread of its own, the NIC's embedded core (engine.h), started by
 * engine_start and joined by engine_stop.
 */
#include <errno.h>
#include <sched.h>
#include <string.h>

#include "userlib/engine/engine.h"
#include "userlib/engine/engine_idle.h"

/* The NIC's embedded core: the firmware's main loop, pinned to fw_cpu when
 * asked, idling as engine_idle says. */
static void *fw_thread(void *arg)
{
	struct engine *e = arg;

	if (e->fw_cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(e->fw_cpu, &set);
		sched_setaffinity(0, sizeof(set), &set);
	}
	while (!__atomic_load_n(&e->stop, __ATOMIC_ACQUIRE))
		engine_idle(e, fw_step(&e->fw));
	return NULL;
}

int engine_thread_start(struct engine *e)
{
	int rc;

	e->stop = 0;
	rc = pthread_create(&e->thread, NULL, fw_thread, e);
	if (rc)
		return eel_err(-rc, "cannot start the firmware thread: %s", strerror(rc));
	e->thread_running = 1;
	return 0;
}

void engine_thread_stop(struct engine *e)
{
	if (!e->thread_running)
		return;
	__atomic_store_n(&e->stop, 1, __ATOMIC_RELEASE);
	pthread_join(e->thread, NULL);
	e->thread_running = 0;
}
