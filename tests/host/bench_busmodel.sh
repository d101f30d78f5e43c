#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The bus model (docs/bus.md): `eel-bench -t busmodel` against pcie-bench's figures
# (data/pcie_bench.csv) within 5% (latency) and 2% (bandwidth); a figure the
# model misses fails the run; bad bus input is one clear line and a non-zero
# exit (an unknown preset or parameter, a negative value, a preset file that
# does not parse).
set -uo pipefail
B=${EEL_BUILD:-build}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail=0
say() { echo "$*"; }
bad() { echo "FAILED: $*"; fail=1; }

# 1. the model beside the paper: every figure within its tolerance
timeout 30 "$B/eel-bench" -t busmodel >"$out/table" 2>"$out/err"
rc=$?
rows=$(grep -cE '^  (dma_read_latency|tlp_bandwidth|write_bandwidth|read_bandwidth) ' "$out/table")
yes=$(grep -cE ' yes$' "$out/table")
if [ $rc -ne 0 ] || [ "$rows" -ne 9 ] || [ "$yes" -ne 9 ]; then
  bad "-t busmodel: exit $rc, $rows rows, $yes within"; cat "$out/table" "$out/err"
else
  say "ok: -t busmodel: 9 of 9 figures within"
fi

# 2. a figure the model does not meet fails the run (the check can fail)
sed 's/^dma_read_latency,8,541,/dma_read_latency,8,800,/' data/pcie_bench.csv >"$out/off.csv"
timeout 30 "$B/eel-bench" -t busmodel --bus-data "$out/off.csv" >"$out/table" 2>"$out/err"
rc=$?
if [ $rc -ne 1 ] || ! grep -qE 'dma_read_latency +8 B .* NO$' "$out/table"; then
  bad "a missed figure: exit $rc"; cat "$out/table"
else
  say "ok: a figure 32% off is NO and exit 1"
fi

# 3. bad input: one line, the problem and the fix, non-zero, nothing measured
expect() {  # expect 'text in the message' ARGS...
  local text=$1; shift
  timeout 30 "$B/eel-bench" "$@" >"$out/stdout" 2>"$out/stderr"
  local rc=$? lines
  lines=$(wc -l <"$out/stderr")
  if [ $rc -eq 0 ] || ! grep -qF -- "$text" "$out/stderr" || [ "$lines" -ne 1 ]; then
    bad "eel-bench $*: exit $rc, $lines line(s):"; sed 's/^/    /' "$out/stderr"
  else
    say "ok: $* -> $(head -c 160 "$out/stderr")"
  fi
}
echo 'not,a,figure,of,this,model' >"$out/junk.csv"
printf 'measurement,size_bytes,value,unit,tolerance_pct,note\nlatency_of_everything,8,1,ns,5,x\n' >"$out/junk2.csv"
expect "is not a figure this model gives" -t busmodel --bus-data "$out/junk2.csv"
expect "has no figures" -t busmodel --bus-data "$out/junk.csv"
expect "cannot open: No such file" -t busmodel --bus-data "$out/missing.csv"
expect "unknown bus 'pcie-gen9x1'" -d 'softnic?bus=pcie-gen9x1' -t pingpong
expect "is negative" -d 'softnic?bus=pcie-gen3x8&iommu_miss_ns=-300' -t pingpong
expect "is not a number" -d 'softnic?bus=pcie-gen3x8&posted_ns=fast' -t pingpong
expect "power of two" -d 'softnic?bus=pcie-gen4x16&mps=300' -t pingpong
expect "bus parameters without a bus" -d 'softnic?read_rtt_ns=500' -t pingpong
printf '# a lab bus\nbus = pcie-gen3x8\nread_rtt_ns 700\n' >"$out/lab.bus"
expect "line 3" -d "softnic?bus=$out/lab.bus" -t pingpong
printf 'bus = pcie-gen3x8\nwidth = 8\n' >"$out/lab2.bus"
expect "unknown bus parameter 'width'" -d "softnic?bus=$out/lab2.bus" -t pingpong
expect "bus preset file" -d "softnic?bus=$out/none.bus" -t pingpong
# measured:<pci address> (userlib/pci/mmio_rtt.c): a bad address, no such
# function, a function eel_pci does not drive (eel_pci not loaded here, or
# the function not bound to it); the VM's raw e1000 suite measures one
expect "is not a PCI address" -d 'softnic?bus=measured:00:1f.9' -t pingpong
expect "no PCI function 0000:7f:1f.7" -d 'softnic?bus=measured:0000:7f:1f.7' -t pingpong
expect "measured:0000:7f:1f.7: no PCI function" --bus none,measured:0000:7f:1f.7 -t pingpong
host=$(find /sys/bus/pci/devices/ -mindepth 1 -maxdepth 1 -printf "%f\n" 2>/dev/null | sort | head -1)
if [ -n "$host" ] && [ ! -e "/dev/eel_pci/$host" ]; then
  if [ -d /sys/bus/pci/drivers/eel_pci ]; then
    expect "is not bound to eel_pci: \`sudo tools/eel-bind --force $host\`" -d "softnic?bus=measured:$host" -t pingpong
  else
    expect "eel_pci is not loaded" -d "softnic?bus=measured:$host" -t pingpong
  fi
fi

exit $fail
