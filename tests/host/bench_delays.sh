#!/usr/bin/env bash
# Emulated stage costs of a slower NIC come back in the stamped breakdown:
# each injected delay is recovered in its own stage within 5% (the stage's
# time without the delay, from a run without delays, taken off first).
set -euo pipefail
B=${EEL_BUILD:-build}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
args=(-t pingpong -n 400 -r 3 --warmup 50 --stamp-every 4)
"$B/eel-bench" "${args[@]}" --json "$out/base.json" -q
"$B/eel-bench" -d "softnic?doorbell_ns=3000&fetch_ns=4000&tx_ns=5000&wire_ns=6000&rx_ns=7000&dma_ns=8000" \
  "${args[@]}" --json "$out/slow.json" -q
fail=0
for sd in doorbell:3000 fetch:4000 tx:5000 wire:6000 rx:7000 dma:8000; do
  s=${sd%%:*} d=${sd##*:}
  base=$(jq ".breakdown.parts[] | select(.name == \"$s\") | .ns.median" "$out/base.json")
  slow=$(jq ".breakdown.parts[] | select(.name == \"$s\") | .ns.median" "$out/slow.json")
  verdict=$(jq -n --argjson b "$base" --argjson s "$slow" --argjson d "$d" \
    'if (($s - $b - $d) | fabs) <= 0.05 * $d then "ok" else "FAILED" end' -r)
  printf '%-8s injected %5d ns, measured %8.1f ns (%6.1f without): %s\n' "$s" "$d" "$slow" "$base" "$verdict"
  [ "$verdict" = ok ] || fail=1
done
exit $fail
