#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/hostile/peer_shm.sh — the software NIC's rendezvous in /dev/shm (issue
# 23, class 2): a name planted where an older eel would put its wire does not
# stop a run; a server sent SIGINT or SIGTERM while a client (fake_peer.py)
# holds the wire's name without attaching removes it; SIGINT, SIGTERM or
# SIGKILL of either end at any moment of a run leaves nothing in /dev/shm.
set -uo pipefail
B=${EEL_BUILD:-build}
H=$(dirname "$0")
d=$(mktemp -d)
pids=()
trap 'kill -9 "${pids[@]}" 2>/dev/null; rm -rf "$d"' EXIT
bad=0
fail() { echo "FAILED: $*"; bad=1; }
port=$((20000 + RANDOM % 20000))
# Others may run eel on this machine: only names this test's processes made
# count (a random name, or an older eel's eel-wire-<pid>-<n> of one of ours).
ours() { ls /dev/shm 2>/dev/null | grep -E "^eel-wire-([0-9a-f]{16}|($(IFS='|'; echo "${mine[*]:-none}"))-[0-9]+)$" | sort; }
mine=()

# 1. names squatted: the next names an older eel would take, made first
port=$((port + 1))
bash -c 'for n in 0 1 2; do : >/dev/shm/eel-wire-$$-$n; done; exec '"$B"'/eel-bench --server -p '$port' --timeout 5' 2>"$d/srv" &
pids+=($!)
sleep 0.4
timeout 30 "$B/eel-bench" -t pingpong -n 200 -r 1 --warmup 10 -p $port --timeout 5 127.0.0.1 >/dev/null 2>"$d/err"
rc=$?
rm -f /dev/shm/eel-wire-"${pids[-1]}"-[012]
[ $rc -eq 0 ] && echo "ok: a run with the old names squatted" || fail "squatted names: exit $rc: $(tail -1 "$d/srv")"

# 2. the server's window (its wire named, the client not attached): SIGINT,
# SIGTERM, and the client leaving, each removes the name
before=$(ours)
for how in INT TERM close; do
  port=$((port + 1))
  timeout 30 "$B/eel-bench" --server -p $port --timeout 20 2>/dev/null &
  srv=$!
  pids+=($srv)
  mine+=($srv $(pgrep -P $srv))
  sleep 0.3
  mine+=($(pgrep -P $srv))
  timeout 30 python3 "$H/fake_peer.py" client $port noattach >"$d/name" &
  fake=$!
  for _ in $(seq 50); do grep -q wire "$d/name" && break; sleep 0.1; done
  name=$(awk '/^wire/ {print $2}' "$d/name")
  [ -e "/dev/shm$name" ] || fail "$how: the wire '$name' is not there while the server waits"
  if [ $how = close ]; then kill $fake; else kill -$how $(pgrep -P $srv); fi
  sleep 0.5
  [ -n "$name" ] && [ ! -e "/dev/shm$name" ] && echo "ok: the wire's name removed on $how in the window" ||
    fail "$how in the window left /dev/shm$name"
  kill -9 $fake $srv 2>/dev/null
  wait $fake $srv 2>/dev/null
done

# 3. either end killed at any moment of a run: nothing left behind
for sig in KILL TERM INT; do
  for who in server client; do
    for at in 0.05 0.3; do
      port=$((port + 1))
      "$B/eel-bench" --server -p $port --timeout 3 2>/dev/null &
      srv=$!
      sleep 0.2
      "$B/eel-bench" -t pingpong -n 200000 -r 2 --warmup 10 -p $port --timeout 3 127.0.0.1 >/dev/null 2>&1 &
      cli=$!
      mine+=($srv $cli)
      pids+=($srv $cli)
      sleep $at
      if [ $who = server ]; then kill -$sig $srv; else kill -$sig $cli; fi
      # the other end notices within its --timeout
      timeout 10 tail --pid=$srv -f /dev/null; timeout 10 tail --pid=$cli -f /dev/null
      { kill -9 $srv $cli; wait $srv $cli; } 2>/dev/null
    done
  done
done
after=$(ours)
left=$(comm -13 <(echo "$before") <(echo "$after"))
[ -z "$left" ] && echo "ok: SIGKILL, SIGTERM, SIGINT of either end at 50 and 300 ms: nothing left in /dev/shm" ||
  { fail "left in /dev/shm: $(echo $left)"; rm -f $(echo "$left" | sed 's|^|/dev/shm/|'); }
exit $bad
