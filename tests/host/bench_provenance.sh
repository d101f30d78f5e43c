#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A run says where its figures come from (docs/json.md, `provenance` and
# `machine.placement`): a softnic run's JSON names the commit eel was built
# from (the one checked out: git describe of this tree), its compiler and
# flags, the kernel it ran on (uname -r), and the software NIC's firmware: eel
# at that commit, the ABI of include/eel/fw_abi.h. The software NIC has no
# PCI function, so no NUMA node: the default core is not one chosen by the
# NIC's node, and the document says why; --cpu is said as --cpu.
set -uo pipefail
cd "$(dirname "$0")/../.."
B=${EEL_BUILD:-build}
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
fail=0
check() { # check 'what' jq-filter (true passes)
  if [ "$(jq -r "$2" "$d/r.json")" = true ]; then echo "ok: $1"
  else echo "FAILED: $1 ($2)"; jq '.provenance, .machine.placement' "$d/r.json" | sed 's/^/    | /'; fail=1; fi
}
short=(-t pingpong -n 200 -r 3 --warmup 20)
"$B/eel-bench" "${short[@]}" --json "$d/r.json" >"$d/table" || { echo "FAILED: eel-bench ${short[*]}"; exit 1; }

if head=$(git rev-parse --short HEAD 2>/dev/null); then
  check "eel's commit is this tree's ($head)" ".provenance.eel.commit | contains(\"$head\")"
else
  echo "skipped: the commit (not a git tree)"
fi
check "the compiler and its version" '.provenance.eel.cc != "" and (.provenance.eel.cc_version | length) > 0'
check "the build flags" '.provenance.eel.cflags | contains("-std=c11")'
check "the optional parts built" '.provenance.eel.features | startswith("have: ")'
check "the kernel is uname -r ($(uname -r))" ".provenance.kernel.release == \"$(uname -r)\" and .provenance.kernel.machine == \"$(uname -m)\""
abi=$(sed -n 's/^#define EEL_FW_ABI_VERSION \([0-9]*\)u.*/\1/p' include/eel/fw_abi.h)
check "the firmware's ABI is fw_abi.h's ($abi)" ".provenance.nic.fw_abi == $abi"
check "the firmware is eel at its commit" '.provenance.nic.fw_version == "eel " + .provenance.eel.commit and .provenance.nic.libeel_commit == .provenance.eel.commit'
check "the driver named" '.provenance.nic.driver == "eel firmware" and .provenance.nic.module == null and (.provenance.nic.module_why | length) > 0'
check "no NUMA node: the core not chosen by it, and why" \
  '.machine.placement.nic_numa_node == null and .machine.placement.by != "the NIC'"'"'s NUMA node" and (.machine.placement.why | contains("NUMA node is unknown"))'
if grep -q '^  ran on   ' "$d/table" && grep -q '^  versions eel ' "$d/table"; then echo "ok: the table's ran-on and versions lines"
else echo "FAILED: the table has no ran-on or versions line"; head -6 "$d/table" | sed 's/^/    | /'; fail=1; fi

"$B/eel-bench" "${short[@]}" --cpu 0 --json "$d/r.json" -q || { echo "FAILED: eel-bench --cpu 0"; exit 1; }
check "--cpu 0: core 0, chosen by --cpu" '.machine.placement.core == 0 and .machine.placement.by == "--cpu" and .machine.placement.why == null'
exit $fail
