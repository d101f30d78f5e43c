#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# eel-mpi (Al-Tawil & Moritz 2001's Figure 2 over Open MPI) with -np 2 and
# -np 4 on this machine (one node: the intra-node tier only): every mode and
# size timed, LogGP and the protocols printed; N = 1 and a bad option: one
# line. Then NetPIPE (NPopenmpi) and eel-mpi side by side on the same two
# ranks: the ratios are printed (a benchmark, not asserted).
set -uo pipefail
B=${EEL_BUILD:-build}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail=0
for p in mpirun NPopenmpi; do command -v $p >/dev/null || { echo "FAILED: no $p: run tools/setup mpi"; exit 1; }; done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# under ASan: no leak check. Open MPI's plugins, unloaded by MPI_Finalize,
# leave allocations whose module LeakSanitizer can no longer name (so no
# suppression can): eel-mpi's own memory is three buffers freed at the end.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
MPI=(mpirun --oversubscribe --bind-to none)
# Bell et al. 2003's set (mpi_eel_mpi_bell.sh tests it) kept short
BELL=(--iters 2000 --runs 3 --warmup 100 --flood-sizes 8,4096,65536 --depths 1,8 --flood-msgs 2000
      --overlap-msgs 500 --overlap-runs 2 --overlap-sweeps 1)
ARGS=(--sizes 0,8,4096,65536 --reps 30 --warm 5 --pp-iters 200 "${BELL[@]}")

for np in 2 4; do
  if ! timeout 300 "${MPI[@]}" -np $np "$B/eel-mpi" "${ARGS[@]}" >"$out/m$np.out" 2>"$out/m$np.err"; then
    echo "FAILED: eel-mpi -np $np"; cat "$out/m$np.err"; fail=1; continue
  fi
  cat "$out/m$np.out"
  rows=$(awk '$1 ~ /^MPI_/ && $2 ~ /^[0-9]+$/ && NF >= 6 && $3 > 0 && $4 > 0 && $5 > 0 && $6 > 0' "$out/m$np.out" | wc -l)
  modes=$(awk '$1 ~ /^MPI_/ {print $1}' "$out/m$np.out" | sort -u | wc -l)
  [ "$rows" -eq 32 ] && [ "$modes" -eq 8 ] && echo "ok: -np $np: 8 modes x 4 sizes, every timer > 0" ||
    { echo "FAILED: -np $np: $rows rows with four timers > 0 ($modes modes), want 32 (8)"; fail=1; }
  grep -qE "LogGP: o_s [0-9.]+ ns .* L <= -?[0-9.]+ ns .* G ([0-9.]+ ns/B|not measured \(the blocking receive did not grow)" "$out/m$np.out" &&
    grep -q "protocols, end to end at 65536 B: T (2)" "$out/m$np.out" &&
    grep -qE "half round trip [0-9.]+ ns at 8 B, [0-9.]+ GB/s at 1 MiB" "$out/m$np.out" &&
    grep -q "inter-node: no pair (all ranks on one node)" "$out/m$np.out" &&
    echo "ok: -np $np: LogGP, protocols, ping-pong, one tier" || { echo "FAILED: -np $np: the summary lines"; fail=1; }
done

timeout 60 "${MPI[@]}" -np 1 "$B/eel-mpi" >"$out/o" 2>"$out/e"
[ $? -ne 0 ] && grep -q "this job has 1: launch it with mpirun -np 2" "$out/e" && [ "$(grep -c eel-mpi "$out/e")" -eq 1 ] &&
  echo "ok: N = 1" || { echo "FAILED: N = 1"; cat "$out/e"; fail=1; }
timeout 60 "${MPI[@]}" -np 2 "$B/eel-mpi" --reps 0 >"$out/o" 2>"$out/e"
[ $? -ne 0 ] && grep -q "\-\-reps: '0' is not a whole number from 1" "$out/e" && [ "$(grep -c eel-mpi "$out/e")" -eq 1 ] &&
  echo "ok: --reps 0" || { echo "FAILED: --reps 0"; cat "$out/e"; fail=1; }
# refused before anything is measured, one line each: an option without its value (was
# "unknown option"), --json naming a folder (was found at the end, after the run), an
# --overlap-msgs the eel-bench -d runs refuses (was taken, then eel-bench stopped)
for a in "--sizes" "--json $out" "-d softnic --overlap-msgs 10"; do
  # shellcheck disable=SC2086
  timeout 60 "${MPI[@]}" -np 2 "$B/eel-mpi" $a >"$out/o" 2>"$out/e"
  rc=$?
  case $a in --sizes) want="--sizes needs a value" ;; --json*) want="is a folder: give a file in it" ;;
    *) want="--overlap-msgs 10 with -d: the eel-bench it runs takes 16 at least" ;; esac
  [ $rc -ne 0 ] && grep -qF -- "$want" "$out/e" && [ "$(grep -c eel-mpi "$out/e")" -eq 1 ] && ! grep -q "ns at 8 B" "$out/o" &&
    echo "ok: $a -> $(grep eel-mpi "$out/e")" || { echo "FAILED: eel-mpi $a: exit $rc"; cat "$out/e"; fail=1; }
done

# the benchmark: NetPIPE then eel-mpi, the same two ranks, one after the other
timeout 120 mpirun -np 2 NPopenmpi -l 8 -u 1048576 -p 0 -n 50 -o "$out/np.out" >/dev/null 2>&1 ||
  { echo "FAILED: NPopenmpi"; fail=1; }
timeout 300 mpirun -np 2 "$B/eel-mpi" --sizes 0,8 --reps 10 --pp-iters 2000 "${BELL[@]}" --netpipe "$out/np.out" >"$out/n.out" 2>&1
grep "beside NetPIPE" "$out/n.out" || { echo "FAILED: no NetPIPE comparison"; cat "$out/n.out"; fail=1; }
exit $fail
