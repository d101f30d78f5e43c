#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/host/dpdk_bad_input.sh — the DPDK backend on bad input, no VM: each case is
# one clear line on stderr naming the problem and the fix, exit status 1, no hang.
# The EAL without hugepages, a PCI function that is not there, malformed device
# arguments, an interface that does not exist, a link that is down, an MTU too small
# for eel and an mtu= the port cannot carry, EAL arguments the EAL refuses or given
# to another NIC, two ends whose mtu differ, two ports not on one wire, two ports with
# one MAC address (net_pcap's default), and a server that is not there. (A PCI function bound to a kernel driver is the VM suite's:
# tests/vm/guest-dpdk.sh, where eth0 is an e1000.)
set -uo pipefail
. tests/host/lib/dpdk_env.sh bad
bad=0
netns_up
# dpa/dpb: a working pair; dpc/dpd: dpd down; dpe/dpf: MTU 256; dpg/dph: another wire
# (dpg's index far from dpa's and dpb's, as veth_pair's are: lib/dpdk_env.sh).
veth_pair dpa dpb
{ ip -n "$ns" link add dpc type veth peer name dpd &&
  ip -n "$ns" link add dpe type veth peer name dpf &&
  ip -n "$ns" link add dpg index 27499 type veth peer name dph &&
  ip -n "$ns" link set dpe mtu 256 && ip -n "$ns" link set dpf mtu 256 &&
  for i in dpc dpe dpf dpg dph; do ip -n "$ns" link set $i up || exit 1; done; } ||
  fail "cannot make the veth pairs in $ns"

nohuge="--no-huge --no-pci -m 256"
before=$(ls -d /var/run/dpdk/eel-* 2>/dev/null | sort)
port=$((20000 + RANDOM % 20000))

# expect 'text in the message' ARGS...: eel-bench in the namespace must exit 1 within
# 30 s with exactly one line on stderr, holding the text
expect() {
  local text=$1 rc lines
  shift
  ip netns exec "$ns" timeout 30 "$B/eel-bench" "$@" >"$out/stdout" 2>"$out/stderr"
  rc=$?
  lines=$(wc -l <"$out/stderr")
  if [ $rc -ne 1 ] || ! grep -qF -- "$text" "$out/stderr" || [ "$lines" -ne 1 ] || [ -s "$out/stdout" ]; then
    echo "FAILED: eel-bench $*: exit $rc (want 1), $lines line(s) (want 1), stdout $(wc -c <"$out/stdout") bytes:"
    sed 's/^/    /' "$out/stderr" "$out/stdout"
    bad=1
  else
    echo "ok: $(head -c 220 "$out/stderr")"
  fi
}

# a server in the background, for the cases that need a peer: serve URI [EAL]
serve() {
  port=$((port + 1))
  ip netns exec "$ns" timeout 30 "$B/eel-bench" -d "$1" --eal "${2:-$nohuge}" -p $port --timeout 3 \
    >/dev/null 2>"$out/server.err" &
  pids+=($!)
}

mkdir -p "$out/not-hugetlbfs"
expect '--no-huge' -d 'dpdk:net_af_packet0,iface=dpa' --eal "--huge-dir=$out/not-hugetlbfs" -t pingpong 127.0.0.1
expect 'there is no PCI function 0000:7f:1f.7' -d 'dpdk:0000:7f:1f.7' --eal "--no-huge -m 256" -t pingpong 127.0.0.1
expect 'no port given' -d 'dpdk:' --eal "$nohuge" -t pingpong 127.0.0.1
expect 'starts with net_' -d 'dpdk:eth0' --eal "$nohuge" -t pingpong 127.0.0.1
expect 'ip link show nosuch0' -d 'dpdk:net_af_packet0,iface=nosuch0' --eal "$nohuge" -t pingpong 127.0.0.1
expect 'has no link after 300 ms' -d 'dpdk:net_af_packet0,iface=dpc?link_ms=300' --eal "$nohuge" -t pingpong 127.0.0.1
expect 'ip link set dev dpe mtu 1500' -d 'dpdk:net_af_packet0,iface=dpe' --eal "$nohuge" -t pingpong 127.0.0.1
expect 'give mtu=1454 or less' -d 'dpdk:net_af_packet0,iface=dpa?mtu=4000' --eal "$nohuge" -t pingpong 127.0.0.1
expect "unknown option 'bogus' for dpdk" -d 'dpdk:net_af_packet0,iface=dpa?bogus=1' --eal "$nohuge" -t pingpong 127.0.0.1
expect 'check the EAL arguments' -d 'dpdk:net_af_packet0,iface=dpa' --eal "--no-huge --bogus-eal-option" -t pingpong 127.0.0.1
expect 'are for dpdk' -d softnic --eal "$nohuge" -t pingpong 127.0.0.1
expect 'cannot reach the eel-bench server' -d 'dpdk:net_af_packet0,iface=dpa' --eal "$nohuge" -p $port --timeout 2 \
  -t pingpong 127.0.0.1

serve 'dpdk:net_af_packet0,iface=dpa?mtu=1000'
expect 'give both ends mtu=1000' -d 'dpdk:net_af_packet1,iface=dpb' --eal "$nohuge" -p $port --timeout 3 \
  -t pingpong 127.0.0.1
wait "${pids[-1]}" && { echo "FAILED: the server of differing mtus succeeded"; bad=1; }

serve 'dpdk:net_af_packet0,iface=dpa'
expect 'are the two ports on one wire' -d 'dpdk:net_af_packet1,iface=dpg' --eal "$nohuge" -p $port --timeout 2 \
  -t pingpong 127.0.0.1
wait "${pids[-1]}" && { echo "FAILED: the server of two unjoined ports succeeded"; bad=1; }
grep -qF 'are the two ports on one wire' "$out/server.err" ||
  { echo "FAILED: the server's message:"; cat "$out/server.err"; bad=1; }

serve 'dpdk:net_pcap0,iface=dpa'
expect 'an address of its own (net_pcap: add phy_mac=1)' -d 'dpdk:net_pcap1,iface=dpb' --eal "$nohuge" -p $port \
  --timeout 3 -t pingpong 127.0.0.1
wait "${pids[-1]}" && { echo "FAILED: the server of two ports with one MAC address succeeded"; bad=1; }

# nothing left behind by the EAL: no runtime folders of these processes
after=$(ls -d /var/run/dpdk/eel-* 2>/dev/null | sort)
left=$(comm -13 <(echo "$before") <(echo "$after"))
[ -z "$left" ] || { echo "FAILED: EAL runtime folders left behind:" $left; bad=1; }
exit $bad
