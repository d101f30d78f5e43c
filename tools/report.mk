# SPDX-License-Identifier: MIT
# tools/report.mk — the outputs of a run (included by the top Makefile):
#
#   $(BUILD)/eel-report    plots (gnuplot) and one HTML page from a run's JSON
#   $(BUILD)/eel-compare   a noise-aware comparison of two runs, for a lab's CI
#
# Both read JSON with tools/json_read.c; eel-report finds data/historical.csv
# with eel_data_path (installed: <prefix>/share/eel; else the source tree's data/).
# The reader's unit test (tests/unit/test_json_read.c) links only the reader;
# its fuzz target (tests/fuzz/fuzz_json.c) is built by tests/fuzz.mk and
# exercised by tests/host/report_fuzz_json.sh.

REPORT_COMMON := tools/json_read.c tools/report/doc.c tools/stdout_check.c
REPORT_SRC    := tools/eel-report.c $(filter-out tools/report/doc.c,$(wildcard tools/report/*.c)) $(REPORT_COMMON) tools/compare.c
COMPARE_SRC   := tools/eel-compare.c tools/compare.c tools/compare_mesh.c tools/compare_tail.c tools/compare_provenance.c tools/compare_noise.c method/stats.c $(REPORT_COMMON)

TOOLS_BIN += $(BUILD)/eel-report $(BUILD)/eel-compare

$(BUILD)/eel-report: $(call OBJ,$(REPORT_SRC))
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/eel-compare: $(call OBJ,$(COMPARE_SRC))
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# data/historical.csv is found by libeel's eel_data_path (userlib/core/data_path.c).
$(BUILD)/eel-report: $(call OBJ,userlib/core/data_path.c userlib/core/error.c userlib/core/input.c)
# tools/json_read.c opens a document with libeel's eel_input_open.
$(BUILD)/eel-compare: $(call OBJ,userlib/core/error.c userlib/core/input.c)

# The reader's unit test needs the reader only (not libeel and the bench, as tests/tests.mk's rule links).
JSON_READ_OBJ := $(call OBJ,tools/json_read.c userlib/core/input.c userlib/core/error.c)
$(BUILD)/tests/test_json_read: tests/unit/test_json_read.c $(JSON_READ_OBJ) tests/unit/check.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests/unit $(LDFLAGS) -o $@ $< $(JSON_READ_OBJ) $(LDLIBS)

# The fuzz target includes the reader's source (one translation unit, so tests/fuzz.mk's
# generic rule builds it); rebuild it when the reader changes.
build/fuzz/fuzz_json: tools/json_read.c tools/json_read.h
