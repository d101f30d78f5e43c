#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/host/dpdk_ratio.sh — eel's DPDK EEL against the bare echo of one
# minimum-size frame (eel_floor) on two PMD pairs of this host, no VM:
#   memif      net_memif0 (memif server) and net_memif1 (memif client) on a
#              socket in the test's own folder: shared memory, no kernel
#   af_packet  net_af_packet0/1 on the two ends of a veth pair in a network
#              namespace of the test's own: the kernel's packet path
# Each pair runs `eel-bench -t limit`: runs of the floor, each followed by a
# ping-pong run of EEL, both the median round trip / 2, and EEL / floor run by
# run. Asserts behaviour, not speed: both figures positive, the ratio printed
# and finite, the pair named in the table; the figures are printed.
# EAL: --no-huge --no-pci -m 512 (no hugepages here), a --file-prefix per process
# (bench_pair, tests/host/lib/dpdk_env.sh).
set -uo pipefail
. tests/host/lib/dpdk_env.sh ratio
args=(-t limit -r 5 -n 2000 --warmup 200)

# check NAME SERVER-URI CLIENT-URI
check() {
  local name=$1 sname=$2 cname=$3 j="$out/$1.json" ratio
  jq -e '.limit.kind == "floor" and .limit.one_way_ns.n == 5 and .limit.one_way_ns.min > 0 and
         .limit.eel_beside_ns.n == 5 and .limit.eel_beside_ns.min > 0' "$j" >/dev/null ||
    { jq -c .limit "$j"; fail "$name: the floor and EEL beside it, 5 runs each, all positive"; }
  jq -e '.limit.eel_over.n == 5 and (.limit.eel_over_floor | isinfinite or isnan | not) and
         .limit.eel_over_floor > 0 and .limit.eel_over_floor == .limit.eel_over.median' "$j" >/dev/null ||
    { jq -c .limit "$j"; fail "$name: EEL / floor finite, positive, the median of the runs' ratios"; }
  grep -qF "on the pair $cname (here) and $sname (the server)" "$out/$name.out" ||
    { cat "$out/$name.out"; fail "$name: the table names the pair"; }
  ratio=$(jq -r '.limit.eel_over_floor * 100 | round / 100' "$j")
  grep -qE "EEL / floor = [0-9]+\.[0-9]{2} \(median of the runs' ratios" "$out/$name.out" ||
    { cat "$out/$name.out"; fail "$name: the table prints EEL / floor"; }
  grep -E "on the pair|one way \(|EEL / floor|quartiles" "$out/$name.out" | sed 's/^ */      /'
  echo "ok: $name: floor $(jq '.limit.one_way_ns.median | round' "$j") ns one way, EEL beside it" \
    "$(jq '.limit.eel_beside_ns.median | round' "$j") ns, EEL / floor $ratio" \
    "(quartiles $(jq -r '[.limit.eel_over.p25, .limit.eel_over.p75] | map(. * 100 | round / 100) | join("..")' "$j"))"
}

# memif: the memif server's socket a file in $out (socket-abstract=no), so the
# client starts once it exists; the server waits up to 30 s for its link
msrv="dpdk:net_memif0,role=server,socket=$out/m.sock,socket-abstract=no?link_ms=30000"
mcli="dpdk:net_memif1,role=client,socket=$out/m.sock,socket-abstract=no"
WAIT_FOR="$out/m.sock" IN_NS=no bench_pair memif "$msrv" "$mcli" "${args[@]}"
check memif "$msrv" "$mcli"

# af_packet on a veth pair in a namespace of the test's own
netns_up
veth_pair dpa dpb
bench_pair af_packet "dpdk:net_af_packet0,iface=dpa" "dpdk:net_af_packet1,iface=dpb" "${args[@]}"
check af_packet "dpdk:net_af_packet0,iface=dpa" "dpdk:net_af_packet1,iface=dpb"
