#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Hostile input (docs/security.md): a run's JSON that a colleague sends is data, not
# a script. Strings from it (nic.name, nic.uri, breakdown part names) reach
# eel-report's gnuplot scripts; gnuplot runs `backquoted` text inside double
# quotes as a shell command. eel-report must render the report and run
# nothing, and the saved .gp files must not run anything on a redraw either.
set -uo pipefail
B=${EEL_BUILD:-build}
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
fail() { echo "FAILED: $*"; exit 1; }

"$B/eel-bench" -t pingpong -n 500 -r 2 --warmup 50 -q --json "$d/r.json" || fail "eel-bench"
mark="$d/pwned"
jq --arg m "$mark" '.nic.name = "x`touch \($m).name`\" y" | .nic.uri = "softnic`touch \($m).uri`" |
    .breakdown.parts[0].name = "post`touch \($m).part`\\\\n" | .machine.cpu_model = "<script>`touch \($m).cpu`</script>"' \
  "$d/r.json" >"$d/evil.json" || fail "jq"
"$B/eel-report" -o "$d/rep" "$d/evil.json" || fail "eel-report refused a run it should render"
ls "$mark".* 2>/dev/null && fail "eel-report ran a command from the JSON"
echo "ok: eel-report rendered the crafted run and ran nothing"
# the saved scripts redraw without running anything either
for gp in "$d"/rep/gnuplot/*.gp; do
  (cd "$d/rep" && gnuplot "$gp" >/dev/null 2>&1)
done
ls "$mark".* 2>/dev/null && fail "a saved gnuplot script ran a command from the JSON"
echo "ok: the saved gnuplot scripts ran nothing"
# the page shows the name as text, not as markup
grep -q "<script>" "$d/rep/index.html" && fail "index.html carries the run's markup unescaped"
echo "ok: index.html escapes the run's text"
