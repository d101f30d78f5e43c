#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Deterministic charges (docs/bus.md, "Who waits for what"): raising one
# cost of the bus by D raises EEL by k D, k the whole number of transactions
# of that kind on one 8-byte put's path, as the JSON's bus.k says (read_rtt_ns:
# the descriptor's read; posted_ns: the doorbell's flight and the host's
# wait for the payload's). On pcie-gen3x8, read_rtt_ns and posted_ns each
# raised by a whole microsecond, far above this machine's noise: the EEL
# of each round trip timed alone (parameters.eel_tail's median; a run's mean,
# EEL's figure, carries the pair's descheduling on a loaded machine: a run of
# 2,000 bus round trips outlasts a time slice), median of five invocations
# interleaved, within 5% of k microseconds (the issue's whole number of
# them) or of k times what a microsecond spun costs this host: the step of
# the engine's own emulated fetch delay (fetch_ns=1000, no bus change: one
# spin a put, as the descriptor's read), measured beside them. (Under load
# that spin's step moves on its own: 1046-1107 ns in one CI run, its median
# 1084, while posted_ns's two charges gave +2038, within 2% of 2000 and 6%
# off twice the spin.)
# On the 2-vCPU build machine that step is 1023-1038 ns, not 1000 (docs/bus.md,
# "Who waits for what": a constant ~25-60 ns of this host's, not a fraction
# of D: raised by 3000 ns EEL grows by 3053-3084), read_rtt_ns's 1031-1053
# and posted_ns's 2008-2053. A timed figure, asserted only because
# the injected charge is a whole microsecond; the figures are printed, and a
# charge missing or made twice is off by 100%.
set -euo pipefail
B=${EEL_BUILD:-build}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
base='softnic?bus=pcie-gen3x8'
args=(-t pingpong -n 2000 -r 3 --warmup 100 -q)
# each cost raised by 1000 ns over the preset's own value (its JSON says it)
"$B/eel-bench" -d "$base" -t pingpong -n 100 -r 1 --warmup 10 -q --json "$out/preset.json"
rtt=$(jq '.bus.read_rtt_ns + 1000' "$out/preset.json")
posted=$(jq '.bus.posted_ns + 1000' "$out/preset.json")
declare -A uri=([base]="$base" [read_rtt_ns]="$base&read_rtt_ns=$rtt" [posted_ns]="$base&posted_ns=$posted"
               [spin]="$base&fetch_ns=1000")
for i in 1 2 3 4 5; do
  for c in base read_rtt_ns posted_ns spin; do
    "$B/eel-bench" -d "${uri[$c]}" "${args[@]}" --json "$out/$c$i.json"
  done
done
case $B in *asan*) tol=0.15 ;; *) tol=0.05 ;; esac
median() { printf '%s\n' "$@" | sort -g | sed -n 3p; }
eel() { jq '.parameters.eel_tail.p50_ns' "$out/$1.json"; }
fail=0
step() {  # the median of the five invocations' EEL less base's
  local v=()
  for i in 1 2 3 4 5; do v+=("$(jq -n "$(eel "$1$i") - $(eel "base$i")")"); done
  printf '%.0f ' "${v[@]}" > "$out/$1.steps"
  median "${v[@]}"
}
spin=$(step spin)
printf 'a spin of 1000 ns (fetch_ns=1000): EEL %+7.1f ns (runs: %s)\n' "$spin" "$(cat "$out/spin.steps")"
for c in read_rtt_ns posted_ns; do
  k=$(jq ".bus.k.$c" "$out/base1.json")
  got=$(step "$c")
  want=$(jq -n "$k * $spin")
  ok=$(jq -rn "if ($got - $want | fabs) <= $tol * $want or ($got - $k * 1000 | fabs) <= $tol * $k * 1000
               then \"ok\" else \"FAILED\" end")
  printf '%-12s +1000 ns: EEL %+7.1f ns (runs: %s), k = %s: k x 1000 = %s, k x the spin = %.1f, within %.0f%% of one: %s\n' \
    "$c" "$got" "$(cat "$out/$c.steps")" "$k" "$(jq -n "$k * 1000")" "$want" \
    "$(jq -n "100 * $tol")" "$ok"
  [ "$ok" = ok ] || fail=1
done
exit $fail
