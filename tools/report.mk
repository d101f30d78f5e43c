# tools/report.mk — the outputs of a run (included by the top Makefile):
#
#   $(BUILD)/eel-compare   a noise-aware comparison of two runs, for a lab's CI
#
# It reads JSON with tools/json_read.c. The reader's unit test
# (tests/unit/test_json_read.c) links only the reader.

REPORT_COMMON := tools/json_read.c tools/report/doc.c
COMPARE_SRC   := tools/eel-compare.c $(REPORT_COMMON)

TOOLS_BIN += $(BUILD)/eel-compare

$(BUILD)/eel-compare: $(call OBJ,$(COMPARE_SRC))
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The reader's unit test needs the reader only (not libeel and the bench, as tests/tests.mk's rule links).
$(BUILD)/tests/test_json_read: tests/unit/test_json_read.c $(call OBJ,tools/json_read.c) tests/unit/check.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests/unit $(LDFLAGS) -o $@ $< $(call OBJ,tools/json_read.c) $(LDLIBS)
