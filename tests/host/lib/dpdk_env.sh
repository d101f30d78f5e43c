# SPDX-License-Identifier: MIT
# tests/host/lib/dpdk_env.sh — sourced by the DPDK host tests (tests/host/dpdk_*.sh),
# after `set -uo pipefail`, with the test's short name: `. tests/host/lib/dpdk_env.sh NAME`.
# Gives B (the build), a temporary folder $out, a network namespace name $ns
# (eel-dpdk-NAME-PID), pids (background processes killed at exit), and at
# exit the processes, the namespace and $out gone; fail MESSAGE; netns_up;
# veth_pair A B: two ends of a veth pair in $ns, both up; bench_pair: an
# eel-bench server and client on two ports.
B=${EEL_BUILD:-build}
tname=$1
ns=eel-dpdk-$tname-$$
out=$(mktemp -d)
pids=()
cleanup() {
  kill -9 "${pids[@]}" 2>/dev/null
  ip netns del "$ns" 2>/dev/null
  rm -rf "$out"
}
trap cleanup EXIT
fail() { echo "FAILED: $*"; exit 1; }

[ -x "$B/eel-bench" ] || fail "no $B/eel-bench: run make first"

netns_up() {
  ip netns add "$ns" || fail "cannot make a network namespace (ip netns add $ns): run as root"
  ip -n "$ns" link set lo up || fail "cannot bring lo up in $ns"
}

# Interface indexes far apart: DPDK's af_packet joins PACKET_FANOUT group
# (pid ^ ifindex) & 0xffff, and two processes must not meet in one by chance.
veth_pair() {
  ip -n "$ns" link add "$1" index 4660 type veth peer name "$2" index 23130 &&
    ip -n "$ns" link set "$1" up && ip -n "$ns" link set "$2" up ||
    fail "cannot make the veth pair $1/$2 in $ns"
}

# bench_pair NAME SERVER-URI CLIENT-URI CLIENT-ARGS...: eel-bench's server on
# SERVER-URI in the background, then its client on CLIENT-URI with CLIENT-ARGS,
# both in $ns (IN_NS=no: outside it), each with the EAL without hugepages and a
# file prefix of its own; the client once the file WAIT_FOR exists when that
# is set (a memif server's socket: the client cannot connect before it). The
# client's table goes to $out/NAME.out, its JSON to $out/NAME.json; both ends
# must exit 0.
bench_pair() {
  local name=$1 suri=$2 curi=$3 port=$((20000 + RANDOM % 20000)) spid crc src run=()
  local eal="--no-huge --no-pci -m 512 --file-prefix=eel-$tname-$$"
  shift 3
  [ "${IN_NS:-yes}" = no ] || run=(ip netns exec "$ns")
  "${run[@]}" timeout 120 "$B/eel-bench" -d "$suri" -p $port --timeout 30 --eal "$eal-s" \
    >"$out/$name.server" 2>&1 &
  spid=$!
  pids+=($spid)
  if [ -n "${WAIT_FOR:-}" ]; then
    for _ in $(seq 300); do [ -e "$WAIT_FOR" ] || ! kill -0 $spid 2>/dev/null && break; sleep 0.1; done
    [ -e "$WAIT_FOR" ] || { cat "$out/$name.server"; fail "$name: the server's port never came up"; }
  fi
  "${run[@]}" timeout 120 "$B/eel-bench" -d "$curi" -p $port --timeout 30 --eal "$eal-c" "$@" \
    --json "$out/$name.json" 127.0.0.1 >"$out/$name.out" 2>&1
  crc=$?
  wait $spid
  src=$?
  if [ $crc -ne 0 ] || [ $src -ne 0 ]; then
    sed 's/^/    client| /' "$out/$name.out"
    sed 's/^/    server| /' "$out/$name.server"
    fail "$name: client exited $crc, server $src"
  fi
}
