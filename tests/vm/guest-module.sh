#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/vm/guest-module.sh iommu|noiommu — eel_pci.ko and eel-probe in a real kernel.
#
# Runs inside a bench guest (tests/vm/run-vm, from tests/vm/suite-module.sh) as root, at
# the top of the repository, with QEMU's edu device, an e1000 bound to its kernel driver,
# and a virtio-rng behind a PCIe root port; "iommu" runs also have an intel-iommu.
# Loads build/module/<guest kernel>/eel_pci.ko and checks, on the real (emulated)
# functions: eel-bind's refusals leave nothing half-bound; edu DMA through a module
# buffer, byte for byte; e1000 STATUS through the BAR mapping; the MMIO timing ioctl;
# bad ioctl arguments; non-root opens refused; rmmod refused while mapped; unbind while
# mapped turns accesses into SIGBUS; rmmod clean with no kernel warning; eel-probe's facts.
# Prints one line per check; exits non-zero when any failed.
set -u
mode=${1:?usage: guest-module.sh iommu|noiommu}
cd "${EEL_VM_REPO:?run this inside the VM bench (tests/vm/run-vm)}" || exit 2

B=build
CHECK=$B/eel-pci-check
PROBE=$B/eel-probe
BIND=tools/eel-bind
KO=$B/module/$(uname -r)/eel_pci.ko
SYS=/sys/bus/pci
OUT=${EEL_VM_OUT:-/tmp}
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)
# What nobody runs, copied where nobody can read it: the checkout may sit in a
# folder only root may enter (a clone in mktemp -d's 0700 folder).
PUB=$(mktemp -d) && chmod 755 "$PUB" || exit 2
install -m 755 "$BIND" "$CHECK" "$PROBE" "$PUB/" || exit 2

. "$(dirname "$0")/lib/guest-checks.sh" # section, ok, bad, is, run, state_of, refuse
master_of() { local c; c=$(od -An -tx1 -j4 -N1 "$SYS/devices/$1/config" | tr -d ' '); echo $(((0x$c >> 2) & 1)); }

find_id() {   # find_id VENDOR DEVICE: the first function with that ID
  local d
  for d in "$SYS"/devices/*; do
    [ "$(cat "$d/vendor")" = "0x$1" ] && [ "$(cat "$d/device")" = "0x$2" ] && { echo "${d##*/}"; return; }
  done
}

echo "== setup ($mode, kernel $(uname -r))"
EDU=$(find_id 1234 11e8)
E1000=${EEL_VM_NIC_PCI%% *}
RNG=$(find_id 1af4 1044)
[ -n "$EDU" ] && [ -n "$E1000" ] && [ -n "$RNG" ] || { bad "devices: edu '$EDU', e1000 '$E1000', virtio-rng '$RNG'"; exit 1; }
echo "      edu $EDU, e1000 $E1000, virtio-rng $RNG"
groups=$(ls /sys/kernel/iommu_groups 2>/dev/null | wc -l)
if [ "$mode" = iommu ]; then
  [ "$groups" -gt 0 ] && ok "an IOMMU translates ($groups groups)" || bad "no IOMMU groups in an iommu run"
else
  is "no IOMMU" "$groups" 0
fi
[ -f "$KO" ] || { bad "no $KO: build it with \`make module KVER=$(uname -r)\`"; exit 1; }
is "module built for this kernel" "$(modinfo -F vermagic "$KO" | cut -d' ' -f1)" "$(uname -r)"
echo "eel-test: guest-module start" > /dev/kmsg

echo "== eel-bind before the module is loaded"
refuse "module not loaded" "eel_pci is not loaded: build it with .make module" "$EDU" $BIND "$EDU"

echo "== load"
run "insmod eel_pci.ko" insmod "$KO"
bound=$(ls "$SYS/drivers/eel_pci" | grep -c '^0000:')
is "empty id_table: nothing bound by itself" "$bound" 0

echo "== eel-bind refusals"
refuse "no such PCI address" "no PCI function 0000:00:09.7 here" - $BIND 00:09.7
refuse "not an address" "neither a PCI address" - $BIND 00:3
refuse "unsupported device ID" "no PCI function with ID 1234:0000" - $BIND 1234:0000
refuse "bound to a kernel driver" "bound to the kernel driver e1000: unbind it with .echo $E1000 \| sudo tee $SYS/drivers/e1000/unbind.*--force" "$E1000" $BIND "$E1000"
refuse "not root" "needs root: run .sudo tools/eel-bind" "$EDU" "${NOBODY[@]}" "$PUB/eel-bind" "$EDU"
refuse "a bridge" "is a bridge \(class 0600" 0000:00:00.0 $BIND 0000:00:00.0
refuse "the module's own refusal rolls back" "eel_pci refused 0000:00:00.0.*left as it was" 0000:00:00.0 $BIND --no-checks 0000:00:00.0

echo "== edu"
run "eel-bind edu" $BIND "$EDU"
DEV=/dev/eel_pci/$EDU
is "device node root-only" "$(stat -c '%a %U' "$DEV" 2>&1)" "600 root"
run "eel-bind edu again: already bound" $BIND "$EDU"
run "INFO" $CHECK info "$DEV"
run "edu DMA into a module buffer" $CHECK edu-dma "$DEV"
is "bus mastering off once the last file is closed" "$(master_of "$EDU")" 0
run "edu DMA again: the next open turns bus mastering back on" $CHECK edu-dma "$DEV"
run "MMIO timing on edu" $CHECK mmio-time "$DEV" 0
run "bad arguments on edu" $CHECK bad-args "$DEV"
run "DMA memory capped per device across two opens" $CHECK dma-cap "$DEV"
run "DMA alloc and free from 4 threads on one file" $CHECK dma-churn "$DEV"
run "non-root open: file mode says no" "${NOBODY[@]}" "$PUB/eel-pci-check" open "$DEV" EACCES
chmod 0666 "$DEV"
run "non-root open of a 0666 node: the module says no" "${NOBODY[@]}" "$PUB/eel-pci-check" open "$DEV" EPERM
chmod 0600 "$DEV"
run "root open" $CHECK open "$DEV" ok
probe_json=$($PROBE --json "$EDU")
is "eel-probe sees edu bound to eel_pci" "$(jq -r '.functions[0].driver' <<< "$probe_json")" eel_pci

echo "== e1000"
run "eel-bind --force e1000" $BIND --force "$E1000"
is "e1000 now bound to eel_pci, override set" "$(state_of "$E1000")" "driver=eel_pci override=eel_pci"
run "e1000 STATUS through BAR 0" $CHECK e1000-status "/dev/eel_pci/$E1000"
run "MMIO timing on e1000 STATUS" $CHECK mmio-time "/dev/eel_pci/$E1000" 8
run "bad arguments on e1000 (with its I/O BAR)" $CHECK bad-args "/dev/eel_pci/$E1000"
run "eel-bind --unbind e1000" $BIND --unbind "$E1000"
is "e1000 back with its driver, override cleared" "$(state_of "$E1000")" "driver=e1000 override="
[ -e "$SYS/devices/$E1000/net" ] && ok "e1000 is a network interface again" || bad "e1000 has no net interface after unbind"

echo "== virtio-rng: a 64-bit prefetchable BAR, write-combining"
run "eel-bind --force virtio-rng" $BIND --force "$RNG"
run "BAR 4 mapped uncached and write-combining" $CHECK wc "/dev/eel_pci/$RNG" 4
run "eel-bind --unbind virtio-rng" $BIND --unbind "$RNG"
is "virtio-rng back with virtio-pci" "$(state_of "$RNG")" "driver=virtio-pci override="

echo "== mapped: rmmod refused, unbind turns accesses into SIGBUS"
fifo=$(mktemp -u /tmp/hold.XXXXXX) && mkfifo "$fifo"   # not in $OUT: 9p has no FIFOs
$CHECK hold "$DEV" < "$fifo" > "$OUT/hold.out" 2>&1 &
hold=$!
exec 3> "$fifo"
for _ in $(seq 200); do grep -q '^ready' "$OUT/hold.out" && break; sleep 0.1; done
sed 's/^/      /' "$OUT/hold.out"
if grep -q '^ready' "$OUT/hold.out"; then
  ok "BAR and DMA buffer mapped, descriptor closed"
  if rmmod eel_pci 2> "$OUT/rmmod.log"; then bad "rmmod while mapped succeeded"; else ok "rmmod while mapped refused: $(cat "$OUT/rmmod.log")"; fi
  run "unbind edu while mapped" $BIND --unbind "$EDU"
  [ -e "$DEV" ] && bad "$DEV still there after unbind" || ok "$DEV gone"
else
  bad "hold did not get ready"
fi
echo go >&3
exec 3>&-
wait $hold
rm -f "$fifo"
is "mappings after unbind" "$(tail -n 1 "$OUT/hold.out")" "bar=sigbus dma=sigbus"

echo "== unload with a bound function"
run "eel-bind edu again" $BIND "$EDU"
run "rmmod eel_pci" rmmod eel_pci
[ -e "$SYS/drivers/eel_pci" ] && bad "eel_pci still registered" || ok "driver gone"
[ -e "$DEV" ] && bad "$DEV left behind" || ok "no device node left"
is "edu without a driver" "$(driver_of "$EDU")" ""
printf '\n' > "$SYS/devices/$EDU/driver_override"

echo "== kernel log"
dmesg | sed -n '/eel-test: guest-module start/,$p' > "$OUT/dmesg.log"
grep -E 'eel_pci' "$OUT/dmesg.log" | sed 's/^/      /'
warn='WARNING:|BUG:|Call Trace|Oops|general protection|refcount_t|use-after-free|memory leak|sleeping function called|possible recursive locking|circular locking'
if grep -Eq "$warn" "$OUT/dmesg.log"; then
  bad "kernel warnings in dmesg:"; grep -E -B2 -A8 "$warn" "$OUT/dmesg.log" | head -40
else
  ok "no kernel warning since insmod"
fi

echo "== eel-probe"
$PROBE > "$OUT/probe.txt" 2>&1; rc=$?
sed 's/^/      /' "$OUT/probe.txt"
is "eel-probe exit" "$rc" 0
grep -q "^$E1000 .*e1000 .*82540EM" "$OUT/probe.txt" && ok "table: the e1000 with its driver and name" || bad "table lacks the e1000 line"
grep -q "^$EDU " "$OUT/probe.txt" && bad "edu (not a NIC) listed without --all" || ok "only network functions by default"
$PROBE --all --json > "$OUT/probe.json"; rc=$?
is "eel-probe --all --json exit" "$rc" 0
j() { jq -r "$1" "$OUT/probe.json" 2>&1; }
is "JSON version" "$(j .eel_probe_version)" 2
is "e1000's -d URIs: raw" "$(j ".functions[] | select(.address==\"$E1000\") | [.uris[]? | select(.backend==\"raw\") | .uri] | join(\" \")")" "raw:$E1000"
is "edu BAR 0: 1 MiB memory" "$(j ".functions[] | select(.address==\"$EDU\") | .bars[0] | \"\(.size) \(.type)\"")" "1048576 mem"
is "e1000: conventional PCI, driver, BARs" "$(j ".functions[] | select(.address==\"$E1000\") | \"\(.pcie_type) \(.driver) \(.bars | map(\"\(.index):\(.size):\(.type)\") | join(\",\"))\"")" "pci e1000 0:131072:mem,1:64:io"
is "virtio-rng link now/max" "$(j ".functions[] | select(.address==\"$RNG\") | \"\(.link.speed_gts) x\(.link.width) / \(.link_max.speed_gts) x\(.link_max.width)\"")" "2.5 x1 / 2.5 x1"
is "virtio-rng MPS, MRRS" "$(j ".functions[] | select(.address==\"$RNG\") | \"\(.max_payload) \(.max_payload_supported) \(.max_read_request)\"")" "128 128 128"
port=$(basename "$(readlink -f "$SYS/devices/$RNG/..")")
is "root port's link capability" "$(j ".functions[] | select(.address==\"$port\") | \"\(.pcie_type) \(.link_max.speed_gts) x\(.link_max.width)\"")" "root-port 16 x32"
is "functions listed = functions in sysfs" "$(j '.functions | length')" "$(ls $SYS/devices | wc -l)"
if [ "$mode" = iommu ]; then
  is "edu's IOMMU group" "$(j ".functions[] | select(.address==\"$EDU\") | .iommu_group")" "$(basename "$(readlink "$SYS/devices/$EDU/iommu_group")")"
else
  is "no IOMMU groups" "$(j '[.functions[] | select(.iommu_group != null)] | length')" 0
fi
"${NOBODY[@]}" "$PUB/eel-probe" --json "$RNG" > "$OUT/probe-nobody.json"
is "as nobody: link from sysfs, MPS unknown" "$(jq -r '.functions[0] | "\(.config_readable) \(.link.speed_gts) x\(.link.width) \(.max_payload)"' "$OUT/probe-nobody.json")" "false 2.5 x1 null"
refuse "eel-probe: no such address" "no PCI function 0000:00:09.7 here" - $PROBE 00:09.7
refuse "eel-probe: not an address" "is not a PCI address" - $PROBE 0:0:0
lspci -xxx > "$OUT/lspci-xxx.txt" 2>&1

echo "== $([ $fails = 0 ] && echo "all checks passed" || echo "$fails checks FAILED") ($mode)"
[ $fails = 0 ]
