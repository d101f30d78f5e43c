#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# "PCI vs memory bus" on one page (docs/bus.md, "Side by side"): `--bus LIST`
# floods 64 KB puts on every bus whatever --sizes says (bench/cli.c), its
# table has the bandwidth row `BW 64K` with a figure in Gb/s for every bus
# and, under it, each bus's figure against its link's bound (bench/bus_runs.c), every run of the JSON's buses[] has
# parameters.bandwidth_64k, and eel-report's page has the bandwidth plot
# buses_bw with a bar per bus, and each bus's EEL across its stacked stages
# (buses). A short run: 2 ping-pong runs of 500 round trips, a flood of 8 and
# 4096 bytes (the 64 KB point is added), one depth, 2 runs of 200 puts. No
# figure is judged.
set -euo pipefail
B=${EEL_BUILD:-build}
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
fail=0
bad() { echo "FAILED: $*"; fail=1; }
buses=none,pcie-gen3x8,cxl
n=3
"$B/eel-bench" --bus "$buses" -t pingpong,flood -n 500 --warmup 50 --sizes 8,4096 --depths 8 --flood-msgs 200 -r 2 --json "$d/run.json" \
  >"$d/table" || { cat "$d/table"; echo "FAILED: eel-bench --bus $buses"; exit 1; }

# the table: a BW 64K row, a Gb/s figure in every bus's column
row=$(grep -E '^  BW 64K ' "$d/table" || true)
figs=$(awk '{ print gsub(/[0-9]+\.[0-9]+ Gb\/s/, "") }' <<<"$row")
[ "$figs" -eq "$n" ] || bad "the table's BW 64K row has $figs figures in Gb/s, not one for each of $n buses: '$row'"
grep -qE '^  \(BW 64K: the flood.s 65536-byte puts at q=8, 200 puts a run' "$d/table" ||
  bad "the table does not say how BW 64K was measured (size, q, puts a run)"
# and for each bus, what its link lets through (pcie-gen3x8: the receiver's
# writes, 52.92 Gb/s, below the sender's reads, 53.54); none has no line
grep -qE '^  \(BW 64K on pcie-gen3x8: [0-9]+% of the link.s 52\.92 Gb/s, the lesser of the model.s streams of 4096-byte reads, 53\.54, and writes, 52\.92\)$' "$d/table" &&
  grep -qE '^  \(BW 64K on cxl: ' "$d/table" && ! grep -qE '^  \(BW 64K on none' "$d/table" ||
  bad "the table does not set each bus's BW 64K against its link's bound"

# the JSON: every bus's run has its bandwidth at 64 KB
jq -e --argjson n "$n" '(.buses | length) == $n and
  all(.buses[]; .parameters.bandwidth_64k.gbit_per_s > 0 and .parameters.bandwidth_64k.size == 65536 and
      .parameters.bandwidth_64k.msgs == 200 and .parameters.bandwidth_64k.ns_per_msg.n == 2)' "$d/run.json" \
  >/dev/null || bad "buses[] lack parameters.bandwidth_64k: $(jq -c '[.buses[]?.parameters.bandwidth_64k.gbit_per_s]' "$d/run.json")"

# eel-report: the bandwidth plot on the page, a bar per bus
if command -v gnuplot >/dev/null; then
  "$B/eel-report" "$d/run.json" -o "$d/rep" >"$d/rep.out" || { cat "$d/rep.out"; bad "eel-report failed"; }
  grep -q '<figure class="plot" id="plot-buses_bw">' "$d/rep/index.html" 2>/dev/null ||
    bad "the page has no buses_bw plot"
  bars=$(awk '/^\$bars << EOD/{on=1; next} /^EOD/{on=0} on { k++ } END { print k + 0 }' \
    "$d/rep/gnuplot/buses_bw.gp" 2>/dev/null || echo 0)
  [ "$bars" -eq "$n" ] || bad "buses_bw has $bars bars, not one for each of $n buses"
  eels=$(awk '/^\$eel << EOD/{on=1; next} /^EOD/{on=0} on { k++ } END { print k + 0 }' \
    "$d/rep/gnuplot/buses.gp" 2>/dev/null || echo 0)
  [ "$eels" -eq "$n" ] || bad "the buses plot marks EEL on $eels bars, not on each of $n"
  for b in ${buses//,/ }; do
    grep -q "\"$b\" [0-9]" "$d/rep/gnuplot/buses_bw.gp" 2>/dev/null || bad "buses_bw has no bar named $b"
  done
else
  echo "skip: no gnuplot (sudo tools/setup report): eel-report's plot not checked"
fi
# L, never a negative duration (derived.c): on the software NIC it is not
# separable (its work is in o_s and o_r); the table shows no figure and says why
# (the table printed RTT/2 - o_s - o_r as is: -4.7 ns on membus-local, -396.8 on gen5)
"$B/eel-bench" --bus none,pcie-gen3x8 -t signature -r 2 >"$d/sig" 2>&1 || { cat "$d/sig"; bad "eel-bench --bus none,pcie-gen3x8 -t signature"; }
if grep -qE '^  L +' "$d/sig"; then
  bad "the table prints an L row where L is not separable: $(grep -E '^  L +' "$d/sig")"
fi
grep -q '^  (L -: not separable here: the NIC runs on the host' "$d/sig" || bad "the table does not say why L has no figure"
# o_s and o_r: not separable on the software NIC (overlap_report.c, as the run's own table
# says): no row of figures, the reason under the table with each bus's g(q=1) - D_max
# (the table printed them as o_s and o_r); no heading of published comparisons without
# a memory bus or CXL column beside pcie-gen3x8 (it printed an empty one)
"$B/eel-bench" --bus none,pcie-gen3x8 -t pingpong,overlap -n 300 --warmup 30 -r 2 --overlap-msgs 200 --overlap-runs 2 \
  --overlap-sweeps 1 >"$d/ov" 2>&1 || { cat "$d/ov"; bad "eel-bench --bus none,pcie-gen3x8 -t pingpong,overlap"; }
if grep -qE '^  o_[sr] +[0-9]' "$d/ov"; then
  bad "the table prints o_s or o_r where they are not separable: $(grep -E '^  o_[sr] ' "$d/ov" | tr -s ' ')"
fi
grep -qE '^  \(o_s, o_r -: not separable here: the NIC runs on the host' "$d/ov" &&
  grep -qE '^   the CPU-overlap test.s g\(q=1\) - D_max, .*: none [0-9]+/[0-9]+ ns, pcie-gen3x8 [0-9]+/[0-9]+ ns\)$' "$d/ov" ||
  bad "the table does not say why o_s and o_r have no figure, with each bus's g(q=1) - D_max"
if grep -q 'the memory bus against the I/O bus' "$d/ov"; then bad "a heading of comparisons with none under it"; fi

# each bus's run's warnings under the table, named by bus, as a run's own table
# prints them (the table printed none: a column from a run that warned looked
# like any other): thread mode on two cores warns on every run
if command -v taskset >/dev/null && [ "$(nproc --all)" -ge 2 ]; then
  taskset -c 0,1 "$B/eel-bench" -d 'softnic:thread?oversubscribe=1' --bus none,pcie-gen3x8 -t pingpong -n 300 \
    --warmup 30 -r 2 >"$d/thr" 2>&1 || { cat "$d/thr"; bad "eel-bench --bus on softnic:thread"; }
  for b in none pcie-gen3x8; do
    grep -qE "^  warning \($b\): thread mode on 2 cores: " "$d/thr" || bad "the --bus table does not give $b's warning"
  done
else
  echo "skip: no taskset (util-linux) or one core: the --bus table's warnings not checked"
fi
[ $fail -eq 0 ] && echo "ok: --bus $buses: BW 64K in the table ($(sed 's/  */ /g' <<<"$row")), in buses[], and a bar per bus on eel-report's page"
exit $fail
