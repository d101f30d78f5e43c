#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The JSON's key set does not move (ARCHITECTURE.md): a short run of every test, its
# key paths (jq, array indices as []) against tests/host/json_keyset.txt, the
# key set main's eel-bench wrote before JSON went through jansson, with the
# schema changes since (its header). Fails on a key gone, a key added, or a key
# renamed, or another schema version; the values are not compared.
set -uo pipefail
cd "$(dirname "$0")/../.."
B=${EEL_BUILD:-build}
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
want=tests/host/json_keyset.txt
short=(-n 500 -r 3 --warmup 50 --sizes 8..1024 --depths 1,4,16 --flood-msgs 500 --overlap-msgs 200
       --overlap-runs 2 --overlap-sweeps 2 --sig-samples 50 --bulk-sizes 8,64,1024,4096 --bulk-reps 5 -q)
"$B/eel-bench" "${short[@]}" --json "$d/r.json" || { echo "FAILED: eel-bench ${short[*]}"; exit 1; }
jq -r '[paths | map(if type == "number" then "[]" else . end) | join(".")] | unique | .[]' "$d/r.json" \
  >"$d/have" || { echo "FAILED: jq could not read the document"; exit 1; }
grep -v '^#' "$want" | grep -v '^? ' | sort >"$d/required"
grep '^? ' "$want" | cut -c3- | sort >"$d/optional"
sort -u "$d/required" "$d/optional" >"$d/allowed"
fail=0
gone=$(comm -23 "$d/required" "$d/have")
new=$(comm -13 "$d/allowed" "$d/have")
[ -z "$gone" ] || { echo "FAILED: keys gone from the JSON:"; echo "$gone" | sed 's/^/    /'; fail=1; }
[ -z "$new" ] || { echo "FAILED: keys new in the JSON (a schema change: bump schema_version, docs/json.md, and $want):"
  echo "$new" | sed 's/^/    /'; fail=1; }
schema=$(sed -n '1s/.*(schema \(eel\.run [0-9]*\)).*/\1/p' "$want")
# docs/json.md's top-level table says the version written (it said 9 at 11)
grep -qF "| \`schema\`, \`schema_version\` | \`\"eel.run\"\`, \`$(jq .schema_version "$d/r.json")\` " docs/json.md ||
  { echo "FAILED: docs/json.md's top-level table does not give schema_version $(jq .schema_version "$d/r.json")"; fail=1; }
[ "$(jq -r '.schema + " " + (.schema_version | tostring)' "$d/r.json")" = "$schema" ] ||
  { echo "FAILED: schema $(jq -c '[.schema, .schema_version]' "$d/r.json"), want $schema ($want)"; fail=1; }
[ $fail -eq 0 ] && echo "ok: $(wc -l <"$d/have") key paths, the same as before ($(wc -l <"$d/required") required)"
exit $fail
