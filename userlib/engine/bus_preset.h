/* SPDX-License-Identifier: MIT */
/* userlib/engine/bus_preset.h — a bus for the model (bus_model.h) by name:
 * the presets, a user's preset file (key = value) and URI options over
 * either, with the errors a person sees (one line, the problem and the fix).
 *
 *   softnic:inline?bus=pcie-gen4x16&iommu_miss_ns=300
 *   softnic?bus=./lab.bus          a preset file: any value with a '/'
 */
#ifndef EEL_USERLIB_BUS_PRESET_H
#define EEL_USERLIB_BUS_PRESET_H

#include "userlib/core/uri.h"
#include <eel/bus.h>

/* The URI options the bus takes (bus= and every parameter). */
#define BUS_OPTIONS "bus kind read_rtt_ns posted_ns gts lanes mps mrrs rcb rcb_chunks line_ns link_gbs " \
		    "iommu_miss_ns iotlb_entries numa_ns cold_ns tags dma_rd_ns dma_wr_ns dma_wr_line_ns superpages"
/* One parameter by its name from text, over *p; -EINVAL with the message
 * (naming `where`: the file and line, or the URI) when the key is unknown or
 * the value is not a number the parameter takes. */
int bus_set(struct eel_bus *p, const char *key, const char *val, const char *where);
/* A preset file: `key = value` lines, `#` comments; `bus = <preset>` first
 * (optional) gives the base, the rest override it. */
int bus_load_file(const char *path, struct eel_bus *p);
/* The bus a URI asks for: bus= (a preset or a file, default none), then any
 * parameter given as an option. Marks those options used. */
int bus_from_uri(struct eel_uri *u, struct eel_bus *p);

#endif
