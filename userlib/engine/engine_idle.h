/* SPDX-License-Identifier: MIT */
/* userlib/engine/engine_idle.h — what a busy loop of the engine does after a
 * pass: the one idle policy of the host driver's waits and polls
 * (engine_data.c) and of the firmware's thread (engine_thread.c).
 */
#ifndef EEL_USERLIB_ENGINE_IDLE_H
#define EEL_USERLIB_ENGINE_IDLE_H

#include <sched.h>

#include <eel/cycles.h>

#include "userlib/engine/engine.h"

#define IDLE_SPINS 2048u /* oversubscribed, inline: idle passes spun before each yield (~20-40 us) */

/* After a pass of a busy loop; work: the pass did some.
 *
 * Thread mode (the firmware's thread, or a host waiting for it): a pass
 * that did no work pauses the core (eel_cpu_relax) before the next look;
 * oversubscribed (more busy threads than cores) it yields at once: the
 * other thread is what it waits for.
 *
 * Inline: a pass spins on, unless oversubscribed (more busy processes than
 * cores: the URI's oversubscribe=1, or eel_opts' oversubscribe, as a
 * launcher's local rank count says). Then a wait that spins takes the core
 * from the process it waits for, which runs only when the scheduler's time
 * slice ends: after IDLE_SPINS idle passes in a row every idle pass yields,
 * as Open MPI's ranks do when oversubscribed (mpi_yield_when_idle).
 * Spinning first keeps an answer that comes within microseconds as fast as
 * it was. A wait starts its count at 0 (e->idle_passes). */
static inline void engine_idle(struct engine *e, int work)
{
	if (e->mode == ENGINE_THREAD) {
		if (work)
			return;
		if (e->oversubscribe)
			sched_yield();
		else
			eel_cpu_relax();
		return;
	}
	if (!e->oversubscribe)
		return;
	if (work)
		e->idle_passes = 0;
	else if (++e->idle_passes >= IDLE_SPINS)
		sched_yield();
}

#endif
