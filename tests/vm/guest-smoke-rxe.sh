#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/vm/guest-smoke-rxe.sh [DEVICE] — the guest half of suite-smoke-rxe.sh; runs in
# both VMs (tests/vm/run-vm --vms 2). Soft-RoCE over eth0 in each (VM-RECIPE.md: rxe
# needs crc32_generic, loaded by run-vm), then perftest's ib_write_lat: server in VM1,
# client in VM0. DEVICE (default rxe0) is the name handed to ib_write_lat -d; the
# suite's own check that a wrong one fails passes something else.
set -euo pipefail
dev=${1:-rxe0}
# 100 round trips: enough for a table. Under TCG, with two busy VMs on two cores, one
# takes ~20 ms (absolute times are meaningless here, VM-RECIPE.md): 1000 would add 20 s.
iters=100
out=$EEL_VM_OUT
me="guest-smoke-rxe (vm$EEL_VM_INDEX)"
fail() { echo "$me: FAIL: $*" >&2; exit 1; }
step() { echo "$me: [up $(cut -d' ' -f1 /proc/uptime) s] $*"; }

step "rdma link add rxe0 type rxe netdev eth0"
rdma link add rxe0 type rxe netdev eth0 || fail "rdma link add rxe0 type rxe netdev eth0"
rdma link show | tee "$out/rdma-link.txt"
grep -q 'link rxe0/1 state ACTIVE' "$out/rdma-link.txt" || fail "rxe0 is not ACTIVE"
[ -c /dev/infiniband/uverbs0 ] || fail "no /dev/infiniband/uverbs0 (ib_uverbs)"

if [ "$EEL_VM_INDEX" = 1 ]; then
  step "ib_write_lat server: waiting for the client (at most 120 s)"
  rc=0 && timeout 120 ib_write_lat -d "$dev" -n "$iters" >"$out/ib_write_lat-server.txt" 2>&1 || rc=$?
  cat "$out/ib_write_lat-server.txt"
  [ $rc = 0 ] || fail "ib_write_lat server exited $rc"
  step "server ok"
  exit 0
fi

ibv_devices | tee "$out/ibv_devices.txt"
grep -qw rxe0 "$out/ibv_devices.txt" || fail "ibv_devices does not list rxe0"

# Client: the server may still be starting; retry (1 s apart) while it refuses the connection.
log=$out/ib_write_lat-client.txt
step "ib_write_lat client to $EEL_VM_PEER_IP"
for try in $(seq 60); do
  rc=0 && timeout 120 ib_write_lat -d "$dev" -n "$iters" "$EEL_VM_PEER_IP" >"$log" 2>&1 || rc=$?
  [ $rc = 0 ] && break
  grep -q "Couldn't connect to" "$log" || { cat "$log"; fail "ib_write_lat client exited $rc"; }
  sleep 1
done
cat "$log"
[ $rc = 0 ] || fail "ib_write_lat client could not reach the server in 60 tries"
grep -Eq '^ *#bytes +#iterations +t_min' "$log" || fail "no latency table header in the client's output"
grep -Eq '^ *2 +[0-9]+ +[0-9.]+ +[0-9.]+' "$log" || fail "no latency row for 2-byte messages in the client's output"
step "client ok (connected at try $try)"
