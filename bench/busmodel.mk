# SPDX-License-Identifier: MIT
# bench/busmodel.mk — where the source tree is, for data/pcie_bench.csv when
# eel-bench is not beside it (bench/busmodel.c).
$(BUILD)/obj/bench/busmodel.o: CFLAGS += -DEEL_SRC_DIR='"$(CURDIR)"'
