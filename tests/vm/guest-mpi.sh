#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/vm/guest-mpi.sh BUILD KEYDIR [DEV] — the guest half of suite-mpi.sh; runs in both VMs
# (tests/vm/run-vm --vms 2). Two nodes, eel-vm0 (10.99.0.1) and eel-vm1 (10.99.0.2),
# each with Soft-RoCE (rxe0) on its e1000; one mpirun on eel-vm0 starts two ranks on
# each node, reaching eel-vm1 over ssh (OpenSSH's client, Dropbear's server).
#
#   both VMs: a host name of their own (the guests share the host's /etc, so its hostname
#             and /etc/hosts are overlaid in the guest: bind mounts of files in /tmp),
#             rxe0 on eth0, ACTIVE
#   eel-vm1:  Dropbear on 10.99.0.2:22, its host key made here, root's authorized key
#             the suite's (KEYDIR/id_ed25519.pub); then it waits for eel-vm0's word
#   eel-vm0:  ssh to eel-vm1 until it answers, then
#             1. mpirun -np 4 eel-bench -d verbs:DEV (rxe0) -t allpairs --json allpairs.json
#             2. mpirun -np 4 eel-mpi (Open MPI's TCP between nodes) --json mpi.json
#             and writes mpi.done into its $EEL_VM_OUT, which ends eel-vm1.
# Outputs in $EEL_VM_OUT; the host (suite-mpi.sh) checks them.
set -euo pipefail
B=${1:-build}
keys=${2:?KEYDIR}
dev=${3:-rxe0}   # another name breaks the run on purpose (suite-mpi.sh: EEL_VM_MPI_DEV)
out=$EEL_VM_OUT
me="guest-mpi (vm$EEL_VM_INDEX)"
. "$(dirname "$0")/lib/guest-bench.sh"  # fail, step, wait_active
vm0_out=${out%/vm"$EEL_VM_INDEX"/out}/vm0/out   # eel-vm0's $EEL_VM_OUT: the results share is one for both VMs

# ---- both VMs: names, and rxe0 ----
# The guests run the host's /etc (read-only): a hostname of each VM's own, and an
# /etc/hosts that names both, are files in /tmp bind-mounted over the host's in this
# guest only. eel-bench's ranks name each other by host name (bench/launch/mesh.c), Open MPI
# its nodes.
step "host name eel-vm$EEL_VM_INDEX, /etc/hosts, rxe0"
mkdir -p /tmp/eel-etc
printf '127.0.0.1\tlocalhost\n10.99.0.1\teel-vm0\n10.99.0.2\teel-vm1\n' >/tmp/eel-etc/hosts
mount --bind /tmp/eel-etc/hosts /etc/hosts || fail "mount --bind /tmp/eel-etc/hosts /etc/hosts"
hostname "eel-vm$EEL_VM_INDEX" || fail "hostname eel-vm$EEL_VM_INDEX"
[ "$(getent hosts "eel-vm$((1 - EEL_VM_INDEX))" | awk '{print $1}')" = "$EEL_VM_PEER_IP" ] ||
  fail "eel-vm$((1 - EEL_VM_INDEX)) does not resolve to $EEL_VM_PEER_IP"
rdma link add rxe0 type rxe netdev eth0 || fail "rdma link add rxe0 type rxe netdev eth0"
wait_active rxe0

# ---- eel-vm1: the ssh server, until eel-vm0 is done ----
if [ "$EEL_VM_INDEX" = 1 ]; then
  step "Dropbear on $EEL_VM_IP:22"
  # Dropbear takes root's authorized_keys from root's home in /etc/passwd (/root, read-only
  # here) and wants that home and its .ssh writable by root alone (/tmp is not): root's
  # home is /tmp/eel-root in this guest's passwd. A shadow of its own says root's account
  # is not locked (Dropbear refuses a locked one even its key); no password is set, and
  # Dropbear is told to take none (-s).
  mkdir -m 700 /tmp/eel-root /tmp/eel-root/.ssh
  install -m 600 "$keys/id_ed25519.pub" /tmp/eel-root/.ssh/authorized_keys
  sed 's#^root:\([^:]*\):0:0:\([^:]*\):[^:]*:#root:x:0:0:\2:/tmp/eel-root:#' /etc/passwd >/tmp/eel-etc/passwd
  grep -q '^root:x:0:0:[^:]*:/tmp/eel-root:' /tmp/eel-etc/passwd || fail "no root line to rewrite in /etc/passwd"
  echo 'root:*:19000:0:99999:7:::' >/tmp/eel-etc/shadow && chmod 600 /tmp/eel-etc/shadow
  mount --bind /tmp/eel-etc/passwd /etc/passwd || fail "mount --bind over /etc/passwd"
  mount --bind /tmp/eel-etc/shadow /etc/shadow || fail "mount --bind over /etc/shadow"
  dropbearkey -t ed25519 -f /tmp/eel-root/host_ed25519 >/dev/null 2>&1 || fail "dropbearkey"
  dropbear -F -E -s -m -p "$EEL_VM_IP:22" -r /tmp/eel-root/host_ed25519 -P /tmp/eel-root/dropbear.pid \
    >"$out/dropbear.log" 2>&1 &
  sshd=$!
  # eel-vm0 says it is done (or fails: run-vm then stops this VM 20 s later)
  for _ in $(seq 1500); do
    [ -e "$vm0_out/mpi.done" ] && break
    kill -0 $sshd 2>/dev/null || { cat "$out/dropbear.log"; fail "Dropbear ended"; }
    sleep 0.2
  done
  kill $sshd
  [ -e "$vm0_out/mpi.done" ] || fail "eel-vm0 did not finish within 300 s"
  step "done (eel-vm0 finished)"
  exit 0
fi

# ---- eel-vm0: ssh, then the launcher ----
trap 'touch "$out/mpi.done"' EXIT   # eel-vm1's word to end, passed or failed
mkdir -p -m 700 /tmp/eel-ssh
install -m 600 "$keys/id_ed25519" /tmp/eel-ssh/id_ed25519
# OpenSSH's client takes its files from root's home in /etc/passwd (/root, read-only
# here): every file it uses is named in this config.
cat >/tmp/eel-ssh/config <<'CONF'
Host *
  User root
  IdentityFile /tmp/eel-ssh/id_ed25519
  IdentitiesOnly yes
  BatchMode yes
  StrictHostKeyChecking no
  UserKnownHostsFile /dev/null
  LogLevel ERROR
  ConnectTimeout 20
CONF
chmod 600 /tmp/eel-ssh/config
step "ssh eel-vm1"
ok=0
for _ in $(seq 60); do
  if timeout 30 ssh -F /tmp/eel-ssh/config eel-vm1 hostname >"$out/ssh.txt" 2>&1; then ok=1 && break; fi
  sleep 1
done
[ $ok = 1 ] || fail "ssh eel-vm1 did not answer in 60 tries: $(cat "$out/ssh.txt")"
[ "$(cat "$out/ssh.txt")" = eel-vm1 ] || fail "ssh eel-vm1 hostname said: $(cat "$out/ssh.txt")"

printf 'eel-vm0 slots=2\neel-vm1 slots=2\n' >/tmp/eel-ssh/hosts
# One mpirun: ranks 0, 1 on eel-vm0 and 2, 3 on eel-vm1 (slots filled in order), Open
# MPI's daemon on eel-vm1 started over ssh (plm_rsh_agent, this guest's config), its
# control channel and MPI's messages between nodes on eth0 (TCP), shared memory within
# one (vader). UCX and openib are left out: their own verbs use of rxe0 is not measured.
MPI=(mpirun --allow-run-as-root --hostfile /tmp/eel-ssh/hosts -np 4 --bind-to none
     --mca plm_rsh_agent "ssh -F /tmp/eel-ssh/config" --mca plm_rsh_no_tree_spawn 1
     --mca oob_tcp_if_include eth0 --mca btl_tcp_if_include eth0 --mca pml ob1 --mca btl self,vader,tcp)
echo "${MPI[*]}" >"$out/mpirun-args.txt"

# Under TCG an rxe round trip takes ~20 ms (tests/vm/README.md): a few round trips a pair.
BENCH_ARGS=(-d "verbs:$dev" -t allpairs -n 10 -r 2 --warmup 2 --depths 4 --flood-runs 2 --flood-msgs 64
            --timeout 60 --json "$out/allpairs.json")
echo "${BENCH_ARGS[*]}" >"$out/eel-bench-args.txt"
step "${MPI[*]} $B/eel-bench ${BENCH_ARGS[*]}"
rc=0 && timeout 240 "${MPI[@]}" "$B/eel-bench" "${BENCH_ARGS[@]}" >"$out/allpairs.txt" 2>&1 || rc=$?
cat "$out/allpairs.txt"
[ $rc = 0 ] || fail "mpirun of eel-bench exited $rc"

MPI_ARGS=(--sizes 0,8,4096,65536 --reps 5 --warm 2 --pp-iters 20 --iters 20 --runs 2 --warmup 5
          --flood-sizes 8,4096 --depths 1,8 --flood-msgs 64 --overlap-msgs 8 --overlap-runs 1 --overlap-sweeps 1
          --json "$out/mpi.json")
echo "${MPI_ARGS[*]}" >"$out/eel-mpi-args.txt"
step "${MPI[*]} $B/eel-mpi ${MPI_ARGS[*]}"
rc=0 && timeout 300 "${MPI[@]}" "$B/eel-mpi" "${MPI_ARGS[@]}" >"$out/mpi.txt" 2>&1 || rc=$?
cat "$out/mpi.txt"
[ $rc = 0 ] || fail "mpirun of eel-mpi exited $rc"
step "done"
