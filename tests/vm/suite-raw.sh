#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/vm/suite-raw.sh — eel's raw e1000 driver (userlib/raw/backend_raw_e1000.c) on QEMU's
# emulated e1000 (82540EM) and e1000e (82574L), through eel_pci.ko.
#
# One VM per model, two NICs on one QEMU hub and two vCPUs: eel_pci.ko (built on the host
# against the guest kernel's headers) loaded, both NICs bound to it with tools/eel-bind,
# eel-bench's server on one NIC and its client on the other, --verify and --json; bad input
# refused first. The checks are in tests/vm/guest-raw.sh (one line each in the output);
# the TDT-to-DD figures are printed here.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
MODELS=${EEL_RAW_MODELS:-e1000 e1000e}

kver=$(tests/vm/run-vm --print-kver)
ko=build/module/$kver/eel_pci.ko
# Kbuild takes ~10 s even when nothing changed: only when the module is older than its sources.
if [ ! -f "$ko" ] || [ -n "$(find driver include/eel/eel_pci_ioctl.h Kbuild -newer "$ko" -print -quit)" ]; then
  make -s module KVER="$kver"
fi
make -s "$BUILD/eel-bench"
# the guest loads the module from $BUILD/module/<kver>/
[ "$BUILD" = build ] || { mkdir -p "$BUILD/module" && cp -a "build/module/$kver" "$BUILD/module/"; }

for model in $MODELS; do
  # Every bad input and the uio fallback (it needs hugepages) once, on e1000.
  full=() extra=() && [ "$model" = e1000 ] && full=(full) extra=(--hugepages 4)
  tests/vm/run-vm --name "raw-$model" --nics 2 --nic "$model" --smp 2 --timeout 240 "${extra[@]}" -- \
    tests/vm/guest-raw.sh "$model" "$BUILD" "${full[@]}"
  out=build/vm/results/raw-$model/vm0
  grep -q "^== all checks passed ($model)" "$out/output.log" ||
    { echo "suite-raw: raw-$model: no 'all checks passed' line (see $out/output.log)" >&2; exit 1; }
  echo "suite-raw: $model:"
  cat "$out/out/tdt_dd.txt"
  cat "$out/out/measured.txt"
done
