# SPDX-License-Identifier: GPL-2.0
# driver/driver.mk — `make module`: driver/eel_pci.ko, built out of tree with Kbuild.
#
#   make module [KVER=<kernel version>] [W=1]
#
# KVER defaults to the VM bench's guest kernel (`tests/vm/run-vm --print-kver`),
# else the newest installed /usr/src/linux-headers-*-amd64. The headers come from
# Debian's linux-headers-amd64 (`tools/setup vm`). The module is copied to
# $(BUILD)/module/<KVER>/eel_pci.ko, where the VM tests load it from.
#   make module-clean   removes the Kbuild outputs
#   make checkpatch     the kernel's style check, when a checkpatch.pl is found

# EEL_KVER: KVER if given (and not empty), else the default; worked out once, and only
# when a module target needs it (run-vm --print-kver takes a second).
EEL_KVER = $(eval EEL_KVER := $(if $(KVER),$(KVER),$(shell tests/vm/run-vm --print-kver 2>/dev/null || \
	ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sed 's|.*/linux-headers-||' | \
	sort -V | tail -n 1)))$(EEL_KVER)
KDIR ?= $(firstword $(wildcard /lib/modules/$(EEL_KVER)/build) /usr/src/linux-headers-$(EEL_KVER))
MODULE_OUT = $(BUILD)/module/$(EEL_KVER)

.PHONY: module module-clean checkpatch
EEL_PCI_SRC = $(filter-out %.mod.c,$(wildcard driver/*.c driver/*.h))

module:
	@if [ -z "$(EEL_KVER)" ] || [ ! -f "$(KDIR)/Makefile" ]; then \
	  echo "make module: no kernel headers for '$(EEL_KVER)' in $(KDIR): run \`tools/setup vm\` (Debian's linux-headers-amd64) or pass KVER=<version with headers in /usr/src>" >&2; \
	  exit 1; fi
	$(MAKE) -C $(KDIR) M=$(CURDIR)/driver modules
	@mkdir -p $(MODULE_OUT)
	cp driver/eel_pci.ko $(MODULE_OUT)/eel_pci.ko

module-clean:
	@if [ -f "$(KDIR)/Makefile" ]; then $(MAKE) -C $(KDIR) M=$(CURDIR)/driver clean; fi
	rm -rf $(BUILD)/module

# checkpatch.pl is not in Debian's linux-headers packages; it is in the kernel
# source. Without CHECKPATCH=<path> (or one beside the headers), it is taken
# from Debian's linux-source of the guest kernel's upload, fetched once into
# build/vm/linux-source/ (tests/vm/lib/linux-source.sh, shared with siw's build).
# Any error, warning or --strict check fails the target (checkpatch's exit status).
CHECKPATCH ?= $(firstword $(wildcard $(KDIR)/scripts/checkpatch.pl \
	/lib/modules/$(EEL_KVER)/source/scripts/checkpatch.pl))
checkpatch:
	@set -e; cp="$(CHECKPATCH)"; \
	if [ -z "$$cp" ]; then \
	  src=$$(tests/vm/run-vm --print-linux-source) || { \
	    echo "make checkpatch: no checkpatch.pl: Debian's linux-source could not be fetched (above); pass CHECKPATCH=<path>" >&2; exit 1; }; \
	  cp=$$src/scripts/checkpatch.pl; fi; \
	perl $$cp --no-tree --strict -f $(EEL_PCI_SRC) include/eel/eel_pci_ioctl.h
