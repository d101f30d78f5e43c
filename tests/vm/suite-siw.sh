#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/vm/suite-siw.sh — the verbs backend on Soft-iWARP (siw) between two VMs (guest
# half: tests/vm/guest-siw.sh): an iWARP queue pair connected through the RDMA
# connection manager (userlib/verbs/verbs_cm.c), then eel-bench's ping-pong, flood and overlap
# with every put verified. Debian's kernel ships no siw module: tests/vm/lib/siw.sh builds
# it from Debian's source of the guest kernel. Checked here: the JSON is complete and
# consistent, the NIC says it is iWARP without notify (no immediate data in an iWARP
# RDMA WRITE).
set -euo pipefail
cd "$(dirname "$0")/../.."
B=${BUILD:-build}
res=build/vm/results/siw
make -s BUILD="$B" "$B/eel-bench"
# Debian's kernel has no siw: built here from Debian's source of that kernel
source tests/vm/lib/common.sh
source tests/vm/lib/kernel.sh
source tests/vm/lib/linux-source.sh
source tests/vm/lib/siw.sh
siw=$(siw_build "$(kernel_version)")

tests/vm/run-vm --name siw --vms 2 --modules "libcrc32c crc32c_generic rdma_cm" --timeout 300 -- \
  tests/vm/guest-siw.sh "$B" "$siw"

die() { echo "suite-siw: FAIL: $*" >&2; exit 1; }
j=$res/vm0/out/eel.json
[ -s "$j" ] || die "missing $j"
JQ_FILE=$j JQ_WHO=suite-siw
. tests/vm/lib/jq-check.sh
check '.nic.backend == "verbs" and .nic.name == "siw0"' "the run was on verbs:siw0"
check '.options.verify == true' "--verify was on: every delivered byte was checked"
check '.nic.caps.notify == false' "no notify on iWARP (RFC 5040 has no immediate data)"
check '.nic.caps.doorbell | test("system call")' "the doorbell is labelled a system call (software RDMA)"
check '.parameters.eel.ns.median > 0 and .parameters.g.ns > 0 and .parameters.G.ns_per_byte > 0' "EEL, g, G > 0"
check '.parameters.o_s.ns <= .parameters.eel.ns.median' "o_s <= EEL"
check '((.options.sizes | length) * (.options.depths | length)) as $n | [.curves.flood[] | select(.ns_per_msg.min > 0)] | length == $n' \
  "every flood point measured"
check '.counters.local.puts > 0 and .counters.local.errors == 0 and .counters.peer.errors == 0' \
  "puts counted, no errors at either end"
jq -r '"suite-siw: EEL \(.parameters.eel.ns.median / 1000 | floor) us, g \(.parameters.g.ns / 1000 | floor) us (q=\(.parameters.g.q)), o_s \(.parameters.o_s.ns / 1000 | floor) us"' "$j"
