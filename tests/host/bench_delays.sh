#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Emulated stage costs of a slower NIC come back in the stamped breakdown, in
# their own stage (docs/methods.md, the breakdown): small ones (tens of ns, where a stamp's cost
# fitted from EEL once put every stage 28-69 ns high) and large ones, each
# within 2% or 15 ns, whichever is larger (and what the stage and the spin
# move by on their own, at most half the delay), the median of three runs
# against the median of those without. One stage's delay at a time; runs
# without and with it alternate.
#
# The reference is the delay as it lasts, measured by the NIC at open
# (.nic.delays[].ns, the median of the three runs': a spin on a VM's
# counter, which may step by ~10 ns,
# overshoots what was asked by part of a step and a read). In place, on a
# message's path, a spin costs a little more than timed alone (the counter's
# reads around it no longer overlap other work: here ~5 ns at 60 ns, what
# EEL itself grows by): it is known to one step of the counter
# (.machine.clock.resolution_ns), which is allowed beside the 2% or 15 ns.
# A stage is judged at its trimmed mean (less its lowest and highest tenth):
# one interruption of a few us among ~90 samples moves a plain mean by tens
# of ns, and a median moves in steps of the counter.
#
# The wire's delay is the fault layer's (userlib/engine/wire_faults.c), not a
# spin: its copy of the frame costs the wire ~100-200 ns (~500 under ASan)
# beyond the delay, measured here (wire_ns=1 against none), and a 6000 ns
# delay is judged with that allowed, as before.
set -euo pipefail
B=${EEL_BUILD:-build}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
args=(-t pingpong -n 2000 -r 4 --warmup 100 -q)
median() { printf '%s\n' "$@" | sort -g | sed -n 2p; }
# 2% (docs/methods.md, the breakdown) on the optimised build; under ASan 5%: its poll loop is ~3x
# slower, and a spin's surroundings with it; there delays under 1 us are
# reported, not judged (the instrumented firmware's work around a spin
# overlaps it: 30 came back as 16-30 ns in fetch, rx and dma, and a CI run
# got a 300 ns fetch delay, lasting 319, back as 291). The optimised build
# judges every delay.
case $B in *asan*) tol=0.05 least=1000 ;; *) tol=0.02 least=0 ;; esac
# the least allowed: 5 ns and the counter's step (below) made 15 ns on the VM
# whose counter steps by 10 ns; on one whose counter steps by 0.9 ns a spin
# in place still lasts 5-20 ns longer than timed alone (doorbell 300, lasting
# 306.5 alone, came back as 313-322): 15 ns on every machine
floor=15
# (a build before the trimmed mean and the measured delays: the mean, the
# delay asked; so that this test can be run against it)
stage() { jq ".breakdown.parts[] | select(.name == \"$1\") | (.trimmed_ns // .ns.mean)" "$2"; }
spun() { jq "[(.nic.delays // [])[] | select(.part == \"$1\") | .ns][0] // $2" "$3"; }
fail=0
"$B/eel-bench" "${args[@]}" --json "$out/probe.json"
step=$(jq '.machine.clock.resolution_ns' "$out/probe.json")
# tx ends by writing the frame into a wire slot the peer has been polling: a
# cross-core line transfer, which a spin before it can overlap (seen: a 30 ns
# delay recovered as +21 and +35 ns in two runs, as the vCPUs moved): tx is
# judged on its large delay only, allowed that line's transfer (-t limit) too.
"$B/eel-bench" -t limit -n 2000 -r 3 -q --json "$out/limit.json"
line=$(jq '.limit.one_way_ns.median' "$out/limit.json")
for sd in doorbell:30,300,3000 fetch:30,300,3000 tx:3000 rx:30,300,3000 dma:30,300,3000; do
  s=${sd%%:*} ds=${sd#*:}
  for d in ${ds//,/ }; do
    bases=() withs=() refs=()
    for i in 1 2 3; do
      "$B/eel-bench" "${args[@]}" --json "$out/base.json"
      "$B/eel-bench" -d "softnic?${s}_ns=$d" "${args[@]}" --json "$out/slow.json"
      bases+=("$(stage "$s" "$out/base.json")") withs+=("$(stage "$s" "$out/slow.json")")
      refs+=("$(spun "$s" "$d" "$out/slow.json")")
    done
    # the delay as it lasts: the median of the three runs' own measurements
    # (a loaded machine now and then stretches one run's)
    base=$(median "${bases[@]}") ref=$(median "${refs[@]}")
    # and what the stage and the spin move by on their own, run to run: the
    # range of the runs without the delay and of the spin's three timings (on
    # a VM whose counter steps by 10 ns the step covered them; on one whose
    # counter steps by 0.9 ns a stage's trimmed mean still moves by ~5-10 ns)
    # (at most half the delay: a delay lost whole is never within it)
    noise=$(jq -n "[([$(IFS=,; echo "${bases[*]}")] | max - min) + ([$(IFS=,; echo "${refs[*]}")] | max - min), $ref / 2] | min")
    allow=$(jq -n "[$tol * $ref, $floor] | max + $step + $noise + (if \"$s\" == \"tx\" then $line else 0 end)")
    gots=()
    for i in 0 1 2; do
      gots+=("$(jq -n "${withs[$i]} - $base")")
      printf '%-8s injected %5d ns (lasts %7.1f), run %d: recovered %8.1f ns (without: %s)\n' \
        "$s" "$d" "$ref" $((i + 1)) "${gots[$i]}" "$(printf '%.1f ' "${bases[@]}")"
    done
    # judged at the median of the three runs: one run now and then carries a
    # descheduling or an interrupt its trimmed mean does not drop (rx 300 came
    # back as 317-330 in one invocation, 322-346 in another)
    got=$(median "${gots[@]}")
    verdict=$(jq -rn "if (($got - $ref) | fabs) <= $allow then \"ok\" elif $d < $least then \"reported\" else \"FAILED\" end")
    printf '%-8s injected %5d ns (lasts %7.1f): recovered %8.1f ns (the median of three), allowed +-%.1f (noise %.1f): %s\n' \
      "$s" "$d" "$ref" "$got" "$allow" "$noise" "$verdict"
    [ "$verdict" = FAILED ] && fail=1
  done
done
# the wire: the fault layer's delay, with the layer's own cost allowed
layer=() bases=() withs=()
for i in 1 2 3; do
  "$B/eel-bench" "${args[@]}" --json "$out/base.json"
  "$B/eel-bench" -d "softnic?wire_ns=6000" "${args[@]}" --json "$out/slow.json"
  "$B/eel-bench" -d "softnic?wire_ns=1" "${args[@]}" --json "$out/layer.json"
  bases+=("$(stage wire "$out/base.json")") withs+=("$(stage wire "$out/slow.json")") layer+=("$(stage wire "$out/layer.json")")
done
fl=$(jq -n "[$(median "${layer[@]}") - $(median "${bases[@]}"), 0] | max")
least=$(printf '%s\n' "${withs[@]}" | sort -g | head -1)
got=$(jq -n "$least - $(median "${bases[@]}")")
allow=$(jq -n "$tol * 6000 + $fl + $step")
verdict=$(jq -rn "if (($got - 6000) | fabs) <= $allow then \"ok\" else \"FAILED\" end")
printf 'wire     injected  6000 ns, recovered %8.1f ns, allowed +-%.0f (the layer itself: %.0f): %s\n' \
  "$got" "$allow" "$fl" "$verdict"
[ "$verdict" = ok ] || fail=1
exit $fail
