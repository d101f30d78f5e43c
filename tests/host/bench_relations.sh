#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# eel-bench's whole suite on the software NIC, every put verified, and
# the relations that must hold between what it measured (JSON, schema eel.run).
set -euo pipefail
B=${EEL_BUILD:-build}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# One run and the relations; a relation that fails ends the attempt (return 1).
# Where the machine's speed changes mid-run (this VM's two vCPUs now on one
# physical core's two threads, now on two cores: EEL 150 or 410 ns), two tests
# of one run measure different machines, and eel-bench says so in a warning;
# only then is a failed attempt run again, at most five times in all.
attempt() {
"$B/eel-bench" -n 2000 -r 4 --warmup 200 --sizes 8..65536 --depths 1,8,32 --flood-runs 3 \
  --overlap-msgs 1000 --overlap-runs 3 --sig-samples 100 --bulk-sizes 8..8192 --bulk-reps 30 \
  --verify --json "$out/r.json" >"$out/table.txt" || { echo "FAILED: eel-bench exited $?"; exit 1; }
cat "$out/table.txt"

check() {  # check 'jq expression' 'what it means'
  if ! jq -e "$1" "$out/r.json" >/dev/null; then
    echo "FAILED: $2  ($1)"; return 1
  fi
  echo "ok: $2"
}
check '.schema == "eel.run" and .schema_version == 12' 'a versioned eel.run document' || return 1
check '.nic.backend == "softnic" and .machine.clock.hz > 0 and .machine.clock.timer_ns > 0' 'machine and NIC facts' || return 1
check '.parameters.eel.ns.min > 0 and .parameters.eel.ns.min <= .parameters.eel.ns.median' 'EEL measured, min <= median' || return 1
check '.parameters.eel.cycles.min > 0' 'EEL in cycles' || return 1
# ("o_s <= g and o_r <= g at q=1" held by construction, o = g - D_max with
# D_max >= 0, and "signature g >= o_s" compared two regimes of one curve: both
# gone, for comparisons of two tests that measure one quantity, below.)
# On the inline software NIC the sending and receiving CPUs are the NIC:
# Bell et al. 2003's CPU-overlap o_s and o_r hold its work (o_s came out above EEL, o_r =
# g(q=1)), so they, L = RTT/2 - o_s - o_r (below 0 in 4 runs of 5) and EEL -
# (o_s + o_r) are not separable there (docs/methods.md, the breakdown): null in the JSON with why,
# and the table says so instead of a figure.
check '[.parameters.o_s, .parameters.o_r, .parameters.L, .parameters.overlap_potential] | all(.separable == false and .ns == null and (.why | test("host.s CPU")))' 'o_s, o_r, L, EEL - (o_s + o_r): not separable on the inline NIC, with why (docs/methods.md, the breakdown)' || return 1
check '.bulk.fits.loggp.separable == false and .bulk.fits.loggp.L_ns == null and .signature.L_ns == null' 'LogGP and the signature L: not separable on the inline NIC' || return 1
# no negative duration anywhere: L, its bound, the potential's (under schema 6's name too, which a
# regression to it would bring back)
check '[.parameters.L.ns, .parameters.L.bound_ns, .signature.L_ns, .bulk.fits.loggp.L_ns, .parameters.overlap_potential.ns, .parameters.overlap_potential.bound_ns, .parameters.overlap_potential_ns] | all(. == null or . >= 0)' 'no negative L or EEL - (o_s + o_r) in the JSON' || return 1
echo "note: CPU-overlap g(q=1) - D_max $(jq .parameters.o_s.g_less_dmax_ns "$out/r.json") ns (not o_s on this NIC), EEL $(jq .parameters.eel.ns.median "$out/r.json") ns"
# Under ASan the CPU's work triples and the wire's does not: the costs that
# are the CPU's alone (Culler et al. 1996's send-only o_s) grow past those it shares
# (o_r came out negative, o_s 650 above a steady-state g of 410 ns), so the
# timing relations below are asserted for the optimised build only; under
# ASan this test checks that everything was measured and verified.
case $B in
  *asan*) echo "note: not asserted under ASan: signature o_s $(jq .signature.o_s_ns "$out/r.json") <= EEL" \
            "$(jq .parameters.eel.ns.median "$out/r.json") ns, and the tests that measure one quantity twice" ;;
  *) # the residual: the parts' sum, each measured on its own rounds less its
     # stamps' cost measured in place, against the EEL of the unstamped runs
     # (two independent measurements; a cost solved from EEL made it 0),
     # within its own 95% uncertainty (the parts' and the unstamped EEL's).
     # Where it closes within 5% of EEL the parts are shares of EEL; where
     # not, the parts time the stamped puts' path, and the run must say so in
     # the table, the JSON and a warning, its percentages of the parts' sum,
     # not of EEL (both tables: test_breakdown_chosen). Whether it closes is
     # the machine's: on one 2-vCPU VM it closed in 12 runs of 12 (a traced
     # put's extra work hidden in a 290-ns cache-line flight), on another
     # (a 140-ns flight) in none, stamping adding 125-170 ns a round
     # (docs/methods.md). What holds on every machine, and fails when a stage
     # is counted twice or left out: the parts add up to the path they time,
     # the stamped rounds' RTT/2 (measured whole, on rounds of their own:
     # EEL + the perturbation), so the residual is what stamping added, the
     # perturbation (measured, taken off nothing), within the parts'
     # uncertainty and 20% of that RTT/2 (a stage counted twice: the wire's
     # 180 ns more, over it).
     # (the stamped rounds' RTT/2 is .breakdown.round_ns.mean, a figure on every run; the
     # perturbation, that less EEL, is null where the stamped rounds came out faster)
     check '.breakdown.round_ns.mean > 0 and .breakdown.residual_unc_ns <= 0.2 * .breakdown.round_ns.mean and .breakdown.eel_unc_ns >= 0' 'the residual known to 20% of the stamped path (its uncertainty: the parts'"'"' and the unstamped EEL'"'"'s)' || return 1
     check '(.breakdown.parts_sum_ns - .breakdown.round_ns.mean | fabs) - .breakdown.residual_unc_ns <= 0.2 * .breakdown.round_ns.mean' 'the parts add up to the stamped rounds'"'"' RTT/2, the path they time (the residual is what stamping added), beyond the uncertainty, within 20%' || return 1
     # where stamping adds next to nothing (under 5% of EEL: the old VM's 0-20 ns
     # a round), the parts are EEL's and must close: a traced put gone the
     # general way again (+22 to +33 ns there) fails here
     if jq -e '(.breakdown.perturbation_ns // 0) < 0.05 * .breakdown.eel_ns' "$out/r.json" >/dev/null; then
       check '.breakdown.closes' 'stamping adds under 5% of EEL a round: the breakdown closes' || return 1
     fi
     check '.breakdown.closes == ((.breakdown.residual_ns | fabs) - .breakdown.residual_unc_ns <= 0.05 * .breakdown.eel_ns)' 'closes: the residual within 5% of EEL beyond its uncertainty' || return 1
     if jq -e '.breakdown.closes' "$out/r.json" >/dev/null; then
       echo "ok: the breakdown adds up to the unstamped EEL within 5% (residual $(jq '.breakdown.residual_ns' "$out/r.json") ns, EEL $(jq '.breakdown.eel_ns' "$out/r.json"))"
     else
       grep -q "they do not add up to EEL, below" "$out/table.txt" && grep -q "the parts do not add up to EEL within 5 %" "$out/table.txt" ||
         { echo "FAILED: the breakdown does not close, and the table does not say so"; return 1; }
       check '[.warnings[] | select(test("not shares of EEL"))] | length == 1' 'the breakdown does not close: a warning says its parts are the stamped path'"'"'s' || return 1
       echo "note: the breakdown does not close on this machine (said so): residual $(jq '.breakdown.residual_ns' "$out/r.json") +- $(jq '.breakdown.residual_unc_ns' "$out/r.json") ns of EEL $(jq '.breakdown.eel_ns' "$out/r.json"), stamping added $(jq '.breakdown.perturbation_ns' "$out/r.json") ns a round"
     fi
     # the one-way trip measured whole on rounds of its own, against its parts
     check '.breakdown.oneway_gap_ns != null and (.breakdown.oneway_gap_ns | fabs) - .breakdown.residual_unc_ns - .breakdown.total_unc_ns <= 0.05 * .breakdown.eel_ns' 'the one-way trip measured whole agrees with its parts within 5% of EEL (beyond their uncertainties)' || return 1
     check '.signature.o_s_ns <= .parameters.eel.ns.median' 'signature o_s <= EEL (Culler et al. 1996: EEL = o_s + L + o_r)' || return 1
     # two tests, one quantity (their figures came out 3-10% apart on this VM)
     # (the flood at q=1 is not one of them under --verify: it checks every
     # message's bytes, 1260 ns a message against the overlap tests' 770-830)
     check '(.parameters.o_s.g_ns / .parameters.o_r.g_ns) as $x | $x > 0.8 and $x < 1.25' 'the overlap tests at D = 0, the sender timing its puts and the receiver their arrivals: one gap g(q=1), within 25%' || return 1
     check '(.signature.rtt_ns / 2) as $s | $s > .parameters.eel.ns.median / 1.5 and $s < 1.5 * .parameters.eel.ns.median' 'the signature round trip and the ping-pong: one RTT/2, within 1.5x' || return 1
     check '.bulk.points[0].echo_ns.min as $e | $e > .parameters.eel.ns.median / 1.5 and $e < 1.5 * .parameters.eel.ns.median' 'the bulk echo at 8 B and the ping-pong: one RTT/2, within 1.5x' || return 1
     check '.machine_drift.start_ns.median as $d | $d > .parameters.eel.ns.median / 1.5 and $d < 1.5 * .parameters.eel.ns.median' 'the run-start ping-pong (each run its median) and the headline EEL (each run its mean), within 1.5x' || return 1 ;;
esac
check '.parameters.g.ns > 0 and .parameters.G.ns_per_byte > 0 and .parameters.M_bytes > 0' 'g > 0, G > 0, M > 0' || return 1
check '[.curves.flood[] | select(.size == 8 and .q == 1) | .ns_per_msg.min][0] >= .parameters.g.ns' 'g is the best 8-byte gap over queue depths' || return 1
check '.breakdown.samples > 0 and (.breakdown.parts | length) == 8' 'a stamped breakdown of 8 stages' || return 1
# The breakdown (docs/methods.md, the breakdown): no duration below 0 anywhere (a part within its
# uncertainty of 0 is a bound); each stamp's cost measured in place (the
# spans around it with it and without it); what stamping added to a round,
# a figure. (The residual and the one-way check, asserted for the optimised
# build above; under ASan the firmware's work triples and moves with the VM.)
check '[.breakdown.parts[] | .ns.mean >= 0 and .ns.min >= 0 and (.resolved or .bound_ns >= 0)] | all' 'no negative stage: a bound where unresolved' || return 1
check '(.breakdown.stamp_cost_measured | length) >= 5 and .breakdown.stamping == "chosen"' 'stamps that chose their place, their cost measured in place' || return 1
check '(.breakdown.perturbation_ns == null or .breakdown.perturbation_ns >= 0) and .breakdown.residual_unc_ns > 0' 'the perturbation a figure of 0 or more, or null (not separable), and the residual uncertainty a figure' || return 1
check '.limit.one_way_ns.min > 0 and .limit.eel_over_limit > 0' 'the cache-line limit and EEL / limit' || return 1
check '.counters.local.tx_messages > 0 and .counters.peer.rx_messages > 0' 'NIC counters from both ends' || return 1
check '.parameters.eel_stamped.ns.n > 0' 'EEL with stamps on, in the same run' || return 1
check '.schema_version == 12 and .signature.o_s_ns > 0 and .signature.g_ns > 0' 'Culler et al. 1996 signature: o_s > 0, g > 0' || return 1
check '.signature.rtt_ns > 0 and (.signature.curves | length) == 4' 'the signature: RTT and four curves' || return 1
check '(.bulk.points | length) == 6 and (.bulk.points | all(.t_ns.min > 0 and .echo_ns.min > 0))' 'bulk T(n) and echo per size' || return 1
# (an error >= 0 held by construction: each fit now says whether it is a model of the curve)
# the sizes stop at 8192 B: Dongarra & Dunigan 1997's bandwidth at 10^6 B is not measured (null, it was 0)
check '.bulk.fits.echo_test.bw_1e6_bytes_per_ns == null' 'no bandwidth at 10^6 B below 10^6 B: null' || return 1
check '.bulk.fits.hockney.beta_ns_per_byte > 0 and (.bulk.fits.validation | length) == 20 and ([.bulk.fits.t0r, .bulk.fits.hockney, .bulk.fits.hockney003, .bulk.fits.model003] | all(.err != null and (.valid | type) == "boolean"))' 'fits, judged on 20 random sizes (T0 + n/R on T(n) too), each valid or not' || return 1
# decompose's residual is the breakdown's (the parts' sum less EEL, one sign for both); where a
# remainder part (EEL less the rest) closes the sum there is none to give: null, and why
check '.decompose.eel_ns > 0 and (if .decompose.residual_ns == null then (.decompose.residual_why | length) > 0 and any(.decompose.parts[]; .method == "remainder") else (.decompose.residual_ns - .breakdown.residual_ns | fabs) < 1e-6 and all(.decompose.parts[]; .method != "remainder") end)' 'the decomposition: its residual is the breakdown'"'"'s (same sign), or null where a remainder closes the sum' || return 1
grep -q "where one 8-byte put goes" "$out/table.txt" || { echo "FAILED: no breakdown in the table"; exit 1; }
# the table says what is not separable on this NIC, and prints no negative L or potential
for row in o_s o_r 'EEL - (o_s + o_r)' L; do
  grep -qE "^  $(printf '%s' "$row" | sed 's/[()+]/\\&/g') +not separable on this NIC: .*host's CPU" "$out/table.txt" ||
    { echo "FAILED: the table's $row row does not say it is not separable on this NIC"; exit 1; }
done
grep -qE "^  LogGP +o_s \+ L \+ o_r \+ G n: not separable on this NIC" "$out/table.txt" ||
  { echo "FAILED: the table's LogGP row does not say it is not separable on this NIC"; exit 1; }
if grep -E "^  (L|EEL - \(o_s \+ o_r\)) +-[0-9]" "$out/table.txt"; then
  echo "FAILED: a negative L or EEL - (o_s + o_r) in the table"; exit 1
fi
echo "ok: the table says o_s, o_r, L, EEL - (o_s + o_r) and LogGP are not separable on this NIC, and prints none below 0"
}

for try in 1 2 3 4 5; do
  attempt && exit 0
  if ! jq -e '[.warnings[] | select(test("noisy|something else ran|different machines|machine changed"))] | length > 0' "$out/r.json" >/dev/null; then
    echo "FAILED: a relation does not hold, and eel-bench found the machine quiet"
    exit 1
  fi
  echo "attempt $try: a relation failed while eel-bench warned that the machine was noisy (above)"
done
echo "FAILED: five attempts, each on a noisy machine"
exit 1
