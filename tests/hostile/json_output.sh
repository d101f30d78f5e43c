#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Hostile places for --json (docs/security.md; eel-bench runs as root): nothing at
# FILE.tmp is followed, truncated or removed; a device or FIFO is written in
# place, never replaced; a folder, an empty name, a missing folder are
# refused before anything is measured (one line, exit 2, no table).
set -uo pipefail
B=${EEL_BUILD:-build}
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
fail=0
quick=(-t pingpong -n 300 -r 2 --warmup 30 -q)
refused() {  # refused 'text' PATH: one line, exit 2 (a bad command line), nothing measured
  local text=$1 path=$2
  timeout 20 "$B/eel-bench" "${quick[@]}" --json "$path" >"$d/out" 2>"$d/err"
  local rc=$?
  if [ $rc -ne 2 ] || [ "$(wc -l <"$d/err")" -ne 1 ] || ! grep -qF -- "$text" "$d/err" || [ -s "$d/out" ]; then
    echo "FAILED: --json '$path': exit $rc:"; sed 's/^/    /' "$d/err"; fail=1
  else
    echo "ok: --json '$path' -> $(cat "$d/err")"
  fi
}
# a symlink planted at FILE.tmp (the old temporary name) is left alone, and so is its target
echo "precious" >"$d/victim"
ln -s "$d/victim" "$d/r.json.tmp"
"$B/eel-bench" "${quick[@]}" --json "$d/r.json" || { echo "FAILED: eel-bench --json $d/r.json"; fail=1; }
[ "$(cat "$d/victim")" = precious ] || { echo "FAILED: the symlink's target was written"; fail=1; }
[ -L "$d/r.json.tmp" ] || { echo "FAILED: the file at FILE.tmp was removed"; fail=1; }
jq -e '.schema == "eel.run"' "$d/r.json" >/dev/null || { echo "FAILED: no document written"; fail=1; }
[ -z "$(ls -A "$d" | grep '^\.eel-json')" ] || { echo "FAILED: a temporary file left behind"; fail=1; }
echo "ok: FILE.tmp untouched, the document written"
# a character device is written in place and stays one
"$B/eel-bench" "${quick[@]}" --json /dev/null || { echo "FAILED: --json /dev/null"; fail=1; }
[ -c /dev/null ] || { echo "FAILED: /dev/null is no longer a device"; fail=1; }
echo "ok: /dev/null written, still a device"
# a FIFO: written in place for its reader
mkfifo "$d/fifo"
timeout 30 cat "$d/fifo" >"$d/from-fifo" &
reader=$!
"$B/eel-bench" "${quick[@]}" --json "$d/fifo" || { echo "FAILED: --json FIFO"; fail=1; }
wait $reader
jq -e '.schema == "eel.run"' "$d/from-fifo" >/dev/null || { echo "FAILED: the FIFO's reader got no document"; fail=1; }
[ -p "$d/fifo" ] || { echo "FAILED: the FIFO was replaced"; fail=1; }
echo "ok: the FIFO's reader got the document"
refused "is a folder" "$d"
refused "an empty name" ""
refused "its folder does not exist" "$d/no/such/folder/r.json"
exit $fail
