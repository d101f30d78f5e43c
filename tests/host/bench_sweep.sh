#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/host/bench_sweep.sh — perftest's size sweep (-a, -s) and --csv on the software
# NIC, both ends here. -a gives a row per size 2..2^23, ascending in the JSON, each
# size's times in order (t_min <= t_typical <= t_99 <= t_99.9 <= t_max), bandwidth
# above 0 and Gb/s = bytes x Mpps x 8 / 1000; the table's numbers are the JSON's as
# printed; -s 4096 alone is one row. --csv's rows parse with python's csv module and
# hold the JSON's numbers (the sweep's and the parameters'); a --csv whose write
# fails leaves no file. Speeds are printed, never asserted (-n 16 keeps it seconds).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
B=${EEL_BUILD:-build}
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
fail=0

run() {  # run NAME ARGS...: eel-bench ARGS, its table in NAME.txt
  local name=$1; shift
  if ! timeout 120 "$B/eel-bench" "$@" >"$d/$name.txt" 2>"$d/$name.err"; then
    echo "FAILED: eel-bench $*:"; sed 's/^/    /' "$d/$name.err"; exit 1
  fi
}

run a -a -n 16 --json "$d/a.json" --csv "$d/a.csv"
run s -s 4096 -n 200 --json "$d/s.json"
run p -t pingpong,flood -n 300 -r 3 --warmup 30 --sizes 8..1024 --depths 1,8 --flood-msgs 300 \
  --json "$d/p.json" --csv "$d/p.csv"
sed -n '/#bytes/,/^$/p' "$d/a.txt" | sed 's/^/    /'

python3 - "$d" <<'EOF' || fail=1
import csv, json, math, sys

d = sys.argv[1]
bad = []
def check(ok, what):
    if not ok:
        bad.append(what)

def table_rows(path):
    rows, on = [], False
    for line in open(path):
        if "#bytes" in line:
            on = True
            continue
        if on and not line.strip():
            break
        if on:
            rows.append(line.split())
    return rows

def close(a, b, tol):
    return abs(a - b) <= tol + 1e-9 * abs(b)

a = json.load(open(f"{d}/a.json"))
sizes = a["sweep"]["sizes"]
check([p["bytes"] for p in sizes] == [2 ** k for k in range(1, 24)],
      f"-a: sizes {[p['bytes'] for p in sizes]}, want 2..8388608 ascending by powers of two")
for p in sizes:
    b = p["bytes"]
    t = [p["t_min_ns"], p["t_typical_ns"], p["t_99_ns"], p["t_99_9_ns"], p["t_max_ns"]]
    check(all(x > 0 for x in t) and t == sorted(t), f"{b} B: t_min <= t_typical <= t_99 <= t_99.9 <= t_max: {t}")
    check(t[0] <= p["t_avg_ns"] <= t[-1], f"{b} B: t_avg {p['t_avg_ns']} outside [t_min, t_max]")
    check(0 < p["iterations"] <= 16, f"{b} B: {p['iterations']} iterations (-n 16)")
    check(p["bw_avg_gbit_per_s"] > 0 and p["msg_rate_mpps"] > 0, f"{b} B: no bandwidth")
    check(close(p["bw_avg_gbit_per_s"], b * p["msg_rate_mpps"] * 8 / 1000, 1e-6),
          f"{b} B: {p['bw_avg_gbit_per_s']} Gb/s is not bytes x Mpps x 8 / 1000 ({p['msg_rate_mpps']} Mpps)")

rows = table_rows(f"{d}/a.txt")
check(len(rows) == len(sizes), f"the table has {len(rows)} rows, the JSON {len(sizes)} sizes")
for r, p in zip(rows, sizes):
    # #bytes #iterations t_min t_typical t_avg t_99 t_99.9 t_max (usec, 3 decimals) Gb/s (2) Mpps (6)
    want = [p["bytes"], p["iterations"]] + [p[k] / 1000 for k in
            ("t_min_ns", "t_typical_ns", "t_avg_ns", "t_99_ns", "t_99_9_ns", "t_max_ns")] + \
           [p["bw_avg_gbit_per_s"], p["msg_rate_mpps"]]
    tol = [0, 0] + [0.0005] * 6 + [0.005, 0.0000005]
    have = [float(x) for x in r]
    check(len(have) == 10 and all(close(h, w, t) for h, w, t in zip(have, want, tol)),
          f"table row {r} is not the JSON's {want}")

s = json.load(open(f"{d}/s.json"))
check([p["bytes"] for p in s["sweep"]["sizes"]] == [4096], "-s 4096: not one size of 4096 B")
check(len(table_rows(f"{d}/s.txt")) == 1, "-s 4096: not one table row")
check("parameters" not in s or not s["parameters"], "-s 4096 alone ran other tests")

header = ["test", "figure", "unit", "bytes", "n", "value", "min", "median", "mean", "p99", "p99_9", "max",
          "spread", "bw_avg_gbit_per_s", "msg_rate_mpps"]
def num(x):
    return float(x) if x != "" else None
with open(f"{d}/a.csv", newline="") as f:
    rd = csv.DictReader(f)
    check(rd.fieldnames == header, f"CSV header {rd.fieldnames}")
    srows = [r for r in rd if r["test"] == "sweep"]
check(len(srows) == len(sizes), f"CSV: {len(srows)} sweep rows, want {len(sizes)}")
for r, p in zip(srows, sizes):
    pairs = [("bytes", "bytes"), ("n", "iterations"), ("min", "t_min_ns"), ("median", "t_typical_ns"),
             ("mean", "t_avg_ns"), ("p99", "t_99_ns"), ("p99_9", "t_99_9_ns"), ("max", "t_max_ns"),
             ("bw_avg_gbit_per_s", "bw_avg_gbit_per_s"), ("msg_rate_mpps", "msg_rate_mpps")]
    check(r["unit"] == "ns" and all(close(num(r[c]), p[k], 0) for c, k in pairs),
          f"CSV sweep row {r} is not the JSON's {p}")

pj = json.load(open(f"{d}/p.json"))["parameters"]
with open(f"{d}/p.csv", newline="") as f:
    prow = {r["figure"]: r for r in csv.DictReader(f)}
for fig, key in (("eel", "eel"), ("eel_stamped", "eel_stamped")):
    for st in ("min", "median", "mean", "max", "spread"):
        check(fig in prow and close(num(prow[fig][st]), pj[key]["ns"][st], 0),
              f"CSV {fig}.{st} is not parameters.{key}.ns.{st}")
for st, key in (("n", "count"), ("min", "min_ns"), ("median", "p50_ns"), ("mean", "mean_ns"), ("p99", "p99_ns"),
                ("p99_9", "p99_9_ns"), ("max", "max_ns")):
    check("eel_tail" in prow and close(num(prow["eel_tail"][st]), pj["eel_tail"][key], 0),
          f"CSV eel_tail.{st} is not parameters.eel_tail.{key}")
check("g" in prow and close(num(prow["g"]["value"]), pj["g"]["ns"], 0), "CSV g is not parameters.g.ns")
check("G" in prow and close(num(prow["G"]["value"]), pj["G"]["ns_per_byte"], 0) and
      close(num(prow["G"]["median"]), pj["G"]["runs"]["median"], 0), "CSV G is not parameters.G")
check("M" in prow and close(num(prow["M"]["value"]), pj["M_bytes"], 0), "CSV M is not parameters.M_bytes")

for b in bad:
    print("FAILED:", b)
if not bad:
    print(f"ok: -a: {len(sizes)} sizes 2..8388608, the table's, the JSON's and the CSV's numbers agree; "
          f"-s 4096: one row; the parameters' CSV rows are the JSON's")
sys.exit(1 if bad else 0)
EOF

# a write that fails leaves no file and no temporary one: the client past a 1 KB file size
# limit (EFBIG, SIGXFSZ ignored; the server apart, unlimited: the wire's memory is a file)
mkdir "$d/lim"
port=$((20000 + RANDOM % 20000))
timeout 60 "$B/eel-bench" --server -p $port 2>"$d/lim.srv" & srv=$!
( trap '' XFSZ; ulimit -f 1; exec timeout 60 "$B/eel-bench" -p $port -a -n 4 -q --csv "$d/lim/r.csv" 127.0.0.1 ) \
  >/dev/null 2>"$d/lim.err"
rc=$?
wait $srv
if [ $rc -ne 1 ] || ! grep -q "writing $d/lim/r.csv failed: File too large: it is over the file size limit" "$d/lim.err" || [ -n "$(ls -A "$d/lim")" ]
then
  echo "FAILED: --csv past a 1 KB file size limit: exit $rc, left: $(ls -A "$d/lim")"; sed 's/^/    /' "$d/lim.err"
  fail=1
else
  echo "ok: --csv that cannot be written whole: $(cat "$d/lim.err"), nothing left"
fi
exit $fail
