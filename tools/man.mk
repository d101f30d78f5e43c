# SPDX-License-Identifier: MIT
# tools/man.mk — the man pages: docs/man/NAME.SECTION.md (markdown, the form
# kept in the tree and read on GitHub) into roff at $(BUILD)/man/NAME.SECTION
# with go-md2man, as rdma-core does. Included by the top Makefile; the install
# rule takes $(MAN_PAGES). Check a page with `man -l $(BUILD)/man/eel-bench.1`.

# go-md2man comes with tools/setup's build group; a build without it has no
# man pages ($(BUILD)/features says so) and everything else.

MAN_SRC   := $(sort $(wildcard docs/man/*.md))
ifneq ($(shell command -v go-md2man 2>/dev/null),)
FEATURES  += man
MAN_PAGES := $(patsubst docs/man/%.md,$(BUILD)/man/%,$(MAN_SRC))
else
WITHOUT   += man
MAN_PAGES :=
endif

all: $(MAN_PAGES)

# The pages' HTML comments (their SPDX line and path) are not for roff: dropped
# first. Anything go-md2man says (a markdown it cannot render) fails the build.
$(BUILD)/man/%: docs/man/%.md
	@mkdir -p $(dir $@)
	sed '/^<!--/,/-->/d' $< | go-md2man -out $@.tmp 2>$@.err; \
	  if [ -s $@.err ]; then cat $@.err >&2; rm -f $@.tmp $@.err; exit 1; fi
	rm -f $@.err && mv $@.tmp $@
