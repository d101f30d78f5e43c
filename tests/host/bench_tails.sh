#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/host/bench_tails.sh — the ping-pong's tail (bench/pingpong.c, docs/methods.md
# "EEL tail"): every round trip of runs of its own, in a histogram, on the software NIC.
#   - the table prints p99, p99.9 and max under EEL, and its p99 is the JSON's;
#   - the JSON's parameters.eel_tail: count = runs x iters, min <= p50 <= p90 <= p99 <=
#     p99.9 <= p99.99 <= max, min <= mean <= max, the histogram's buckets in order,
#     each low <= high within min..max, their counts adding up to count;
#   - the tail against EEL: the fastest round of the tail is no slower than the
#     fastest EEL run's mean (a mean is never below the smallest of its rounds,
#     and the tail's rounds are EEL's with each one timed) plus what the timing
#     adds where it adds any (timing_cost_ns, when above 0) and one step of the
#     counter (each round is read in its steps);
#   - two processes (--server, a client on 127.0.0.1): the client keeps the tail.
# No timing is asserted: the figures are printed.
set -uo pipefail
cd "$(dirname "$0")/../.."
B=${EEL_BUILD:-build}
d=$(mktemp -d)
pids=()
trap 'kill -9 "${pids[@]}" 2>/dev/null; rm -rf "$d"' EXIT
fail=0
die() { echo "FAILED: $*"; exit 1; }
bad() { echo "FAILED: $*"; fail=1; }

"$B/eel-bench" -d softnic -t pingpong -n 2000 -r 3 --json "$d/p.json" >"$d/p.out" 2>"$d/p.err" ||
  { cat "$d/p.out" "$d/p.err"; die "eel-bench -d softnic -t pingpong -n 2000 -r 3 exited non-zero"; }
line=$(grep '^  EEL tail (ns) ' "$d/p.out")
[ -n "$line" ] || { cat "$d/p.out"; die "the table has no 'EEL tail (ns)' row"; }
echo "$line"
grep -A1 '^  EEL tail (ns) ' "$d/p.out" | tail -1
for q in p50 p90 p99 p99.9 p99.99 max; do
  grep -qE " $q [0-9]+\.[0-9] " <<<"$line " || bad "the tail row has no $q"
done
# the timing's cost: a figure beyond its noise, or "not separable here" with the runs' spread, as the JSON says
if [ "$(jq -r '.parameters.eel_tail.timing_cost_resolved' "$d/p.json")" = true ]; then cost_re='[-+][0-9.]+ ns \([-+][0-9.]+ %\)'
else cost_re='its cost not separable here$'; fi
grep -qE "every RTT/2 of 3 more runs \(6000 rounds\), each round timed alone: $cost_re" "$d/p.out" ||
  bad "the row under the tail does not say its rounds and the timing's cost"

# check 'jq condition' 'what it means'
check() {
  jq -e "$1" "$d/p.json" >/dev/null ||
    { jq -c '.parameters.eel_tail | del(.histogram)' "$d/p.json"; bad "$2"; }
}
check '.parameters.eel_tail.count == 3 * 2000' "count is runs x iters (6000)"
check '.parameters.eel_tail | [.min_ns, .p50_ns, .p90_ns, .p99_ns, .p99_9_ns, .p99_99_ns, .max_ns] |
       . == sort and .[0] > 0' "min <= p50 <= p90 <= p99 <= p99.9 <= p99.99 <= max, min above 0"
check '.parameters.eel_tail | .min_ns <= .mean_ns and .mean_ns <= .max_ns' "min <= mean <= max"
check '.parameters.eel_tail | ([.histogram[][2]] | add) == .count' "the histogram's counts add up to count"
check '.parameters.eel_tail as $t | $t.histogram | (map(.[0] <= .[1] and .[0] >= $t.min_ns and .[1] <= $t.max_ns) | all)
       and ([.[][0]] == ([.[][0]] | sort)) and (.[0][0] == $t.min_ns) and (.[-1][1] == $t.max_ns)' \
  "each bucket low <= high, in order, within min..max, the first at min, the last at max"
check '.parameters.eel_tail | ((.timing_cost_ns | type) == (if .timing_cost_resolved then "number" else "null" end))
       and (.method | length) > 0' "timing_cost_ns a number where resolved, null where not separable; method"
check '.parameters.eel_tail.min_ns <= .parameters.eel.ns.min + ([.parameters.eel_tail.timing_cost_ns, 0] | max)
       + .machine.clock.resolution_ns' \
  "the tail's fastest round is slower than EEL's fastest run's mean plus the timing's cost and one counter step"
jq -r '"  EEL min \(.parameters.eel.ns.min) ns, tail min \(.parameters.eel_tail.min_ns) ns, timing cost \(.parameters.eel_tail.timing_cost_ns) ns, counter step \(.machine.clock.resolution_ns) ns"' "$d/p.json"

# the table's p99 is the JSON's, as the table rounds it
printed=$(sed -E 's/.* p99 ([0-9.]+) .*/\1/' <<<"$line")
json=$(jq -r '.parameters.eel_tail.p99_ns' "$d/p.json" | awk '{ printf "%.1f", $1 }')
[ "$printed" = "$json" ] || bad "the table's p99 is $printed, the JSON's $json"
[ $fail -eq 0 ] && echo "ok: the pair's tail: $(jq '.parameters.eel_tail.histogram | length' "$d/p.json") buckets, p99 $printed ns in both"

# --warmup 0: the one timed run starts cold (EEL 814 ns against a tail p50 of 184:
# "stamping cost ... -48.2 %", perturbation -541 ns, nothing said): a warning
# says so, and a stamping cost or perturbation below 0 is no figure (null)
"$B/eel-bench" -t pingpong -n 200 -r 1 --warmup 0 --json "$d/w.json" >"$d/w.out" 2>&1 ||
  { cat "$d/w.out"; die "eel-bench -t pingpong -n 200 -r 1 --warmup 0 exited non-zero"; }
jq -e '[.warnings[] | select(test("--warmup 0.*cold start"))] | length == 1' "$d/w.json" >/dev/null ||
  bad "--warmup 0: no warning that the timed runs include a cold start"
jq -e '(.parameters.stamp_cost == null or .parameters.stamp_cost.median > 0) and
       (.breakdown.perturbation_ns == null or .breakdown.perturbation_ns >= 0)' "$d/w.json" >/dev/null ||
  bad "--warmup 0: stamp_cost $(jq -c .parameters.stamp_cost.median "$d/w.json"), perturbation $(jq .breakdown.perturbation_ns "$d/w.json"): below 0 as figures"
grep -E 'stamping cost: .*: -[0-9.]+ %|stamping added -|\(perturbation: .*, -[0-9.]+ ns from EEL' "$d/w.out" &&
  bad "--warmup 0: the table prints a negative stamping cost or perturbation"

# two processes: the client times, so it keeps the tail
port=$((20000 + RANDOM % 20000))
"$B/eel-bench" --server -p $port 2>"$d/server.err" & pids+=($!)
"$B/eel-bench" -p $port -t pingpong -n 1000 -r 2 --json "$d/c.json" 127.0.0.1 >"$d/c.out" 2>"$d/c.err" ||
  { cat "$d/c.out" "$d/c.err" "$d/server.err"; die "the client on 127.0.0.1 exited non-zero"; }
wait "${pids[0]}" || { cat "$d/server.err"; die "the server exited non-zero"; }
grep -q '^  EEL tail (ns) .* p99 .* max ' "$d/c.out" || bad "the client's table has no tail row"
jq -e '.options.pair == false and .parameters.eel_tail.count == 2000 and
       ([.parameters.eel_tail.histogram[][2]] | add) == 2000 and
       (.parameters.eel_tail | .min_ns <= .p99_ns and .p99_ns <= .max_ns)' "$d/c.json" >/dev/null ||
  bad "two processes: the client's JSON lacks the tail of 2 x 1000 rounds"
# 2 runs: too few to tell the timing's cost from their spread (it printed a
# negative as "within the runs' own spread", and the JSON had it): the table
# says why, the JSON null
grep -A2 '^  EEL tail (ns) ' "$d/c.out" | tail -1 | grep -qF "(2 runs against EEL's: telling it from the runs' own spread takes 3 or more, -r)" ||
  { grep -A2 '^  EEL tail (ns) ' "$d/c.out"; bad "two runs: the tail's row does not say 3 runs are needed for the timing's cost"; }
jq -e '.parameters.eel_tail | .timing_cost_ns == null and .timing_cost_resolved == false' "$d/c.json" >/dev/null ||
  bad "two runs: timing_cost_ns is $(jq .parameters.eel_tail.timing_cost_ns "$d/c.json"), not null"
[ $fail -eq 0 ] && echo "ok: two processes: $(grep '^  EEL tail (ns) ' "$d/c.out")"
exit $fail
