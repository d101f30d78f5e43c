#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Hostile command lines (docs/security.md): one line naming the problem and the fix,
# exit 2, terminal escapes shown escaped, never a run.
set -uo pipefail
B=${EEL_BUILD:-build}
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
fail=0
expect() {  # expect 'text' ARGS...
  local text=$1; shift
  timeout 20 "$B/eel-bench" "$@" >"$d/out" 2>"$d/err"
  local rc=$?
  if [ $rc -ne 2 ] || [ "$(wc -l <"$d/err")" -ne 1 ] || ! grep -qF -- "$text" "$d/err" || [ -s "$d/out" ] ||
     grep -q $'\x1b' "$d/err"; then
    echo "FAILED: eel-bench $(printf '%q ' "$@"): exit $rc:"; cat -v "$d/err" | sed 's/^/    /'; fail=1
  else
    echo "ok: $(printf '%q ' "$@")-> $(cat "$d/err")"
  fi
}
expect "names no test" -t ''
expect "names no test" -t ,
expect "names no test" --test=
expect "--json on the server" --server --json "$d/r.json"
expect "--iters: '-5' is not a whole number" -n -5
expect "--runs 0 is out of range" -r 0
expect "--sizes 8..: a range needs both ends" --sizes 8..
expect "the list is too long" --depths "$(seq -s, 1 200)"
expect 'unknown test' -t $'ping\x1b[31mpong'
expect '\x1b' -t $'ping\x1b[2Jpong'
expect 'not warm or cold' --flood-memory tepid
# long options only in full (getopt_long took --size for --sizes and ran the suite), perftest's
# options that mean something else here refused with what eel does instead
expect "unknown option '--size' (did you mean -s SIZE" --size 64
expect "unknown option '--it' (options are taken only in full: did you mean --iters?)" --it 5
expect "unknown option '--siz'" --siz=64
expect "'-q 4': eel-bench's -q is --quiet" -q 4
expect "'-q 4': eel-bench's -q is --quiet" -vq 4
expect "unknown option '-D' (perftest's -D SECONDS" -D 5
expect "unknown option '--report_gbits' (eel-bench reports Gb/s already" -a --report_gbits
expect "unknown option '--report-gbits'" --report-gbits
for o in -F -x -R -c -I -m -i -u -b -e -l -z; do expect "unknown option '$o' (perftest's $o" "$o"; done
expect "perftest's -t N is its send queue depth" -t 128
expect "-s 100: a size of 8 bytes or more must be a multiple of 8" -s 100
expect "-s SIZE and -a" -s 64 -a
expect "--bus with --csv or the size sweep" -a --bus none,membus
# a value that looks like an option is a value, as getopt_long takes it
expect "unexpected argument 'b'" --eal --no-huge a b
# the other programs: one line, exit 2, naming the option they have
tool() {  # tool 'text' PROGRAM ARGS...
  local text=$1 prog=$2; shift 2
  timeout 20 "$B/$prog" "$@" >"$d/out" 2>"$d/err"
  local rc=$?
  if [ $rc -ne 2 ] || [ "$(wc -l <"$d/err")" -ne 1 ] || ! grep -qF -- "$text" "$d/err" || [ -s "$d/out" ]; then
    echo "FAILED: $prog $*: exit $rc:"; sed 's/^/    /' "$d/err"; fail=1
  else
    echo "ok: $prog $* -> $(cat "$d/err")"
  fi
}
tool "unknown option '--out' (options are taken only in full: did you mean --output?)" eel-report --out x r.json
tool "unknown option '--thresh' (options are taken only in full: did you mean --threshold?)" eel-compare --thresh 5 a b
tool "unknown option '--al' (options are taken only in full: did you mean --all?)" eel-probe --al
if [ -x "$B/eel-mpi" ]; then
  # Open MPI's own allocations outlive MPI_Finalize: no leak check for it (as tests/host/mpi_eel_mpi.sh)
  ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
    tool "unknown option '--rep' (options are taken only in full: did you mean --reps?)" eel-mpi --rep 5
fi
# a --json name that is not UTF-8 still gives valid JSON (the command line is in it)
name="$d/$(printf 'r\xff\xfe').json"
"$B/eel-bench" -t pingpong -n 300 -r 2 --warmup 30 -q --json "$name" || { echo "FAILED: eel-bench"; fail=1; }
jq -e '.command | length > 0' "$name" >/dev/null || { echo "FAILED: not valid JSON with a non-UTF-8 name"; fail=1; }
# each byte that is not UTF-8 is written as the character of its value: 0xff -> U+00FF, 0xfe -> U+00FE
jq -e --arg want "$d/r$(printf '\xc3\xbf\xc3\xbe').json" '.command[-1] == $want' "$name" >/dev/null ||
  { echo "FAILED: the name in .command is $(jq -c '.command[-1]' "$name"), want U+00FF U+00FE for 0xff 0xfe"; fail=1; }
echo "ok: a non-UTF-8 --json name gives valid JSON, its bytes as U+00FF U+00FE"
exit $fail
