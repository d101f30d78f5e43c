#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/vm/suite-harness.sh — tests/vm/run-vm itself: what a guest sees (guest-harness.sh),
# and that a failing guest command and a guest over its time limit make run-vm fail,
# saying so. About 20 s.
set -euo pipefail
cd "$(dirname "$0")/../.."
res=build/vm/results
fail() { echo "suite-harness: FAIL $*" >&2; exit 1; }

# 1. Everything a guest is promised.
tests/vm/run-vm --name harness --nics 2 --hugepages 16 --device edu --modules dummy --timeout 120 -- \
  tests/vm/guest-harness.sh
grep -qx written-in-guest "$res/harness/vm0/out/probe.txt" || fail "the guest's EEL_VM_OUT file is not on the host"
grep -q '^guest-harness: all checks passed' "$res/harness/vm0/output.log" || fail "no 'all checks passed' in output.log"
echo "suite-harness: ok   guest environment"

# 2. A guest command that fails: run-vm fails, names the VM and the exit status.
out=$(tests/vm/run-vm --name harness-fail --nics 0 --timeout 120 -- sh -c 'echo harness-marker; exit 7' 2>&1) \
  && fail "run-vm passed although the guest command exited 7"
grep -q 'FAIL harness-fail vm0: guest command exited 7' <<<"$out" || { echo "$out"; fail "no clear failure line for exit 7"; }
grep -q 'harness-marker' <<<"$out" || fail "the console's last lines were not shown"
[ "$(cat "$res/harness-fail/vm0/rc")" = 7 ] || fail "vm0/rc is not 7"
echo "suite-harness: ok   a failing guest command fails run-vm"

# 3. A guest over its time limit is killed, and run-vm says so.
t0=$SECONDS
out=$(tests/vm/run-vm --name harness-timeout --nics 0 --timeout 8 -- sleep 600 2>&1) \
  && fail "run-vm passed although the guest slept past its time limit"
grep -q 'FAIL harness-timeout vm0: killed at its time limit (--timeout 8)' <<<"$out" || { echo "$out"; fail "no clear timeout line"; }
[ $((SECONDS - t0)) -lt 30 ] || fail "run-vm took $((SECONDS - t0)) s for an 8 s time limit"
echo "suite-harness: ok   a guest over its time limit is killed"
