# SPDX-License-Identifier: MIT
# bench/launch.mk — eel-bench under mpirun or srun: bench/launch_pmix.c uses
# PMIx's client library (Debian: libpmix-dev, tools/setup's mpi group). Only
# eel-bench and the programs built from bench's objects link it; libeel does not.
ifeq ($(shell pkg-config --exists pmix 2>/dev/null && echo yes),)
ifneq ($(BUILD_GOALS),)
$(error PMIx's development files are missing (pkg-config pmix found nothing): run `sudo tools/setup mpi`)
endif
endif
PMIX_CFLAGS := $(patsubst -I%,-isystem %,$(shell pkg-config --cflags pmix 2>/dev/null))
PMIX_LIBS   := $(shell pkg-config --libs pmix 2>/dev/null)

$(BUILD)/obj/bench/launch_pmix.o: CFLAGS += $(PMIX_CFLAGS)
$(BUILD)/eel-bench: LDLIBS += $(PMIX_LIBS)
$(BUILD)/tests/%: LDLIBS += $(PMIX_LIBS)
