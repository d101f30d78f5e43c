#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# eel-compare on crafted pairs of runs: the verdict per parameter (same within
# the runs' own noise or below the threshold, better, worse; lower is better
# for times, higher for bandwidth; "changed" for figures with no direction),
# the exit status (0 nothing worse, 1 a regression, listed; 2 bad input),
# version 1 against version 2 documents, and bad input: one line naming the
# problem and the fix, exit 2, no sanitizer report.
set -uo pipefail
. "$(dirname "$0")/lib/compare_env.sh"

# doc FILE [key=value...]: an eel.run document; keys: v (schema_version), eel (EEL
# min), eiqr (EEL p75-p25), os (o_s), osiqr (schema 3: p75-p25 of o_s over its
# sweeps), bw (bandwidth B/ns), M, g, giqr, wire (the stamped wire stage: all its
# quantiles), wmean (its mean, which the breakdown shows; default wire),
# G (G ns/B: 0 is an eel-bench before schema 11's G not measured, null one's from 11),
# sig (1: a signature section), t8k (bulk T(8192) min), stampused (the breakdown's
# in-place stamp cost, against 11 ns alone; none by default), dpost (decompose's
# stamped post, the mean of the breakdown's post, whose p25..p75 is 10..20 ns),
# ddet (decompose's modelled detect), p99 (schema 8: EEL's tail of 10^5 rounds with this p99;
# none by default), p999 (its p99.9), tmax (its max), noise (schema 8: a warning of kind noise
# naming these figures, comma-separated: warnings[] and warning_figures[]),
# note (the same, of kind stamps: not noise)
doc() {
  local f=$1; shift
  local v=2 eel=400 eiqr=4 os=300 osiqr=0 bw=8 M=1600 G=0.125 g=200 giqr=2 wire=320 wmean= sig=1 t8k=1500 stampused= dpost=12 ddet=20
  local p99= p999=20000 tmax=90000
  local noise= note= warnings="" wfig=""
  local kv; for kv in "$@"; do local "$kv"; done
  if [ -n "$noise" ]; then
    warnings='"the machine changed during the run: EEL 380.0 ns at its start, 520.0 at its end (3 x 2000 round trips): the tests between (pingpong, flood) saw different machines; pin with --cpu"'
    wfig='{"text": '$warnings', "kind": "noise", "figures": ["'"$(sed 's/,/", "/g' <<<"$noise")"'"]}'
  fi
  if [ -n "$note" ]; then
    warnings='"only 40 rounds were stamped: the breakdown'"'"'s means are rough"'
    wfig='{"text": '$warnings', "kind": "stamps", "figures": ["'"$(sed 's/,/", "/g' <<<"$note")"'"]}'
  fi
  local e25 e75 g25 g75 sigsec="" bulksec="" Lsec="" ossw="" stampsec="" tailsec=""
  # the buckets put p50 and p90 at 303, p99 at $p99, p99.9 at $p999, p99.99 and max at $tmax
  [ -n "$p99" ] && tailsec=', "eel_tail": {"count": 100000, "min_ns": 300, "p50_ns": 303, "p90_ns": 303, "p99_ns": '$p99',
    "p99_9_ns": '$p999', "p99_99_ns": '$tmax', "max_ns": '$tmax', "mean_ns": 330, "timing_cost_ns": 1, "method": "m",
    "histogram": [[300, 303, 98900], ['$p99', '$p99', 999], ['$p999', '$p999', 90], ['$tmax', '$tmax', 10]]}'
  [ -n "$stampused" ] && stampsec=', "stamp_used_ns": '$stampused', "stamp_alone_ns": 11' 
  [ "$v" -ge 3 ] && ossw=', "sweeps": {"min": '$os', "p25": '$os', "median": '$os', "p75": '$(awk "BEGIN{print $os+$osiqr}")', "max": '$(awk "BEGIN{print $os+$osiqr}")', "mean": '$os', "spread": 0, "n": 3, "outliers": 0}'
  e25=$(awk "BEGIN{print $eel+1}"); e75=$(awk "BEGIN{print $eel+1+$eiqr}")
  g25=$(awk "BEGIN{print $g+0.5}"); g75=$(awk "BEGIN{print $g+0.5+$giqr}")
  if [ "$v" -ge 2 ] && [ "$sig" = 1 ]; then
    sigsec=', "signature": {"size": 8, "method": "Culler et al. 1996", "rtt_ns": 900, "o_s_ns": 95, "g_ns": 570, "o_r_ns": 250, "L_ns": 105,
      "accuracy": {"target": 0.05, "confidence": 0.95, "batch": 50, "points": 4, "unconverged": 0}, "curves": []}'
    bulksec=', "bulk": {"points": [{"size": 8192, "t_ns": {"min": '$t8k', "p25": '$t8k', "median": '$t8k', "p75": '$t8k', "max": '$t8k', "mean": '$t8k', "spread": 0, "n": 30, "outliers": 0},
      "bw_bytes_per_ns": 5.4, "echo_ns": {"min": 1100, "p25": 1110, "median": 1120, "p75": 1130, "max": 1300, "mean": 1130, "spread": 0.02, "n": 30, "outliers": 0}}],
      "fits": {"hockney": {"alpha_ns": 444, "beta_ns_per_byte": 0.088, "n_half_bytes": 5045, "bw_bytes_per_ns": 11.4, "err": 0.14, "on": "echo_ns", "method": "Dongarra & Dunigan 1997"}}}'
    Lsec=', "L": {"ns": 105, "cycles": 220, "method": "Culler et al. 1996"}'
  fi
  cat >"$f" <<EOF
{"schema": "eel.run", "schema_version": $v, "eel_version": "0.1.0", "created": "2026-01-01T00:00:00Z",
 "machine": {"hostname": "lab1", "cpu_model": "test"}, "nic": {"uri": "softnic", "name": "softnic:inline", "backend": "softnic"},
 "parameters": {
   "eel": {"ns": {"min": $eel, "p25": $e25, "median": $e25, "p75": $e75, "max": $e75, "mean": $e25, "spread": 0.01, "n": 10, "outliers": 0},
           "cycles": {"min": 840, "median": 850}, "method": "Bell et al. 2003 4.1"},
   "o_s": {"ns": $os, "cycles": 630, "g_ns": 770, "dmax_ns": 470, "rose_at_first": false, "method": "Bell et al. 2003 4.3"$ossw},
   "o_r": {"ns": 700, "cycles": 1470, "g_ns": 766, "dmax_ns": 66, "rose_at_first": false, "method": "Bell et al. 2003 4.3"},
   "g": {"ns": $g, "cycles": 420, "size": 8, "q": 64, "method": "Bell et al. 2003 4.2"},
   "G": {"ns_per_byte": $G, "q": 1, "method": "Bell et al. 2003 4.2"},
   "bandwidth_bytes_per_ns": $bw, "M_bytes": $M, "overlap_potential_ns": -600$Lsec$tailsec},
 "breakdown": {"samples": 3000, "clock": "host tsc", "parts": [
   {"name": "post", "what": "host software", "method": "stamped", "ns": {"min": 10, "p25": 10, "median": 10, "p75": 20, "max": 50, "mean": 12, "spread": 1, "n": 3000, "outliers": 0}},
   {"name": "wire", "what": "on the wire", "method": "stamped", "ns": {"min": $wire, "p25": $wire, "median": $wire, "p75": $wire, "max": $wire, "mean": ${wmean:-$wire}, "spread": 0, "n": 3000, "outliers": 0}}],
   "total_ns": {"min": 430, "p25": 435, "median": 440, "p75": 445, "max": 500, "mean": 441, "spread": 0.02, "n": 3000, "outliers": 0}, "residual_ns": 0$stampsec},
 "decompose": {"eel_ns": 440, "residual_ns": 0, "checks": [], "parts": [
   {"name": "post", "what": "host software", "ns": $dpost, "method": "stamped", "how": "stamped by the host"},
   {"name": "detect", "what": "host notices", "ns": $ddet, "method": "modelled", "how": "half a polling pass"}]}$sigsec$bulksec,
 "curves": {"flood": [{"size": 8, "q": 64, "msgs": 10000, "ns_per_msg": {"min": $g, "p25": $g25, "median": $g25, "p75": $g75, "max": $g75, "mean": $g25, "spread": 0.01, "n": 10, "outliers": 0}, "bytes_per_ns": 0.04}]},
 "warnings": [$warnings], "warning_figures": [$wfig], "wall_s": 3.5}
EOF
}

# expect CODE 'line pattern (grep -E)' [more patterns...] -- ARGS: run eel-compare, check its exit and output
expect() {
  local code=$1; shift
  local pats=()
  while [ "$1" != -- ]; do pats+=("$1"); shift; done
  shift
  "$C" "$@" >"$d/out" 2>"$d/err"
  local rc=$? ok=1 p
  [ $rc -eq "$code" ] || ok=0
  for p in "${pats[@]}"; do grep -qE -- "$p" "$d/out" "$d/err" || { ok=0; echo "  missing: $p"; }; done
  if grep -qE 'AddressSanitizer|runtime error|LeakSanitizer' "$d/err"; then ok=0; fi
  if [ $ok = 1 ]; then
    echo "ok: eel-compare ${*##*/} -> exit $rc"
  else
    echo "FAILED: eel-compare $*: exit $rc (want $code)"; sed 's/^/    | /' "$d/out" "$d/err" | head -60
    fail=1
  fi
}

doc "$d/a.json"
doc "$d/a2.json"                                  # the same figures again
doc "$d/slow.json" eel=480 eiqr=2                 # EEL +20 %, tight spread
doc "$d/noisy.json" eel=400 eiqr=40               # A's noise band 40 ns
doc "$d/noisy3.json" eel=412 eiqr=40              # +3 %, inside the noise
doc "$d/tight3.json" eel=412 eiqr=0.4             # +3 %, tight spread: below the threshold only
doc "$d/fast.json" eel=320                        # EEL -20 %
doc "$d/bwdown.json" bw=6.4                       # bandwidth -20 %
doc "$d/bwup.json" bw=9.6                         # bandwidth +20 %
doc "$d/os10.json" os=330                         # o_s +10 % (a single value: threshold only)
doc "$d/os4.json" os=312                          # o_s +4 %
doc "$d/M.json" M=2400                            # M +50 %: no direction
doc "$d/wire.json" wire=400                       # one stage +25 %
doc "$d/wiremean.json" wmean=400                  # the stage's mean +25 %, its quantiles unchanged
doc "$d/wirestamp.json" wire=400 stampused=111    # the same, in a run whose stamps were costed 100 ns off their cost alone
doc "$d/g.json" g=230 giqr=2                      # g +15 % beyond its flood point's noise
doc "$d/gnoisy.json" g=212 giqr=30                # g +6 %, inside the flood point's noise
doc "$d/bulk.json" t8k=1800                       # bulk T(8192) +20 %
doc "$d/v1.json" v=1                              # version 1: no signature, bulk, L
doc "$d/os3a.json" v=3 osiqr=40                   # schema 3: o_s known to 40 ns over its sweeps
doc "$d/os3b.json" v=3 os=330 osiqr=40            # o_s +10 %, inside that noise
doc "$d/os3c.json" v=3 osiqr=2                    # sweeps that agree
doc "$d/os3d.json" v=3 os=330 osiqr=2             # o_s +10 % beyond them
doc "$d/dpost.json" dpost=22                      # decompose's stamped post +83 %, inside its stage's 10 ns p25..p75
doc "$d/dpost2.json" dpost=52                     # ... +333 %, beyond it
doc "$d/ddet.json" ddet=30                        # decompose's modelled detect +50 %: no noise, the threshold
doc "$d/tail.json" p99=500                        # EEL's tail: p99 500 ns, p99.9 20 us
doc "$d/tail40.json" p99=700                      # p99 +40 %, beyond the tails' 25 %
doc "$d/tail10.json" p99=550                      # p99 +10 %: beyond 5 %, under the tails' 25 %
doc "$d/tail999.json" p99=500 p999=26000          # p99.9 +30 %, inside its own order-statistic interval (its rounds jump 500 -> 20000 there)
doc "$d/tailmax.json" p99=500 tmax=900000         # the max x10: one round, changed at most
doc "$d/slownoisy.json" eel=480 eiqr=2 noise=eel,g  # EEL +20 %, in a run that warned of noise on EEL and g
doc "$d/slownote.json" eel=480 eiqr=2 note=eel    # the same, warned of something else (stamps)
doc "$d/slowg.json" eel=480 eiqr=2 noise=g         # EEL +20 %, in a run that warned of noise on g only
doc "$d/noG0.json" G=0 bw=0 M=0                   # G not measured, as an eel-bench before schema 11 wrote it
doc "$d/noGnull.json" G=null bw=null M=null       # ... and as schema 11 writes it

# identical runs: every figure the same, exit 0
expect 0 '^  EEL +400\.0 ns +400\.0 ns +\+0\.0 % .* same$' '^  o_s .* same$' '^  bandwidth \(1/G\) .* same$' \
  '^  signature o_s .* same$' '^  fit Hockney alpha .* same$' '^  stage wire .* same$' 'no regression beyond 5 %' \
  -- "$d/a.json" "$d/a2.json"
rows=$(grep -cE ' same$' "$d/out")
if grep -qE ' (better|worse|changed)$' "$d/out" || [ "$rows" -lt 24 ]; then
  echo "FAILED: identical runs: $rows figures same, or another verdict:"; cat "$d/out"; fail=1
fi
expect 0 'no regression' -- "$d/a.json" "$d/a.json"

# a figure a run warned of noise on is not compared (warning_figures[], schema 8),
# either way round; the others are; a warning of another kind does not stop it
expect 0 '^  EEL +400\.0 ns +480\.0 ns +not compared \(noise\)$' '^  g .* not compared \(noise\)$' '^  o_s .* same$' \
  "^  EEL, g, M = g/G: not compared: run B warned 'the machine changed during the run: EEL 380\.0 ns .*' \(noise\)$" \
  'no regression beyond 5 % and the noise in the figures compared' -- "$d/a.json" "$d/slownoisy.json"
if grep -qE '^  EEL .* (worse|better|same)' "$d/out"; then echo "FAILED: a figure warned of noise got a verdict"; fail=1; fi
expect 0 '^  EEL .* not compared \(noise\)$' "^  EEL, g, M = g/G: not compared: run A warned" -- "$d/slownoisy.json" "$d/a.json"
expect 1 '^  EEL .* \+20\.0 % .* worse$' -- "$d/a.json" "$d/slownote.json"
# a regression beside a figure not compared for noise: listed, exit 1 (it crashed:
# the list read the verdict of the figure not compared, which has none)
expect 1 '^  g .* not compared \(noise\)$' '^eel-compare: 1 regression beyond 5 % and the noise: EEL \+20\.0 %$' \
  -- "$d/a.json" "$d/slowg.json"
# a clearly slower EEL with a tight spread: worse, exit 1, listed
expect 1 '^  EEL +400\.0 ns +480\.0 ns +\+20\.0 % .* worse$' '1 regression beyond 5 % and the noise: EEL \+20\.0 %' \
  -- "$d/a.json" "$d/slow.json"
# a small change inside the runs' noise: same
expect 0 '^  EEL .* \+3\.0 % .* same \(within noise\)$' -- "$d/noisy.json" "$d/noisy3.json"
# the same change with no noise: below the 5 % threshold, but worse beyond 2 %
expect 0 '^  EEL .* \+3\.0 % .* same \(below threshold\)$' -- "$d/a.json" "$d/tight3.json"
expect 1 '^  EEL .* \+3\.0 % .* worse$' 'regression beyond 2 %' -- "$d/a.json" "$d/tight3.json" --threshold 2
# better: exit 0
expect 0 '^  EEL .* -20\.0 % .* better$' 'no regression' -- "$d/a.json" "$d/fast.json"
# direction: higher bandwidth is better, lower is worse
expect 1 '^  bandwidth \(1/G\) .* -20\.0 % .* worse$' -- "$d/a.json" "$d/bwdown.json"
expect 0 '^  bandwidth \(1/G\) .* \+20\.0 % .* better$' -- "$d/a.json" "$d/bwup.json"
# decompose's parts: a stamped one brings its stage's noise (the mean of those
# rounds), a modelled one has none: the threshold alone
expect 0 '^  decompose post .* \+83\.3 % .* same \(within noise\)$' -- "$d/a.json" "$d/dpost.json"
expect 1 '^  decompose post .* \+333\.3 % .* worse$' -- "$d/a.json" "$d/dpost2.json"
expect 1 '^  decompose detect .* \+50\.0 % +- +worse$' -- "$d/a.json" "$d/ddet.json"
# single values: the threshold alone
expect 1 '^  o_s .* \+10\.0 % +- +worse$' -- "$d/a.json" "$d/os10.json"
expect 0 '^  o_s .* \+4\.0 % +- +same \(below threshold\)$' -- "$d/a.json" "$d/os4.json"
# schema 3: o_s brings the spread of its sweeps
expect 0 '^  o_s .* \+10\.0 % .* same \(within noise\)$' -- "$d/os3a.json" "$d/os3b.json"
expect 1 '^  o_s .* \+10\.0 % .* worse$' -- "$d/os3c.json" "$d/os3d.json"
# no direction: changed, never a regression
expect 0 '^  M = g/G .* \+50\.0 % .* changed$' -- "$d/a.json" "$d/M.json"
# a stage of the breakdown, g with its flood point's noise, a bulk size
expect 1 '^  stage wire .* \+25\.0 % .* worse$' -- "$d/a.json" "$d/wire.json"
# a stage is compared at its mean, the figure the breakdown shows (the
# median, which a counter stepping 10 ns leaves far from the mean, hid it)
expect 1 '^  stage wire +320\.0 ns +400\.0 ns +\+25\.0 % .* worse$' -- "$d/a.json" "$d/wiremean.json"
# a stage moved no more than the two runs' stamp accounting differs: not a regression
expect 0 '^  stage wire .* \+25\.0 % .* same \(within noise\)$' -- "$d/a.json" "$d/wirestamp.json"
expect 1 '^  g .* \+15\.0 % .* worse$' -- "$d/a.json" "$d/g.json"
expect 0 '^  g .* \+6\.0 % .* same \(within noise\)$' -- "$d/a.json" "$d/gnoisy.json"
expect 1 '^  bulk T\(n\), n = 8192 B .* \+20\.0 % .* worse$' -- "$d/a.json" "$d/bulk.json"
# version 1 against version 2: the figures both have; the rest counted, not compared
expect 0 '^  EEL .* same$' 'only in B' -- "$d/v1.json" "$d/a.json"
if grep -q 'signature' "$d/out"; then echo "FAILED: v1 vs v2 compared a section v1 lacks"; fail=1; fi
# a CI line: the exit status gates
if "$C" "$d/a.json" "$d/slow.json" >/dev/null; then echo "FAILED: a regression passed the CI gate"; fail=1; fi

# EEL's tail: one histogram a run, no spread over runs: said; p99 and p99.9 judged at 25 % at
# least, with the order statistics' interval of each as its noise; the max "changed" at most
expect 1 '^  EEL tail p99 +500\.0 ns +700\.0 ns +\+40\.0 % .* worse$' 'EEL tail: one histogram per run, no spread over runs: p99 and p99\.9 at 25 %' \
  '1 regression beyond 5 % and the noise: EEL tail p99 \+40\.0 %' -- "$d/tail.json" "$d/tail40.json"
expect 0 '^  EEL tail p99 .* \+10\.0 % .* same \(below threshold\)$' '^  EEL tail p99\.9 .* same$' '^  EEL tail max .* same$' \
  -- "$d/tail.json" "$d/tail10.json"
expect 0 '^  EEL tail p99 .* \+40\.0 % .* same \(below threshold\)$' 'p99 and p99\.9 at 50 %' -- "$d/tail.json" "$d/tail40.json" --threshold 50
expect 0 '^  EEL tail p99\.9 .* \+30\.0 % .* same \(within noise\)$' -- "$d/tail.json" "$d/tail999.json"
expect 0 '^  EEL tail max .* \+900\.0 % .* changed$' -- "$d/tail.json" "$d/tailmax.json"
# a G the flood could not measure (0 before schema 11, null from it): G, 1/G and M not
# compared, either way round, never a regression of -100 %
for nog in noG0 noGnull; do
  expect 0 'no regression' '3 figures only in A, 0 only in B' -- "$d/a.json" "$d/$nog.json"
  expect 0 'no regression' '0 figures only in A, 3 only in B' -- "$d/$nog.json" "$d/a.json"
  if grep -qE '^  (G|bandwidth \(1/G\)|M = g/G) ' "$d/out"; then echo "FAILED: $nog: a G not measured compared"; fail=1; fi
done

# the size sweep (perftest's columns), size by size: a sweep-only run against itself
# (it stopped: "no parameter in common"), and one whose 8-byte t_typical is +25 %
jq '{schema, schema_version, eel_version, created, machine, nic, sweep: {method: "m", sizes: [
      {bytes: 8, iterations: 1000, t_min_ns: 300, t_typical_ns: 320, t_avg_ns: 330, t_99_ns: 400, t_99_9_ns: 500,
       t_max_ns: 600, bw_messages: 5000, bw_depth: 64, bw_ns_per_msg: 100, bw_avg_gbit_per_s: 0.64, msg_rate_mpps: 10},
      {bytes: 4096, iterations: 1000, t_min_ns: 900, t_typical_ns: 1000, t_avg_ns: 1100, t_99_ns: 1400, t_99_9_ns: 1500,
       t_max_ns: 1600, bw_messages: 5000, bw_depth: 64, bw_ns_per_msg: 700, bw_avg_gbit_per_s: 46.8, msg_rate_mpps: 1.43}]}}' \
  "$d/a.json" >"$d/sw.json"
jq '.sweep.sizes[0].t_typical_ns = 400' "$d/sw.json" >"$d/swslow.json"
expect 0 '^  sweep t_typical, n = 8 B .* same$' '^  sweep BW, n = 4096 B .* same$' 'no regression' -- "$d/sw.json" "$d/sw.json"
expect 1 '^  sweep t_typical, n = 8 B .* \+25\.0 % .* worse$' '^  sweep BW, n = 8 B .* same$' -- "$d/sw.json" "$d/swslow.json"
# a size one run has only: both its figures counted on that side, either way round
jq '.sweep.sizes += [.sweep.sizes[1] | .bytes = 65536]' "$d/sw.json" >"$d/swmore.json"
expect 0 '0 figures only in A, 2 only in B' -- "$d/sw.json" "$d/swmore.json"
expect 0 '2 figures only in A, 0 only in B' -- "$d/swmore.json" "$d/sw.json"
# a run that warned of its placement (thread mode on too few cores: every figure, sweep
# among them, schema 12): its sweep is not compared (it was judged: worse, exit 1)
jq '.warnings = ["thread mode on 2 cores"] | .warning_figures = [{text: "thread mode on 2 cores", kind: "placement",
    figures: ["eel", "o_s", "o_r", "g", "G", "L", "breakdown", "signature", "bulk", "decompose", "limit", "sweep"]}]' \
  "$d/swslow.json" >"$d/swplaced.json"
expect 0 '^  sweep t_typical, n = 8 B .* not compared \(noise\)$' -- "$d/sw.json" "$d/swplaced.json"
# a damaged figure inside a section: named by its row, exit 2 (it crashed: the key was
# looked up again from the document's root)
jq '.sweep.sizes[0].t_typical_ns = "x"' "$d/sw.json" >"$d/swbad.json"

# a run without the tail against one with it: not compared, counted
expect 0 'only in B' -- "$d/a.json" "$d/tail.json"
if grep -q 'EEL tail' "$d/out"; then echo "FAILED: a tail compared with a run that has none"; fail=1; fi

# bad input: exit 2 and one line naming the problem and the fix (bad, lib/compare_env.sh)
head -c 700 "$d/a.json" >"$d/cut.json"
printf 'eel-bench 0.1.0 on softnic\n  EEL 404.8 ns\n' >"$d/text.json"
printf '{"schema": "other.thing", "schema_version": 1}' >"$d/other.json"
printf '[1, 2, 3]' >"$d/array.json"
sed 's/"schema_version": 2/"schema_version": 13/' "$d/a.json" >"$d/v13.json"
sed 's/"schema_version": 2/"schema_version": "two"/' "$d/a.json" >"$d/vstr.json"
printf '{"schema": "eel.run", "schema_version": 2, "nic": {"uri": "x"}}' >"$d/empty.json"
: >"$d/zero.json"
bad "cannot open: No such file or directory: check the path" "$d/a.json" "$d/nothere.json"
# a figure there with the wrong type is a damaged document, not one unmeasured (it compared as
# "1 figure only in B", exit 0: a CI gate passed on a garbled EEL)
jq '.parameters.eel.ns.min = "abc"' "$d/a.json" >"$d/garbled.json"
bad "garbled.json: EEL (its parameters.eel.ns.min) is a string, not a number: the document is damaged" "$d/a.json" "$d/garbled.json"
jq '.parameters.g.ns = true' "$d/a.json" >"$d/garbled2.json"
bad "garbled2.json: g (its parameters.g.ns) is a boolean, not a number" "$d/garbled2.json" "$d/a.json"
bad "swbad.json: sweep t_typical, n = 8 B (its t_typical_ns) is a string, not a number: the document is damaged" "$d/sw.json" "$d/swbad.json"
bad "-t needs a value: see eel-compare --help" "$d/a.json" "$d/a2.json" -t
bad "unknown option '-x': see eel-compare --help" -x "$d/a.json" "$d/a2.json"
bad "truncated at byte 700" "$d/a.json" "$d/cut.json"
bad "run eel-bench --json again" "$d/cut.json" "$d/a.json"
bad "not JSON: it begins with 'e' at byte 0 (line 1, column 1)" "$d/a.json" "$d/text.json"
bad "not an eel.run document (its \"schema\" is \"other.thing\")" "$d/a.json" "$d/other.json"
bad "not an eel.run document (the JSON is an array, not an object)" "$d/array.json" "$d/a.json"
bad "schema_version 13 is newer than this eel-compare reads (1..12)" "$d/a.json" "$d/v13.json"
bad "\"schema_version\" is missing or not a whole number" "$d/a.json" "$d/vstr.json"
bad "zero.json: is empty: give a file with something in it" "$d/zero.json" "$d/a.json"
bad "is a folder" "$d" "$d/a.json"
bad "have no parameter in common" "$d/a.json" "$d/empty.json"
bad "give two runs" "$d/a.json"
bad "--threshold 'abc' is not a percentage" "$d/a.json" "$d/a.json" --threshold abc
bad "--threshold '-1' is not a percentage" "$d/a.json" "$d/a.json" --threshold -1
# one run a side: its p25..p75 is 0 wide, no noise (it said "noise 0.0 %" and
# judged a change beside it): the noise unknown, the threshold alone, said
for r in one1 one2; do
  "$B/eel-bench" -t pingpong -n 300 -r 1 --warmup 50 -q --json "$d/$r.json" || { echo "FAILED: eel-bench -r 1"; fail=1; }
done
"$B/eel-compare" "$d/one1.json" "$d/one2.json" >"$d/one.out" 2>&1
if grep -E '^  EEL  ' "$d/one.out" | grep -qF ' 0.0 %'; then
  echo "FAILED: one run a side, and the EEL line gives a noise:"; grep -E '^  EEL  ' "$d/one.out"; fail=1
elif ! grep -E '^  EEL  ' "$d/one.out" | grep -qE ' - +same| - +(worse|better) \(one run: its noise unknown, the threshold alone\)'; then
  echo "FAILED: one run a side: the EEL line:"; grep -E '^  EEL  ' "$d/one.out"; fail=1
else
  echo "ok: one run a side: $(grep -E '^  EEL  ' "$d/one.out")"
fi
exit $fail
