#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The tools' JSON reader under libFuzzer (tests/fuzz/fuzz_json.c, built with
# clang's fuzzer, ASan and UBSan by tests/fuzz.mk): a bounded number of inputs
# from the seed corpus (tests/fuzz/corpus/fuzz_json/) with a JSON dictionary
# (tests/fuzz/fuzz_json.dict). Any crash, sanitizer report, leak, timeout or
# broken invariant (the target checks error offsets, the tree, lookups by
# path and a round trip) fails the test; the input is kept in
# build/fuzz/artifacts/. The fuzzing runs in the gcc list; the sanitizer list
# replays the corpus only (the target carries its own sanitizers).
# FUZZ_RUNS_SCALE multiplies the runs (default 1).
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v clang >/dev/null || { echo "report_fuzz_json: no clang: run sudo tools/setup build"; exit 1; }
make -s --no-print-directory build/fuzz/fuzz_json
t=build/fuzz/fuzz_json corpus=tests/fuzz/corpus/fuzz_json
[ -n "$(ls -A "$corpus")" ] || { echo "report_fuzz_json: no seed corpus in $corpus"; exit 1; }
mkdir -p build/fuzz/artifacts
if [ "${EEL_BUILD:-build}" != build ]; then
  echo "== fuzz_json: replaying $(ls "$corpus" | wc -l) seeds"
  "$t" -artifact_prefix=build/fuzz/artifacts/fuzz_json- "$corpus"/* 2>&1 | tail -n 3
  exit 0
fi
runs=$((300000 * ${FUZZ_RUNS_SCALE:-1}))
work=build/fuzz/work/report_fuzz_json
rm -rf "$work" && mkdir -p "$work"
echo "== fuzz_json: $runs runs from $(ls "$corpus" | wc -l) seeds"
"$t" -runs="$runs" -max_len=8192 -timeout=10 -max_total_time=300 -dict=tests/fuzz/fuzz_json.dict \
  -print_final_stats=1 -artifact_prefix=build/fuzz/artifacts/fuzz_json- "$work" "$corpus" \
  >build/fuzz/report_fuzz_json.log 2>&1 || { tail -n 40 build/fuzz/report_fuzz_json.log; echo "report_fuzz_json: failed"; exit 1; }
grep -E '^#[0-9]+[[:space:]]+DONE|stat::number_of_executed_units|stat::peak_rss_mb' build/fuzz/report_fuzz_json.log || true
done_runs=$(sed -n 's/^stat::number_of_executed_units: *//p' build/fuzz/report_fuzz_json.log)
[ "${done_runs:-0}" -ge "$runs" ] || { echo "report_fuzz_json: ran only ${done_runs:-0} of $runs inputs"; exit 1; }
echo "report_fuzz_json: no crash in $done_runs inputs"
