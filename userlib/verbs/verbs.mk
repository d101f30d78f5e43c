# SPDX-License-Identifier: MIT
# userlib/verbs/verbs.mk — the verbs backend (userlib/verbs/backend_verbs.c, verbs_*.c) links
# rdma-core's libibverbs and, for iWARP's connection manager, librdmacm (Debian:
# libibverbs-dev, librdmacm-dev, tools/setup's verbs group), and its VM test's
# error program (tests/vm/verbs_errors.c, run by tests/vm/suite-verbs.sh).
# rdma-core is optional: without it libeel is built without this backend, and a
# verbs: URI says how to get it (userlib/core/registry.c).
ifeq ($(shell $(PKG_CONFIG) --exists libibverbs librdmacm 2>/dev/null && echo yes),yes)
FEATURES += verbs
PC_REQUIRES += libibverbs librdmacm
EXT_LIBS += $(shell $(PKG_CONFIG) --libs librdmacm libibverbs)
$(BUILD)/obj/userlib/core/registry.o: CFLAGS += -DEEL_HAVE_VERBS=1
# the libibverbs version built against, for eel_nic_info (verbs_info.c)
$(BUILD)/obj/userlib/verbs/verbs_info.o: CFLAGS += -DEEL_IBVERBS_VERSION='"$(shell $(PKG_CONFIG) --modversion libibverbs)"'

VERBS_ERRORS := $(BUILD)/tests/verbs_errors
all: $(VERBS_ERRORS)

$(VERBS_ERRORS): tests/vm/verbs_errors.c $(BUILD)/libeel.a userlib/verbs/verbs.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libeel.a $(EXT_LIBS) $(LDLIBS)
else
WITHOUT += verbs
USERLIB_SRC := $(filter-out userlib/verbs/%,$(USERLIB_SRC))
endif
