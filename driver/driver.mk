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
# source (linux-source-<series>: /usr/src/linux-source-*.tar.xz). CHECKPATCH=<path>
# names one directly.
CHECKPATCH ?= $(firstword $(wildcard $(KDIR)/scripts/checkpatch.pl \
	/lib/modules/$(EEL_KVER)/source/scripts/checkpatch.pl $(BUILD)/checkpatch/scripts/checkpatch.pl))
checkpatch:
	@set -e; cp="$(CHECKPATCH)"; \
	if [ -z "$$cp" ]; then \
	  tarball=$$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V | tail -n 1); \
	  if [ -z "$$tarball" ]; then \
	    echo "make checkpatch: no checkpatch.pl (not in linux-headers): install Debian's linux-source package, or pass CHECKPATCH=<path>" >&2; exit 1; fi; \
	  top=$$(basename $$tarball .tar.xz); mkdir -p $(BUILD)/checkpatch; \
	  tar -xJf $$tarball -C $(BUILD)/checkpatch --strip-components=1 \
	    $$top/scripts/checkpatch.pl $$top/scripts/spelling.txt $$top/scripts/const_structs.checkpatch; \
	  cp=$(BUILD)/checkpatch/scripts/checkpatch.pl; fi; \
	perl $$cp --no-tree --strict -f $(EEL_PCI_SRC) include/eel/eel_pci_ioctl.h
