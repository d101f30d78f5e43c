#!/usr/bin/env bash
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
# only then is a failed attempt run again, at most three times in all.
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
check '.schema == "eel.run" and .schema_version == 6' 'a versioned eel.run document' || return 1
check '.nic.backend == "softnic" and .machine.clock.hz > 0 and .machine.clock.timer_ns > 0' 'machine and NIC facts' || return 1
check '.parameters.eel.ns.min > 0 and .parameters.eel.ns.min <= .parameters.eel.ns.median' 'EEL measured, min <= median' || return 1
check '.parameters.eel.cycles.min > 0' 'EEL in cycles' || return 1
check '.parameters.o_s.ns <= .parameters.o_s.g_ns and .parameters.o_r.ns <= .parameters.o_r.g_ns' 'o_s <= g and o_r <= g at q=1 (Bell et al. 2003 4.3)' || return 1
# On the inline software NIC the sending CPU is the NIC: Bell et al. 2003's CPU-overlap
# o_s holds the NIC's work for the message and for its acknowledgement (the
# completion at q=1 waits for it), EEL the wire and the receiver instead, so
# the two come out close and either may be the larger (o_s 200-290, EEL
# 170-230 ns on this VM): not a relation of this NIC. Culler et al. 1996's send-only o_s
# is the sending alone, and LogP's EEL = o_s + L + o_r holds it below EEL.
# Under ASan the CPU's work triples and the wire's does not: the costs that
# are the CPU's alone (Culler et al. 1996's send-only o_s) grow past those it shares
# (o_r came out negative, o_s 650 above a steady-state g of 410 ns), so the
# timing relations below are asserted for the optimised build only; under
# ASan this test checks that everything was measured and verified.
echo "note: CPU-overlap o_s $(jq .parameters.o_s.ns "$out/r.json") ns, EEL $(jq .parameters.eel.ns.median "$out/r.json") ns (the inline NIC: either may be the larger)"
case $B in
  *asan*) echo "note: not asserted under ASan: signature o_s $(jq .signature.o_s_ns "$out/r.json") <= EEL" \
            "$(jq .parameters.eel.ns.median "$out/r.json") ns, signature g $(jq .signature.g_ns "$out/r.json") >= o_s" ;;
  *) # the residual: the parts' sum, each measured on its own rounds less its
     # stamps' cost measured in place, against the EEL of the unstamped runs
     # (two independent measurements; a cost solved from EEL made it 0)
     check '.breakdown.residual_ns != null and (.breakdown.residual_ns | fabs) <= 0.05 * .breakdown.eel_ns' 'the breakdown adds up to the unstamped EEL within 5% (the residual)' || return 1
     # the one-way trip measured whole on rounds of its own, against its parts
     check '.breakdown.oneway_gap_ns != null and (.breakdown.oneway_gap_ns | fabs) <= 0.05 * .breakdown.eel_ns' 'the one-way trip measured whole agrees with its parts within 5% of EEL' || return 1
     check '.signature.o_s_ns <= .parameters.eel.ns.median' 'signature o_s <= EEL (Culler et al. 1996: EEL = o_s + L + o_r)' || return 1
     check '.signature.g_ns >= .signature.o_s_ns' 'Culler et al. 1996 signature: g >= o_s (the steady state holds the sending)' || return 1 ;;
esac
check '.parameters.g.ns > 0 and .parameters.G.ns_per_byte > 0 and .parameters.M_bytes > 0' 'g > 0, G > 0, M > 0' || return 1
check '[.curves.flood[] | select(.size == 8 and .q == 1) | .ns_per_msg.min][0] >= .parameters.g.ns' 'g is the best 8-byte gap over queue depths' || return 1
check '.breakdown.samples > 0 and (.breakdown.parts | length) == 8' 'a stamped breakdown of 8 stages' || return 1
# The breakdown (issue 22): no duration below 0 anywhere (a part within its
# uncertainty of 0 is a bound); each stamp's cost measured in place (the
# spans around it with it and without it); what stamping added to a round,
# a figure. (The residual and the one-way check, asserted for the optimised
# build above; under ASan the firmware's work triples and moves with the VM.)
check '[.breakdown.parts[] | .ns.mean >= 0 and .ns.min >= 0 and (.resolved or .bound_ns >= 0)] | all' 'no negative stage: a bound where unresolved' || return 1
check '(.breakdown.stamp_cost_measured | length) >= 5 and .breakdown.stamping == "chosen"' 'stamps that chose their place, their cost measured in place' || return 1
check '.breakdown.perturbation_ns != null and .breakdown.residual_unc_ns > 0' 'the perturbation and the residual uncertainty as figures' || return 1
check '.limit.one_way_ns.min > 0 and .limit.eel_over_limit > 0' 'the cache-line limit and EEL / limit' || return 1
check '.counters.local.tx_messages > 0 and .counters.peer.rx_messages > 0' 'NIC counters from both ends' || return 1
check '.parameters.eel_stamped.ns.n > 0' 'EEL with stamps on, in the same run' || return 1
check '.schema_version == 6 and .signature.o_s_ns > 0 and .signature.g_ns > 0' 'Culler et al. 1996 signature: o_s > 0, g > 0' || return 1
check '.signature.rtt_ns > 0 and (.signature.curves | length) == 4' 'the signature: RTT and four curves' || return 1
check '(.bulk.points | length) == 6 and (.bulk.points | all(.t_ns.min > 0 and .echo_ns.min > 0))' 'bulk T(n) and echo per size' || return 1
check '.bulk.fits.hockney.beta_ns_per_byte > 0 and .bulk.fits.model003.err >= 0 and (.bulk.fits.validation | length) == 20' 'fits, judged on 20 random sizes' || return 1
check '.decompose.eel_ns > 0 and ((.decompose.parts | map(.ns) | add) + .decompose.residual_ns - .decompose.eel_ns | fabs) < 1e-3' 'the decomposition adds up to EEL' || return 1
grep -q "where one 8-byte put goes" "$out/table.txt" || { echo "FAILED: no breakdown in the table"; exit 1; }
# o_r ~ g(q=1) on this NIC (it takes puts in only inside the receiving host's
# calls) is said under the table, with the figures of the receiving CPU's own
# work beside it: two o_r that differ fivefold are not left unexplained
if jq -e '.parameters.o_r.ns >= 0.95 * .parameters.o_r.g_ns' "$out/r.json" >/dev/null; then
  grep -q "o_r ~ g(q=1): this NIC takes a put in" "$out/table.txt" ||
    { echo "FAILED: o_r ~ g(q=1) with no word on why under the table"; exit 1; }
  echo "ok: o_r ~ g(q=1), and the table says why"
fi
}

for try in 1 2 3; do
  attempt && exit 0
  if ! jq -e '[.warnings[] | select(test("noisy|something else ran"))] | length > 0' "$out/r.json" >/dev/null; then
    echo "FAILED: a relation does not hold, and eel-bench found the machine quiet"
    exit 1
  fi
  echo "attempt $try: a relation failed while eel-bench warned that the machine was noisy (above)"
done
echo "FAILED: three attempts, each on a noisy machine"
exit 1
