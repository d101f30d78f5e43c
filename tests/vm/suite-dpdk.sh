#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/vm/suite-dpdk.sh — eel's DPDK backend (userlib/dpdk/backend_dpdk.c) on a real PMD driving
# real (emulated) hardware: DPDK's e1000 PMD on QEMU's e1000 (82540EM) through
# uio_pci_generic, DMA memory in hugepages (shared/VM-RECIPE.md).
#
# One VM, two e1000s on one QEMU hub, two vCPUs: eel-bench's server on one NIC and its
# client on the other (two processes, each its own EAL), every put verified; bad input
# first. The checks are in tests/vm/guest-dpdk.sh (one line each in the output); the
# figures (EEL, the floor, EEL / floor) are printed here.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}

make -s "$BUILD/eel-bench"
# 128 hugepages (256 MB): two EALs, each a pool of 4095 mbufs and the e1000's rings
tests/vm/run-vm --name dpdk --nics 2 --nic e1000 --smp 2 --hugepages 128 --mem 1024 --timeout 300 -- \
  tests/vm/guest-dpdk.sh "$BUILD"
out=build/vm/results/dpdk/vm0
grep -q "^== all checks passed" "$out/output.log" ||
  { echo "suite-dpdk: no 'all checks passed' line (see $out/output.log)" >&2; exit 1; }
jq -e '.nic.backend == "dpdk" and .limit.eel_over_floor > 0' "$out/out/dpdk.json" >/dev/null ||
  { echo "suite-dpdk: $out/out/dpdk.json lacks the DPDK figures" >&2; exit 1; }
echo "suite-dpdk: DPDK e1000 PMD in TCG (absolute times are meaningless, the ratio is usable):"
cat "$out/out/figures.txt"
