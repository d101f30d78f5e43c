# SPDX-License-Identifier: MIT
# userlib/dpdk/dpdk.mk — the DPDK backend's build (included by the top Makefile).
#
# DPDK is optional: without its development files (pkg-config libdpdk finds
# nothing; Debian: dpdk-dev, tools/setup's dpdk group) libeel is built without
# this backend, and a dpdk: URI says how to get it (userlib/core/registry.c).
# DPDK's flags go to the DPDK backend's own objects only, its include folders
# as -isystem (DPDK's headers are not -Wextra clean), and its libraries to
# everything that links libeel (EXT_LIBS). The PMDs are not linked: the EAL
# loads them at run time from its driver folder.

ifeq ($(shell $(PKG_CONFIG) --exists libdpdk 2>/dev/null && echo yes),yes)
FEATURES += dpdk
PC_LIBS += $(shell $(PKG_CONFIG) --libs libdpdk)
# rte_eth_read_clock is still experimental in 22.11 (rte_ethdev.h, __rte_experimental).
DPDK_CFLAGS := $(patsubst -I%,-isystem %,$(shell $(PKG_CONFIG) --cflags libdpdk)) -DALLOW_EXPERIMENTAL_API
DPDK_OBJ    := $(call OBJ,$(wildcard userlib/dpdk/*.c))

$(DPDK_OBJ): CFLAGS += $(DPDK_CFLAGS)
$(BUILD)/obj/userlib/core/registry.o: CFLAGS += -DEEL_HAVE_DPDK=1
EXT_LIBS += $(shell $(PKG_CONFIG) --libs libdpdk)
else
WITHOUT += dpdk
USERLIB_SRC := $(filter-out userlib/dpdk/%,$(USERLIB_SRC))
endif
