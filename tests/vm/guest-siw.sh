#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/vm/guest-siw.sh BUILD SIW_KO — the guest half of suite-siw.sh; runs in both VMs
# (tests/vm/run-vm --vms 2 --modules siw), VM1 the server, VM0 the client.
#
# Soft-iWARP (siw) on eth0 in each VM: an iWARP queue pair cannot be brought to
# RTS by ibv_modify_qp alone, so eel's verbs backend connects it through the
# RDMA connection manager (userlib/verbs/verbs_cm.c). Then eel-bench's ping-pong,
# flood and overlap with --verify and --json; and a wrong peer address is one
# clear line. Outputs in $EEL_VM_OUT; the host checks the JSON.
set -euo pipefail
B=${1:-build}
SIW_KO=$2
out=$EEL_VM_OUT
me="guest-siw (vm$EEL_VM_INDEX)"
peer=$EEL_VM_PEER_IP
. "$(dirname "$0")/lib/guest-bench.sh" # fail, step, wait_active, bench_pair

# Under TCG a round trip takes milliseconds: few iterations (as suite-verbs).
BENCH_ARGS=(-t pingpong,flood,overlap -n 5 -r 11 --warmup 5 --stamp-every 4 --sizes 8,512,4096
            --depths 8 --flood-msgs 2000 --flood-runs 2 --overlap-msgs 16 --overlap-runs 1
            --overlap-sweeps 1 --timeout 60)
printf '%s\n' "${BENCH_ARGS[*]}" >"$out/eel-bench-args.txt"

step "insmod $SIW_KO (built from Debian's source of this kernel: tests/vm/lib/siw.sh)"
insmod "$SIW_KO" || fail "insmod $SIW_KO"
step "rdma link add siw0 type siw netdev eth0"
rdma link add siw0 type siw netdev eth0 || fail "rdma link add siw0 type siw netdev eth0"
wait_active siw0
rdma link show | tee "$out/rdma-link.txt"
grep -q 'link siw0/1 state ACTIVE' "$out/rdma-link.txt" || fail "siw0 is not ACTIVE"
ibv_devices | grep -qw siw0 || fail "ibv_devices does not list siw0"

step "eel-bench ${BENCH_ARGS[*]}"
bench_pair verbs:siw0 18620 "${BENCH_ARGS[@]}"
step "done"
