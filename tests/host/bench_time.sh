#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Time under the user's control (bench/budget.c, bench/cli.c): --quick's run
# ends and its JSON's per-test seconds add up within its wall time; --duration
# cuts the plan's repetitions by the factor its budget gives (checked in plan
# terms: the iterations the plan chose follow from timing.scale, the 10 runs
# stay, the cut plan's estimate is within the budget), not by a wall-clock
# bound (the timeouts are hang guards); --progress and EEL_PROGRESS=1 say
# "warm-up" and an ETA on stderr without a terminal; bad values are refused
# in one line.
set -uo pipefail
cd "$(dirname "$0")/../.."
B=${EEL_BUILD:-build}
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
fail=0
bad() { echo "FAILED: $*"; fail=1; }

# ---- --quick: the default tests, ended, each test's seconds within the wall time
timeout 600 "$B/eel-bench" --quick -q --json "$d/q.json" 2>"$d/q.err" || bad "eel-bench --quick: $(tail -2 "$d/q.err")"
if [ -s "$d/q.json" ]; then
  jq -e '.timing.quick == true' "$d/q.json" >/dev/null || bad "--quick: timing.quick is not true"
  n=$(jq '.timing.tests | length' "$d/q.json")
  [ "$n" -ge 8 ] || bad "--quick: timing.tests has $n parts, want the 7 tests and the machine"
  jq -e '([.timing.tests[].s] | add) <= .wall_s and ([.timing.tests[].s] | all(. > 0))' "$d/q.json" >/dev/null ||
    bad "--quick: the tests' seconds $(jq -c '[.timing.tests[].s]' "$d/q.json") do not add up within wall_s $(jq .wall_s "$d/q.json")"
  jq -e '.options.iters == 2000 and .options.runs == 10 and (.options.depths | length) == 3' "$d/q.json" >/dev/null ||
    bad "--quick: not its preset: $(jq -c '.options | {iters, runs, depths}' "$d/q.json")"
  echo "ok: --quick ran in $(jq .wall_s "$d/q.json") s: $(jq -c '[.timing.tests[] | "\(.test) \(.s * 10 | round / 10)"]' "$d/q.json")"
fi

# ---- --duration: the plan cut by the budget's factor (plan terms)
asked=200000
timeout 300 "$B/eel-bench" --duration 1 -t pingpong -n $asked -q --json "$d/d.json" 2>"$d/d.err" ||
  bad "eel-bench --duration 1: $(tail -2 "$d/d.err")"
if [ -s "$d/d.json" ]; then
  read -r scale iters runs est budget fits < <(jq -r '[.timing.scale, .options.iters, .options.runs,
    .timing.estimate_s, .timing.budget_s, .timing.fits] | @tsv' "$d/d.json")
  want=$(awk -v a=$asked -v f="$scale" 'BEGIN { x = int(a * f); print (x < 100 ? 100 : x) }')
  awk -v f="$scale" 'BEGIN { exit !(f > 0 && f < 1) }' || bad "--duration 1 kept the plan (scale $scale)"
  [ "$iters" -ge $((want - 1)) ] && [ "$iters" -le $((want + 1)) ] ||
    bad "--duration 1: iters $iters, not the asked $asked x scale $scale = $want"
  [ "$runs" = 10 ] || bad "--duration 1 cut the runs to $runs (Bell et al. 2003: at least 10)"
  [ "$budget" = 1 ] && [ "$fits" = true ] && awk -v e="$est" 'BEGIN { exit !(e <= 1.01) }' ||
    bad "--duration 1: budget $budget, fits $fits, the cut plan estimated at $est s"
  echo "ok: --duration 1 -n $asked: scale $scale, iters $iters, 10 runs, estimated $est s (took $(jq .wall_s "$d/d.json") s)"
fi

# ---- progress without a terminal: --progress, and EEL_PROGRESS=1 still
small=(-t pingpong,flood -n 500 -r 3 --warmup 50 --sizes 8..64 --depths 1,4 --flood-msgs 200 -q --json "$d/p.json")
timeout 120 "$B/eel-bench" --progress "${small[@]}" 2>"$d/p.err" </dev/null || bad "eel-bench --progress: $(tail -2 "$d/p.err")"
grep -q 'warm-up' "$d/p.err" || bad "--progress: no 'warm-up' on stderr"
grep -q 'ETA [0-9]* s' "$d/p.err" || bad "--progress: no ETA on stderr"
grep -q 'run 0 of' "$d/p.err" && bad "--progress: the warm-up is still 'run 0 of N'"
echo "ok: --progress: $(grep -c . "$d/p.err") lines, e.g. '$(grep -m1 'ETA' "$d/p.err")'"
EEL_PROGRESS=1 timeout 120 "$B/eel-bench" "${small[@]}" 2>"$d/e.err" </dev/null || bad "EEL_PROGRESS=1: $(tail -2 "$d/e.err")"
grep -q 'warm-up' "$d/e.err" && grep -q 'ETA' "$d/e.err" || bad "EEL_PROGRESS=1 no longer prints progress with an ETA"

# ---- bad values: one line each, exit 2, nothing measured
for args in "--duration 0" "--duration x" "--duration -3" "--quick --duration 5" "--duration 5 --server"; do
  # shellcheck disable=SC2086
  timeout 20 "$B/eel-bench" $args -t pingpong >"$d/out" 2>"$d/err"
  rc=$?
  [ $rc -eq 2 ] && [ "$(wc -l <"$d/err")" -eq 1 ] && [ ! -s "$d/out" ] ||
    bad "eel-bench $args: exit $rc, stderr $(wc -l <"$d/err") lines: $(head -2 "$d/err")"
done
echo "ok: bad values refused in one line: $(timeout 20 "$B/eel-bench" --quick --duration 5 2>&1)"
exit $fail
