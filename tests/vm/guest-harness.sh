#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/vm/guest-harness.sh — the guest half of suite-harness.sh: checks, from inside a
# guest, what tests/vm/run-vm promises (tests/vm/README.md). One line per check; exits 1 on the
# first that fails. Started with: --nics 2 --hugepages 16 --device edu --modules dummy.
set -euo pipefail
ok() { echo "guest-harness: ok   $*"; }
fail() { echo "guest-harness: FAIL $*" >&2; exit 1; }
check() { local what=$1; shift; if "$@" >/dev/null 2>&1; then ok "$what"; else fail "$what"; fi; }

[ "$(id -u)" = 0 ] && ok "root" || fail "not root"
[ "$EEL_VM_INDEX/$EEL_VM_COUNT" = 0/1 ] && ok "EEL_VM_INDEX/COUNT" || fail "EEL_VM_INDEX/COUNT = $EEL_VM_INDEX/$EEL_VM_COUNT"
[ "$(pwd)" = "$EEL_VM_REPO" ] && ok "starts at the top of the repository" || fail "cwd $(pwd), repo $EEL_VM_REPO"
check "the repository at its host path" test -x "$EEL_VM_REPO/tests/vm/run-vm"
check "the host's / is read-only" sh -c '! touch /eel-harness-probe'
check "/tmp is writable" touch /tmp/probe
check "/run is writable" touch /run/probe
check "/dev/shm is writable" touch /dev/shm/probe
check "EEL_VM_OUT is writable" sh -c 'echo written-in-guest >"$EEL_VM_OUT/probe.txt"'
check "guest kernel is EEL_VM_KVER" test "$(uname -r)" = "$EEL_VM_KVER"
check "modprobe works in the guest" modprobe veth
check "--modules dummy loaded" grep -q '^dummy ' /proc/modules
check "rxe's crc32 is there" grep -qw crc32_generic /proc/modules
check "ib_uverbs loaded" grep -q '^ib_uverbs ' /proc/modules
check "16 hugepages" grep -q '^HugePages_Total: *16$' /proc/meminfo
check "hugetlbfs on /run/hugepages" grep -q ' /run/hugepages hugetlbfs ' /proc/mounts
check "--device edu (1234:11e8) on PCI" grep -qx 0x11e8 /sys/bus/pci/devices/*/device
check "eth0 10.99.0.1 = EEL_VM_IP" sh -c 'ip -4 -br addr show eth0 | grep -q "10.99.0.1/24" && [ "$EEL_VM_IP" = 10.99.0.1 ]'
check "eth1 10.99.1.1" sh -c 'ip -4 -br addr show eth1 | grep -q "10.99.1.1/24"'
check "EEL_VM_NIC_PCI" test "$EEL_VM_NIC_PCI" = "0000:00:03.0 0000:00:04.0"
check "eth0 is the NIC at 00:03.0" test -e /sys/bus/pci/devices/0000:00:03.0/net/eth0
# One VM, two NICs on one QEMU hub: a broadcast sent on eth0 arrives on eth1.
before=$(cat /sys/class/net/eth1/statistics/rx_packets)
busybox arping -q -I eth0 -c 2 -w 2 10.99.0.99 || true
after=$(cat /sys/class/net/eth1/statistics/rx_packets)
[ "$after" -gt "$before" ] && ok "eth0 -> hub -> eth1 ($before -> $after packets)" || fail "nothing from eth0 reached eth1"
echo "guest-harness: all checks passed"
