#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# eel-bench --verify over a bad wire (1% drop, duplicate, reorder, corrupt on
# both ends), inline and thread mode: every byte arrives, exactly once, and
# the NIC counters show the repairs.
set -euo pipefail
B=${EEL_BUILD:-build}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
faults="drop=0.01&dup=0.01&reorder=0.01&corrupt=0.01&rto_us=200"
for mode in inline "thread?oversubscribe=1&"; do
  sep='?'; [[ $mode == *'?'* ]] && sep=''
  uri="softnic:${mode}${sep}${faults}"
  "$B/eel-bench" -d "$uri" -t pingpong,flood,overlap -n 500 -r 2 --warmup 50 --sizes 8..16384 \
    --depths 1,16 --flood-runs 2 --overlap-msgs 200 --overlap-runs 2 --verify --json "$out/f.json" -q
  jq -e '.counters.local.retransmits > 0 and .counters.local.wire_dropped > 0 and
         .counters.peer.wire_crc_errors >= 0 and .counters.local.wire_corrupted > 0' "$out/f.json" >/dev/null ||
    { echo "FAILED: $uri: the faults did not happen, or were not counted"; jq .counters "$out/f.json"; exit 1; }
  echo "ok: $uri: verified, $(jq .counters.local.retransmits "$out/f.json") retransmits"
done
