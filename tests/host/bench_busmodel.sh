#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The bus model (docs/bus.md): `eel-bench -t busmodel` against pcie-bench's
# measurements of six hosts (data/pcie_bench.csv), each host's rows printed
# and every claimed row within 5% (latency) and 10% (bandwidth); a figure the
# model misses fails the run; the JSON gives every preset's parameters with
# their provenance; bad bus input is one clear line and a non-zero exit (an
# unknown preset or parameter, a negative value, a preset file that does not
# parse, a NUMA node this machine lacks).
set -uo pipefail
B=${EEL_BUILD:-build}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail=0
say() { echo "$*"; }
bad() { echo "FAILED: $*"; fail=1; }

# 1. every host's rows printed; every claimed row within (the rest "not claimed")
hosts="pcie-gen3x8-bdw pcie-gen3x8-hsw-e5 pcie-gen3x8-hsw-e3 pcie-gen3x8-hsw-smc pcie-gen3x8-ivb pcie-gen3x8-snb"
timeout 30 "$B/eel-bench" -t busmodel --json "$out/bm.json" >"$out/table" 2>"$out/err"
rc=$?
data=$(grep -cE '^pcie-' data/pcie_bench.csv)
claimed=$(grep -cE '^pcie-[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,yes,' data/pcie_bench.csv)
rows=$(grep -cE '^  [a-z_]+ +[0-9]+ B ' "$out/table")
yes=$(grep -cE ' yes$' "$out/table")
notclaimed=$(grep -cE ' (yes|no) \(not claimed\)$' "$out/table")
if [ $rc -ne 0 ] || [ "$rows" -ne "$data" ] || [ "$yes" -ne "$claimed" ] || [ $((yes + notclaimed)) -ne "$data" ]; then
  bad "-t busmodel: exit $rc, $rows rows of $data, $yes within of $claimed claimed, $notclaimed not claimed"
  cat "$out/table" "$out/err"
else
  say "ok: -t busmodel: $yes of $claimed claimed rows within, $notclaimed not claimed, of $data"
fi
for h in $hosts; do
  n=$(awk -v h="model bus $h:" 'index($0, h) {on = 1; next} /^  model bus|^  the presets/ {on = 0} on && / B / {n++} END {print n + 0}' "$out/table")
  want=$(grep -c "^$h," data/pcie_bench.csv)
  lat=$(grep -cE "^$h,dma_read_latency,(8|64|128|256|512|1024|2048)," data/pcie_bench.csv)
  bw=$(grep -cE "^$h,(read|write)_bandwidth,(64|128|256|512|1024|2048)," data/pcie_bench.csv)
  if [ "$n" -ne "$want" ] || [ "$lat" -ne 7 ] || [ "$bw" -ne 12 ]; then
    bad "$h: $n rows printed of $want ($lat latency sizes of 7, $bw bandwidth rows of 12)"
  else
    say "ok: $h: $n rows (7 latency sizes, read and write bandwidth at 6)"
  fi
done

# 2. the JSON: every row with its host; every parameter of every preset with its provenance
if jq -e --arg n "$data" '.schema == "eel.busmodel" and .schema_version == 2 and
    (.figures | length) == ($n | tonumber) and all(.figures[]; .host != null and (.claimed | type) == "boolean") and
    (.presets | length) >= 14 and
    all(.presets[]; (.parameters | keys) == (.provenance | keys) and (.parameters | length) >= 19 and
        all(.provenance[]; test("^(measured|fitted|assumed)")))' "$out/bm.json" >/dev/null; then
  say "ok: the JSON: $(jq '.presets | length' "$out/bm.json") presets, each parameter with its provenance"
else
  bad "the JSON's rows or provenance"; jq -c '.presets[] | {name, provenance}' "$out/bm.json" | head -5
fi

# 3. a figure the model does not meet fails the run (the check can fail)
sed 's/^pcie-gen3x8-bdw,dma_read_latency,8,546.67,/pcie-gen3x8-bdw,dma_read_latency,8,800,/' data/pcie_bench.csv >"$out/off.csv"
timeout 30 "$B/eel-bench" -t busmodel --bus-data "$out/off.csv" >"$out/table" 2>"$out/err"
rc=$?
if [ $rc -ne 1 ] || ! grep -qE 'dma_read_latency +8 B .* NO$' "$out/table"; then
  bad "a missed figure: exit $rc"; cat "$out/table"
else
  say "ok: a figure 31% off is NO and exit 1"
fi

# 4. bad input: one line, the problem and the fix, non-zero, nothing measured
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
printf 'host,measurement,size_bytes,value,unit,tolerance_pct,claimed,source\npcie-gen3x8,latency_of_everything,8,1,ns,5,yes,x\n' >"$out/junk2.csv"
printf 'host,measurement,size_bytes,value,unit,tolerance_pct,claimed,source\npcie-gen9x1,dma_read_latency,8,1,ns,5,yes,x\n' >"$out/junk3.csv"
expect "is not a figure this model gives" -t busmodel --bus-data "$out/junk2.csv"
expect "line 2 is not a figure this model gives" -t busmodel --bus-data "$out/junk3.csv"
expect "has no figures" -t busmodel --bus-data "$out/junk.csv"
expect "cannot open: No such file" -t busmodel --bus-data "$out/missing.csv"
expect "unknown bus 'pcie-gen9x1'" -d 'softnic?bus=pcie-gen9x1' -t pingpong
expect "pcie-gen3x8-bdw, pcie-gen3x8-hsw-e5, pcie-gen3x8-hsw-e3, pcie-gen3x8-hsw-smc, pcie-gen3x8-ivb, pcie-gen3x8-snb" -d 'softnic?bus=pcie-gen9x1' -t pingpong
expect "membus-local (membus), membus-remote" -d 'softnic?bus=pcie-gen9x1' -t pingpong
# measured-mem:<node>: a node this machine lacks (userlib/engine/bus_mem.c)
if [ ! -e /sys/devices/system/node/node1 ]; then
  expect "bus=measured-mem:1: no NUMA node 1: this machine has nodes 0..0" -d 'softnic?bus=measured-mem:1' -t pingpong
fi
expect "measured-mem:x: not a NUMA node number" -d 'softnic?bus=measured-mem:x' -t pingpong
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
