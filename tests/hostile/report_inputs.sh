#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Hostile input (docs/security.md): eel-report and eel-compare never block on a FIFO,
# refuse a device, an empty -o and a number no run can hold (a plot's
# arithmetic on it overflowed to inf, which gnuplot calls an undefined
# variable), each with one line and exit 2.
set -uo pipefail
B=${EEL_BUILD:-build}
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
fail=0
one() {  # one EXIT 'text' CMD...: exactly one line holding text, that exit, within 10 s
  local code=$1 text=$2; shift 2
  timeout 10 "$@" >/dev/null 2>"$d/err"
  local rc=$? n
  n=$(wc -l <"$d/err")
  if [ $rc -ne "$code" ] || [ "$n" -ne 1 ] || ! grep -qF -- "$text" "$d/err"; then
    echo "FAILED: $*: exit $rc (want $code), $n line(s):"; sed 's/^/    /' "$d/err"; fail=1
  else
    echo "ok: $* -> $(cat "$d/err")"
  fi
}
"$B/eel-bench" -t pingpong -n 500 -r 2 --warmup 50 -q --json "$d/r.json" || { echo "FAILED: eel-bench"; exit 1; }
mkfifo "$d/fifo"
one 2 "is a FIFO, not a regular file" "$B/eel-report" -o "$d/rep" "$d/fifo"
one 2 "is a FIFO, not a regular file" "$B/eel-compare" "$d/fifo" "$d/r.json"
one 2 "is a character device, not a regular file" "$B/eel-report" -o "$d/rep" /dev/zero
one 2 "-o ''" "$B/eel-report" -o '' "$d/r.json"
jq '.parameters.eel.ns.min = 1e300' "$d/r.json" >"$d/big.json"
one 2 "more than eel ever writes" "$B/eel-report" -o "$d/rep" "$d/big.json"
one 2 "more than eel ever writes" "$B/eel-compare" "$d/r.json" "$d/big.json"
exit $fail
