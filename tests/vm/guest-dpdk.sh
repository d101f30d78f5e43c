#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/vm/guest-dpdk.sh — eel's DPDK backend on QEMU's emulated e1000 (82540EM), driven by
# DPDK's own e1000 PMD (net_e1000_em) through uio_pci_generic, DMA memory in hugepages.
#
# Runs inside a bench guest (tests/vm/run-vm --nics 2 --smp 2 --hugepages N, from
# tests/vm/suite-dpdk.sh) as root, at the top of the repository: two e1000s on one QEMU
# hub, bound to the kernel's e1000 driver. Checks, in order:
#   - bad input: a NIC still bound to the kernel's driver is refused in one line that says
#     how to bind it; the EAL's command line refused;
#   - binding both NICs with the command that message gives (dpdk-devbind.py -b
#     uio_pci_generic);
#   - eel-bench between them, server on one NIC and client on the other (two processes,
#     each its own EAL): ping-pong, flood, overlap and the floor (-t limit), every put
#     verified, JSON saved in $EEL_VM_OUT/dpdk.json.
# (The NICs are not given back to the kernel: the VM ends here, and binding takes
# dpdk-devbind.py ~15 s under TCG.)
# Prints one line per check; exits non-zero when any failed.
set -u
B=${1:-build}
cd "${EEL_VM_REPO:?run this inside the VM bench (tests/vm/run-vm)}" || exit 2
BENCH=$B/eel-bench
SYS=/sys/bus/pci
OUT=${EEL_VM_OUT:-/tmp}
PORT=18621
# Small: TCG is slow, and the build machine's two cores are shared (tests/vm/README.md).
PLAN=(-t pingpong,flood,overlap,limit -n 200 -r 3 --warmup 20 --sizes 8,512,4096 --depths 1,8 --flood-runs 2
      --flood-msgs 64 --overlap-msgs 32 --overlap-runs 2 --verify --timeout 60)

fails=0
section() { echo "== $* (at ${SECONDS}s)"; }
ok() { echo "ok    $*"; }
bad() { echo "FAIL  $*"; fails=$((fails + 1)); }
driver_of() { local l; l=$(readlink "$SYS/devices/$1/driver" 2>/dev/null) && echo "${l##*/}"; }

# refuse WHAT TEXT CMD...: CMD exits 1 with one line on stderr holding TEXT
refuse() {
  local what=$1 text=$2 rc lines
  shift 2
  timeout 120 "$@" >"$OUT/stdout.log" 2>"$OUT/stderr.log"
  rc=$?
  lines=$(wc -l <"$OUT/stderr.log")
  echo "      -> exit $rc: $(cat "$OUT/stderr.log")"
  if [ $rc != 1 ] || [ "$lines" != 1 ] || ! grep -qF -- "$text" "$OUT/stderr.log"; then
    bad "$what: wanted exit 1 and one line holding '$text'"
  else
    ok "$what"
  fi
}

section "setup (kernel $(uname -r))"
read -r N0 N1 _ <<<"$EEL_VM_NIC_PCI"
[ -n "${N0:-}" ] && [ -n "${N1:-}" ] || { bad "two NICs wanted, got '$EEL_VM_NIC_PCI'"; exit 1; }
kdrv=$(driver_of "$N0")
echo "      NICs $N0 $N1 ($EEL_VM_NIC_MODEL, kernel driver $kdrv), $(nproc) CPUs, $EEL_VM_HUGEPAGES hugepages"
[ -x "$BENCH" ] || { bad "no $BENCH: build it on the host (make all)"; exit 1; }
[ "$kdrv" = e1000 ] || { bad "$N0 is driven by '$kdrv', not the kernel's e1000"; exit 1; }

section "bad input"
refuse "a NIC bound to the kernel's driver" "dpdk-devbind.py -b uio_pci_generic $N0" \
  "$BENCH" -d "dpdk:$N0" -t pingpong 127.0.0.1
refuse "EAL arguments the EAL refuses" "check the EAL arguments" \
  "$BENCH" -d "dpdk:$N0" --eal "--no-such-eal-option" -t pingpong 127.0.0.1
[ "$(driver_of "$N0")" = e1000 ] && ok "$N0 left with the kernel's e1000" || bad "$N0 lost its driver"

section "bind both NICs to uio_pci_generic (the message's fix)"
# dpdk-devbind.py leaves an interface with routes alone: take the kernel's off them
for n in $N0 $N1; do
  ifc=$(ls "$SYS/devices/$n/net" 2>/dev/null)
  [ -n "$ifc" ] && ip addr flush dev "$ifc" && ip link set "$ifc" down
done
if dpdk-devbind.py -b uio_pci_generic "$N0" "$N1" >"$OUT/devbind.log" 2>&1 &&
   [ "$(driver_of "$N0")" = uio_pci_generic ] && [ "$(driver_of "$N1")" = uio_pci_generic ]; then
  ok "dpdk-devbind.py -b uio_pci_generic $N0 $N1"
else
  bad "binding to uio_pci_generic"; sed 's/^/      /' "$OUT/devbind.log"
fi
mount | grep -q hugetlbfs && ok "hugetlbfs mounted" || bad "no hugetlbfs"

section "eel-bench on DPDK's e1000 PMD: server on $N0, client on $N1, --verify"
timeout 240 "$BENCH" -d "dpdk:$N0" -p $PORT --timeout 60 >"$OUT/server.log" 2>&1 &
server=$!
rc=0
for try in $(seq 60); do
  timeout 240 "$BENCH" -d "dpdk:$N1" -p $PORT "${PLAN[@]}" --json "$OUT/dpdk.json" 127.0.0.1 \
    >"$OUT/client.log" 2>&1 && { rc=0; break; }
  rc=$?
  grep -q "cannot reach the eel-bench server" "$OUT/client.log" || break
  sleep 1
done
wait $server
src=$?
sed 's/^/      client| /' "$OUT/client.log"
sed 's/^/      server| /' "$OUT/server.log"
[ $rc = 0 ] && ok "client exited 0 (every put verified)" || bad "client exited $rc"
[ $src = 0 ] && ok "server exited 0" || bad "server exited $src"
if [ -s "$OUT/dpdk.json" ]; then
  check() {  # check WHAT 'jq condition'
    if jq -e "$2" "$OUT/dpdk.json" >/dev/null; then ok "$1"; else bad "$1 ($2)"; fi
  }
  check "the NIC: dpdk on PCI $N1, the e1000 PMD" \
    ".nic.backend == \"dpdk\" and (.nic.caps.attach | test(\"PCI $N1 .*e1000\"))"
  check "doorbell = rte_eth_tx_burst" '.nic.caps.doorbell | test("rte_eth_tx_burst")'
  check "payload per frame: MTU 1500 less 46" '.nic.caps.mtu == 1454'
  check "EEL, g; o_s, o_r not separable (eel's firmware on the host's CPU)" '.parameters.eel.ns.min > 0 and .parameters.g.ns > 0 and
                            ([.parameters.o_s, .parameters.o_r] | all(.separable == false and .ns == null))'
  check "the floor on the same port, EEL / floor" \
    '.limit.kind == "floor" and .limit.one_way_ns.min > 0 and .limit.eel_over_floor > 0'
  check "messages went both ways" '.counters.local.tx_messages > 0 and .counters.peer.tx_messages > 0'
  check "the port's PCI facts in the JSON" ".nic.pci.addr == \"$N1\" and .nic.pci.driver == \"uio_pci_generic\""
  # eel's firmware on the host core: per put, the doorbell is rte_eth_tx_burst itself
  # (the e1000 PMD's TDT write), and nothing is claimed of the NIC's fetch or send
  check "per-put stamps: rte_eth_tx_burst as the doorbell, no NIC fetch or send claimed" \
    '.nic.caps.hosted_firmware == true and ([.breakdown.parts[].name] | index("post") != null and
     (index("doorbell") != null or index("doorbell+fetch+tx+wire") != null) and index("fetch") == null and index("tx") == null)'
  check "nothing but eel's packets reached the firmware" \
    '.counters.local.malformed_dropped == 0 and .counters.peer.malformed_dropped == 0'
  jq -r '"      EEL \(.parameters.eel.ns.min) ns, floor \(.limit.one_way_ns.min) ns, EEL/floor \(.limit.eel_over_floor) (run by run, EEL beside the floor: \(.limit.eel_beside_ns.median) ns)"' \
    "$OUT/dpdk.json" | tee "$OUT/figures.txt"
else
  bad "no $OUT/dpdk.json"
fi

if [ $fails = 0 ]; then echo "== all checks passed (at ${SECONDS}s)"; else echo "== $fails check(s) FAILED"; fi
[ $fails = 0 ]
