# SPDX-License-Identifier: MIT
# userlib/core/core.mk — where the source tree is, for eel's data files when
# the program is neither installed nor beside the tree (data_path.c).
$(BUILD)/obj/userlib/core/data_path.o: CFLAGS += -DEEL_SRC_DIR='"$(CURDIR)"'
