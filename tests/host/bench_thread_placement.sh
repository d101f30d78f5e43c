#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/host/bench_thread_placement.sh — softnic:thread keeps four threads busy
# (two hosts, two NICs). On fewer cores than that in the allowed CPU set the
# table and the JSON say its figures are the scheduler's, not a NIC's: a
# warning of kind `placement` naming the cores (bench/report/warnings.c).
#   - here, oversubscribe=1 (the machine has fewer than 4 cores, else any run
#     under a 2-core taskset): the table's warning, the JSON's kind and text;
#   - under taskset -c 0: the warning counts 1 core (the allowed set, not the
#     cores online);
#   - softnic:thread alone on fewer than 4 cores online: refused, one line
#     naming oversubscribe=1.
set -uo pipefail
cd "$(dirname "$0")/../.."
B=${EEL_BUILD:-build}
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
fail=0
bad() { echo "FAILED: $*"; fail=1; }
RUN=(-t pingpong -n 200 -r 2)

# check NAME CORES: the table (NAME.out) and the JSON (NAME.json) warn of CORES
check() {
  local want="thread mode on $2 core"
  grep -q "^  warning: $want" "$d/$1.out" && echo "ok: $1: the table: $(grep "warning: $want" "$d/$1.out")" ||
    { cat "$d/$1.out"; bad "$1: the table has no 'warning: $want...' line"; }
  python3 - "$d/$1.json" "$want" <<'PY' && echo "ok: $1: the JSON's warning_figures[]: kind placement, every figure" || bad "$1: the JSON"
import json, sys
d = json.load(open(sys.argv[1]))
w = [x for x in d["warning_figures"] if x["text"].startswith(sys.argv[2])]
assert len(w) == 1, "no warning_figures[] entry '%s...': %s" % (sys.argv[2], d["warning_figures"])
assert w[0]["kind"] == "placement", "kind %s, want placement" % w[0]["kind"]
assert "eel" in w[0]["figures"] and "limit" in w[0]["figures"], w[0]["figures"]
assert w[0]["text"] in d["warnings"], "not in warnings[]"
PY
}

ncpu=$(nproc)
if [ "$ncpu" -lt 4 ]; then
  if timeout 120 "$B/eel-bench" -d 'softnic:thread?oversubscribe=1' "${RUN[@]}" --json "$d/os.json" >"$d/os.out" 2>"$d/os.err"; then
    check os "$ncpu"
  else
    cat "$d/os.out" "$d/os.err"; bad "softnic:thread?oversubscribe=1 exited non-zero"
  fi
  timeout 60 "$B/eel-bench" -d softnic:thread "${RUN[@]}" >"$d/r.out" 2>"$d/r.err"
  rc=$?
  [ $rc -ne 0 ] && [ "$(wc -l <"$d/r.err")" -eq 1 ] && grep -q "oversubscribe=1" "$d/r.err" &&
    echo "ok: softnic:thread on $ncpu cores: refused, one line: $(cat "$d/r.err")" ||
    { cat "$d/r.out" "$d/r.err"; bad "softnic:thread on $ncpu cores: exit $rc, want one line naming oversubscribe=1"; }
fi
# the allowed set, not the cores online: one core
if timeout 120 taskset -c 0 "$B/eel-bench" -d 'softnic:thread?oversubscribe=1' "${RUN[@]}" --json "$d/one.json" \
     >"$d/one.out" 2>"$d/one.err"; then
  check one 1
else
  cat "$d/one.out" "$d/one.err"; bad "taskset -c 0 softnic:thread?oversubscribe=1 exited non-zero"
fi
exit $fail
