#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/vm/suite-mpi.sh — eel-bench and eel-mpi launched across two nodes: two VMs, two
# ranks each, one Open MPI mpirun reaching the second VM over ssh, Soft-RoCE (rxe) verbs
# under eel-bench allpairs (guest half: tests/vm/guest-mpi.sh).
#
# Why Open MPI over ssh (OpenSSH's client on eel-vm0, Dropbear's server on eel-vm1):
# it is how the issue and most clusters without a batch system launch; it needs one
# daemon in one guest, where Slurm across the VMs would need three (slurmctld, a slurmd
# in each) and one configuration both guests agree on (eel-bench's srun path is tested
# on the host by tests/host/slurm_srun.sh); and the same mpirun starts both eel-bench
# (PMIx only) and eel-mpi (MPI). It passed every time it was run under TCG here. Dropbear (`dropbear-bin`) rather than OpenSSH's server: its package is
# the programs alone, where installing `openssh-server` on the build machine would
# enable and start an sshd there. The guest starts Dropbear with a host key it makes,
# on eth0 only, keys only (-s); the client key is made here, fresh at each run.
#
# Checked here, on the host:
#   allpairs.json: 4 ranks on two host names, 2 on each; all 12 ordered pairs measured
#     with EEL > 0 and g > 0; intra-node pairs (same host) and inter-node pairs present,
#     each rank on rxe0
#   mpi.json: both tiers (intra-node: a rank of rank 0's node; inter-node: one of the
#     other), every Figure 2 timer > 0 in each, `logh` filled, the LoGH line printed
#   the figures (rxe under TCG: they mean little) into build/vm/results/mpi/figures.txt
# To see it fail: EEL_VM_MPI_DEV=rxe9 tests/vm/suite-mpi.sh (every rank: no such device).
set -euo pipefail
cd "$(dirname "$0")/../.."
B=${BUILD:-build}
res=build/vm/results/mpi
keys=build/vm/mpi-ssh
for p in mpirun:mpi dropbear:vm dropbearkey:vm ssh:vm ssh-keygen:vm; do
  command -v "${p%:*}" >/dev/null || { echo "suite-mpi: FAIL: no ${p%:*}: run \`sudo tools/setup ${p#*:}\`" >&2; exit 1; }
done
make -s BUILD="$B" "$B/eel-bench" "$B/eel-mpi"

# The client's key, fresh (the guests read the repository: build/ is in it)
rm -rf "$keys" && mkdir -p -m 700 "$keys"
ssh-keygen -q -t ed25519 -N '' -C eel-vm-mpi -f "$keys/id_ed25519"

t0=$(date +%s)
# Two vCPUs a VM: two ranks of a node each spin on one (one vCPU would give each
# round trip between them a scheduler's timeslice).
rc=0 && tests/vm/run-vm --name mpi --vms 2 --smp 2 --mem 1536 --timeout 420 -- \
  tests/vm/guest-mpi.sh "$B" "$keys" "${EEL_VM_MPI_DEV:-rxe0}" || rc=$?
wall=$(( $(date +%s) - t0 ))
rm -rf "$keys"
[ $rc = 0 ] || exit $rc

die() { echo "suite-mpi: FAIL: $*" >&2; exit 1; }
o=$res/vm0/out
for f in "$o/allpairs.json" "$o/allpairs.txt" "$o/mpi.json" "$o/mpi.txt"; do
  [ -s "$f" ] || die "missing $f"
done

# ---- eel-bench allpairs over rxe, ranks on two nodes ----
JQ_FILE=$o/allpairs.json JQ_WHO=suite-mpi
. tests/vm/lib/jq-check.sh
check '.launch.by == "pmix" and .launch.ranks == 4 and .nic.uri == "verbs:rxe0"' "4 ranks launched through PMIx, on verbs:rxe0"
check '[.launch.ranks_at[] | .host] == ["eel-vm0", "eel-vm0", "eel-vm1", "eel-vm1"]' \
  "ranks 0, 1 on eel-vm0 and 2, 3 on eel-vm1 (two nodes, two ranks each)"
check 'all(.launch.ranks_at[]; .nic == "rxe0" and (.pci | test("^0000:00:03")))' \
  "every rank on its node's rxe0, over the e1000 at 00:03.0"
check '(.allpairs.pairs | length) == 12 and ([.allpairs.pairs[] | "\(.from)-\(.to)"] | unique | length) == 12' \
  "all 12 ordered pairs, each once"
check 'all(.allpairs.pairs[]; .measured and .eel.min_ns > 0 and .eel.min_ns <= .eel.median_ns and
  .eel.median_ns <= .eel.p99_ns and .g.min_ns > 0)' "every pair measured: EEL > 0 (min <= median <= p99), g > 0"
check '[.launch.ranks_at[] | .host] as $h | [.allpairs.pairs[] | select($h[.from] == $h[.to])] | length == 4' \
  "4 intra-node pairs (0<->1 on eel-vm0, 2<->3 on eel-vm1)"
check '[.launch.ranks_at[] | .host] as $h | [.allpairs.pairs[] | select($h[.from] != $h[.to])] | length == 8' \
  "8 inter-node pairs"

# ---- eel-mpi, both tiers ----
JQ_FILE=$o/mpi.json
check '.schema == "eel.mpi" and .ranks == 4' "eel-mpi: 4 ranks"
check '[.tiers[] | .tier] == ["intra-node", "inter-node"]' "both tiers measured"
check '(.tiers[] | select(.tier == "intra-node") | .peer_rank) == 1 and
  (.tiers[] | select(.tier == "inter-node") | .peer_rank) == 2' "intra-node with rank 1 (eel-vm0), inter-node with rank 2 (eel-vm1)"
check 'all(.tiers[]; (.fig2 | length) == 32 and
  all(.fig2[]; .timer11_ns > 0 and .timer12_ns > 0 and .timer21_ns > 0 and .timer22_ns > 0))' \
  "each tier: 8 modes x 4 sizes, every Figure 2 timer > 0"
check '.logh != null and .logh.s_s_ns > 0 and .logh.o_s_ns > 0 and .logh.L_ns != null' \
  "LoGH{sSP}: intra-node s_s, inter-node o_s and L"
grep -q "LoGH{sSP} (section 3.3): intra-node s_s" "$o/mpi.txt" || die "eel-mpi printed no LoGH line: $o/mpi.txt"
echo "suite-mpi: ok: the LoGH line printed"

# ---- the figures ----
{
  echo "eel-bench allpairs over rxe between two QEMU/TCG VMs, 2 ranks each (one mpirun, ssh);"
  echo "absolute times under emulation mean little. Run wall time: $wall s."
  echo "  $(cat "$o/eel-bench-args.txt")"
  jq -r '[.launch.ranks_at[] | .host] as $h | .allpairs.pairs[] |
    "  \(.from)->\(.to)  \(if $h[.from] == $h[.to] then "intra" else "inter" end)  EEL median \(.eel.median_ns / 1e3 | . * 10 | round / 10) us  g median \(.g.median_ns / 1e3 | . * 10 | round / 10) us"' \
    "$o/allpairs.json"
  echo "eel-mpi, ranks 0-1 (intra-node) and 0-2 (inter-node):"
  echo "  $(cat "$o/eel-mpi-args.txt")"
  grep -E "LoGH|LogGP:|ping-pong" "$o/mpi.txt" | sed 's/^ */  /'
} >"$res/figures.txt"
sed 's/^/suite-mpi: /' "$res/figures.txt"
