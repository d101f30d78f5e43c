#!/usr/bin/env bash
# Emulated stage costs of a slower NIC come back in the stamped breakdown:
# each injected delay is recovered in its own stage within 2% (issue 13), after the
# stage's own time without the delay is taken off. Runs without and with the
# delays alternate, three of each, and each stage is judged on the median of
# the three pairs' differences: this VM's speed changes mid-test (its vCPUs
# move between one core's two threads and two cores), and the firmware's own
# work for a stage (~50 ns optimised, ~250 ns under ASan) moves with it.
# The stage's median is judged: its mean (the table's figure, which adds up
# to EEL) also carries the machine's interruptions in proportion to the
# stage's length (here ~1% of a spin of microseconds).
set -euo pipefail
B=${EEL_BUILD:-build}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
args=(-t pingpong -n 400 -r 3 --warmup 50 --stamp-every 4 -q)
slow="softnic?doorbell_ns=3000&fetch_ns=4000&tx_ns=5000&wire_ns=6000&rx_ns=7000&dma_ns=8000"
for i in 1 2 3; do
  "$B/eel-bench" "${args[@]}" --json "$out/base$i.json"
  "$B/eel-bench" -d "$slow" "${args[@]}" --json "$out/slow$i.json"
done
median() { printf '%s\n' "$@" | sort -g | sed -n 2p; }
# 2% (issue 13) on the optimised build; under ASan 5%: its poll loop is ~3x
# slower, and a wire delay ends at the receiver's next poll (seen: +3.2%)
case $B in *asan*) tol=0.05 ;; *) tol=0.02 ;; esac
stage() { jq ".breakdown.parts[] | select(.name == \"$1\") | .ns.median" "$2"; }
fail=0
for sd in doorbell:3000 fetch:4000 tx:5000 wire:6000 rx:7000 dma:8000; do
  s=${sd%%:*} d=${sd##*:}
  diffs=() bases=()
  for i in 1 2 3; do
    b=$(stage "$s" "$out/base$i.json") v=$(stage "$s" "$out/slow$i.json")
    diffs+=("$(jq -n "$v - $b")") bases+=("$b")
  done
  got=$(median "${diffs[@]}")
  verdict=$(jq -rn "if (($got - $d) | fabs) <= $tol * $d then \"ok\" else \"FAILED\" end")
  printf '%-8s injected %5d ns, recovered %8.1f ns (per pair, with less without: %s; without: %s): %s\n' \
    "$s" "$d" "$got" "$(printf '%.0f ' "${diffs[@]}")" "$(printf '%.0f ' "${bases[@]}")" "$verdict"
  [ "$verdict" = ok ] || fail=1
done
exit $fail
