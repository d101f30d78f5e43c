/* SPDX-License-Identifier: MIT */
/* userlib/engine/bus_mem.h — the time of a load from memory on a NUMA node of
 * this machine (bus_mem.c), for the bus measured-mem:<node> (bus_preset.c). */
#ifndef EEL_USERLIB_BUS_MEM_H
#define EEL_USERLIB_BUS_MEM_H

/* The median dependent load from a buffer bound to NUMA node `node` (its
 * number as text), ns; -EINVAL naming the nodes there are when there is no
 * such node, another error when the memory cannot be had. */
int bus_mem_load_ns(const char *node, double *load_ns);

#endif
