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
VERSION_SRC := bench/cli.c tools/eel-report.c tools/eel-compare.c tools/eel-probe.c tools/eel-mpi.c \
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
