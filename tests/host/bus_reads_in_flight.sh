#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# DMA reads in flight (docs/bus.md, "Who waits for what"): a flood of 64 KB
# puts on pcie-gen3x8 reads each packet's 4096-byte payload ahead of it, so
# with the preset's 32 tags (8 requests of MRRS 512 a read) up to four
# payload reads fly at once, and beside them the descriptor reads of the
# puts the host rang meanwhile (up to 16 issued together, fw_fetch.c): more
# than four, at most 20, shows the next message's reads issued while the one
# before streams (four at most when the host could ring its next put only
# once a message had gone); with tags=1 one at a time (the engine's counter
# bus_reads_in_flight_max). The counts are asserted; the puts' rate is
# printed, not judged (the model's own times are checked in test_bus_model: 16 such reads
# take 2.5 times as long with one tag).
set -euo pipefail
B=${EEL_BUILD:-build}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
sizes=32768,65536
args=(-t flood --sizes "$sizes" --depths 8 -r 1 --quick -q)
fail=0
for tags in 32 1; do
  "$B/eel-bench" -d "softnic?bus=pcie-gen3x8&tags=$tags" "${args[@]}" --json "$out/t$tags.json"
  most=$(jq '.counters.local.bus_reads_in_flight_max' "$out/t$tags.json")
  t=$(jq '[.curves.flood[] | select(.size == 65536)][0].ns_per_msg.min' "$out/t$tags.json")
  case $tags in 32) want='. > 4 and . <= 20' ;; 1) want='. == 1' ;; esac
  ok=$(jq -r "if ($want) then \"ok\" else \"FAILED\" end" <<<"$most")
  printf 'tags=%-3s most reads in flight %s (want %s), a 64 KB put every %.0f ns (%.1f Gb/s): %s\n' \
    "$tags" "$most" "$want" "$t" "$(jq -n "65536 * 8 / $t")" "$ok"
  [ "$ok" = ok ] || fail=1
done
exit $fail
