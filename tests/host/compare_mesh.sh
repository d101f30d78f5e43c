#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# eel-compare on launched runs (mpirun -np 4 of eel-bench on the software NIC,
# --oversubscribe on 2 cores): A all alike, B with rank 0's NIC slowed
# (softnic?wire_ns=5000, an MPMD launch); copies of A with one pair's EEL and
# one point of each curve doubled (jq). The doubled pair is worse and named,
# every other figure the same; the pairs of the slowed rank are worse; pairs
# in one run only are listed; a launched run against a run between two hosts
# gives one line and exit 2; host names from the document reach the terminal
# printable.
set -uo pipefail
. "$(dirname "$0")/lib/compare_env.sh"
# under ASan: PMIx's own leaks are not eel's
export LSAN_OPTIONS=suppressions=$PWD/tests/host/mpi_lsan.supp:print_suppressions=0
command -v mpirun >/dev/null || { echo "FAILED: no mpirun: run tools/setup mpi"; exit 1; }
command -v jq >/dev/null || { echo "FAILED: no jq: run tools/setup pci"; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
MPI=(mpirun --oversubscribe --bind-to none)
# --serial: one pair at a time, so that 4 spinning ranks on 2 cores disturb each other less
RUN=(-t allpairs,k-to-1,1-to-many --serial -n 200 -r 3 --warmup 50 --depths 16 --flood-runs 3 --flood-msgs 500
     --timeout 20)

timeout 120 "${MPI[@]}" -np 4 "$B/eel-bench" "${RUN[@]}" --json "$d/a.json" >"$d/a.out" 2>&1 ||
  { echo "FAILED: mpirun -np 4 (A)"; cat "$d/a.out"; exit 1; }
timeout 120 "${MPI[@]}" -np 1 "$B/eel-bench" -d 'softnic?wire_ns=5000' "${RUN[@]}" --json "$d/b.json" : \
  -np 3 "$B/eel-bench" "${RUN[@]}" --json "$d/b.json" >"$d/b.out" 2>&1 ||
  { echo "FAILED: mpirun -np 1 (wire_ns=5000) : -np 3 (B)"; cat "$d/b.out"; exit 1; }
echo "ok: two launched runs, B's rank 0 on softnic?wire_ns=5000"

# run CODE NAME ARGS...: eel-compare ARGS into $d/out, $d/err; checks the exit status and no sanitizer report
run() {
  local code=$1 name=$2; shift 2
  "$C" "$@" >"$d/out" 2>"$d/err"
  local rc=$?
  if [ $rc -ne "$code" ] || grep -qE 'AddressSanitizer|runtime error|LeakSanitizer' "$d/err"; then
    echo "FAILED: $name: eel-compare ${*##*/}: exit $rc (want $code)"; sed 's/^/    | /' "$d/out" "$d/err" | head -60
    fail=1; return 1
  fi
}
has() {  # has NAME 'pattern (grep -E)'...: every pattern is in $d/out
  local name=$1 p ok=1; shift
  for p in "$@"; do grep -qE -- "$p" "$d/out" || { echo "  missing: $p"; ok=0; }; done
  if [ $ok = 1 ]; then echo "ok: $name"; else echo "FAILED: $name"; sed 's/^/    | /' "$d/out" | head -60; fail=1; fi
}

# the same run twice: every pair and point the same, exit 0
if run 0 "A against A" "$d/a.json" "$d/a.json"; then
  has "A against A: 24 pair figures and 6 points the same" 'pairs: 12 compared: 0 worse, 0 better, 12 same' \
    'no regression beyond 5 %'
  [ "$(grep -cE '^  [0-9]+->[0-9]+ .* (EEL|g) .* same ' "$d/out")" -eq 24 ] &&
    [ "$(grep -cE '^ +[0-9]+ .* same$' "$d/out")" -eq 6 ] || { echo "FAILED: A against A: not every row same"; fail=1; }
fi

# where the figures come from (rank 0's provenance): a firmware changed is named
# first, as for two pairs' runs (launched runs had none to compare)
jq '.provenance.nic.fw_version = "16.35.1012"' "$d/a.json" >"$d/fw.json"
if run 0 "A against A on another firmware" "$d/a.json" "$d/fw.json"; then
  has "two launched runs: a different firmware named" '^different firmware: eel .* vs 16\.35\.1012'
fi

# one pair's EEL doubled (its distribution: min, median, p99, Bell's), flagged as eel-bench
# would: the pair with the tightest spread, so that doubling is beyond its noise (it may be
# flagged in A already: a busy machine makes any pair an outlier)
p=$(jq -r '[.allpairs.pairs[] | select(.measured)] | max_by(.eel.min_ns / .eel.median_ns) | "\(.from) \(.to)"' "$d/a.json")
read -r pf pt <<<"$p"
jq --argjson f "$pf" --argjson t "$pt" '(.allpairs.pairs[] | select(.from == $f and .to == $t) | .eel) |=
  (.min_ns *= 2 | .median_ns *= 2 | .p99_ns *= 2 | .bell_ns *= 2 | .flagged = true)' "$d/a.json" >"$d/c.json"
if run 1 "one pair doubled" "$d/a.json" "$d/c.json"; then
  has "the doubled pair $pf->$pt: EEL worse, x2, flagged in B, named; every other figure the same" \
    "^  $pf->$pt +\\S+ -> \\S+ +EEL .* 2\\.00 .* worse +(A )?B\$" \
    "pairs: 12 compared: 1 worse, 0 better, 11 same; the largest change: $pf->$pt \\(.*\\) EEL \\+100\\.0 %" \
    "^eel-compare: 1 regression beyond 5 % and the noise: $pf->$pt EEL \\+100\\.0 %\$"
  [ "$(grep -cE '^  [0-9]+->[0-9]+ .* same ' "$d/out")" -eq 23 ] &&
    ! grep -E '^ +[0-9]+ .*(worse|better)$' "$d/out" || { echo "FAILED: another figure than $pf->$pt's EEL moved"; fail=1; }
fi
# and back: better, exit 0
run 0 "doubled pair as A" "$d/c.json" "$d/a.json" &&
  has "the pair halved: better, exit 0" "^  $pf->$pt .* EEL .* 0\\.50 .* better +A( B)?\$" 'no regression'

# a point of each curve doubled: k-to-1 at K = 2 (both senders), 1-to-many at K = 3
jq '(.k_to_1.points[] | select(.k == 2) | .g_ns) |= map(. * 2) |
    (.one_to_many.points[] | select(.k == 3) | .gap_ns) *= 2' "$d/a.json" >"$d/e.json"
run 1 "curves doubled" "$d/a.json" "$d/e.json" &&
  has "k-to-1 K=2 and 1-to-many K=3 worse, named, the pairs the same" \
    '^ +2 .* 2\.00 .* worse$' '^ +3 .* 2\.00 .* worse$' 'pairs: 12 compared: 0 worse, 0 better, 12 same' \
    'regressions beyond 5 % and the noise: k-to-1 K=2 \+100\.0 %, 1-to-many K=3 \+100\.0 %$'

# rank 0's NIC slower in B (real runs): each of its 6 pairs whose EEL A measured
# unhindered (median < 2 us, within 1 us of its min; B's floor is ~2.5 us more) is worse and named
if run 1 "rank 0 slowed" "$d/a.json" "$d/b.json"; then
  cat "$d/out"
  n=0
  for pr in $(jq -r '.allpairs.pairs[] | select(.measured and (.from == 0 or .to == 0) and .eel.median_ns < 2000 and .eel.median_ns - .eel.min_ns < 1000) |
                     "\(.from)->\(.to)"' "$d/a.json"); do
    n=$((n + 1))
    if grep -qE "^  $pr .* EEL .* worse " "$d/out" && grep -qE "^eel-compare: .* $pr EEL \\+" "$d/out"; then
      echo "ok: slowed rank 0: $pr EEL worse and named"
    else echo "FAILED: slowed rank 0: $pr EEL not reported worse"; fail=1; fi
  done
  [ $n -gt 0 ] || { echo "FAILED: no pair of rank 0 under 2 us in A (the machine too busy?)"; fail=1; }
  has "B's different NIC noted" 'note: A and B measured different NICs'
fi

# pairs in one run only: rank 3's pairs gone from B, rank 2 on another host in B
jq '.allpairs.pairs |= map(select(.from != 3 and .to != 3)) |
    (.launch.ranks_at[] | select(.rank == 2) | .host) = "other\u001b[31mhost"' "$d/a.json" >"$d/f.json"
if run 0 "pairs in one run only" "$d/a.json" "$d/f.json"; then
  has "the pairs of rank 3, and of rank 2 on vm, only in A; of rank 2 on the other host only in B" \
    'pairs: 2 compared: 0 worse, 0 better, 2 same' '^  pairs measured only in A \(10\): .*0->2 \(.*\).*0->3 ' \
    '^  pairs measured only in B \(4\): 0->2 \(.* -> other\?\[31mhost\)'
  if grep -q $'\x1b' "$d/out"; then echo "FAILED: a host name's escape sequence reached the terminal"; fail=1
  else echo "ok: a host name's control characters shown as '?'"; fi
fi

# nothing in common: one line naming both, exit 2, nothing on stdout (bad, lib/compare_env.sh)
timeout 30 "$B/eel-bench" -t pingpong -n 200 -r 3 --json "$d/pair.json" >/dev/null 2>&1 ||
  { echo "FAILED: a run between two hosts (eel-bench -t pingpong)"; fail=1; }
bad "is a launched run (4 ranks: allpairs, k-to-1, 1-to-many) and $d/pair.json a run between two hosts: they have no section in common" "$d/a.json" "$d/pair.json"
bad "$d/a.json is a launched run" "$d/pair.json" "$d/a.json"
jq 'del(.allpairs, .k_to_1, .one_to_many)' "$d/a.json" >"$d/none.json"
bad "(both launched runs) have no pair or K in common" "$d/a.json" "$d/none.json"
exit $fail
