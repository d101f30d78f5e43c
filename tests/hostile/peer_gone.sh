#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/hostile/peer_gone.sh — peers that stop or vanish (docs/security.md):
# a --pair client whose server end is stopped (SIGSTOP) gives up at its
# --timeout and exits, not waiting on the stopped process; a flood client
# whose server is killed says within a second that the server went away.
set -uo pipefail
B=${EEL_BUILD:-build}
d=$(mktemp -d)
pids=()
trap 'kill -CONT "${pids[@]}" 2>/dev/null; kill -9 "${pids[@]}" 2>/dev/null; rm -rf "$d"' EXIT
bad=0
fail() { echo "FAILED: $*"; bad=1; }
port=$((20000 + RANDOM % 20000))
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

# 1. --pair: the server end stopped mid-flood; the client's --timeout is 2 s
"$B/eel-bench" -t pingpong,flood --timeout 2 >/dev/null 2>"$d/err" &
cli=$!
pids+=($cli)
sleep 1.5
srv=$(pgrep -P $cli)
pids+=($srv)
kill -STOP $srv
t0=$(now)
timeout 20 tail --pid=$cli -f /dev/null
took=$(secs "$t0" "$(now)")
if kill -0 $cli 2>/dev/null; then
  fail "the client still waits on its stopped server end after ${took} s: $(tail -1 "$d/err")"
else
  awk -v t="$took" 'BEGIN { exit !(t < 6) }' && echo "ok: gave up on a stopped server end in ${took} s: $(tail -1 "$d/err")" ||
    fail "stopped server end: ${took} s"
fi
kill -CONT $srv 2>/dev/null

# 2. the server killed during a flood, at several moments: named within 1 s
for at in 0.8 1.6 2.4; do
  port=$((port + 1))
  "$B/eel-bench" --server -p $port --timeout 20 2>/dev/null &
  srv=$!
  pids+=($srv)
  sleep 0.3
  "$B/eel-bench" -t flood --flood-runs 200 -p $port --timeout 20 127.0.0.1 >/dev/null 2>"$d/err" &
  cli=$!
  pids+=($cli)
  sleep $at
  { kill -9 $srv; wait $srv; } 2>/dev/null
  t0=$(now)
  # until the client says so (its exit may come later: ASan's leak check)
  for _ in $(seq 250); do [ -s "$d/err" ] && break; sleep 0.02; done
  took=$(secs "$t0" "$(now)")
  timeout 25 tail --pid=$cli -f /dev/null
  if awk -v t="$took" 'BEGIN { exit !(t < 1) }' && grep -q "the server" "$d/err"; then
    echo "ok: server killed at ${at} s, noticed in ${took} s: $(tail -1 "$d/err")"
  else
    fail "server killed at ${at} s: the client took ${took} s: $(tail -1 "$d/err")"
  fi
  kill -9 $cli 2>/dev/null
done
exit $bad
