# SPDX-License-Identifier: MIT
# tools/tools.mk — eel-probe (PCI facts through libpci) and the eel_pci.ko test helper.
# Included by the top Makefile. userlib/pci/pci_facts.c is part of libeel (the top Makefile
# globs userlib/*/), so libeel and everything linking it need libpci too.

EXT_LIBS  += -lpci
TOOLS_BIN += $(BUILD)/eel-probe $(BUILD)/eel-pci-check

# eel-probe needs only the facts code, not the rest of libeel.
# input.o and error.o: --dump FILE is checked (eel_input_open) before libpci reads it.
$(BUILD)/eel-probe: $(BUILD)/obj/tools/eel-probe.o $(BUILD)/obj/tools/probe_map.o $(BUILD)/obj/userlib/pci/pci_facts.o \
		$(BUILD)/obj/userlib/core/input.o $(BUILD)/obj/userlib/core/error.o
	$(CC) $(LDFLAGS) -o $@ $^ -lpci $(LDLIBS)

# The user-space side of the module's VM test (tests/vm/guest-module.sh).
$(BUILD)/eel-pci-check: $(BUILD)/obj/tests/vm/eel_pci_check.o
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
