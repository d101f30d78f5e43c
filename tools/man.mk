# SPDX-License-Identifier: MIT
# tools/man.mk — the man pages: docs/man/NAME.SECTION.md (markdown, the form
# kept in the tree and read on GitHub) into roff at $(BUILD)/man/NAME.SECTION
# with go-md2man, as rdma-core does. Included by the top Makefile; the install
# rule takes $(MAN_PAGES). Check a page with `man -l $(BUILD)/man/eel-bench.1`.

ifeq ($(shell command -v go-md2man 2>/dev/null),)
ifneq ($(BUILD_GOALS),)
$(error go-md2man is missing (it makes the man pages): run `sudo tools/setup build`)
endif
endif

MAN_SRC   := $(sort $(wildcard docs/man/*.md))
MAN_PAGES := $(patsubst docs/man/%.md,$(BUILD)/man/%,$(MAN_SRC))

all: $(MAN_PAGES)

# The pages' HTML comments (their SPDX line and path) are not for roff: dropped
# first. Anything go-md2man says (a markdown it cannot render) fails the build.
$(BUILD)/man/%: docs/man/%.md
	@mkdir -p $(dir $@)
	sed '/^<!--/,/-->/d' $< | go-md2man -out $@.tmp 2>$@.err; \
	  if [ -s $@.err ]; then cat $@.err >&2; rm -f $@.tmp $@.err; exit 1; fi
	rm -f $@.err && mv $@.tmp $@
