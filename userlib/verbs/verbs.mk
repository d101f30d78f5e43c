# SPDX-License-Identifier: MIT
# userlib/verbs/verbs.mk — the verbs backend (userlib/verbs/backend_verbs.c, verbs_*.c) links
# rdma-core's libibverbs and, for iWARP's connection manager, librdmacm (Debian:
# libibverbs-dev, librdmacm-dev, tools/setup's verbs group), and its VM test's
# error program (tests/vm/verbs_errors.c, run by tests/vm/suite-verbs.sh).
ifeq ($(shell pkg-config --exists libibverbs librdmacm 2>/dev/null && echo yes),)
ifneq ($(BUILD_GOALS),)
$(error rdma-core's development files are missing (pkg-config libibverbs librdmacm found nothing): run `sudo tools/setup verbs`)
endif
endif
EXT_LIBS += -lrdmacm -libverbs

VERBS_ERRORS := $(BUILD)/tests/verbs_errors
all: $(VERBS_ERRORS)

$(VERBS_ERRORS): tests/vm/verbs_errors.c $(BUILD)/libeel.a userlib/verbs/verbs.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libeel.a $(EXT_LIBS) $(LDLIBS)
