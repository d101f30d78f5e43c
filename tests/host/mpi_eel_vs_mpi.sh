#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tools/eel-vs-mpi once, short: NetPIPE over Open MPI shared memory beside
# eel's softnic:inline ping-pong, 8 B one way. The round's row carries both
# figures, their ratio and EEL / limit, and a placement; the summary line
# says the same. A benchmark: the figures are printed, not judged. Bad
# input: one line. Without NetPIPE the test fails naming tools/setup mpi.
set -uo pipefail
cd "$(dirname "$0")/../.."
export EEL_BUILD=${EEL_BUILD:-build}
fail=0
for p in mpirun NPopenmpi; do command -v $p >/dev/null || { echo "FAILED: no $p: run tools/setup mpi"; exit 1; }; done
# under ASan: no leak check (Open MPI's own, mpi_eel_mpi.sh says why)
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
out=$(tools/eel-vs-mpi --rounds 1 --iters 2000 --runs 3 2>&1)
rc=$?
echo "$out"
num='[0-9]+\.[0-9]+'
[ $rc -eq 0 ] && grep -qE "^1 +(one core, two threads|two cores) +$num +$num +$num +$num +$num$" <<<"$out" &&
  echo "ok: a round: NetPIPE ns, EEL ns, EEL/NetPIPE, limit ns, EEL/limit" ||
  { echo "FAILED: exit $rc, or no round row with five figures"; fail=1; }
grep -qE "\(1 round\): NetPIPE $num ns, EEL $num ns, EEL/NetPIPE $num, EEL/limit $num" <<<"$out" &&
  echo "ok: the placement's summary" || { echo "FAILED: no summary line"; fail=1; }
err=$(tools/eel-vs-mpi --rounds 0 2>&1)
rc=$?
[ $rc -ne 0 ] && [ "$(wc -l <<<"$err")" -eq 1 ] && grep -q "\-\-rounds '0' is not a whole number" <<<"$err" &&
  echo "ok: --rounds 0: $err" || { echo "FAILED: --rounds 0: exit $rc: $err"; fail=1; }
exit $fail
