# SPDX-License-Identifier: MIT
# tools/mpi.mk — eel-mpi (tools/eel-mpi.c, tools/mpi/): the MPI layer measured
# as Al-Tawil & Moritz 2001 do, built with Open MPI's mpicc (Debian:
# libopenmpi-dev, tools/setup's mpi group). MPI's headers are system headers
# here (-isystem): its own declarations are not eel's to keep -Werror clean.
# Open MPI is optional: without mpicc, eel-mpi is not built ($(BUILD)/features
# says so); the model's and the search's unit tests below need no MPI.
ifneq ($(shell command -v $(MPICC) 2>/dev/null),)
FEATURES += eel-mpi
MPI_CFLAGS := $(patsubst -I%,-isystem %,$(shell $(MPICC) --showme:compile 2>/dev/null))
MPI_LIBS   := $(shell $(MPICC) --showme:link 2>/dev/null)
EEL_MPI_SRC := tools/eel-mpi.c tools/mpi/fig2.c tools/mpi/model.c tools/mpi/bell.c \
	tools/mpi/bell_pingpong.c tools/mpi/bell_flood.c tools/mpi/bell_overlap.c tools/mpi/eel_side.c \
	tools/mpi/report_json.c tools/mpi/wtime.c tools/json_read.c \
	userlib/core/input.c userlib/core/error.c $(METHOD_SRC)
EEL_MPI_WITH_MPI := tools/eel-mpi.c tools/mpi/fig2.c tools/mpi/bell.c tools/mpi/bell_pingpong.c \
	tools/mpi/bell_flood.c tools/mpi/bell_overlap.c tools/mpi/eel_side.c tools/mpi/report_json.c tools/mpi/wtime.c

TOOLS_BIN += $(BUILD)/eel-mpi

$(call OBJ,$(EEL_MPI_WITH_MPI)): CFLAGS += $(MPI_CFLAGS) -Itools

$(BUILD)/eel-mpi: $(call OBJ,$(EEL_MPI_SRC))
	$(CC) $(LDFLAGS) -o $@ $^ $(MPI_LIBS) $(LDLIBS)
else
WITHOUT += eel-mpi
endif

# The model's unit test needs the model and its least squares (method/fit.c) only.
MPI_MODEL_OBJ := $(call OBJ,tools/mpi/model.c method/fit.c)
$(BUILD)/tests/test_mpi_model: tests/unit/test_mpi_model.c $(MPI_MODEL_OBJ) tests/unit/check.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests/unit -Itools/mpi $(LDFLAGS) -o $@ $< $(MPI_MODEL_OBJ) $(LDLIBS)

# The overlap search's unit test needs the search (method/dmax.c) only.
$(BUILD)/tests/test_mpi_sweep: tests/unit/test_mpi_sweep.c $(call OBJ,method/dmax.c) tests/unit/check.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests/unit $(LDFLAGS) -o $@ $< $(call OBJ,method/dmax.c) $(LDLIBS)
