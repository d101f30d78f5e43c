#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# eel-bench under Slurm's srun --mpi=pmix (Debian's Slurm, its PMIx plugin):
# a controller and a node daemon for this machine alone, started here with a
# generated slurm.conf (no authentication daemon: auth/none, ports of their
# own, state in a temporary folder), then srun -n 4 of allpairs and k-to-1
# on the software NIC. Both daemons are stopped by their pids at the end.
set -uo pipefail
B=$(cd "${EEL_BUILD:-build}" && pwd)
d=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; sleep 0.5; kill -9 "${pids[@]}" 2>/dev/null; rm -rf "$d"' EXIT
for p in slurmctld slurmd srun sinfo; do
  command -v $p >/dev/null || { echo "FAILED: no $p: run tools/setup mpi"; exit 1; }
done
[ "$(id -u)" -eq 0 ] || { echo "FAILED: a test Slurm runs its node daemon as root (it starts jobs as their user)"; exit 1; }
host=$(hostname -s)
port=$((27000 + RANDOM % 20000))
mkdir -p "$d/state" "$d/spool"
cat >"$d/slurm.conf" <<CONF
ClusterName=eeltest$port
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/none
CredType=cred/none
MpiDefault=none
ProctrackType=proctrack/pgid
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
ReturnToService=2
SlurmdParameters=config_overrides
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/ctld.pid
SlurmdPidFile=$d/d.pid
SlurmctldLogFile=$d/ctld.log
SlurmdLogFile=$d/d.log
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
NodeName=$host NodeAddr=127.0.0.1 CPUs=4 State=UNKNOWN
PartitionName=eel Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
CONF
export SLURM_CONF=$d/slurm.conf
# under ASan: PMIx's own leaks are not eel's
export LSAN_OPTIONS=suppressions=$PWD/tests/host/mpi_lsan.supp:print_suppressions=0
slurmctld -D -i >"$d/ctld.out" 2>&1 & pids+=($!)
slurmd -D >"$d/d.out" 2>&1 & pids+=($!)
for _ in $(seq 100); do
  sinfo -h -o %T 2>/dev/null | grep -qx idle && break
  sleep 0.2
done
if ! sinfo -h -o %T 2>/dev/null | grep -qx idle; then
  echo "FAILED: the test Slurm's node did not come up:"; tail -5 "$d/ctld.log" "$d/d.log" 2>/dev/null; exit 1
fi
echo "ok: slurmctld and slurmd up (ports $port, $((port + 1)))"

cd "$d"
timeout 120 srun -n 4 --mpi=pmix "$B/eel-bench" -t allpairs,k-to-1 -n 200 -r 3 --warmup 50 --depths 4,16 \
  --flood-runs 3 --flood-msgs 1000 --timeout 20 --json "$d/s.json" >"$d/s.out" 2>"$d/s.err"
rc=$?
cat "$d/s.out"
if [ $rc -ne 0 ]; then echo "FAILED: srun exited $rc"; cat "$d/s.err"; tail -5 "$d/d.log"; exit 1; fi
jq -e '.schema_version == 12 and .launch.ranks == 4 and (.allpairs.pairs | length) == 12 and
  all(.allpairs.pairs[]; .measured and .eel.min_ns > 0 and .eel.min_ns <= .eel.median_ns and
      .eel.median_ns <= .eel.p99_ns and .g.min_ns > 0) and
  (.k_to_1.points | length) == 3 and all(.k_to_1.points[]; (.g_ns | length) == .k)' "$d/s.json" >/dev/null ||
  { echo "FAILED: srun's run is not complete and sane"; exit 1; }
echo "ok: srun -n 4 --mpi=pmix: allpairs' 12 pairs and k-to-1's 3 points"
