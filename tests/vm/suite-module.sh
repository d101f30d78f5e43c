#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/vm/suite-module.sh — eel_pci.ko and eel-probe in Debian's real kernel under QEMU.
#
# Builds the module on the host against the guest kernel's headers (make module KVER=...),
# then boots two guests, each with QEMU's edu device (a DMA engine, docs/specs/edu.rst),
# the bench's e1000, and a virtio-rng behind a PCIe root port (a real link to report):
#   module-iommu    with an emulated Intel IOMMU: DMA buffers are IOVAs, translated
#   module-noiommu  without: DMA buffers are physical addresses (dma-direct, 28-bit mask)
# The checks themselves are in tests/vm/guest-module.sh (one line each in the output).
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}

kver=$(tests/vm/run-vm --print-kver)
make -s module KVER="$kver"
make -s "$BUILD/eel-probe" "$BUILD/eel-pci-check"

devices=(--device pcie-root-port,id=rp0,chassis=1 --device virtio-rng-pci,bus=rp0 --device edu)
for mode in iommu noiommu; do
  extra=() && [ $mode = iommu ] && extra=(--device intel-iommu)
  # intel-iommu first: QEMU wants it before the devices it translates for.
  tests/vm/run-vm --name "module-$mode" --timeout 180 "${extra[@]}" "${devices[@]}" -- \
    tests/vm/guest-module.sh $mode
  grep -q "^== all checks passed ($mode)" "build/vm/results/module-$mode/vm0/output.log" ||
    { echo "suite-module: module-$mode: no 'all checks passed' line" >&2; exit 1; }
done
