#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/host/fuzz_smoke.sh — the fuzz targets (tests/fuzz/, built by
# tests/fuzz.mk with libFuzzer + ASan + UBSan) each run for a bounded number
# of inputs, starting from their seed corpus (tests/fuzz/corpus/NAME/); any
# crash, sanitizer report, hang or leak fails the test, and the input that
# did it is kept under build/fuzz/artifacts/.
#
# The targets carry their own sanitizers, so the fuzzing runs once, in the
# gcc list (EEL_BUILD=build); the sanitizer list (EEL_BUILD=build/asan) only
# replays the seed corpus through each target, which is cheap.
# FUZZ_RUNS_SCALE multiplies the runs (default 1).
set -euo pipefail
cd "$(dirname "$0")/../.."

command -v clang >/dev/null || { echo "fuzz_smoke: no clang: run sudo tools/setup build"; exit 1; }
make -s --no-print-directory fuzz

declare -A RUNS=([fuzz_pkt]=20000 [fuzz_oob]=30000 [fuzz_uri]=100000)
declare -A MAXLEN=([fuzz_pkt]=1024 [fuzz_oob]=4096 [fuzz_uri]=512)
scale=${FUZZ_RUNS_SCALE:-1}
mkdir -p build/fuzz/artifacts

for src in tests/fuzz/fuzz_*.c; do
  t=$(basename "$src" .c)
  corpus=tests/fuzz/corpus/$t
  [ -d "$corpus" ] && [ -n "$(ls -A "$corpus")" ] || { echo "fuzz_smoke: $t has no seed corpus in $corpus"; exit 1; }
  if [ "${EEL_BUILD:-build}" != build ]; then
    echo "== $t: replaying $(ls "$corpus" | wc -l) seeds"
    build/fuzz/"$t" -artifact_prefix=build/fuzz/artifacts/"$t"- "$corpus"/* 2>&1 | tail -n 3
    continue
  fi
  work=build/fuzz/work/$t
  rm -rf "$work"
  mkdir -p "$work"
  runs=$(( ${RUNS[$t]:-20000} * scale ))
  echo "== $t: $runs runs from $(ls "$corpus" | wc -l) seeds"
  # new inputs go to $work (the first directory), never into tests/
  build/fuzz/"$t" -runs="$runs" -max_len="${MAXLEN[$t]:-4096}" -timeout=10 -max_total_time=120 \
    -print_final_stats=1 -artifact_prefix=build/fuzz/artifacts/"$t"- "$work" "$corpus" \
    >build/fuzz/"$t".log 2>&1 || { tail -n 40 build/fuzz/"$t".log; echo "fuzz_smoke: $t failed"; exit 1; }
  grep -E '^#[0-9]+[[:space:]]+DONE|stat::number_of_executed_units|stat::peak_rss_mb' build/fuzz/"$t".log || true
  done_runs=$(sed -n 's/^stat::number_of_executed_units: *//p' build/fuzz/"$t".log)
  [ "${done_runs:-0}" -ge "$runs" ] || { echo "fuzz_smoke: $t ran only ${done_runs:-0} of $runs inputs"; exit 1; }
done
echo "fuzz_smoke: no crash"
