#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/hostile/peer_oob.sh — a hostile peer over the out-of-band channel
# (docs/security.md), played by tests/hostile/fake_peer.py. A fake server
# that names a hostile wire object: the client says one line and exits 1,
# never a SIGBUS or a hang. A fake client: a plan's timeout is capped by the
# server's --timeout, a plan beyond --max-mem is refused before anything is
# allocated, the hello and connection replies carry no address, and the
# memory keys differ from run to run. --bind listens on one address.
set -uo pipefail
B=${EEL_BUILD:-build}
H=$(dirname "$0")
d=$(mktemp -d)
pids=()
trap 'kill -9 "${pids[@]}" 2>/dev/null; rm -rf "$d"' EXIT
fail() { echo "FAILED: $*"; bad=1; }
bad=0
port=$((20000 + RANDOM % 20000))

# 1. the client of a fake server naming a hostile wire
cases="small symlink fifo dir outside badhdr"
[ "$(id -u)" -eq 0 ] && cases="$cases owner" # a file of another uid: chown needs root
for c in $cases; do
  port=$((port + 1))
  timeout 30 python3 "$H/fake_peer.py" server $port $c &
  pids+=($!)
  sleep 0.3
  timeout 20 "$B/eel-bench" -t pingpong -p $port --timeout 3 127.0.0.1 >/dev/null 2>"$d/err"
  rc=$?
  if [ $rc -eq 1 ] && [ "$(wc -l <"$d/err")" -eq 1 ] && grep -q "wire" "$d/err"; then
    echo "ok: $c: $(cat "$d/err")"
  else
    fail "wire '$c': exit $rc (124: hung, >128: killed by a signal): $(head -c 300 "$d/err")"
  fi
  wait "${pids[-1]}" 2>/dev/null
done

# 2. a fake client's plan with timeout 0xffffffff: the server (--timeout 2) ends by its own
port=$((port + 1))
timeout 30 "$B/eel-bench" --server -p $port --timeout 2 2>"$d/srv" &
pids+=($!)
sleep 0.3
said=$(timeout 40 python3 "$H/fake_peer.py" client $port timeout)
took=$(echo "$said" | awk '{print int($4)}')
[ -n "$took" ] && [ "$took" -le 5 ] && echo "ok: unbounded timeout capped: $said" ||
  fail "a plan's timeout 0xffffffff: the server (--timeout 2): $said; $(tail -1 "$d/srv")"

# 3. a plan that needs 2 GiB of buffers: refused before anything is allocated
# (an address-space limit keeps an older server from really committing it)
port=$((port + 1))
lim=3000000
[[ $B == *asan* ]] && lim=unlimited # ASan reserves terabytes of shadow
(ulimit -v $lim; exec timeout 30 "$B/eel-bench" --server -p $port --timeout 5) 2>"$d/srv" &
pids+=($!)
sleep 0.3
timeout 40 python3 "$H/fake_peer.py" client $port hugemem >/dev/null
wait "${pids[-1]}"
rc=$?
[ $rc -eq 1 ] && grep -q "more than --max-mem" "$d/srv" && echo "ok: $(tail -1 "$d/srv")" ||
  fail "a 2 GiB plan: exit $rc: $(tail -1 "$d/srv")"

# 4. the replies carry no address, and the keys differ between two runs
for run in 1 2; do
  port=$((port + 1))
  timeout 30 "$B/eel-bench" --server -p $port --timeout 5 2>/dev/null &
  pids+=($!)
  sleep 0.3
  timeout 40 python3 "$H/fake_peer.py" client $port keys >"$d/keys$run"
done
grep -q "pointers in hello/connection reply: none" "$d/keys1" || fail "an address in a reply: $(cat "$d/keys1")"
k1=$(grep rkeys "$d/keys1")
k2=$(grep rkeys "$d/keys2")
[ -n "$k1" ] && [ "$k1" != "$k2" ] && echo "ok: keys differ between runs: $k1 / $k2" ||
  fail "the same keys in two runs: '$k1' / '$k2'"

# 5. --bind: the server listens on that address only
port=$((port + 1))
timeout 30 "$B/eel-bench" --server --bind 127.0.0.1 -p $port --timeout 5 2>"$d/srv" &
pids+=($!)
sleep 0.5
on=$(ss -ltnH "sport = :$port" 2>/dev/null | awk '{print $4}')
if [ "$on" = "127.0.0.1:$port" ] &&
   timeout 30 "$B/eel-bench" -t pingpong -n 200 -r 1 --warmup 10 -p $port --timeout 5 127.0.0.1 >/dev/null 2>"$d/err"; then
  echo "ok: --bind 127.0.0.1: listened on $on only"
else
  fail "--bind 127.0.0.1: $(cat "$d/srv" "$d/err" | tail -2)"
fi
exit $bad
