#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/probe/check.sh CHECK — host tests of eel-probe, eel-bind and the module build
# (listed in tests/probe.list). Each CHECK exits 0 only when what it asserts held.
#
#   dump-table      eel-probe on a captured QEMU q35 machine (q35-lspci-xxx.txt, `lspci -xxx`
#                   in a bench guest with edu, e1000, a virtio-rng behind a PCIe root port)
#   dump-json       the same, --json, field by field
#   machine         eel-probe on this machine: one entry per /sys/bus/pci function
#   probe-bad-input eel-probe: bad address, missing function, missing dump, bad option
#   bind-bad-input  eel-bind: bad address, missing function, not root, no module support
#   module-w1       `make module W=1` against the installed Debian headers: no warning
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
BUILD=${BUILD:-build}
PROBE=$BUILD/eel-probe
DUMP=tests/probe/q35-lspci-xxx.txt

fails=0
ok() { echo "ok    $*"; }
bad() { echo "FAIL  $*"; fails=$((fails + 1)); }
is() { if [ "$2" = "$3" ]; then ok "$1"; else bad "$1: got '$2', expected '$3'"; fi; }
done_() { [ $fails = 0 ] && echo "all passed" || echo "$fails FAILED"; exit $((fails > 0)); }

# refuse WHAT EXIT REGEX CMD...: CMD exits EXIT with exactly one stderr line matching REGEX
refuse() {
  local what=$1 want=$2 re=$3 rc err; shift 3
  err=$("$@" 2>&1 >/dev/null); rc=$?
  echo "      \$ $* -> exit $rc: $err"
  if [ "$rc" != "$want" ]; then bad "$what: exit $rc, expected $want"
  elif [ "$(printf '%s\n' "$err" | wc -l)" != 1 ] || ! grep -Eq -- "$re" <<< "$err"; then
    bad "$what: wanted one line matching /$re/"
  else ok "$what"; fi
}

need_build() { make -s "$PROBE" >/dev/null || { bad "cannot build $PROBE"; done_; }; }
command -v jq >/dev/null || { echo "FAIL  jq not found (Debian package jq): run \`sudo tools/setup pci\`"; exit 1; }

case ${1:-} in
dump-table)
  need_build
  out=$($PROBE --dump "$DUMP") || bad "eel-probe --dump exit $?"
  echo "$out" | sed 's/^/      /'
  # Network class by default: only the e1000.
  is "network functions in the dump" "$(echo "$out" | grep -c '^0000:')" 1
  grep -Eq '^0000:00:03\.0 +8086:100e +0200 .*Intel Corporation 82540EM Gigabit Ethernet Controller$' <<< "$out" \
    && ok "e1000 row: ID, class, name from pci.ids" || bad "e1000 row"
  all=$($PROBE --dump "$DUMP" --all)
  is "all functions in the dump" "$(echo "$all" | grep -c '^0000:')" "$(grep -Ec '^[0-9a-f]{2}:[0-9a-f]{2}\.[0-7] ' "$DUMP")"
  grep -Eq '^0000:01:00\.0 +1af4:1044 .* 2\.5GT/s x1 +2\.5GT/s x1 +128 +128 ' <<< "$all" \
    && ok "virtio-rng row: link now/max, MPS, MRRS" || bad "virtio-rng row"
  grep -Eq '^0000:00:01\.0 .* 2\.5GT/s x1 +16GT/s x32 ' <<< "$all" \
    && ok "root port row: 16 GT/s x32 capable, trained at 2.5 GT/s x1" || bad "root port row"
  sorted=$(echo "$all" | grep '^0000:' | cut -d' ' -f1)
  is "address order" "$sorted" "$(sort <<< "$sorted")"
  done_ ;;

dump-json)
  need_build
  $PROBE --dump "$DUMP" --all --json > "$BUILD/probe-dump.json" || bad "eel-probe --json exit $?"
  j() { jq -r "$1" "$BUILD/probe-dump.json" 2>&1; }
  f() { j ".functions[] | select(.address==\"$1\") | $2"; }
  is "valid JSON, version 2" "$(j .eel_probe_version)" 2
  is "named as every eel document: schema, schema_version" "$(j '"\(.schema) \(.schema_version)"')" "eel.probe 2"
  is "a dump has no map: netdevs, rdma, uris, soft_rdma null" "$(j '[.functions[] | select(.netdevs != null or .rdma != null or .uris != null)] | length') $(j .soft_rdma)" "0 null"
  is "e1000 identity" "$(f 0000:00:03.0 '"\(.vendor_id):\(.device_id) \(.subsystem_vendor_id):\(.subsystem_device_id) \(.class) \(.revision)"')" "8086:100e 1af4:1100 020000 3"
  is "e1000 names" "$(f 0000:00:03.0 '"\(.vendor)|\(.device)|\(.class_name)"')" "Intel Corporation|82540EM Gigabit Ethernet Controller|Ethernet controller"
  is "e1000: conventional PCI, no link" "$(f 0000:00:03.0 '"\(.pcie_type) \(.link) \(.max_payload)"')" "pci null null"
  is "edu: not in pci.ids" "$(f 0000:00:02.0 '"\(.vendor) \(.device) \(.class)"')" "null null 00ff00"
  is "virtio-rng: endpoint, link, sizes" "$(f 0000:01:00.0 '"\(.pcie_type) \(.link.speed_gts)x\(.link.width) \(.link_max.speed_gts)x\(.link_max.width) \(.max_payload)/\(.max_payload_supported)/\(.max_read_request)"')" "endpoint 2.5x1 2.5x1 128/128/128"
  is "root port" "$(f 0000:00:01.0 '"\(.pcie_type) \(.link_max.speed_gts)x\(.link_max.width)"')" "root-port 16x32"
  is "a dump knows no driver, NUMA node or IOMMU group" "$(j '[.functions[] | select(.driver != null or .numa_node != null or .iommu_group != null)] | length')" 0
  is "config space read whole" "$(j '[.functions[] | select(.config_readable | not)] | length')" 0
  done_ ;;

machine)
  need_build
  if [ ! -d /sys/bus/pci/devices ]; then
    refuse "no /sys/bus/pci: one clear line" 1 "sys/bus/pci" $PROBE --all
    done_
  fi
  n=$(ls /sys/bus/pci/devices | wc -l)
  $PROBE --all --json > "$BUILD/probe-machine.json" || bad "eel-probe --all --json exit $?"
  $PROBE --all | sed 's/^/      /'
  is "one entry per function in sysfs" "$(jq '.functions | length' "$BUILD/probe-machine.json")" "$n"
  for d in /sys/bus/pci/devices/*; do
    a=${d##*/}
    drv=$(readlink "$d/driver") && drv=${drv##*/}
    want="$(cut -c3- "$d/vendor"):$(cut -c3- "$d/device") ${drv:--}"
    is "$a: ID and driver as sysfs has them" "$(jq -r ".functions[] | select(.address==\"$a\") | \"\(.vendor_id):\(.device_id) \(.driver // \"-\")\"" "$BUILD/probe-machine.json")" "$want"
  done
  net=$(grep -l '^0x02' /sys/bus/pci/devices/*/class | wc -l)
  is "default listing: the network functions" "$($PROBE --json | jq '.functions | length')" "$net"
  # the map: each network device on its PCI function (its sysfs device link, a virtio-net's
  # below the function), with the af_packet URI, in the JSON and in the table
  table=$($PROBE --all)
  for n in /sys/class/net/*; do
    [ -e "$n/device" ] || continue
    a=$(readlink -f "$n/device" | grep -oE '[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]' | tail -n 1)
    [ -n "$a" ] || continue
    nd=${n##*/}
    is "$a: netdev $nd and its af_packet URI in the map" \
      "$(jq -r ".functions[] | select(.address==\"$a\") | (.netdevs | index(\"$nd\") != null), any(.uris[]; .uri == \"dpdk:net_af_packet0,iface=$nd\")" "$BUILD/probe-machine.json" | tr '\n' ' ')" "true true "
    grep -Eq "^$a +[-0-9]+ +[^ ]+ +([^ ]*,)?$nd(,[^ ]*)? .*dpdk:$a" <<< "$table" && ok "$a: its row in the map's table" || bad "$a: no row naming $nd in the map's table"
    if [ "$(cat /sys/bus/pci/devices/$a/vendor):$(cat /sys/bus/pci/devices/$a/device)" = 0x8086:0x100e ]; then
      is "$a: an 82540EM: raw's URI" "$(jq -r ".functions[] | select(.address==\"$a\") | any(.uris[]; .uri == \"raw:$a\")" "$BUILD/probe-machine.json")" true
    fi
  done
  for r in /sys/class/infiniband/*; do
    [ -e "$r" ] || continue
    if [ -e "$r/device" ]; then
      a=$(readlink -f "$r/device" | grep -oE '[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]' | tail -n 1)
      is "${r##*/} on $a: verbs URI" "$(jq -r ".functions[] | select(.address==\"$a\") | any(.uris[]; .uri == \"verbs:${r##*/}\")" "$BUILD/probe-machine.json")" true
    else
      is "soft RDMA ${r##*/}: verbs URI and its netdev" "$(jq -r ".soft_rdma[] | select(.device==\"${r##*/}\") | \"\(.uri) \(.netdev)\"" "$BUILD/probe-machine.json")" "verbs:${r##*/} $(cat "$r/parent" 2>/dev/null || cat "$r/ports/1/gid_attrs/ndevs/0")"
    fi
  done
  done_ ;;

probe-bad-input)
  need_build
  refuse "not an address" 2 "'00:3' is not a PCI address: use DDDD:BB:DD.F or BB:DD.F" $PROBE 00:3
  refuse "device number out of range" 2 "not a PCI address: device is 00..1f" $PROBE 00:20.0
  refuse "no such function (dump)" 1 "no PCI function 0000:00:09.7 here: list them with .eel-probe --all." $PROBE --dump "$DUMP" 00:09.7
  refuse "missing dump file" 1 "cannot read the dump file /nonexistent: No such file or directory: give a file that \`lspci -xxx\` wrote" $PROBE --dump /nonexistent
  refuse "a dump that is not one" 1 "holds no PCI function: make one with .lspci -xxx" $PROBE --dump tests/probe/check.sh --all
  refuse "a malformed dump" 1 "libpci: dump: Malformed line: is tests/probe/malformed-lspci.txt the output of .lspci -xxx.\?" $PROBE --dump tests/probe/malformed-lspci.txt
  refuse "unknown option" 2 "unknown option '--bogus': see .eel-probe --help." $PROBE --bogus
  done_ ;;

bind-bad-input)
  refuse "not an address" 1 "'00:3' is neither a PCI address" tools/eel-bind 00:3
  refuse "no such function" 1 "no PCI function 0000:00:09.7 here: list them with" tools/eel-bind 00:09.7
  refuse "no function with that ID" 1 "no PCI function with ID 1234:0000 here" tools/eel-bind 1234:0000
  refuse "--unbind takes addresses" 1 "--unbind takes addresses" tools/eel-bind --unbind 1234:11e8
  if [ -d /sys/bus/pci/devices ] && [ "$(id -u)" = 0 ]; then
    a=$(ls /sys/bus/pci/devices | head -n 1)
    # a copy nobody can read: the checkout may sit in a folder only root may enter
    t=$(mktemp -d) && chmod 755 "$t" && install -m 755 tools/eel-bind "$t/eel-bind"
    refuse "not root" 1 "needs root: run .sudo tools/eel-bind" setpriv --reuid=65534 --regid=65534 --clear-groups "$t/eel-bind" "$a"
    rm -rf "$t"
    if [ -e /proc/modules ]; then
      [ -d /sys/bus/pci/drivers/eel_pci ] || refuse "module not loaded" 1 "eel_pci is not loaded: build it with .make module" tools/eel-bind "$a"
    else
      refuse "a kernel without modules" 1 "cannot load modules, so no eel_pci here" tools/eel-bind "$a"
    fi
  else
    bad "bind-bad-input wants root and /sys/bus/pci to check the root and module messages"
  fi
  done_ ;;

module-w1)
  out=$(make -s module W=1 2>&1); rc=$?   # KVER: the guest kernel's, as driver/driver.mk picks it
  echo "$out" | sed 's/^/      /'
  is "make module W=1 exit" "$rc" 0
  if grep -qiE 'warning|error' <<< "$out"; then bad "compiler warnings"; else ok "no warning at W=1"; fi
  modinfo -F vermagic driver/eel_pci.ko | sed 's/^/      vermagic: /'
  done_ ;;

*) echo "usage: tests/probe/check.sh dump-table|dump-json|machine|probe-bad-input|bind-bad-input|module-w1" >&2; exit 2 ;;
esac
