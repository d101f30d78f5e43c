#!/usr/bin/env bash
# Emulated stage costs of a slower NIC come back in the stamped breakdown:
# each injected delay is recovered in its own stage within 2% (issue 13), after the
# stage's own time without the delay is taken off. One stage's delay at a
# time: all six at once let a long stage change the next one's own work (seen:
# tx +2.2..4.4% with fetch's 4 us spin before it, +1.3% alone). For each stage,
# runs without and with its delay alternate, three of each, and it is judged
# on the least of the three runs with the delay (a spin can only be lengthened
# by an interruption, never shortened) less the median of those without. The
# wire's delay is the fault layer's (userlib/engine/wire_faults.c), whose
# copy of the frame alone costs the wire ~100-200 ns (~500 under ASan) that is
# not the delay's, and is partly hidden under it: the wire is allowed that
# layer's own cost, measured here (wire_ns=1 against none). The tx
# stage ends writing the frame into a wire slot the peer has been polling for
# the whole delay, so it pays one cache line's invalidation that the run
# without (whose slot the peer had not reached yet) does not: tx is allowed
# the machine's cross-core line transfer (-t limit, measured here) beyond 2%
# (seen: +50..+130 ns on 5000). Here too: this VM's speed changes mid-test (its vCPUs
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
median() { printf '%s\n' "$@" | sort -g | sed -n 2p; }
# 2% (issue 13) on the optimised build; under ASan 5%: its poll loop is ~3x
# slower, and a wire delay ends at the receiver's next poll (seen: +3.2%)
case $B in *asan*) tol=0.05 ;; *) tol=0.02 ;; esac
stage() { jq ".breakdown.parts[] | select(.name == \"$1\") | .ns.median" "$2"; }
fail=0
"$B/eel-bench" -t limit -n 2000 -r 3 -q --json "$out/limit.json"
line=$(jq '.limit.one_way_ns.median' "$out/limit.json")
for sd in doorbell:3000 fetch:4000 tx:5000 wire:6000 rx:7000 dma:8000; do
  s=${sd%%:*} d=${sd##*:}
  diffs=() bases=() withs=()
  layer=() fl=0
  for i in 1 2 3; do
    "$B/eel-bench" "${args[@]}" --json "$out/base.json"
    "$B/eel-bench" -d "softnic?${s}_ns=$d" "${args[@]}" --json "$out/slow.json"
    b=$(stage "$s" "$out/base.json") v=$(stage "$s" "$out/slow.json")
    diffs+=("$(jq -n "$v - $b")") bases+=("$b") withs+=("$v")
    if [ "$s" = wire ]; then
      "$B/eel-bench" -d "softnic?wire_ns=1" "${args[@]}" --json "$out/layer.json"
      layer+=("$(stage wire "$out/layer.json")")
    fi
  done
  [ "$s" = wire ] && fl=$(jq -n "[$(median "${layer[@]}") - $(median "${bases[@]}"), 0] | max")
  least=$(printf '%s\n' "${withs[@]}" | sort -g | head -1)
  got=$(jq -n "$least - $(median "${bases[@]}")")
  allow=$(jq -n "$tol * $d + (if \"$s\" == \"tx\" then $line else 0 end) + $fl")
  verdict=$(jq -rn "if (($got - $d) | fabs) <= $allow then \"ok\" else \"FAILED\" end")
  printf '%-8s injected %5d ns, recovered %8.1f ns, allowed +-%.0f (least with less median without; per pair, with less without: %s; without: %s): %s\n' \
    "$s" "$d" "$got" "$allow" "$(printf '%.0f ' "${diffs[@]}")" "$(printf '%.0f ' "${bases[@]}")" "$verdict"
  [ "$verdict" = ok ] || fail=1
done
exit $fail
