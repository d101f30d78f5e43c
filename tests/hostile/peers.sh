#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Stray peers and dead ones (docs/security.md): the server drops a connection that is
# not an eel-bench client (garbage, or silence past --timeout), names it, and
# serves the real client after it; a client gives up on a listener that never
# accepts at --timeout; a client whose server is killed during a flood names
# the lost peer at once; a wire that drops everything says so; --depths
# beyond the send queue is refused before anything runs.
set -uo pipefail
B=${EEL_BUILD:-build}
d=$(mktemp -d)
pids=()
trap 'kill -9 "${pids[@]}" 2>/dev/null; rm -rf "$d"' EXIT
fail() { echo "FAILED: $*"; exit 1; }
port=$((20000 + RANDOM % 20000))

# 1. garbage, then a silent connection, then the client
timeout 60 "$B/eel-bench" --server -d softnic:inline -p $port --timeout 2 >"$d/srv" 2>&1 &
pids+=($!)
sleep 0.5
bash -c "exec 3<>/dev/tcp/127.0.0.1/$port; printf 'GET / HTTP/1.0\r\n\r\n%.0s' {1..20} >&3; sleep 0.3" 2>/dev/null
bash -c "exec 3<>/dev/tcp/127.0.0.1/$port; sleep 3" 2>/dev/null
timeout 30 "$B/eel-bench" -t pingpong -n 500 -r 2 --warmup 50 -p $port --timeout 5 -q --json "$d/r.json" 127.0.0.1 ||
  { cat "$d/srv"; fail "the client after two stray connections"; }
wait "${pids[0]}" 2>/dev/null
[ "$(grep -c 'dropped: a connection from 127.0.0.1 was not an eel-bench client' "$d/srv")" -eq 2 ] ||
  { cat "$d/srv"; fail "the server did not name both stray connections"; }
grep -q "out-of-band protocol" "$d/srv" && grep -q "no message from the peer in 2000 ms" "$d/srv" ||
  { cat "$d/srv"; fail "the reasons"; }
echo "ok: two stray connections dropped and named, then the client served"

# 2. a listener that never accepts (its backlog full): the client gives up at --timeout
port=$((port + 1))
python3 - "$port" <<'PY' &
import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(0)
held = []
for _ in range(4):
    c = socket.socket(); c.setblocking(False)
    try: c.connect(("127.0.0.1", int(sys.argv[1])))
    except BlockingIOError: pass
    held.append(c)
time.sleep(20)
PY
pids+=($!)
sleep 0.5
timeout 15 "$B/eel-bench" -t pingpong -p $port --timeout 2 127.0.0.1 >/dev/null 2>"$d/err"
rc=$?
[ $rc -eq 1 ] && grep -q "cannot reach the eel-bench server" "$d/err" ||
  { cat "$d/err"; fail "connect to a listener that never accepts: exit $rc (124: it ignored --timeout)"; }
echo "ok: connect gave up at --timeout: $(cat "$d/err")"

# 3. the server killed during a flood: the client names the lost peer, long before its 20 s timeout
port=$((port + 1))
"$B/eel-bench" --server -d softnic:inline -p $port --timeout 20 >"$d/srv3" 2>&1 &
srv=$!
pids+=($srv)
sleep 0.3
(sleep 1.5; kill -9 $srv) &
start=$(date +%s)
timeout 30 "$B/eel-bench" -t flood --flood-runs 200 -p $port --timeout 20 127.0.0.1 >/dev/null 2>"$d/err"
rc=$?
took=$(($(date +%s) - start))
[ $rc -ne 0 ] && grep -q "the peer's process is gone" "$d/err" && [ $took -lt 10 ] ||
  { cat "$d/err"; fail "server killed during a flood: exit $rc after ${took} s"; }
echo "ok: the lost peer named: $(tail -1 "$d/err")"

# 4. a wire that drops everything
timeout 30 "$B/eel-bench" -d 'softnic?drop=1' -t pingpong -n 100 -r 1 --timeout 1 >/dev/null 2>"$d/err"
grep -q "the wire dropped every packet" "$d/err" || { cat "$d/err"; fail "drop=1 not named"; }
echo "ok: $(tail -1 "$d/err")"

# 5. --depths beyond the send queue: refused up front, naming the URI option
timeout 30 "$B/eel-bench" -t flood --depths 1,512 >"$d/out" 2>"$d/err"
rc=$?
[ $rc -ne 0 ] && [ "$(wc -l <"$d/err")" -eq 1 ] && grep -q "sq_depth" "$d/err" && [ ! -s "$d/out" ] ||
  { cat "$d/err"; fail "--depths 512: exit $rc"; }
echo "ok: $(cat "$d/err")"
