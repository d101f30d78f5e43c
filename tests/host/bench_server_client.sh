#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The perftest way: `eel-bench --server` here, `eel-bench <host>` there (both
# on this machine for the software NIC); and a server killed mid-run makes
# the client fail with a clear message, not hang.
set -euo pipefail
B=${EEL_BUILD:-build}
out=$(mktemp -d)
pids=()
trap 'kill -9 "${pids[@]}" 2>/dev/null || true; rm -rf "$out"' EXIT
port=$((20000 + RANDOM % 20000))

"$B/eel-bench" --server -p $port 2>"$out/server.err" & pids+=($!)
"$B/eel-bench" -p $port -t pingpong,flood -n 1000 -r 2 --sizes 8..4096 --depths 1,8 --flood-runs 2 \
  --json "$out/c.json" 127.0.0.1 >"$out/client.out"
wait "${pids[0]}" || { echo "FAILED: the server exited non-zero"; cat "$out/server.err"; exit 1; }
jq -e '.parameters.eel.ns.min > 0 and .options.pair == false' "$out/c.json" >/dev/null ||
  { echo "FAILED: client results"; exit 1; }
echo "ok: server and client"

port=$((port + 1))
"$B/eel-bench" --server -p $port --timeout 5 2>/dev/null & pids+=($!)
"$B/eel-bench" -p $port --timeout 5 -t pingpong -n 100000000 -r 1 127.0.0.1 >/dev/null 2>"$out/killed.err" &
client=$!
pids+=($client)
sleep 1
kill -9 "${pids[1]}"
start=$(date +%s)
if wait $client; then echo "FAILED: the client succeeded without its server"; exit 1; fi
took=$(( $(date +%s) - start ))
cat "$out/killed.err"
grep -q "peer" "$out/killed.err" || { echo "FAILED: no clear message"; exit 1; }
[ "$(wc -l <"$out/killed.err")" -le 2 ] || { echo "FAILED: more than a line or two of error"; exit 1; }
[ $took -le 5 ] || { echo "FAILED: the client took $took s to notice"; exit 1; }
echo "ok: the client noticed its dead server in $took s"
