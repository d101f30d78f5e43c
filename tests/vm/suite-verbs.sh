#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/vm/suite-verbs.sh — the verbs backend on real Soft-RoCE between two VMs (guest
# half: tests/vm/guest-verbs.sh): bad input, refused puts, peers that do not match or
# die, then eel-bench's ping-pong, flood and overlap with --verify, and perftest's
# ib_write_lat and ib_write_bw on the same link in the same run.
#
# Checked here, on the host: the JSON is complete and consistent (EEL > 0, g > 0, G > 0,
# o_s <= the g it was measured against and <= EEL, every flood point present), and the table
# "eel vs perftest" (build/vm/results/verbs/eel-vs-perftest.txt) with the two ratios of
# the issue: eel median EEL / ib_write_lat t_typical (target <= 1.00), eel 8-byte flood
# message rate / ib_write_bw's at the same queue depth (target >= 1.00). Those are
# figures, not assertions: absolute times under emulation mean nothing, and even ratios
# move with the load of the machine.
set -euo pipefail
cd "$(dirname "$0")/../.."
B=${BUILD:-build}
res=build/vm/results/verbs
make -s BUILD="$B" "$B/eel-bench" "$B/tests/verbs_errors"

t0=$(date +%s)
tests/vm/run-vm --name verbs --vms 2 --timeout 420 -- tests/vm/guest-verbs.sh "$B"
wall=$(( $(date +%s) - t0 ))

die() { echo "suite-verbs: FAIL: $*" >&2; exit 1; }
o=$res/vm0/out
j=$o/eel.json
for f in "$j" "$o/ib_write_lat-1.txt" "$o/ib_write_lat-2.txt" "$o/ib_write_bw-1.txt" "$o/ib_write_bw-2.txt" \
         "$o/bad-input.txt" "$res/vm1/out/verbs_errors.txt"; do
  [ -s "$f" ] || die "missing $f"
done

# ---- the JSON: present and consistent ----
JQ_FILE=$j JQ_WHO=suite-verbs
. tests/vm/lib/jq-check.sh
check '.nic.backend == "verbs" and .nic.name == "rxe0"' "the run was on verbs:rxe0"
check '.options.verify == true' "--verify was on: every delivered byte was checked"
check '.nic.caps.doorbell | test("system call")' "the doorbell is labelled a system call (software RDMA)"
check '.nic.caps.shared_clock == false and .nic.caps.nic_clock == false' "two hosts, rxe: no shared clock, no NIC clock claimed"
check '.nic.caps.max_inline >= 8' "8-byte puts go inline"
check '.parameters.eel.ns.median > 0 and .parameters.eel.ns.min > 0' "EEL > 0"
check '(.options.runs * .options.iters) as $n | .parameters.eel_tail | .count == $n and ([.histogram[][2]] | add) == $n and
       ([.min_ns, .p50_ns, .p90_ns, .p99_ns, .p99_9_ns, .p99_99_ns, .max_ns] | . == sort) and .min_ns > 0' \
  "EEL's tail: every round trip of runs x iters in its histogram, its quantiles in order"
check '.parameters.g.ns > 0' "g > 0"
check '.parameters.G.ns_per_byte > 0' "G > 0"
# (o_s <= g and o_r <= g held by construction, o = g - D_max with D_max >= 0: gone)
# verbs: the NIC is not the host's CPU, so Bell et al. 2003 4.3's o_s and o_r are figures (docs/methods.md, the breakdown)
check '[.parameters.o_s, .parameters.o_r] | all(.separable == true and .ns >= 0)' \
  "o_s and o_r separable on verbs, figures"
check '.parameters.overlap_potential.separable == true and (.parameters.overlap_potential.ns == null or .parameters.overlap_potential.ns >= 0)' \
  "EEL - (o_s + o_r) separable on verbs, never below 0"
# docs/methods.md's relation: a put's send overhead is part of its end-to-end latency
# (here o_s ~0.8 ms, a flood's round trip at q=1, against EEL ~22 ms under TCG)
check '.parameters.o_s.ns <= .parameters.eel.ns.median' "o_s <= EEL"
check '((.options.sizes | length) * (.options.depths | length)) as $n | [.curves.flood[] | select(.ns_per_msg.min > 0)] | length == $n' \
  "every flood point (size x depth) measured"
check '[.breakdown.parts[] | select(.name == "doorbell" and .ns.n > 0 and .ns.min > 0)] | length == 1' \
  "stamped puts: POST, DOORBELL, DOORBELL_DONE around ibv_post_send give the doorbell stage"
check '(.nic.pci.addr | test("^0000:")) and .nic.pci.driver == "e1000"' \
  "the PCI function under rxe's network device (QEMU's e1000), its facts read with libpci"
check '.counters.local.puts > 0 and .counters.local.errors == 0 and .counters.peer.errors == 0' \
  "puts counted, no errors at either end"
# ---- where the figures come from (docs/json.md, provenance), eel-probe's map ----
fw=$(cat "$o/rxe0-fw_ver.txt")
[ -n "$fw" ] || die "ibv_devinfo gave rxe0 no fw_ver ($o/rxe0-fw_ver.txt)"
check ".provenance.nic.fw_version == \"$fw\"" "the firmware is ibv_devinfo's fw_ver ($fw)"
check '.provenance.nic.device == "rxe0" and .provenance.nic.driver == "rdma_rxe" and .provenance.nic.module == "rdma_rxe"' \
  "the driver named: rxe0 is made by the kernel module rdma_rxe"
check '.provenance.nic.stack == "rdma-core" and (.provenance.nic.stack_version | length) > 0 and (.provenance.nic.stack_built | startswith("libibverbs "))' \
  "rdma-core's version, as running and as built"
check '(.provenance.nic.node_guid | test("^[0-9a-f]{4}(:[0-9a-f]{4}){3}$")) and .provenance.nic.bus_info == "netdev eth0"' \
  "the node GUID, and the netdev rxe0 sits on"
node=$(cat "$o/eth0-numa_node.txt")
if [ "$node" -ge 0 ]; then
  check ".machine.placement.nic_numa_node == $node and .machine.placement.by == \"the NIC's NUMA node\"" \
    "pinned on the NIC's NUMA node $node"
else
  check '.machine.placement.nic_numa_node == null and .machine.placement.by != "the NIC'"'"'s NUMA node" and (.machine.placement.why | length) > 0' \
    "the NIC's NUMA node unknown (sysfs -1): not pinned by it, and why"
fi
JQ_FILE=$o/probe.json
check '.soft_rdma | any(.device == "rxe0" and .netdev == "eth0" and .uri == "verbs:rxe0" and .driver == "rdma_rxe")' \
  "eel-probe: rxe0, a soft RDMA device on eth0, and its URI"
check '.functions[] | select(.netdevs | index("eth0")) | .uris | any(.uri == "dpdk:net_af_packet0,iface=eth0")' \
  "eel-probe: eth0 on its PCI function, with its af_packet URI"
JQ_FILE=$j

# ---- eel vs perftest ----
depth=$(awk '{print $3}' "$o/perftest-args.txt")
lat_row() { awk '$1 == 8 && NF >= 6 { print $3, $5, $6; exit }' "$1"; }  # t_min t_typical t_avg (us)
bw_rate() { awk '$1 == 8 && NF >= 5 { print $5 * 1e6; exit }' "$1"; }     # MsgRate, messages/s
read -r p_min1 p_typ1 p_avg1 < <(lat_row "$o/ib_write_lat-1.txt")
read -r p_min2 p_typ2 p_avg2 < <(lat_row "$o/ib_write_lat-2.txt")
p_rate1=$(bw_rate "$o/ib_write_bw-1.txt")
p_rate2=$(bw_rate "$o/ib_write_bw-2.txt")
[ -n "${p_typ1:-}" ] && [ -n "${p_typ2:-}" ] && [ -n "$p_rate1" ] && [ -n "$p_rate2" ] ||
  die "cannot read perftest's 8-byte rows in $o/ib_write_{lat,bw}-{1,2}.txt"
# A run that measured nothing (0 /s, 0 us) failed: the comparison fails with
# it, naming it, rather than averaging a zero into perftest's figure.
for v in "ib_write_lat run 1:$p_min1:$p_typ1" "ib_write_lat run 2:$p_min2:$p_typ2" \
         "ib_write_bw run 1:$p_rate1" "ib_write_bw run 2:$p_rate2"; do
  IFS=: read -r what a b <<<"$v"
  awk -v a="$a" -v b="${b:-1}" 'BEGIN { exit !(a > 0 && b > 0) }' ||
    die "perftest's $what measured nothing ($a${b:+, $b}): the comparison is refused, not averaged"
done
read -r e_min e_med e_mean < <(jq -r '.parameters.eel.ns | "\(.min) \(.median) \(.mean)"' "$j")
awk -v a="$e_min" -v b="$e_med" 'BEGIN { exit !(a > 0 && b > 0) }' || die "eel's EEL is not positive: the comparison is refused"
e_gap=$(jq -r --argjson q "$depth" '.curves.flood[] | select(.size == 8 and .q == $q) | .ns_per_msg.median' "$j")
o_s=$(jq -r '.parameters.o_s.ns' "$j")
[ -n "$e_gap" ] || die "no 8-byte flood point at q=$depth in $j"

table=$res/eel-vs-perftest.txt
awk -v t1="$p_typ1" -v t2="$p_typ2" -v a1="$p_avg1" -v a2="$p_avg2" -v r1="$p_rate1" -v r2="$p_rate2" \
    -v m1="$p_min1" -v m2="$p_min2" -v emin="$e_min" \
    -v emed="$e_med" -v emean="$e_mean" -v egap="$e_gap" -v q="$depth" -v os="$o_s" -v wall="$wall" '
BEGIN {
  ptyp = (t1 + t2) / 2; pavg = (a1 + a2) / 2; prate = (r1 + r2) / 2; erate = 1e9 / egap
  printf "eel vs perftest, Soft-RoCE (rxe) between two QEMU/TCG VMs, one run. Absolute times under\n"
  printf "emulation mean nothing; ratios in one run do, within the noise of a shared machine.\n"
  printf "perftest ran before and after eel (columns 1, 2); its figure is their mean.\n\n"
  printf "%-32s %12s %12s %12s %12s %7s\n", "", "eel", "perftest", "perftest 1", "perftest 2", "ratio"
  printf "%-32s %9.1f us %9.1f us %9.1f us %9.1f us %7.2f  (target <= 1.00)\n", "latency: median EEL / t_typical", emed / 1e3, ptyp, t1, t2, emed / (ptyp * 1e3)
  printf "%-32s %9.1f us %9.1f us %9.1f us %9.1f us %7.2f\n", "latency: mean EEL / t_avg", emean / 1e3, pavg, a1, a2, emean / (pavg * 1e3)
  pmin = m1 < m2 ? m1 : m2
  printf "%-32s %9.1f us %9.1f us %9.1f us %9.1f us %7.2f\n", "latency: min EEL / t_min", emin / 1e3, pmin, m1, m2, emin / (pmin * 1e3)
  printf "%-32s %12.1f %12.1f   (typical / minimum: how much of the typical is emulation stalls)\n", "typical / min", emed / emin, ptyp / pmin
  printf "%-32s %9.0f /s %9.0f /s %9.0f /s %9.0f /s %7.2f  (target >= 1.00)\n", "8-byte message rate at q=" q, erate, prate, r1, r2, erate / prate
  printf "\neel: EEL = median over ping-pong runs of RTT/2 (each run the mean of its round trips);\n"
  printf "     rate = 1 / median ns per message of the 8-byte flood at q=%s (which ends with the\n", q
  printf "     receiver'"'"'s reply).\n"
  printf "     min = the best run'"'"'s mean RTT/2 (perftest'"'"'s t_min is its best single round trip / 2).\n"
  printf "perftest: t_typical = median of per-iteration RTT/2, t_avg their mean (ib_write_lat);\n"
  printf "     MsgRate of ib_write_bw -t %s.\n", q
  printf "o_s = %.1f us, EEL median %.1f us: o_s %s EEL\n", os / 1e3, emed / 1e3, os <= emed ? "<=" : ">"
  printf "VM run wall time: %d s\n", wall
  printf "ratio EEL/t_typical = %.2f (target <= 1.00), rate/ib_write_bw = %.2f (target >= 1.00)\n", emed / (ptyp * 1e3), erate / prate
}' >"$table"
for n in 1 2; do
  for p in ib_write_lat:"a row of inf" ib_write_bw:"MsgRate 0"; do
    tries=$(cat "$o/${p%%:*}-$n-tries.txt" 2>/dev/null) || die "missing $o/${p%%:*}-$n-tries.txt"
    [ "$tries" = 1 ] ||
      echo "${p%%:*} run $n: $tries tries, the first $((tries - 1)) measured nothing (${p#*:}; kept as ${p%%:*}-$n-try*.txt)" >>"$table"
  done
done
sed 's/^/suite-verbs: /' "$table"
