# SPDX-License-Identifier: MIT
# bench/launch/launch.mk — eel-bench under mpirun or srun: bench/launch/launch_pmix.c uses
# PMIx's client library (Debian: libpmix-dev, tools/setup's mpi group). Only
# eel-bench and the programs built from bench's objects link it; libeel does not.
# PMIx is optional: without it bench/launch/launch_none.c stands in, and eel-bench
# started by a launcher says how to get launched mode.
ifeq ($(shell $(PKG_CONFIG) --exists pmix 2>/dev/null && echo yes),yes)
FEATURES += launch
BENCH_SRC := $(filter-out bench/launch/launch_none.c,$(BENCH_SRC))
PMIX_CFLAGS := $(patsubst -I%,-isystem %,$(shell $(PKG_CONFIG) --cflags pmix))
PMIX_LIBS   := $(shell $(PKG_CONFIG) --libs pmix)

$(BUILD)/obj/bench/launch/launch_pmix.o: CFLAGS += $(PMIX_CFLAGS)
$(BUILD)/eel-bench: LDLIBS += $(PMIX_LIBS)
$(BUILD)/tests/%: LDLIBS += $(PMIX_LIBS)
else
WITHOUT += launch
BENCH_SRC := $(filter-out bench/launch/launch_pmix.c,$(BENCH_SRC))
endif
