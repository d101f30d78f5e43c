#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# eel-bench under mpirun (Open MPI, PMIx): 4 ranks on this machine over the
# software NIC (shared memory), --oversubscribe on 2 cores. allpairs, k-to-1
# and 1-to-many give a complete, sane matrix and curves; odd N and --serial;
# N = 1, a NIC that cannot open, the patterns without a launcher: clear
# errors; a rank killed mid-run: the job ends, nothing hangs.
set -uo pipefail
B=${EEL_BUILD:-build}
out=$(mktemp -d)
mpipid=
trap '[ -n "$mpipid" ] && kill -9 "$mpipid" 2>/dev/null; rm -rf "$out"' EXIT
fail=0
command -v mpirun >/dev/null || { echo "FAILED: no mpirun: run tools/setup mpi"; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# under ASan: PMIx's own leaks are not eel's
export LSAN_OPTIONS=suppressions=$PWD/tests/host/mpi_lsan.supp:print_suppressions=0
# A run of 4 spinning ranks on 2 cores: keep it short, and unbound
MPI=(mpirun --oversubscribe --bind-to none)
SHORT=(-n 200 -r 3 --warmup 50 --depths 4,16 --flood-runs 3 --flood-msgs 1000 --timeout 20)

check() {  # check NAME JQ-EXPRESSION FILE
  if jq -e "$2" "$3" >/dev/null; then echo "ok: $1"; else echo "FAILED: $1"; fail=1; fi
}

timeout 120 "${MPI[@]}" -np 4 "$B/eel-bench" -t allpairs,k-to-1,1-to-many "${SHORT[@]}" --json "$out/p4.json" \
  >"$out/p4.out" 2>"$out/p4.err"
rc=$?
cat "$out/p4.out"
if [ $rc -ne 0 ]; then echo "FAILED: mpirun -np 4 exited $rc"; cat "$out/p4.err"; exit 1; fi
check "schema 12, 4 ranks" '.schema == "eel.run" and .schema_version == 12 and .launch.ranks == 4 and
  (.launch.ranks_at | length) == 4' "$out/p4.json"
# where the figures come from, rank 0's, as a pair's run gives them (launched
# runs wrote none: eel-compare could not name a firmware or build difference)
check "provenance: eel's commit, the kernel, rank 0's NIC firmware" '(.provenance.eel.commit | length) > 0 and
  (.provenance.kernel.release | length) > 0 and (.provenance.nic.fw_version | test("^eel "))' "$out/p4.json"
check "allpairs: all 12 ordered pairs measured, each once" '(.allpairs.pairs | length) == 12 and
  ([.allpairs.pairs[] | select(.measured)] | length) == 12 and
  ([.allpairs.pairs[] | "\(.from)-\(.to)"] | unique | length) == 12 and
  all(.allpairs.pairs[]; .from != .to and .from < 4 and .to < 4)' "$out/p4.json"
check "allpairs: EEL 0 < min <= median <= p99, every round trip counted" 'all(.allpairs.pairs[];
  .eel.min_ns > 0 and .eel.min_ns <= .eel.median_ns and .eel.median_ns <= .eel.p99_ns and
  .eel.bell_ns >= .eel.min_ns and .eel.n == 600)' "$out/p4.json"
check "allpairs: g 0 < min <= median <= p99 at a depth given" 'all(.allpairs.pairs[];
  .g.min_ns > 0 and .g.min_ns <= .g.median_ns and .g.median_ns <= .g.p99_ns and
  (.g.q == 4 or .g.q == 16) and .g.n == 3)' "$out/p4.json"
# (the JSON's numbers carry 10 significant digits: the sum is checked to 1e-8
# of the limit, not to 1e-6 ns, which a limit of thousands of ns cannot hold)
check "allpairs: the flags are median + k x MAD, and flag exactly the pairs beyond" '.allpairs.flag_k == 3 and
  (.allpairs.eel_flag.limit_ns - (.allpairs.eel_flag.median_ns + 3 * .allpairs.eel_flag.mad_ns) | fabs) <=
    1e-8 * .allpairs.eel_flag.limit_ns and
  (.allpairs.eel_flag.limit_ns as $l | all(.allpairs.pairs[]; .eel.flagged == (.eel.median_ns > $l))) and
  (.allpairs.g_flag.limit_ns as $l | all(.allpairs.pairs[]; .g.flagged == (.g.median_ns > $l)))' "$out/p4.json"
check "k-to-1: K = 1..3, a g from each sender" '(.k_to_1.points | length) == 3 and
  all(.k_to_1.points[]; (.g_ns | length) == .k and all(.g_ns[]; . > 0))' "$out/p4.json"
check "1-to-many: K = 1..3, a gap for each" '(.one_to_many.points | length) == 3 and
  all(.one_to_many.points[]; .gap_ns > 0)' "$out/p4.json"
grep -q "^  0->1 " "$out/p4.out" && grep -q "k-to-1: K ranks flood rank 0" "$out/p4.out" &&
  grep -q "1-to-many: rank 0 floods" "$out/p4.out" && echo "ok: the table" || { echo "FAILED: the table"; fail=1; }

# eel-report draws the matrix as a heat map, a box a measured pair
if "$B/eel-report" "$out/p4.json" -o "$out/rep" >"$out/rep.out" 2>&1 && [ -s "$out/rep/allpairs.svg" ] &&
   [ "$(awk '/^\$m << EOD/{on=1; next} /^EOD/{on=0} on && !/^#/' "$out/rep/gnuplot/allpairs.gp" | wc -l)" -eq 12 ]; then
  echo "ok: eel-report's heat map of the 12 pairs"
else echo "FAILED: eel-report's heat map"; cat "$out/rep.out"; fail=1; fi

# odd N: one rank sits out each round; --serial one pair at a time
timeout 120 "${MPI[@]}" -np 3 "$B/eel-bench" -t allpairs --serial "${SHORT[@]}" --json "$out/p3.json" \
  >"$out/p3.out" 2>"$out/p3.err" || { echo "FAILED: mpirun -np 3 --serial"; cat "$out/p3.err"; fail=1; }
check "odd N, --serial: all 6 ordered pairs" '.allpairs.schedule == "serial" and (.allpairs.pairs | length) == 6 and
  all(.allpairs.pairs[]; .measured and .eel.min_ns > 0 and .g.min_ns > 0)' "$out/p3.json"

# the default --flood-msgs (10000): every session's data window holds the patterns' floods
timeout 60 "${MPI[@]}" -np 2 "$B/eel-bench" -t allpairs,k-to-1,1-to-many -n 100 -r 2 --depths 16 --flood-runs 2 \
  --json "$out/p2.json" >"$out/p2.out" 2>&1 || { echo "FAILED: mpirun -np 2 with the default flood"; tail -5 "$out/p2.out"; fail=1; }
[ -s "$out/p2.json" ] && check "the default flood: 10000 puts a run, both pairs measured" \
  '([.allpairs.pairs[] | select(.measured)] | length) == 2 and all(.one_to_many.points[]; .gap_ns > 0)' "$out/p2.json"

expect_fail() {  # expect_fail NAME 'text' NP ARGS...
  local name=$1 text=$2 np=$3; shift 3
  local t0=$SECONDS
  timeout 60 "${MPI[@]}" -np "$np" "$B/eel-bench" "$@" >"$out/f.out" 2>"$out/f.err"
  local rc=$?
  if [ $rc -eq 0 ] || [ $rc -eq 124 ] || ! grep -qF -- "$text" "$out/f.err" || [ -s "$out/f.out" ]; then
    echo "FAILED: $name: exit $rc after $((SECONDS - t0)) s:"; sed 's/^/    /' "$out/f.err"; fail=1
  else
    echo "ok: $name -> $(grep -F -- "$text" "$out/f.err" | head -1 | head -c 200)"
  fi
}
expect_fail "N = 1" "the patterns need 2 ranks or more, this job has 1" 1 -t allpairs
expect_fail "a NIC that cannot open" "opening the NIC: unknown NIC type 'nonic'" 3 -d nonic -t allpairs
expect_fail "pair tests under a launcher" "under mpirun or srun eel-bench measures the patterns" 2 -t pingpong
timeout 10 "$B/eel-bench" -t allpairs >/dev/null 2>"$out/n.err"
[ $? -eq 2 ] && grep -q "need ranks: launch eel-bench with mpirun" "$out/n.err" && [ "$(wc -l <"$out/n.err")" -eq 1 ] &&
  echo "ok: allpairs without a launcher" || { echo "FAILED: allpairs without a launcher"; cat "$out/n.err"; fail=1; }

# a rank killed mid-run: the job ends within the timeout, no rank is left
"${MPI[@]}" -np 4 "$B/eel-bench" -t allpairs -n 100000000 -r 1 --warmup 0 --depths 4 --timeout 5 \
  >"$out/k.out" 2>"$out/k.err" &
mpipid=$!
victim=
for _ in $(seq 100); do
  victim=$(pgrep -P "$mpipid" eel-bench | sed -n 3p)
  [ -n "$victim" ] && break
  sleep 0.1
done
sleep 2
if [ -z "$victim" ]; then echo "FAILED: no third rank to kill"; fail=1; else
  kill -9 "$victim"
  t0=$SECONDS
  for _ in $(seq 300); do kill -0 "$mpipid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$mpipid" 2>/dev/null; then echo "FAILED: the job still runs 30 s after a rank was killed"; fail=1
  elif wait "$mpipid"; then echo "FAILED: the job succeeded without a rank"; fail=1
  elif pgrep -P "$mpipid" eel-bench >/dev/null; then echo "FAILED: ranks left running"; fail=1
  else echo "ok: a killed rank ends the job in $((SECONDS - t0)) s:"; grep -v '^-*$' "$out/k.err" | head -8 | sed 's/^/    /'; fi
  mpipid=
fi
exit $fail
