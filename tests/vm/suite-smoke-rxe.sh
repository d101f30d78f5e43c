#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/vm/suite-smoke-rxe.sh — proof that the VM bench works end to end: two VMs joined by
# -netdev socket, Soft-RoCE (rdma_rxe) on eth0 in each, perftest's ib_write_lat between
# them with the real rdma-core stack (guest half: tests/vm/guest-smoke-rxe.sh).
# EEL_SMOKE_RXE_DEV overrides the device handed to ib_write_lat (to see it fail).
set -euo pipefail
cd "$(dirname "$0")/../.."
res=build/vm/results/smoke-rxe

tests/vm/run-vm --name smoke-rxe --vms 2 --timeout 240 -- \
  tests/vm/guest-smoke-rxe.sh "${EEL_SMOKE_RXE_DEV:-rxe0}"

# run-vm passed, so both guests exited 0; check on the host too that the perftest
# output was saved and holds a latency table.
for f in vm0/out/ib_write_lat-client.txt vm1/out/ib_write_lat-server.txt; do
  grep -Eq '^ *#bytes +#iterations +t_min' "$res/$f" || { echo "suite-smoke-rxe: no latency table in $res/$f" >&2; exit 1; }
done
grep -E '^ *2 +[0-9]+ ' "$res/vm0/out/ib_write_lat-client.txt" | sed 's/^/suite-smoke-rxe: client row: /'
