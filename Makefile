# SPDX-License-Identifier: MIT
# eel — top-level build.
#
#   make            build libeel, eel-bench and the tools into build/
#   make run        install what is missing, build, and characterise the default NIC
#   make test       install what is missing, build, run every test (host, sanitizers, VM)
#   make vmtest     only the VM bench (tests/vm/)
#   make module     the eel_pci kernel module (driver/, Kbuild)
#   make check-layers  includes point the way ARCHITECTURE.md allows, no circle of calls
#   make cost       instructions a put, send and receive path (callgrind, tools/eel-cost)
#
# Variables: BUILD (output folder, default build), CC (gcc or clang), SAN=1
# (AddressSanitizer + UndefinedBehaviorSanitizer), VALGRIND=1 (a build
# callgrind runs: make cost), RUN_ARGS (extra eel-bench
# arguments for `make run`), PKG_CONFIG and MPICC (where the optional
# dependencies are looked for).
#
# Optional dependencies: DPDK (the dpdk backend, userlib/dpdk/dpdk.mk),
# rdma-core (verbs, userlib/verbs/verbs.mk), PMIx (eel-bench under mpirun or
# srun, bench/launch/launch.mk), Open MPI's mpicc (eel-mpi, tools/mpi.mk). A build
# without one leaves that part out and says so ($(BUILD)/features, eel-bench
# --help, the error when it is asked for); `sudo tools/setup all` gets them all.

ifeq ($(origin CC),default)
CC := gcc
endif
PKG_CONFIG ?= pkg-config
MPICC      ?= mpicc
# The release (include/eel/eel.h) and the shared library's SONAME (its major version).
EEL_VERSION := $(shell sed -n 's/^\#define EEL_VERSION "\(.*\)"$$/\1/p' include/eel/eel.h)
EEL_SONAME  := libeel.so.0
BUILD ?= build
SAN   ?=

WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter
CFLAGS   ?= -O2 -g
CFLAGS   += -std=c11 -D_GNU_SOURCE -fPIC -pthread $(WARN) -Iinclude -I. -MMD -MP
# jansson: the bench writes its JSON with it, the tools read it (bench/report/json.c, tools/json_read.c)
LDLIBS   += -ljansson -pthread -lm
# VALGRIND=1: a build callgrind can run (include/eel/cycles.h; make cost, tools/eel-cost),
# with the mark that stops its count as a frame goes on the wire (userlib/softnic/wire_shm.c)
ifeq ($(VALGRIND),1)
CFLAGS   += -DEEL_CYCLES_NO_RDTSCP -DEEL_COST_MARKS
endif
ifeq ($(SAN),1)
CFLAGS   += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS  += -fsanitize=address,undefined
endif

# Each room lists its own sources; the firmware is built into libeel, which hosts it.
FW_SRC      := $(wildcard firmware/*.c)
USERLIB_SRC := $(wildcard userlib/*/*.c)
BENCH_SRC   := $(wildcard bench/*.c bench/*/*.c)
# The papers' arithmetic (method/): linked into eel-bench, the tools and the
# tests that call it; not part of libeel (its API is include/eel/ only).
METHOD_SRC  := $(wildcard method/*.c)

OBJ          = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))
# $(call stamp,FILE,TEXT): FILE holds TEXT, rewritten at parse time only when
# TEXT changed, so what depends on FILE rebuilds only then ($(BUILD)/features,
# $(BUILD)/git-version).
stamp = $(shell mkdir -p $(dir $(1)) && { [ "$$(cat $(1) 2>/dev/null)" = "$(2)" ] || echo "$(2)" > $(1); })

# External libraries that backends link against (each fragment may add more).
# zlib: crc32 is the software wire's FCS (userlib/engine/wire_faults.c).
EXT_LIBS := -lz
# What this build has of the optional parts, and what it lacks (each
# fragment adds its name to one of the two).
FEATURES :=
WITHOUT  :=

# Goals that install what is missing (tools/setup) then build in a sub-make
# (run, test, vmtest, cost): their own parse must not need the packages they install,
# which is why a missing optional dependency only leaves its part out.
# What eel.pc asks of a program that links libeel statically: pkg-config
# packages whose flags are clean, and DPDK's libraries as flags (its Cflags
# would force -include rte_config.h and -march on the program).
PC_REQUIRES :=
PC_LIBS     :=

.PHONY: all run test vmtest module clean host-tests tidy check-layers cost
.DEFAULT_GOAL := all

# Each room's fragments: first the library's and eel-bench's, which leave out
# the sources of a missing optional dependency (userlib/dpdk/dpdk.mk, ...),
# then the rest (tools/*.mk, tests/tests.mk, tests/vm/vm.mk, ...).
-include $(sort $(wildcard userlib/*/*.mk bench/*/*.mk))
LIB_OBJ     := $(call OBJ,$(FW_SRC) $(USERLIB_SRC))
BENCH_OBJ   := $(call OBJ,$(BENCH_SRC))
METHOD_OBJ  := $(call OBJ,$(METHOD_SRC))
-include $(sort $(wildcard tools/*.mk tests/*.mk tests/vm/*.mk driver/*.mk))

all: $(BUILD)/libeel.a $(BUILD)/libeel.so $(BUILD)/$(EEL_SONAME) $(BUILD)/eel-bench $(TOOLS_BIN)

# $(BUILD)/features names what this build has and lacks; it is rewritten only
# when that changes, and the objects that read the set (-DEEL_HAVE_*) depend on it.
FEATURES_TEXT := have: $(sort $(FEATURES)); without: $(sort $(WITHOUT))
$(call stamp,$(BUILD)/features,$(FEATURES_TEXT))
$(BUILD)/obj/userlib/core/registry.o: $(BUILD)/features

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/libeel.a: $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# The shared library: SONAME libeel.so.0 (the major version; the file carries
# EEL_VERSION of include/eel/eel.h), exporting only the API (userlib/libeel.map).
$(BUILD)/libeel.so.$(EEL_VERSION): $(LIB_OBJ) userlib/libeel.map
	$(CC) -shared $(LDFLAGS) -Wl,-soname,$(EEL_SONAME) -Wl,--version-script=userlib/libeel.map \
		-o $@ $(LIB_OBJ) $(EXT_LIBS) $(LDLIBS)
$(BUILD)/$(EEL_SONAME) $(BUILD)/libeel.so: $(BUILD)/libeel.so.$(EEL_VERSION)
	ln -sf $(notdir $<) $@

$(BUILD)/eel-bench: $(BENCH_OBJ) $(METHOD_OBJ) $(BUILD)/libeel.a
	$(CC) $(LDFLAGS) -o $@ $(BENCH_OBJ) $(METHOD_OBJ) $(BUILD)/libeel.a $(EXT_LIBS) $(LDLIBS)

# The main job: the default NIC (the built-in software NIC, both ends here).
run:
	@tools/setup build pci
	@tools/setup verbs dpdk mpi || echo "make run: going on without what tools/setup could not install (eel-bench --help says what this build lacks)"
	@$(MAKE) --no-print-directory all
	$(BUILD)/eel-bench $(RUN_ARGS)

# Instructions an 8-byte put costs on softnic:inline (firmware/README.md,
# "Instruction budget"): callgrind over a build of its own (VALGRIND=1).
cost:
	@tools/setup build
	@$(MAKE) --no-print-directory BUILD=build/valgrind VALGRIND=1 build/valgrind/tests/cost_drive
	tools/eel-cost

# Dependencies point one way (ARCHITECTURE.md): includes by folder, and no
# two files calling each other (nm on the objects just built).
check-layers: all
	tools/check-layers $(BUILD)

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)

# ---- install (README "Install and use the library") ----
#   make install   [PREFIX=/usr/local] [DESTDIR=staging]   everything below, from `all`
#   make uninstall [PREFIX=...] [DESTDIR=...]              the same files removed
# The programs link libeel statically; a lab's program links libeel.so.0 (or
# libeel.a) through eel.pc. The programs find the data files in
# $(PREFIX)/share/eel from their own path (eel_data_path), so DESTDIR staging
# and a moved tree keep working.
PREFIX      ?= /usr/local
BINDIR      ?= $(PREFIX)/bin
LIBDIR      ?= $(PREFIX)/lib
INCLUDEDIR  ?= $(PREFIX)/include
DATADIR     ?= $(PREFIX)/share/eel
MANDIR      ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
PROGRAMS     = $(BUILD)/eel-bench $(filter-out $(BUILD)/eel-pci-check,$(TOOLS_BIN))
DATA_FILES  := data/pcie_bench.csv data/historical.csv data/papers.md
HEADERS     := $(wildcard include/eel/*.h)
COMPLETION  := $(wildcard tools/completion/eel-bench)

.PHONY: install uninstall
install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCLUDEDIR)/eel $(DESTDIR)$(DATADIR)
	install -m 755 $(PROGRAMS) $(DESTDIR)$(BINDIR)/
	install -m 644 $(HEADERS) $(DESTDIR)$(INCLUDEDIR)/eel/
	install -m 644 $(BUILD)/libeel.a $(DESTDIR)$(LIBDIR)/
	install -m 755 $(BUILD)/libeel.so.$(EEL_VERSION) $(DESTDIR)$(LIBDIR)/
	ln -sf libeel.so.$(EEL_VERSION) $(DESTDIR)$(LIBDIR)/$(EEL_SONAME)
	ln -sf $(EEL_SONAME) $(DESTDIR)$(LIBDIR)/libeel.so
	sed -e 's|@PREFIX@|$(PREFIX)|; s|@LIBDIR@|$(LIBDIR)|; s|@INCLUDEDIR@|$(INCLUDEDIR)|' \
	    -e 's|@VERSION@|$(EEL_VERSION)|; s|@REQUIRES@|$(strip $(PC_REQUIRES) libpci zlib)|' \
	    -e 's|@LIBS@|$(strip $(PC_LIBS))|' \
	    -e '/^#/d' userlib/eel.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/eel.pc
	install -m 644 $(DATA_FILES) $(DESTDIR)$(DATADIR)/
	for m in $(MAN_PAGES); do install -D -m 644 $$m $(DESTDIR)$(MANDIR)/man$${m##*.}/$${m##*/} || exit 1; done
	$(if $(COMPLETION),install -D -m 644 $(COMPLETION) $(DESTDIR)$(BASHCOMPDIR)/eel-bench)
	@# the loader's cache, so that libeel.so.0 in a system PREFIX (/usr/local) is found at once
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ] && command -v ldconfig >/dev/null; then ldconfig; fi

uninstall:
	rm -f $(addprefix $(DESTDIR)$(BINDIR)/,$(notdir $(PROGRAMS)))
	rm -f $(addprefix $(DESTDIR)$(INCLUDEDIR)/eel/,$(notdir $(HEADERS)))
	rm -f $(addprefix $(DESTDIR)$(LIBDIR)/,libeel.a libeel.so libeel.so.$(EEL_VERSION) $(EEL_SONAME) pkgconfig/eel.pc)
	rm -f $(addprefix $(DESTDIR)$(DATADIR)/,$(notdir $(DATA_FILES)))
	for m in $(MAN_PAGES); do rm -f $(DESTDIR)$(MANDIR)/man$${m##*.}/$${m##*/}; done
	rm -f $(DESTDIR)$(BASHCOMPDIR)/eel-bench
	-rmdir $(DESTDIR)$(INCLUDEDIR)/eel $(DESTDIR)$(DATADIR) 2>/dev/null
