#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/host/verbs_bad_input.sh — eel-bench on verbs:<ibdev> with bad input, on any
# host (RDMA device or not): one clear line on stderr naming the problem and the fix, a
# non-zero exit, at once. (On a real device, the rest: tests/vm/suite-verbs.sh.)
set -uo pipefail
B=${EEL_BUILD:-build}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail=0

expect() {  # expect 'extended regex the message must match' ARGS...
  local re=$1 rc lines
  shift
  timeout 30 "$B/eel-bench" "$@" 127.0.0.1 >"$out/stdout" 2>"$out/stderr"
  rc=$?
  lines=$(wc -l <"$out/stderr")
  if [ $rc -eq 0 ] || [ $rc -eq 124 ] || ! grep -Eq -- "$re" "$out/stderr" || [ "$lines" -ne 1 ]; then
    echo "FAILED: eel-bench $* 127.0.0.1: exit $rc, $lines line(s), wanted /$re/:"; sed 's/^/    /' "$out/stderr"
    fail=1
  else
    echo "ok: $* -> $(cat "$out/stderr")"
  fi
}

# with no RDMA device here, the fix for Soft-RoCE; with some, the ones present
expect "no RDMA device(: for Soft-RoCE run \`rdma link add rxe0 type rxe netdev eth0\`| named 'eel_no_such0': present: )" \
  -d verbs:eel_no_such0
expect "bad port 'x' in verbs:rxe0:x: give the port number, e.g. verbs:rxe0:1" -d verbs:rxe0:x
expect "bad port '0' in verbs:rxe0:0" -d verbs:rxe0:0
expect "unknown option 'bogus' for verbs: known options are gid_index" -d 'verbs:rxe0?bogus=1'
expect "option gid_index=999: give a whole number from 0 to 255" -d 'verbs:rxe0?gid_index=999'
expect "bad options: sq_depth 100: give a power of two from 16 to 4096" -d 'verbs:rxe0?sq_depth=100'
exit $fail
