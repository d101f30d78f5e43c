#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/host/dpdk_bench.sh — eel on DPDK, no VM: two eel-bench processes (server and
# client), each with DPDK's af_packet PMD on one end of a veth pair in a network
# namespace of the test's own. The bench (ping-pong, flood, overlap, the floor) with
# every put verified; then the same over a bad wire (the engine's fault options:
# drop, duplicate, reorder, corrupt), survived with nothing lost; then thread mode.
# Checks exit codes and the JSON: what the NIC says it is, the parameters, the floor,
# the breakdown (one clock: both ends on this machine), and the NIC's counters.
set -uo pipefail
. tests/host/lib/dpdk_env.sh bench
netns_up
veth_pair dpa dpb

# pair NAME URI-OPTIONS BENCH-ARGS...: the server on dpa, the client on dpb (its JSON
# in $out/NAME.json); both must exit 0.
pair() {
  local name=$1 q=$2
  shift 2
  bench_pair "$name" "dpdk:net_af_packet0,iface=dpa$q" "dpdk:net_af_packet1,iface=dpb$q" "$@"
}

# check NAME 'jq condition' 'what it means'
check() {
  jq -e "$2" "$out/$1.json" >/dev/null ||
    { jq -c '{nic, parameters, limit, counters, breakdown}' "$out/$1.json" | head -c 3000; echo; fail "$1: $3"; }
}

bench=(-t pingpong,flood,overlap,limit -n 1000 -r 3 --warmup 100 --sizes 8,64,512,4096,16384 --depths 1,8,64
       --flood-msgs 500 --flood-runs 2 --overlap-msgs 200 --overlap-runs 2 --verify)

pair clean "" "${bench[@]}"
check clean '.nic.backend == "dpdk" and .nic.name == "net_af_packet1,iface=dpb"' "the NIC's name"
check clean '(.nic.caps.doorbell | test("rte_eth_tx_burst")) and (.nic.caps.attach | test("net_af_packet1.*dpb"))' \
  "doorbell and attachment"
check clean '.nic.caps.mtu == 1454' "the payload per frame is the veth's MTU (1500) less eel's 46 bytes of headers"
check clean '.nic.caps.shared_clock == true and .nic.caps.nic_clock == false' \
  "one clock for two processes of this machine; af_packet has no NIC timestamps"
check clean '.options.verify == true and .parameters.eel.ns.min > 0 and .parameters.g.ns > 0' "EEL and g"
# eel's firmware runs on this core: the CPU-overlap o_s holds its work (docs/methods.md, the breakdown)
check clean '.parameters.o_s.separable == false and .parameters.o_s.ns == null and (.parameters.o_s.why | length) > 0' \
  "o_s not separable: eel's firmware on the host's core"
check clean '.limit.kind == "floor" and .limit.one_way_ns.min > 0 and .limit.eel_over_floor > 0' \
  "the floor (a bare echo on the port) and EEL / floor"
check clean '.breakdown.samples > 0 and .breakdown.total_ns.median > 0' "the stage breakdown"
check clean '.parameters.eel_tail | .count == 3 * 1000 and ([.histogram[][2]] | add) == .count and
             ([.min_ns, .p50_ns, .p90_ns, .p99_ns, .p99_9_ns, .p99_99_ns, .max_ns] | . == sort)' \
  "EEL's tail: every round trip of 3 runs of 1000 in its histogram, its quantiles in order"
# eel's firmware runs on this core: up to rte_eth_tx_burst it is host software
# (post), the doorbell is tx_burst itself, and the port says nothing of when it
# fetched or sent the frame, so those stages and the wire are one part. On
# af_packet tx_burst is a send() that returns once the peer has the frame:
# then the doorbell is no boundary either, and it joins that part.
check clean '.nic.caps.hosted_firmware == true and ([.nic.caps.stamps[]] | index("nic_fetch") == null)' \
  "hosted firmware: no NIC fetch or transmit stamps claimed"
check clean '[.breakdown.parts[].name] as $p | $p == ["post", "doorbell", "fetch+tx+wire", "rx", "dma", "detect"]
             or $p == ["post", "doorbell+fetch+tx+wire", "rx", "dma", "detect"]' \
  "the parts this port tells apart (fetch, tx and wire merged; the doorbell too if it returns late)"
check clean '[.breakdown.parts[] | .ns.n > 0] | all' "every part measured"
jq -r '.breakdown.parts[] | "      \(.name): \(.ns.median | floor) ns (\(.what))"' "$out/clean.json"
check clean '.counters.local.tx_messages > 0 and .counters.local.rx_messages > 0' "messages counted"
check clean '.counters.local.malformed_dropped == 0 and .counters.peer.malformed_dropped == 0' \
  "nothing but eel's packets reached the firmware (link check and floor frames stay out)"
check clean '.counters.local.dpdk_rx_bad_length == 0 and .counters.peer.dpdk_rx_bad_length == 0' \
  "every frame's length field held"
# where the figures come from (docs/json.md, provenance): the PMD, DPDK's version as
# pkg-config has it (rte_version() may add a stable release's digit), no firmware to read
dpdk_ver=$(pkg-config --modversion libdpdk)
check clean '.provenance.nic.driver == "net_af_packet" and .provenance.nic.stack == "DPDK"' "the PMD named"
check clean "(.provenance.nic.stack_version | startswith(\"${dpdk_ver%.*}\")) and
             (.provenance.nic.stack_built as \$b | \"$dpdk_ver\" | startswith(\$b))" \
  "DPDK's version ($dpdk_ver), as running and as built"
check clean '.provenance.nic.fw_version == null and (.provenance.nic.fw_why | test("ENOTSUP"))' \
  "af_packet has no firmware version to read: null, and why"
check clean '.provenance.nic.fw_abi > 0 and (.provenance.nic.bus_info | test("vdev net_af_packet1"))' \
  "eel's firmware's ABI, the port on DPDK's vdev bus"
echo "ok: clean wire, verified: EEL $(jq .parameters.eel.ns.min "$out/clean.json") ns," \
  "floor $(jq .limit.one_way_ns.min "$out/clean.json") ns, EEL/floor $(jq .limit.eel_over_floor "$out/clean.json")" \
  "(the median of the ratios of each floor run and the EEL run beside it)"

# smaller: every loss in a ping-pong waits out the retransmission timeout
faults='?drop=0.01&dup=0.01&reorder=0.01&corrupt=0.01&rto_us=2000'
pair faults "$faults" -t pingpong,flood,overlap,limit -n 300 -r 2 --warmup 50 --sizes 8,2048 --depths 1,16 \
  --flood-msgs 300 --flood-runs 2 --overlap-msgs 100 --overlap-runs 2 --verify
check faults '.counters.local.wire_dropped > 0 and .counters.local.wire_duplicated > 0 and
              .counters.local.wire_reordered > 0 and .counters.local.wire_corrupted > 0' \
  "the faults were injected"
check faults '.counters.peer.wire_crc_errors > 0 and .counters.local.retransmits > 0 and
              .counters.peer.duplicates_dropped > 0' "the damage was caught (CRC) and repaired (resent, deduplicated)"
check faults '.limit.kind == "floor" and .limit.one_way_ns.min > 0' "the floor, under the fault layer"
echo "ok: bad wire survived, every byte verified: $(jq .counters.local.retransmits "$out/faults.json") retransmits," \
  "$(jq .counters.peer.wire_crc_errors "$out/faults.json") CRC errors caught"

# thread mode: the firmware on a thread of its own (two cores: oversubscribed), stopped
# for the floor and started again
pair thread '?mode=thread&oversubscribe=1' -t pingpong,limit -n 200 -r 2 --warmup 20 --verify
check thread '.parameters.eel.ns.min > 0 and .limit.one_way_ns.min > 0 and .nic.caps.one_sided_hw == true' \
  "thread mode: EEL and the floor"
echo "ok: thread mode"
