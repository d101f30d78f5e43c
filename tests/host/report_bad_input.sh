#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# eel-report on bad input: a missing file, not JSON, a truncated document, JSON
# that is not an eel.run document, a newer schema version, a bad -o, a bad
# --historical file: one line naming the problem and the fix, exit 2, nothing
# written, no sanitizer report. gnuplot missing or failing part-way: exit 1,
# no report folder and no temporary folder left, an earlier report untouched.
# A document with no measurement at all still gives a page that says so.
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/host/lib/tool_env.sh eel-report
R=$T

# expect CODE 'text in the message' ARGS...: one line on stderr, nothing on stdout, nothing new in $d/w
expect() {
  local code=$1 text=$2; shift 2
  local before after n rc
  before=$(cd "$d/w" && find . | sort | md5sum)
  (cd "$d/w" && timeout 60 "$OLDPWD/$R" "$@") >"$d/out" 2>"$d/err"
  rc=$?
  after=$(cd "$d/w" && find . | sort | md5sum)
  n=$(wc -l <"$d/err")
  if [ $rc -ne "$code" ] || ! grep -qF -- "$text" "$d/err" || [ "$n" -ne 1 ] || [ -s "$d/out" ] ||
     [ "$before" != "$after" ] || grep -qE 'AddressSanitizer|runtime error|LeakSanitizer' "$d/err"; then
    echo "FAILED: eel-report $*: exit $rc (want $code), $n line(s), files $([ "$before" = "$after" ] && echo same || echo changed):"
    sed 's/^/    | /' "$d/err" "$d/out"; (cd "$d/w" && find . | sed 's/^/    > /')
    fail=1
  else
    echo "ok: $* -> $(cat "$d/err")"
  fi
}

mkdir -p "$d/w"
w="$d/w"
good='{"schema": "eel.run", "schema_version": 2, "nic": {"uri": "softnic", "name": "softnic:inline"},
 "parameters": {"eel": {"ns": {"min": 404.8, "p25": 407, "median": 409.9, "p75": 419.7, "max": 544, "mean": 425, "spread": 0.03, "n": 10, "outliers": 1}},
 "bandwidth_bytes_per_ns": 7.85},
 "breakdown": {"samples": 100, "clock": "tsc", "parts": [{"name": "wire", "what": "on the wire", "method": "stamped",
   "ns": {"min": 300, "p25": 310, "median": 320, "p75": 330, "max": 400, "mean": 322, "spread": 0.06, "n": 100, "outliers": 0}}]}}'
printf '%s\n' "$good" >"$w/good.json"
printf '%s' "$good" | head -c 150 >"$w/cut.json"
printf 'EEL 404.8 ns\n' >"$w/table.txt"
printf '{"schema": "eel.other", "schema_version": 1}' >"$w/other.json"
printf '{"schema_version": 1, "parameters": {}}' >"$w/noschema.json"
printf '"eel.run"' >"$w/string.json"
printf '%s' "$good" | sed 's/"schema_version": 2/"schema_version": 13/' >"$w/v13.json"
printf '%s' "$good" | sed 's/"schema_version": 2/"schema_version": 1.5/' >"$w/v15.json"
printf '{"schema": "eel.run", "schema_version": 2, "x": "\xff"}' >"$w/badutf8.json"
printf '{"schema": "eel.run", "schema_version": 2,, }' >"$w/comma.json"
printf '{"schema": "eel.run", "schema_version": 2, "schema_version": 3}' >"$w/dup.json"
{ printf '%*s' 70 '' | tr ' ' '['; printf '%*s' 70 '' | tr ' ' ']'; } >"$w/deep.json"
: >"$w/empty.json"
printf 'machine,software\nx,y\n' >"$w/hist-cols.csv"
sed -n '1p' data/historical.csv >"$w/hist-num.csv"
echo 'Intel Paragon,OSF,latency,0,fast,ns,29,us,004 Table 1,x' >>"$w/hist-num.csv"
mkdir "$w/notmine"
echo keep >"$w/notmine/file"
echo 'a file' >"$w/afile"

expect 2 "nothere.json: cannot open: No such file or directory: check the path" nothere.json
# options: one line (getopt's own message came first, two lines)
expect 2 "-o needs a value: see eel-report --help" good.json -o
expect 2 "unknown option '-q': see eel-report --help" -q good.json
expect 2 "cut.json: truncated at byte 150" cut.json
expect 2 "run eel-bench --json again" cut.json
expect 2 "table.txt: not JSON: it begins with 'E' at byte 0 (line 1, column 1)" table.txt
expect 2 "not an eel.run document (its \"schema\" is \"eel.other\")" other.json
expect 2 "not an eel.run document (it has no \"schema\")" noschema.json
expect 2 "not an eel.run document (the JSON is a string, not an object)" string.json
expect 2 "schema_version 13 is newer than this eel-report reads (1..12): use the eel-report of the eel that wrote it" v13.json
expect 2 "\"schema_version\" is missing or not a whole number" v15.json
expect 2 "malformed at byte 49 (line 1, column 50): unable to decode byte 0xff near '\"' (a string must be UTF-8)" badutf8.json
expect 2 "malformed at byte 43 (line 1, column 44): string or '}' expected near ','" comma.json
expect 2 "duplicate object key near '\"schema_version\"' (an object may not repeat a key)" dup.json
expect 2 "too deep at [0][0][0]" deep.json
expect 2 "nested deeper than 64 levels" deep.json
expect 2 "empty.json: is empty: give a file with something in it" empty.json
expect 2 "is a folder, not a regular file" notmine
expect 2 "notmine exists and is not a folder eel-report made: give -o a new folder, or remove it" good.json -o notmine
expect 2 "afile exists and is not a folder eel-report made" good.json -o afile
expect 2 "cannot make /nonexistent/dir/r.tmp-" good.json -o /nonexistent/dir/r
expect 2 "hist-cols.csv: line 1: no column \"measurement\"" good.json --historical hist-cols.csv
expect 2 "hist-num.csv: line 2: size_bytes \"0\" or value \"fast\" is not a number" good.json --historical hist-num.csv
expect 2 "nothere.csv: cannot open" good.json --historical nothere.csv
expect 2 "give one run" good.json cut.json
expect 2 "give one run"
[ "$(cat "$w/notmine/file")" = keep ] || { echo "FAILED: a folder eel-report did not make was touched"; fail=1; }

# a document with no measurement: a page that says what was not measured
printf '{"schema": "eel.run", "schema_version": 1}' >"$w/nothing.json"
(cd "$w" && "$OLDPWD/$R" nothing.json) >"$d/out" 2>"$d/err" || { echo "FAILED: an empty run: $(cat "$d/err")"; fail=1; }
if grep -q 'index.html and 0 plots' "$d/out" && [ "$(grep -c '<li id="missing-' "$w/nothing-report/index.html")" -eq 8 ]; then
  echo "ok: an empty run -> a page listing 8 plots (the tail among them) not measured"
else
  echo "FAILED: an empty run:"; cat "$d/out" "$d/err"; fail=1
fi

# gnuplot missing, or failing on the third plot: exit 1, nothing half-written, an earlier report kept
(cd "$w" && "$OLDPWD/$R" good.json -o rep) >/dev/null 2>&1 || { echo "FAILED: the good report"; fail=1; }
cp "$w/rep/index.html" "$d/index.before"
cat >"$d/gnuplot-3" <<EOF
#!/bin/sh
# a gnuplot that works for the terminal check and the first plot (breakdown), then fails (map)
n=\$(cat "$d/count" 2>/dev/null || echo 0); n=\$((n + 1)); echo \$n >"$d/count"
[ \$n -le 2 ] && exec gnuplot "\$@"
echo "line 12: all points y value undefined!" >&2; exit 1
EOF
chmod +x "$d/gnuplot-3"
for g in /nonexistent/gnuplot "$d/gnuplot-3"; do
  rm -f "$d/count"
  before=$(cd "$w" && find . | sort | md5sum)
  (cd "$w" && EEL_GNUPLOT=$g "$OLDPWD/$R" good.json -o rep) >"$d/out" 2>"$d/err"
  rc=$?
  after=$(cd "$w" && find . | sort | md5sum)
  if [ $rc -eq 1 ] && [ "$(wc -l <"$d/err")" -eq 1 ] && [ "$before" = "$after" ] && cmp -s "$w/rep/index.html" "$d/index.before" &&
     grep -qE 'cannot run /nonexistent/gnuplot: install it with sudo tools/setup report|gnuplot failed on gnuplot/map.gp \(exit 1\): line 12' "$d/err"; then
    echo "ok: EEL_GNUPLOT=$g -> $(cat "$d/err")"
  else
    echo "FAILED: EEL_GNUPLOT=$g: exit $rc, files $([ "$before" = "$after" ] && echo same || echo changed):"; cat "$d/err"
    (cd "$w" && find . | sed 's/^/    > /'); fail=1
  fi
done
exit $fail
