# SPDX-License-Identifier: MIT
# userlib/dpdk/dpdk.mk — the DPDK backend's build (included by the top Makefile).
#
# DPDK's flags (pkg-config libdpdk) go to the DPDK backend's own objects only,
# its include folders as -isystem (DPDK's headers are not -Wextra clean), and
# its libraries to everything that links libeel (EXT_LIBS). The PMDs are not
# linked: the EAL loads them at run time from its driver folder.

DPDK_PC_CFLAGS := $(shell pkg-config --cflags libdpdk 2>/dev/null)
ifeq ($(DPDK_PC_CFLAGS),)
ifneq ($(BUILD_GOALS),)
$(error DPDK's development files are missing (pkg-config libdpdk found nothing): run `sudo tools/setup dpdk`)
endif
endif
# rte_eth_read_clock is still experimental in 22.11 (rte_ethdev.h, __rte_experimental).
DPDK_CFLAGS := $(patsubst -I%,-isystem %,$(DPDK_PC_CFLAGS)) -DALLOW_EXPERIMENTAL_API
DPDK_OBJ    := $(call OBJ,$(wildcard userlib/dpdk/*.c))

$(DPDK_OBJ): CFLAGS += $(DPDK_CFLAGS)
EXT_LIBS += $(shell pkg-config --libs libdpdk 2>/dev/null)
