#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# eel-report's breakdown plot is eel-bench's breakdown table: on a real run of
# the software NIC, the stamped bar's data (gnuplot/breakdown.gp, the $boxes
# block at x = 1) holds the table's stages in its order, each labelled with the
# table's figure ("12.3 +- 4.5 ns", "< 9.4 ns (not resolved)"), the turnaround,
# the table's sum, and the table's EEL (not the stack's top) with its residual
# or "not separable here" where the table says so.
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/host/lib/tool_env.sh eel-report
R=$T
die() { echo "FAILED: $*"; exit 1; }
bench=$B/eel-bench
command -v gnuplot >/dev/null || die "no gnuplot: run sudo tools/setup report"
timeout 300 "$bench" -t pingpong -n 2000 -r 3 --timeout 60 --json "$d/run.json" >"$d/table.txt" 2>"$d/err" ||
  die "eel-bench: $(tail -3 "$d/err")"
"$R" "$d/run.json" -o "$d/rep" >"$d/out" 2>&1 || die "eel-report: $(cat "$d/out")"
[ -s "$d/rep/gnuplot/breakdown.gp" ] || die "no gnuplot/breakdown.gp"
/usr/bin/python3 - "$d/table.txt" "$d/rep/gnuplot/breakdown.gp" <<'PY'
import re, sys
table = open(sys.argv[1]).read().split("\n")
gp = open(sys.argv[2]).read()
bad = []
# the table's breakdown: from its title to the residual line
at = next(i for i, l in enumerate(table) if "where one 8-byte put goes" in l)
rows, eel, total, residual = [], None, None, None
name = None
for l in table[at + 1:]:
    m = re.match(r"^    (\S+)", l)
    if m and not l.startswith("    ("):
        name = m.group(1)
    fig = re.search(r"(-?\d+\.\d+ \+- \d+\.\d+|< \d+\.\d+) ns", l)
    if name == "sum":
        total = re.search(r"(-?\d+\.\d+) ns", l).group(1)
    elif name == "EEL":
        eel = re.search(r"(-?\d+\.\d+)(?: \+- \d+\.\d+)? ns", l).group(1)  # its +- (runs' spread) beside it
    elif name == "residual":
        r = re.search(r"(-?\d+\.\d+) \+-", l)
        residual = ("%+.1f" % float(r.group(1))) if r else ("not separable here" if "not separable" in l else "not measured")
        break
    elif fig and name:
        rows.append((name, fig.group(1) + " ns" + (" (not resolved)" if fig.group(1).startswith("<") else "")))
        name = None
boxes = re.search(r"\$boxes << EOD\n(.*?)EOD", gp, re.S).group(1).strip().split("\n")
bar = [re.match(r'^1 \S+ \S+ \S+ \S+ \S+ \d+ "(.*)"$', b).group(1) for b in boxes if b.startswith("1 ")]
want = ["%s %s" % r for r in rows]
if bar != want:
    bad.append("the plot's stages are not the table's:\n  table: %s\n  plot:  %s" % (want, bar))
if f'"sum {total} ns"' not in gp:
    bad.append(f"the plot has no 'sum {total} ns' (the table's sum)")
if not re.search(r'set label 5 "EEL %s ns, residual %s( ns)?"' % (re.escape(eel), re.escape(residual)), gp):
    bad.append(f"the plot's EEL label is not the table's EEL {eel} ns, residual {residual}: "
               + (re.search(r"set label 5 .*", gp).group(0) if "set label 5" in gp else "none"))
for b in bad:
    print("FAILED: " + b)
if bad:
    sys.exit(1)
print(f"ok: the breakdown plot is the table: {len(rows)} stages, sum {total} ns, EEL {eel} ns, residual {residual}")
PY
