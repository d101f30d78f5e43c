#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# eel-mpi's Bell et al. 2003 set over MPI beside eel's own figures (-d
# softnic: eel-bench's two-host mode run by ranks 0 and 1 on this machine)
# and its JSON (schema eel.mpi): the document's structure, each figure
# positive and finite, o_s < 2 EEL, g > 0, G > 0 or null (not measured: '-' in
# the table), the "MPI adds" line and
# its numbers those of the document. MPI's EEL >= eel's is not asserted
# (MPI over shared memory can be the faster). Bad inputs (-d nosuch:x, an
# eel-bench that is not there, a --json folder that is not there): one line,
# a non-zero exit, no JSON file or temporary file left.
set -uo pipefail
B=${EEL_BUILD:-build}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail=0
command -v mpirun >/dev/null || { echo "FAILED: no mpirun: run tools/setup mpi"; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0   # as mpi_eel_mpi.sh: Open MPI's plugins
MPI=(mpirun --oversubscribe --bind-to none)
ARGS=(--sizes 0,8,4096 --reps 20 --warm 5 --pp-iters 200 --iters 2000 --runs 3 --warmup 200
      --flood-sizes 8,1024,16384,131072 --depths 1,8,32 --flood-msgs 2000 --flood-bytes 4194304
      --overlap-msgs 500 --overlap-runs 3 --overlap-sweeps 1 --eel-timeout 240)

if ! timeout 400 "${MPI[@]}" -np 2 "$B/eel-mpi" "${ARGS[@]}" -d softnic --json "$out/m.json" >"$out/m.out" 2>"$out/m.err"; then
  echo "FAILED: eel-mpi -d softnic --json"; cat "$out/m.err"; exit 1
fi
sed -n '/Bell et al. 2003 section 4/,$p' "$out/m.out"
python3 - "$out/m.json" "$out/m.out" <<'PY' || fail=1
import json, math, re, sys
doc = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
bad = []
def check(ok, what):
    print(("ok: " if ok else "FAILED: ") + what)
    if not ok:
        bad.append(what)
def pos(v):
    return isinstance(v, (int, float)) and math.isfinite(v) and v > 0
check(doc.get("schema") == "eel.mpi" and doc.get("schema_version") == 2, "schema eel.mpi, version 2")
for k in ("eel_version", "command", "ranks", "options", "tiers", "bell", "eel", "netpipe"):
    check(k in doc, "top-level key " + k)
t = doc["tiers"]
check(len(t) == 1 and t[0]["tier"] == "intra-node" and len(t[0]["fig2"]) == 8 * 3 and
      all(pos(r[k]) for r in t[0]["fig2"] for k in ("timer11_ns", "timer12_ns", "timer21_ns", "timer22_ns")),
      "one tier (intra-node): 8 modes x 3 sizes, every timer > 0")
check(all(k in t[0]["loggp"] for k in ("o_s_ns", "o_r_ns", "L_ns", "g_ns", "G_ns_per_byte")) and
      pos(t[0]["pingpong"]["half_rtt_8B_ns"]), "the tier's LogGP and ping-pong")
p = doc["bell"]["parameters"]
mpi = {"EEL": p["eel"]["ns"], "o_s": p["o_s"]["ns"], "o_r": p["o_r"]["ns"], "g": p["g"]["ns"], "G": p["G"]["ns_per_byte"]}
e = doc["eel"]["parameters"]
eel = {"EEL": e["eel_ns"], "o_s": e["o_s_ns"], "o_r": e["o_r_ns"], "g": e["g_ns"], "G": e["G_ns_per_byte"]}
for name, s in (("MPI", mpi), ("eel", eel)):
    check(pos(s["EEL"]), f"{name} EEL {s['EEL']} > 0, finite")
    check(pos(s["o_s"]) and pos(s["o_r"]), f"{name} o_s {s['o_s']}, o_r {s['o_r']} > 0")
    check(pos(s["g"]), f"{name} g {s['g']} > 0")
    check(s["G"] is None or (isinstance(s["G"], (int, float)) and math.isfinite(s["G"]) and s["G"] > 0),
          f"{name} G {s['G']} > 0, or null (not measured)")
grow = [l.split() for l in text.splitlines() if re.match(r"\s+G \(ns/B\)", l)]
check(len(grow) == 1 and (mpi["G"] is not None or grow[0][2] == "-") and (eel["G"] is not None or grow[0][3] == "-"),
      f"the G row says '-' for a G not measured: {grow}")
check(pos(p["o_r_irecv"]["ns"]) and "MPI_Irecv and its MPI_Wait" in text,
      f"o_r with the computation between MPI_Irecv and MPI_Wait {p['o_r_irecv']['ns']} > 0, printed")
check(mpi["o_s"] < 2 * mpi["EEL"], f"MPI o_s {mpi['o_s']} < 2 EEL {2 * mpi['EEL']}")
check(len(doc["bell"]["flood"]) == 4 * 3, "the flood's 4 sizes x 3 depths")
check(doc["eel"]["uri"] == "softnic" and doc["eel"]["backend"] == "softnic", "eel's NIC named")
d = doc["eel"]["mpi_minus_eel"]
check(abs(d["eel_ns"] - (mpi["EEL"] - eel["EEL"])) < 1e-6 * max(1, abs(d["eel_ns"])), "mpi_minus_eel.eel_ns = MPI - eel")
m = re.search(r"MPI adds (-?[0-9.]+) ns to EEL and (-?[0-9.]+) ns to o_s", text)
check(bool(m), "the 'MPI adds X ns to EEL and Y ns to o_s' line")
if m:
    check(abs(float(m.group(1)) - d["eel_ns"]) <= 0.051 and abs(float(m.group(2)) - d["o_s_ns"]) <= 0.051,
          "its X and Y are the document's")
rows = [l.split()[0] for l in text.splitlines() if re.match(r"\s+(EEL|o_s|o_r|g|G) \(", l)]
check(rows == ["EEL", "o_s", "o_r", "g", "G"], "the table's rows EEL, o_s, o_r, g, G")
check("eel (softnic)" in text and "MPI - eel" in text, "the table's columns")
sys.exit(1 if bad else 0)
PY

# bad inputs: one line, non-zero, nothing left where the JSON would go
small=(--sizes 0,8 --reps 5 --warm 1 --pp-iters 20 --iters 100 --runs 1 --warmup 10 --flood-sizes 8,1024
       --depths 1 --flood-msgs 50 --overlap-msgs 50 --overlap-runs 1 --overlap-sweeps 1 --eel-timeout 60)
bad_case() {   # name, expected text, arguments...
  local name=$1 want=$2
  shift 2
  rm -rf "$out/b"; mkdir "$out/b"
  timeout 120 "${MPI[@]}" -np 2 "$B/eel-mpi" "${small[@]}" "$@" >"$out/b.out" 2>"$out/b.err"
  local rc=$?
  if [ $rc -ne 0 ] && [ $rc -ne 124 ] && [ "$(grep -c '^eel-mpi:' "$out/b.err")" -eq 1 ] && grep -q -- "$want" "$out/b.err" &&
     [ -z "$(ls -A "$out/b")" ]; then
    echo "ok: $name: $(grep '^eel-mpi:' "$out/b.err")"
  else
    echo "FAILED: $name (exit $rc; want one line with '$want', nothing in the JSON's folder)"; cat "$out/b.err"; ls -A "$out/b"; fail=1
  fi
}
bad_case "-d nosuch:x" "unknown NIC type 'nosuch'" -d nosuch:x --json "$out/b/x.json"
bad_case "--eel-bench missing" "no eel-bench at $out/none" -d softnic --eel-bench "$out/none" --json "$out/b/x.json"
bad_case "--json in no folder" "cannot write beside it" -d softnic --json "$out/b/no/x.json"
exit $fail
