# SPDX-License-Identifier: MIT
# tests/fuzz.mk — libFuzzer targets (included by the top Makefile).
#
#   make fuzz       build every tests/fuzz/fuzz_NAME.c into build/fuzz/fuzz_NAME
#
# Each target is built with clang's libFuzzer, AddressSanitizer and
# UndefinedBehaviorSanitizer, together with the sources it exercises (built
# the same way, so the fuzzer sees their coverage). tests/host/fuzz_smoke.sh
# runs each one for a bounded number of inputs from tests/fuzz/corpus/NAME/.
# Needs clang and libclang-rt-14-dev (tools/setup build).

FUZZ_DIR    := build/fuzz
FUZZ_CC     := clang
FUZZ_CFLAGS := -std=c11 -D_GNU_SOURCE -g -O1 -fno-omit-frame-pointer \
               -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
               -Wall -Wextra -Werror -Wno-unused-parameter -Iinclude -I. -Itests/unit
FUZZ_TARGETS := $(patsubst tests/fuzz/%.c,$(FUZZ_DIR)/%,$(wildcard tests/fuzz/fuzz_*.c))

# What each target exercises.
FUZZ_SRC_fuzz_pkt := $(wildcard firmware/*.c)
FUZZ_SRC_fuzz_oob := userlib/core/oob.c userlib/core/error.c
FUZZ_SRC_fuzz_uri := userlib/core/uri.c userlib/core/error.c
FUZZ_SRC_fuzz_json := userlib/core/input.c userlib/core/error.c
# and the libraries it links
FUZZ_LIBS_fuzz_json := -ljansson

.PHONY: fuzz
fuzz: $(FUZZ_TARGETS)

define fuzz_rule
$(FUZZ_DIR)/$(1): tests/fuzz/$(1).c $(FUZZ_SRC_$(1)) tests/unit/fakenic.h $(wildcard include/eel/*.h firmware/*.h userlib/*/*.h)
	@mkdir -p $(FUZZ_DIR)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $$@ tests/fuzz/$(1).c $(FUZZ_SRC_$(1)) $(FUZZ_LIBS_$(1))
endef
$(foreach t,$(patsubst $(FUZZ_DIR)/%,%,$(FUZZ_TARGETS)),$(eval $(call fuzz_rule,$(t))))
