#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A flood over a wire that drops 3% of the frames both ways, with the
# firmware's go-back-N and with selective repeat (recovery=gbn|sr,
# firmware/pkt.h): eel-bench --verify checks every byte of every message and
# the NIC's count of deliveries (nothing lost, duplicated or corrupted); the
# counters must show the repairs each mode makes (go-back-N drops what comes
# past a gap, selective repeat keeps it and resends less: the timer's
# resends, which go back in both modes, blur how much; test_fw_recovery
# shows it exactly). Then
# tools/eel-loss, which prints the rates side by side, runs once and must
# print its table (its figures are not judged here: no timed tests).
set -euo pipefail
B=${EEL_BUILD:-build}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for rec in gbn sr; do
  uri="softnic:inline?drop=0.03&recovery=$rec"
  "$B/eel-bench" -d "$uri" -t flood --sizes 8,64,16384 --depths 16,64 --flood-msgs 10000 -r 1 --flood-runs 2 \
    --warmup 100 --verify --json "$out/$rec.json" -q
  jq -e '.counters.local.wire_dropped > 100 and .counters.peer.naks_sent > 0 and
         .counters.local.naks_received > 0 and .counters.local.retransmits > 0 and
         .counters.local.tx_messages == .counters.peer.rx_messages' "$out/$rec.json" >/dev/null ||
    { echo "FAILED: $uri: no loss repaired, or messages lost"; jq .counters "$out/$rec.json"; exit 1; }
  echo "ok: $uri: verified, $(jq .counters.local.retransmits "$out/$rec.json") resent," \
    "$(jq .counters.local.timeouts "$out/$rec.json") timeouts"
done
jq -e '.counters.peer.out_of_order_kept == 0 and .counters.peer.out_of_order_dropped > 0' "$out/gbn.json" >/dev/null ||
  { echo "FAILED: go-back-N kept packets out of order"; jq .counters.peer "$out/gbn.json"; exit 1; }
jq -e '.counters.peer.out_of_order_kept > 0' "$out/sr.json" >/dev/null ||
  { echo "FAILED: selective repeat kept nothing out of order"; jq .counters.peer "$out/sr.json"; exit 1; }
gbn=$(jq .counters.local.retransmits "$out/gbn.json") sr=$(jq .counters.local.retransmits "$out/sr.json")
[ "$sr" -lt "$gbn" ] ||
  { echo "FAILED: selective repeat resent $sr packets, go-back-N $gbn: not only the missing ones"; exit 1; }
echo "ok: selective repeat resent $sr packets where go-back-N resent $gbn"

EEL_BUILD=$B tools/eel-loss -n 2000 -r 1 >"$out/loss.txt"
grep -qE '^ +1( +[0-9]+ \( *[0-9]+\)){3} +[0-9.]+ +[0-9.]+$' "$out/loss.txt" &&
  grep -q 'median of the rounds: go-back-N keeps' "$out/loss.txt" ||
  { echo "FAILED: tools/eel-loss printed no table"; cat "$out/loss.txt"; exit 1; }
echo "ok: tools/eel-loss prints the rates side by side"
# bad input: one line naming the problem, non-zero exit
for args in "-p 1.5" "-n 10" "-r 0" "-d verbs:x" "-d softnic?drop=0.1" "--bogus"; do
  # shellcheck disable=SC2086
  if EEL_BUILD=$B tools/eel-loss $args >"$out/bad.txt" 2>&1; then
    echo "FAILED: tools/eel-loss $args succeeded"; exit 1
  fi
  grep -q '^eel-loss: ' "$out/bad.txt" || { echo "FAILED: tools/eel-loss $args: $(head -1 "$out/bad.txt")"; exit 1; }
done
echo "ok: tools/eel-loss refuses bad arguments with one line"

# Timeouts where no loss was counted are explained under the NIC's events
# (report_table.c); a lossy wire's are not. A 2-us timer fires on a clean
# wire: the receiver acknowledges later than that (ACKs are coalesced, every
# 32 packets or after a quiet wire).
fired='timeouts ([1-9][0-9]*/[0-9]+|[0-9]+/[1-9][0-9]*)'
for wire in clean lossy; do
  uri='softnic:inline?rto_us=2'
  [ $wire = lossy ] && uri="$uri&drop=0.03"
  "$B/eel-bench" -d "$uri" -t flood --sizes 8,1024 --depths 8 --flood-msgs 2000 -r 1 --flood-runs 1 \
    --warmup 100 >"$out/rto-$wire.txt"
  grep -qE "$fired" "$out/rto-$wire.txt" ||
    { echo "FAILED: $uri: a 2-us timer never fired"; cat "$out/rto-$wire.txt"; exit 1; }
done
grep -q 'timeouts with no loss counted' "$out/rto-clean.txt" &&
  grep -qE 'involuntary context switches: [0-9]+ here over the tests, [0-9]+ at the server over its life' \
    "$out/rto-clean.txt" ||
  { echo "FAILED: timeouts on a clean wire without the note"; cat "$out/rto-clean.txt"; exit 1; }
grep -q 'wire_dropped' "$out/rto-lossy.txt" && ! grep -q 'no loss counted' "$out/rto-lossy.txt" ||
  { echo "FAILED: a lossy wire's timeouts were put down to the scheduler"; cat "$out/rto-lossy.txt"; exit 1; }
echo "ok: timeouts where no loss was counted are explained, a lossy wire's not"
