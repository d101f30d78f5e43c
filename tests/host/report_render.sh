#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# eel-report on real runs of the software NIC (eel-bench, small parameters):
# every plot the run has data for is written as a valid SVG and PNG; the map
# holds the papers' historical machines; index.html is self-contained (no
# script, no external file) and holds the tables and one inline SVG per plot;
# headless Chromium renders it with every plot present (the DOM has one svg
# with drawn paths per plot; the screenshot is not blank and shows the plots'
# colours; the page opens with every warning, then the headline table, before
# any plot; driven over the DevTools protocol, the page's own layout has every
# plot laid out and drawn, every image loaded, and no console error or failed
# load, and a broken copy of the page is caught); a version 1 document renders too and says what was not measured;
# running again replaces the folder.
#
# Chromium runs in the gcc list (EEL_BUILD=build); the sanitizer list runs
# everything else with eel-report built with ASan + UBSan. The sanitizer list
# reuses the gcc list's run (build/report-test-run.json) when it is newer than
# build/eel-bench, rather than measuring again.
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/host/lib/tool_env.sh eel-report
R=$T
ALL=breakdown,signature,flood_q,bulk_time,bulk_bw,overlap,map,tail
die() { echo "FAILED: $*"; exit 1; }
bad() { echo "FAILED: $*"; fail=1; }
for t in gnuplot xmllint; do command -v $t >/dev/null || die "no $t: run sudo tools/setup report"; done
[ -x "$R" ] || die "no $R: run make all"

# ---- a real run: every test but decompose, which a second, short run measures
bench=build/eel-bench
[ -x "$bench" ] || bench="$B/eel-bench"
cache=build/report-test-run.json
small=(-n 2000 -r 3 --sizes 8..16384 --depths 1,8 --flood-runs 2 --overlap-msgs 500 --overlap-runs 2
       --sig-samples 50 --bulk-reps 20 --bulk-sizes 8..2048 --timeout 60)
if [ "$B" != build ] && [ -s "$cache" ] && [ "$cache" -nt "$bench" ]; then
  cp "$cache" "$d/run.json"
  echo "using the gcc list's run ($cache)"
else
  timeout 900 "$bench" -q -t pingpong,flood,overlap,limit,signature,bulk "${small[@]}" --json "$d/run.json" \
    >"$d/bench.log" 2>&1 || { cat "$d/bench.log"; die "eel-bench could not make a run to render"; }
  [ "$B" = build ] && cp "$d/run.json" "$cache"
fi
timeout 300 "$bench" -q -t decompose -n 2000 -r 3 --timeout 60 --json "$d/dec.json" >"$d/bench.log" 2>&1 ||
  { cat "$d/bench.log"; die "eel-bench -t decompose could not make a run to render"; }

# ---- the report of the full run
"$R" "$d/run.json" >"$d/out" 2>"$d/err"
rc=$?
cat "$d/out" "$d/err"
[ $rc -eq 0 ] || die "eel-report exited $rc"
[ ! -s "$d/err" ] || bad "eel-report wrote to stderr on a good run"
grep -q "run-report/index.html and 8 plots" "$d/out" || bad "eel-report did not say it made 8 plots"
rep="$d/run-report"
[ -d "$rep" ] || die "no $rep"
ls "$rep" | grep -q '\.tmp-\|\.old-' && bad "a temporary folder was left"
ls -d "$d"/run-report.* 2>/dev/null && bad "a temporary folder was left beside the report"

for p in ${ALL//,/ }; do
  svg="$rep/$p.svg" png="$rep/$p.png" gp="$rep/gnuplot/$p.gp"
  [ -s "$svg" ] && [ -s "$png" ] && [ -s "$gp" ] || { bad "$p: missing svg, png or gnuplot script"; continue; }
  xmllint --noout "$svg" 2>"$d/xml" || { bad "$p.svg is not well-formed XML: $(head -3 "$d/xml")"; continue; }
  root=$(xmllint --xpath 'local-name(/*)' "$svg" 2>/dev/null)
  paths=$(xmllint --xpath 'count(//*[local-name()="path"])' "$svg" 2>/dev/null)
  [ "$root" = svg ] && [ "${paths:-0}" -ge 5 ] || bad "$p.svg: root <$root>, $paths paths"
  grep -q "<title>" "$svg" || bad "$p.svg has no title"
  # PNG: signature, IHDR 1000 x 600
  sig=$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')
  wh=$(head -c 24 "$png" | tail -c 8 | od -An -tu1 | tr -s ' ')
  [ "$sig" = 89504e470d0a1a0a ] && [ "$wh" = " 0 0 3 232 0 0 2 88" ] || bad "$p.png: signature $sig, size bytes$wh"
  # the title names the paper's figure the plot follows, by its key (data/papers.md)
  grep -q '^set title ".*(after \(Bell et al\. 2003\|Al-Tawil & Moritz 2001\|Culler et al\. 1996\|Taboada et al\. 2003\|Dongarra & Dunigan 1997\) ' "$gp" ||
    bad "$p: the title names no paper's figure"
  echo "ok: $p.svg ($paths paths), $p.png, gnuplot/$p.gp"
done
# the map: this NIC among the papers' historical machines (Dongarra & Dunigan 1997 Table 1, Taboada et al. 2003 Tables 1-2)
hist=$(awk '/^\$h[0-9] << EOD/{on=1; next} /^EOD/{on=0} on' "$rep/gnuplot/map.gp" | wc -l)
[ "$hist" -ge 30 ] || bad "the map holds $hist historical machines, want 30 or more"
grep -q 'Intel Paragon' "$rep/gnuplot/map.gp" && grep -q 'Myrinet MPICH-GM' "$rep/gnuplot/map.gp" ||
  bad "the map lacks the Paragon (Dongarra & Dunigan 1997) or Myrinet MPICH-GM (Taboada et al. 2003)"
echo "ok: the map places this NIC among $hist historical machines"
# the tail: the percentile spectrum of every round trip, p50, p99, p99.9 and max marked
steps=$(awk '/^\$s << EOD/{on=1; next} /^EOD/{on=0} on && !/^#/' "$rep/gnuplot/tail.gp" | wc -l)
[ "$steps" -eq $(( $(jq '.parameters.eel_tail.histogram | length' "$d/run.json") + 1 )) ] ||
  bad "the tail plot has $steps steps, want one per bucket of the run's histogram and the last"
for m in p50 p99 p99.9 max; do grep -q "^set label [0-9]* \"$m [0-9.]* ns\"" "$rep/gnuplot/tail.gp" || bad "the tail plot does not mark $m"; done
echo "ok: the tail plot: $steps steps, p50, p99, p99.9 and max marked"

# ---- the page: self-contained, the tables, one inline svg per plot
html="$rep/index.html"
grep -qi '<script\|<link \|<img \|<iframe\| src=' "$html" && bad "index.html loads something (script, link, img, src)"
grep -q 'href="http\|url(http' "$html" && bad "index.html refers to the network"
for s in parameters breakdown signature bulk limit nic plots seeds history; do
  grep -q "<section id=\"$s\">" "$html" || bad "index.html has no section $s"
done
grep -q '<section id="not-measured">' "$html" && bad "index.html says something was not measured, on a run of every plot"
n=$(grep -o '<figure class="plot" id="plot-[a-z_]*">' "$html" | wc -l)
[ "$n" -eq 8 ] || bad "index.html has $n figures, want 8"
grep -q '<th>EEL</th>' "$html" && grep -q 'Bell et al. 2003 Fig. 3' "$html" && grep -q 'Dongarra & Dunigan 1997' "$html" ||
  bad "index.html lacks the EEL row or the seed citations"
# every id and reference inside a plot carries the plot's name: two plots never share one
ids=$(grep -oE " id=['\"](gp|gnuplot)[^'\"]*['\"]|href=['\"]#(gp|gnuplot)[^'\"]*['\"]" "$html" | head -3)
[ -z "$ids" ] || bad "ids of gnuplot's SVG not prefixed with the plot's name in index.html: $ids"
grep -q " id='map-gpPt5'" "$html" && grep -q "href='#map-gpPt5'" "$html" || bad "the map's point symbols are not prefixed"
echo "ok: index.html is self-contained with 8 inline plots"

# ---- the first screen: every warning of the run, then the headline table
# (each figure a warning names flagged), then the rest and the plots; a run
# with noise warnings on EEL, and one with none
flagged() { jq -r '[.warning_figures[]?.figures[]?] | unique | map({eel: "EEL", o_s: "o_s", o_r: "o_r", g: "g",
  G: "G", L: "L"}[.] // empty) | join(",")' "$1"; }
/usr/bin/python3 tests/host/report_page_check.py first "$html" "$(jq '.warnings | length' "$d/run.json")" \
  "$(flagged "$d/run.json")" || bad "the first screen of the run's page"
# the run has EEL's tail: the headline gives its p99, p99.9 and max as the JSON has them
grep -q "<th>EEL tail</th><td colspan=\"3\">p99 [0-9.]* ns, p99.9 [0-9.]* ns, max [0-9.]* ns" "$html" ||
  bad "the headline has no EEL tail row (p99, p99.9, max)"
/usr/bin/python3 - "$d/run.json" "$d/noisy.json" "$d/clean.json" <<'PY' || die "cannot make the noisy and clean documents"
import json, sys
r = json.load(open(sys.argv[1]))
w = ["the machine changed during the run: EEL 380.0 ns at its start, 520.0 at its end (3 x 2000 round trips): "
     "the tests between (pingpong) saw different machines; pin with --cpu",
     "only 40 rounds were stamped: the breakdown's means are rough"]
r["warnings"] = w
r["warning_figures"] = [{"text": w[0], "kind": "noise", "figures": ["eel", "breakdown"]},
                        {"text": w[1], "kind": "stamps", "figures": ["breakdown"]}]
json.dump(r, open(sys.argv[2], "w"))
r["warnings"], r["warning_figures"] = [], []
json.dump(r, open(sys.argv[3], "w"))
PY
for k in noisy clean; do
  "$R" "$d/$k.json" -o "$d/$k" >"$d/out" 2>&1 || bad "eel-report of the $k run failed: $(cat "$d/out")"
done
/usr/bin/python3 tests/host/report_page_check.py first "$d/noisy/index.html" 2 EEL || bad "the first screen of a noisy run"
grep -q '<li id="warning-1"><b>noise</b>: the machine changed' "$d/noisy/index.html" || bad "the noise warning is not the first item"
/usr/bin/python3 tests/host/report_page_check.py first "$d/clean/index.html" 0 || bad "the first screen of a clean run"

# ---- the breakdown as the table gives it: shares of EEL where its parts
# close, of their sum where they do not (and the page says so)
for c in true false; do
  jq ".breakdown.closes = $c | .breakdown.eel_ns = 100 | .breakdown.parts_sum_ns = 200 |
      .breakdown.parts[0].ns.mean = 50" "$d/clean.json" >"$d/closes-$c.json"
  "$R" "$d/closes-$c.json" -o "$d/closes-$c" >"$d/out" 2>&1 || bad "eel-report with closes $c failed: $(cat "$d/out")"
done
grep -q 'they add up to EEL within 5% beyond their uncertainty: shares of EEL' "$d/closes-true/index.html" &&
  grep -q '<td class="num">50.0 ns</td><td class="num">50.0 %</td>' "$d/closes-true/index.html" ||
  bad "closes true: the page does not give the parts as shares of EEL (50 of 100 ns: 50 %)"
grep -q 'they do <b>not</b> add up to EEL within 5%' "$d/closes-false/index.html" &&
  grep -q '<td class="num">50.0 ns</td><td class="num">25.0 %</td>' "$d/closes-false/index.html" ||
  bad "closes false: the page does not say the parts do not add up, with shares of their sum (50 of 200 ns: 25 %)"
echo "ok: the page's breakdown: shares of EEL where it closes, of the parts' sum where not, and says which"

# ---- headless Chromium renders it (the gcc list only)
if [ "$B" = build ]; then
  command -v chromium >/dev/null || die "no chromium: run sudo tools/setup report"
  [ -x /usr/bin/python3 ] || die "no /usr/bin/python3: run sudo tools/setup report"
  prof=$(mktemp -d)
  timeout 180 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --user-data-dir="$prof" \
    --window-size=1280,9000 --force-device-scale-factor=0.5 --hide-scrollbars \
    --screenshot="$d/shot.png" --dump-dom "file://$html" >"$d/dom.html" 2>"$d/chromium.log"
  rc=$?
  rm -rf "$prof"
  [ $rc -eq 0 ] && [ -s "$d/dom.html" ] && [ -s "$d/shot.png" ] ||
    { tail -5 "$d/chromium.log"; die "chromium exited $rc (dom $(wc -c <"$d/dom.html") bytes)"; }
  /usr/bin/python3 tests/host/report_page_check.py dom "$d/dom.html" "$ALL" || bad "the rendered DOM"
  /usr/bin/python3 tests/host/report_page_check.py png "$d/shot.png" 640 4500 || bad "the screenshot"
  echo "ok: chromium rendered index.html with every plot"
  # as a person sees it: Chromium's own layout, over the DevTools protocol
  timeout 180 /usr/bin/python3 tests/host/report_page_check.py live "$html" "$ALL" || bad "the page as Chromium shows it"
  echo "ok: every plot loaded, no console error, no failed load"
  # and the check can fail: a plot hidden, an image that is not there, a script error
  sed 's#</body>#<style>\#plot-map svg{display:none}</style><img src="nothere.png"><script>console.error("on purpose"); nofn();</script></body>#' \
    "$html" >"$d/broken.html"
  timeout 180 /usr/bin/python3 tests/host/report_page_check.py live "$d/broken.html" "$ALL" >"$d/broken.out" 2>&1
  rc=$?
  for want in "plot map did not load" "an image did not load: nothere.png" "console.error: on purpose" \
              "uncaught exception: ReferenceError" "load failed: net::ERR_FILE_NOT_FOUND"; do
    grep -qF "FAILED: $want" "$d/broken.out" || bad "the live check missed: $want (exit $rc)"
  done
  [ $rc -eq 1 ] || bad "the live check passed a broken page (exit $rc)"
  echo "ok: a broken copy of the page is caught"
fi

# ---- again: the folder is replaced; an explicit -o; the decompose run
"$R" "$d/run.json" >/dev/null 2>&1 || bad "a second eel-report on the same folder failed"
[ -s "$rep/index.html" ] && [ -e "$rep/.eel-report" ] || bad "the second report left no index.html"
ls -d "$d"/run-report.* 2>/dev/null && bad "the second report left a temporary folder"
"$R" "$d/dec.json" -o "$d/dec" >"$d/out" 2>&1 || bad "eel-report of the decompose run failed: $(cat "$d/out")"
grep -q 'decompose' "$d/dec/gnuplot/breakdown.gp" && grep -q '(stamped)' "$d/dec/gnuplot/breakdown.gp" ||
  bad "the breakdown of the decompose run lacks decompose's bar with its methods"
grep -q '<section id="decompose">' "$d/dec/index.html" || bad "the decompose run's page has no decompose table"
echo "ok: the decompose run: $(head -1 "$d/out")"

# ---- a version 1 document (no signature, bulk, L): the plots it can have, and what was not measured
/usr/bin/python3 - "$d/run.json" "$d/v1.json" <<'EOF' || die "cannot make a version 1 document"
import json, sys
r = json.load(open(sys.argv[1]))
r["schema_version"] = 1
# the map needs a bandwidth; on a loaded machine the short flood may find no
# per-byte cost (G is then absent, as it should be): take bulk's, as a
# version 1 run with a flood would have had one
par = r.setdefault("parameters", {})
if not par.get("bandwidth_bytes_per_ns"):
    pts = [p for p in r.get("bulk", {}).get("points", []) if p.get("echo_ns", {}).get("min")]
    par["bandwidth_bytes_per_ns"] = max(p["size"] / p["echo_ns"]["min"] for p in pts)
for k in ("signature", "bulk", "decompose"):
    r.pop(k, None)
r.get("parameters", {}).pop("L", None)
r.get("parameters", {}).pop("eel_tail", None)
r.get("machine", {}).get("clock", {}).pop("resolution_ns", None)  # version 1 had none
json.dump(r, open(sys.argv[2], "w"))
EOF
"$R" "$d/v1.json" >"$d/out" 2>&1 || bad "eel-report of a version 1 document failed: $(cat "$d/out")"
for p in breakdown flood_q overlap map; do [ -s "$d/v1-report/$p.svg" ] || bad "v1: no $p.svg"; done
for p in signature bulk_time bulk_bw tail; do
  [ -e "$d/v1-report/$p.svg" ] && bad "v1: $p.svg made without data"
  grep -q "<li id=\"missing-$p\">" "$d/v1-report/index.html" || bad "v1: index.html does not say $p was not measured"
done
grep -q 'not measured: the run has no signature section' "$d/v1-report/index.html" || bad "v1: no reason given"
# a figure the document lacks is left out of the page, never "nan" (the machine row said
# "ticks of nan ns" for a version 1 run)
grep -qi 'nan ns\|nan MHz\|nan cores' "$d/v1-report/index.html" && bad "v1: a nan on the page: $(grep -oi '[^>]*nan [a-z]*' "$d/v1-report/index.html" | head -3)"
echo "ok: version 1: $(tr '\n' ' ' <"$d/out")"

# ---- a G the flood could not measure (schema 11: null with why): the page says why, no 0 or nan for it
jq '.parameters.G.ns_per_byte = null | .parameters.G.why = "no size bandwidth-bound here" |
    .parameters.G.from_size = null | .parameters.G.runs = null | .parameters.bandwidth_bytes_per_ns = null |
    .parameters.bandwidth_runs = null | .parameters.M_bytes = null | .parameters.M_runs = null' \
  "$d/run.json" >"$d/noG.json" || die "cannot make a document without G"
"$R" "$d/noG.json" >"$d/out" 2>&1 || bad "eel-report of a run without G failed: $(cat "$d/out")"
[ "$(grep -c 'no size bandwidth-bound here' "$d/noG-report/index.html")" -ge 2 ] ||
  bad "a run without G: the headline and the parameters do not both say why"
grep -qi '>nan\|nan GB/s\|0.0000 ns/B' "$d/noG-report/index.html" && bad "a run without G: a nan or 0 ns/B on the page"
echo "ok: a run without G says why"

# ---- a size sweep alone (-s, -a): its table, perftest's columns, a row per size (the page
# had nothing of it: "0 plots", no table)
"$B/eel-bench" -s 8 -n 200 -q --json "$d/sw.json" || die "eel-bench -s 8 failed"
"$R" "$d/sw.json" >"$d/out" 2>&1 || bad "eel-report of a sweep-only run failed: $(cat "$d/out")"
grep -q '<section id="sweep"><h2>Size sweep' "$d/sw-report/index.html" &&
  grep -q '<th>t_typical</th>' "$d/sw-report/index.html" &&
  [ "$(grep -o '<tr><td class="num">8 B</td>' "$d/sw-report/index.html" | wc -l)" -eq 1 ] ||
  bad "a sweep-only run: no sweep table with its 8-byte row on the page"
echo "ok: a sweep-only run's table"
exit $fail
