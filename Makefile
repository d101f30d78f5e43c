# SPDX-License-Identifier: MIT
# eel — top-level build.
#
#   make            build libeel, eel-bench and the tools into build/
#   make run        install what is missing, build, and characterise the default NIC
#   make test       install what is missing, build, run every test (host, sanitizers, VM)
#   make vmtest     only the VM bench (tests/vm/)
#   make module     the eel_pci kernel module (driver/, Kbuild)
#   make check-layers  includes point the way ARCHITECTURE.md allows, no circle of calls
#
# Variables: BUILD (output folder, default build), CC (gcc or clang), SAN=1
# (AddressSanitizer + UndefinedBehaviorSanitizer), RUN_ARGS (extra eel-bench
# arguments for `make run`).

ifeq ($(origin CC),default)
CC := gcc
endif
BUILD ?= build
SAN   ?=

WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter
CFLAGS   ?= -O2 -g
CFLAGS   += -std=c11 -D_GNU_SOURCE -fPIC -pthread $(WARN) -Iinclude -I. -MMD -MP
# jansson: the bench writes its JSON with it, the tools read it (bench/json.c, tools/json_read.c)
LDLIBS   += -ljansson -pthread -lm
ifeq ($(SAN),1)
CFLAGS   += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS  += -fsanitize=address,undefined
endif

# Each room lists its own sources; the firmware is built into libeel, which hosts it.
FW_SRC      := $(wildcard firmware/*.c)
USERLIB_SRC := $(wildcard userlib/*/*.c)
BENCH_SRC   := $(wildcard bench/*.c)

OBJ          = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))
LIB_OBJ     := $(call OBJ,$(FW_SRC) $(USERLIB_SRC))
BENCH_OBJ   := $(call OBJ,$(BENCH_SRC))

# External libraries that backends link against (each fragment may add more).
# zlib: crc32 is the software wire's FCS (userlib/engine/wire_faults.c).
EXT_LIBS := -lz

# Goals that install what is missing (tools/setup) and then build in a sub-make:
# on a fresh machine their own parse must not need the packages they install.
# A fragment whose packages are missing stops the build only for the other goals.
SETUP_GOALS := run test vmtest vm-list test-lists clean module module-clean checkpatch
BUILD_GOALS := $(filter-out $(SETUP_GOALS),$(or $(MAKECMDGOALS),all))

.PHONY: all run test vmtest module clean host-tests tidy check-layers
.DEFAULT_GOAL := all

# Each room's fragments (userlib/verbs/verbs.mk, tests/tests.mk, tests/vm/vm.mk, ...).
-include $(sort $(wildcard userlib/*/*.mk bench/*.mk tools/*.mk tests/*.mk tests/vm/*.mk driver/*.mk))

all: $(BUILD)/libeel.a $(BUILD)/libeel.so $(BUILD)/eel-bench $(TOOLS_BIN)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/libeel.a: $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/libeel.so: $(LIB_OBJ)
	$(CC) -shared $(LDFLAGS) -o $@ $^ $(EXT_LIBS) $(LDLIBS)

$(BUILD)/eel-bench: $(BENCH_OBJ) $(BUILD)/libeel.a
	$(CC) $(LDFLAGS) -o $@ $(BENCH_OBJ) $(BUILD)/libeel.a $(EXT_LIBS) $(LDLIBS)

# The main job: the default NIC (the built-in software NIC, both ends here).
run:
	@tools/setup build pci verbs dpdk mpi
	@$(MAKE) --no-print-directory all
	$(BUILD)/eel-bench $(RUN_ARGS)

# Dependencies point one way (ARCHITECTURE.md): includes by folder, and no
# two files calling each other (nm on the objects just built).
check-layers: all
	tools/check-layers $(BUILD)

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
