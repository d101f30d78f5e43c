#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# eel-compare names what differs in two runs' provenance before it compares a
# figure (docs/report.md): a run and a copy of it with the NIC's firmware
# changed (jq) -> its first line is "different firmware: A vs B"; a changed
# driver and kernel each have their own line, before the comparison's head;
# the same firmware gives no such line; a document of schema 7 (no
# provenance) compares as before, saying provenance is unknown.
set -uo pipefail
. "$(dirname "$0")/lib/compare_env.sh"
"$B/eel-bench" -t pingpong -n 200 -r 3 --warmup 20 -q --json "$d/a.json" || { echo "FAILED: eel-bench"; exit 1; }
fw=$(jq -r .provenance.nic.fw_version "$d/a.json")
jq '.provenance.nic.fw_version = "16.35.1012"' "$d/a.json" >"$d/fw.json"
jq '.provenance.nic.fw_version = "16.35.1012" | .provenance.nic.driver = "mlx5_core" | .provenance.kernel.release = "6.1.0-9-amd64"' \
  "$d/a.json" >"$d/three.json"
jq 'del(.provenance) | del(.machine.placement) | .schema_version = 7' "$d/a.json" >"$d/v7.json"

run() { "$C" "$@" >"$d/out" 2>"$d/err"; local rc=$?; [ $rc -le 1 ] || { echo "FAILED: eel-compare $*: exit $rc"; cat "$d/err"; fail=1; }; }
ok_if() { # ok_if 'what' test...
  local what=$1; shift
  if "$@"; then echo "ok: $what"; else echo "FAILED: $what"; sed 's/^/    | /' "$d/out" | head -8; fail=1; fi
}

run "$d/a.json" "$d/fw.json"
ok_if "firmware changed: the first line names it" [ "$(head -n 1 "$d/out")" = "different firmware: $fw vs 16.35.1012" ]
run "$d/a.json" "$d/three.json"
ok_if "firmware, driver and kernel changed: a line each, before the head" \
  [ "$(sed -n '1p;2p;3p' "$d/out" | cut -d: -f1 | tr '\n' ,)" = "different firmware,different driver,different kernel," ]
ok_if "  ... the driver's line" grep -qx "different driver: eel firmware vs mlx5_core" "$d/out"
run "$d/a.json" "$d/a.json"
ok_if "the same firmware: no such line" eval '! grep -q "^different" "$d/out"'
run "$d/v7.json" "$d/a.json"
ok_if "schema 7: provenance unknown, then the comparison as before" \
  eval 'grep -q "^provenance unknown: A records no firmware" "$d/out" && grep -q "^  EEL " "$d/out"'
exit $fail
