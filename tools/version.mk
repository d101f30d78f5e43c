# SPDX-License-Identifier: MIT
# tools/version.mk — what `--version` prints: the release (EEL_VERSION, the
# top Makefile's, from include/eel/eel.h) and the commit the build came from (git describe; "unknown"
# outside a git tree). Included by the top Makefile.
#
# Only the objects that print it get -DEEL_GIT, so a new commit rebuilds those
# few and nothing else: they depend on $(BUILD)/git-version, a stamp rewritten
# only when its content (the commit) changes. The scripts eel-bind and eel-loss
# are copied into $(BUILD) with both filled in; run from tools/, they ask git.

EEL_GIT     := $(shell git -C $(CURDIR) describe --always --dirty 2>/dev/null || echo unknown)
GIT_STAMP   := $(BUILD)/git-version

# The sources whose objects print `PROGRAM --version`.
VERSION_SRC := userlib/core/nic_info.c bench/cli.c tools/eel-report.c tools/eel-compare.c tools/eel-probe.c tools/eel-mpi.c \
	tests/vm/eel_pci_check.c

# Rewrite the stamp at parse time, only when the commit changed.
$(call stamp,$(GIT_STAMP),$(EEL_GIT))

$(call OBJ,$(VERSION_SRC)): CFLAGS += -DEEL_GIT='"$(EEL_GIT)"'
$(call OBJ,$(VERSION_SRC)): $(GIT_STAMP)

# The scripts, with their version filled in (the copies to install).
VERSION_SCRIPTS := $(BUILD)/eel-bind $(BUILD)/eel-loss
TOOLS_BIN += $(VERSION_SCRIPTS)

$(VERSION_SCRIPTS): $(BUILD)/%: tools/% $(GIT_STAMP) include/eel/eel.h
	sed -e 's/@EEL_VERSION@/$(EEL_VERSION)/' -e 's/@EEL_GIT@/$(EEL_GIT)/' $< > $@.tmp
	chmod +x $@.tmp && mv $@.tmp $@

# How eel-bench was built, for its JSON's provenance (bench/provenance.c):
# the compiler, its version and the flags every object got, in a stamp
# rewritten only when they change (so a rebuild is not forced each time), and
# the optional parts ($(BUILD)/features, FEATURES_TEXT of the top Makefile,
# expanded when the object is built).
EEL_CC_VERSION := $(shell $(CC) --version 2>/dev/null | head -n 1)
EEL_CFLAGS_USED := $(strip $(subst ',,$(subst ",,$(CFLAGS))))
BUILD_FLAGS_STAMP := $(BUILD)/build-flags
$(call stamp,$(BUILD_FLAGS_STAMP),$(CC) | $(subst ',,$(subst ",,$(EEL_CC_VERSION))) | $(EEL_CFLAGS_USED))

$(call OBJ,bench/provenance.c): CFLAGS += -DEEL_GIT='"$(EEL_GIT)"' -DEEL_CC='"$(CC)"' \
	-DEEL_CC_VERSION='"$(subst ',,$(subst ",,$(EEL_CC_VERSION)))"' -DEEL_CFLAGS='"$(EEL_CFLAGS_USED)"' \
	-DEEL_FEATURES='"$(FEATURES_TEXT)"'
$(call OBJ,bench/provenance.c): $(GIT_STAMP) $(BUILD_FLAGS_STAMP) $(BUILD)/features
