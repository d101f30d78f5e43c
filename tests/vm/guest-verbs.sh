#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/vm/guest-verbs.sh BUILD — the guest half of suite-verbs.sh; runs in both VMs
# (tests/vm/run-vm --vms 2), VM1 the server end of everything, VM0 the client.
#
#   1. bad input, each VM on its own: no RDMA device yet, a wrong device, a wrong port,
#      an empty gid_index, an unknown option, a port that is down (rxe on a dummy
#      device that is not up): eel-bench fails at once with one line naming the fix
#   2. tests/verbs_errors: eput/eget/notify/selective signalling, a bad rkey and two
#      out-of-range puts refused with nothing written, peers of another kind or
#      version refused, a peer that closes its NIC, a peer that dies
#   3. perftest ib_write_lat and ib_write_bw, 8 B (ib_write_bw at eel's deepest flood depth)
#   4. eel-bench ping-pong, flood and overlap with --verify and --json (BENCH_ARGS)
#   5. perftest again, as in 3: perftest before and after eel, so a load on the machine
#      that grows or shrinks during the run weighs on both tools alike
#   6. eel-bench's server when its client is killed mid-run: a prompt non-zero exit
# Outputs in $EEL_VM_OUT; the host (suite-verbs.sh) checks them and builds the table.
set -euo pipefail
B=${1:-build}
out=$EEL_VM_OUT
me="guest-verbs (vm$EEL_VM_INDEX)"
peer=$EEL_VM_PEER_IP
. "$(dirname "$0")/lib/guest-bench.sh" # fail, step, wait_active, bench_pair

# What the suite passes in its own environment does not reach the guest: the
# measurement parameters live here, and are saved with the results.
# Under TCG a round trip takes ~20-40 ms (more when the machine is loaded), and a flood
# at q=1 costs one round trip per message: hence few iterations, and no q=1 flood (the
# overlap test measures q=1). Round trips under TCG have a long tail (the host's
# scheduler): many short ping-pong runs give a median over runs that a stall moves
# little, as perftest's median over single iterations does. The 8-byte floods send as
# many messages as ib_write_bw, 10,000, so that eel's final reply (Bell et al. 2003 4.2: one
# round trip, ~40 ms here) weighs ~3% of a flood run (at 2,000 it weighed ~15%).
# Both tools post 8-byte puts inline (-I 8 for perftest).
LAT_ITERS=100                  # ib_write_lat round trips
BW_ITERS=10000                 # ib_write_bw messages (and eel's 8-byte flood)
BW_DEPTH=32                    # = the deepest eel flood depth below
BENCH_ARGS=(-t pingpong,flood,overlap -n 5 -r 25 --warmup 10 --stamp-every 4 --sizes 8,64,512,4096,16384
            --depths 8,$BW_DEPTH --flood-msgs $BW_ITERS --flood-bytes 524288 --flood-runs 2
            --overlap-msgs 16 --overlap-runs 1 --timeout 60)
printf '%s\n' "${BENCH_ARGS[*]}" >"$out/eel-bench-args.txt"
echo "$LAT_ITERS $BW_ITERS $BW_DEPTH" >"$out/perftest-args.txt"

# expect_bad 'text' ARGS...: eel-bench (as a client, so nothing is printed before the
# NIC opens) fails, promptly, with exactly one line that holds text.
expect_bad() {
  local text=$1 rc=0 n
  shift
  timeout 60 "$B/eel-bench" "$@" 127.0.0.1 >"$out/bad.out" 2>"$out/bad.err" || rc=$?
  n=$(wc -l <"$out/bad.err")
  [ $rc -ne 0 ] && [ $rc -ne 124 ] || fail "eel-bench $* exited $rc: wanted a prompt failure"
  grep -qF -- "$text" "$out/bad.err" || fail "eel-bench $*: wanted '$text', got: $(cat "$out/bad.err")"
  [ "$n" -eq 1 ] || fail "eel-bench $*: $n lines on stderr, wanted one: $(cat "$out/bad.err")"
  echo "ok: eel-bench -d ${2:-} -> exit $rc: $(cat "$out/bad.err")" | tee -a "$out/bad-input.txt"
}

# ---- 1. bad input ----
step "bad input"
expect_bad "no RDMA device: for Soft-RoCE run \`rdma link add rxe0 type rxe netdev eth0\`" -d verbs:rxe0
rdma link add rxe0 type rxe netdev eth0 || fail "rdma link add rxe0 type rxe netdev eth0"
wait_active rxe0
[ -c /dev/infiniband/uverbs0 ] || fail "no /dev/infiniband/uverbs0 (ib_uverbs)"
expect_bad "no RDMA device named 'rxe9': present: rxe0" -d verbs:rxe9
expect_bad "rxe0 has no port 2: its ports are 1 to 1" -d verbs:rxe0:2
expect_bad "bad port 'one' in verbs:rxe0:one" -d verbs:rxe0:one
expect_bad "gid_index=7 is empty on port 1 of rxe0" -d 'verbs:rxe0?gid_index=7'
expect_bad "unknown option 'bogus' for verbs" -d 'verbs:rxe0?bogus=1'
if [ "$EEL_VM_INDEX" = 0 ]; then
  # a port that is down: Soft-RoCE on a network device that is not up
  modprobe dummy numdummies=0 || fail "modprobe dummy"
  ip link add eeldown0 type dummy || fail "ip link add eeldown0 type dummy"
  rdma link add rxe1 type rxe netdev eeldown0 || fail "rdma link add rxe1 on eeldown0"
  expect_bad "port 1 of rxe1 is down, not ACTIVE: bring its Ethernet link up (\`ip link set eeldown0 up\`)" \
    -d verbs:rxe1
  expect_bad "several RDMA devices (rxe0, rxe1): say which" -d verbs
  rdma link delete rxe1 || fail "rdma link delete rxe1"
  ip link delete eeldown0
fi
# the chosen GID: RoCE v2 with this VM's IPv4 address
gid=$(cat /sys/class/infiniband/rxe0/ports/1/gids/1)
case $gid in *:ffff:0a63:*) ;; *) fail "rxe0's GID 1 is $gid, not IPv4-mapped 10.99.0.x" ;; esac

# ---- 2. errors between the two ends ----
step "verbs_errors"
if [ "$EEL_VM_INDEX" = 1 ]; then
  rc=0 && timeout 200 "$B/tests/verbs_errors" server 18700 verbs:rxe0 >"$out/verbs_errors.txt" 2>&1 || rc=$?
else
  rc=0 && timeout 200 "$B/tests/verbs_errors" client "$peer" 18700 verbs:rxe0 >"$out/verbs_errors.txt" 2>&1 || rc=$?
fi
cat "$out/verbs_errors.txt"
[ $rc = 0 ] || fail "verbs_errors exited $rc"

# perftest's client retries (1 s apart) while its server is not yet listening.
perftest_client() {  # perftest_client LOG CMD...
  local log=$1 rc
  shift
  for _ in $(seq 60); do
    rc=0 && timeout 200 "$@" "$peer" >"$log" 2>&1 || rc=$?
    [ $rc = 0 ] && return 0
    grep -q "Couldn't connect to" "$log" || { cat "$log"; fail "$1 client exited $rc"; }
    sleep 1
  done
  fail "$1 client could not reach its server in 60 tries"
}

# ---- 3. (and 5.) perftest ----
# perftest now and then measures nothing under TCG: ib_write_bw a MsgRate of 0 (a CI
# run saw it once in ~20 runs), ib_write_lat a row of "inf" (once in ~4 this day); its
# time base, not the link: eel's runs on the same link measured. Such a run is kept as
# ib_write_{lat,bw}-N-tryK.txt and the client asks the server, over a word on TCP port
# 18517 ("again" or "done"), for another, at most TRIES runs. The host's table says how
# many runs each figure took; a figure that no run measured still fails the suite.
TRIES=3
bw_rate_ok() {  # bw_rate_ok LOG: its 8-byte row has a MsgRate above 0
  awk '$1 == 8 && NF >= 5 { ok = ($5 + 0 > 0) } END { exit !ok }' "$1"
}
lat_ok() {  # lat_ok LOG: its 8-byte row has a finite t_min above 0
  awk '$1 == 8 && NF >= 6 { ok = ($3 !~ /inf|nan/ && $3 + 0 > 0) } END { exit !ok }' "$1"
}
say_to_server() {  # say_to_server WORD: the server's `nc -l` may not listen yet
  for _ in $(seq 100); do
    { echo "$1" >/dev/tcp/"$peer"/18517; } 2>/dev/null && return 0
    sleep 0.2
  done
  fail "cannot tell the perftest server '$1' (port 18517)"
}
serve_tries() {  # serve_tries N NAME CMD...: the server's runs of one program, while the client says again
  local n=$1 name=$2 try word
  shift 2
  for try in $(seq "$TRIES"); do
    rc=0 && timeout 200 "$@" >"$out/$name-server-$n-try$try.txt" 2>&1 || rc=$?
    [ $rc = 0 ] || { cat "$out/$name-server-$n-try$try.txt"; fail "$name server exited $rc"; }
    word=$(timeout 120 busybox nc -l -p 18517 </dev/null || true)
    [ "$word" = again ] || break
  done
  [ "$word" = done ] || fail "$name server: the client said '$word', not done"
}
client_tries() {  # client_tries N NAME OK CMD...: the client's runs, again while OK says it measured nothing
  local n=$1 name=$2 ok=$3 try
  shift 3
  for try in $(seq "$TRIES"); do
    perftest_client "$out/$name-$n.txt" "$@"
    grep -E '^ *8 +[0-9]+ +' "$out/$name-$n.txt" || fail "no 8-byte row in $name's output"
    "$ok" "$out/$name-$n.txt" || [ "$try" = "$TRIES" ] || {
      mv "$out/$name-$n.txt" "$out/$name-$n-try$try.txt"
      step "$name run $n try $try measured nothing (its row: $(grep -E "^ *8 " "$out/$name-$n-try$try.txt")): again"
      say_to_server again
      continue
    }
    break
  done
  echo "$try" >"$out/$name-$n-tries.txt"
  say_to_server done
}
perftest() {  # perftest N: ib_write_lat then ib_write_bw, outputs ib_write_{lat,bw}-N.txt
  local lat=(ib_write_lat -d rxe0 -s 8 -I 8 -n "$LAT_ITERS" -F -p 18515)
  local bw=(ib_write_bw -d rxe0 -s 8 -I 8 -t "$BW_DEPTH" -n "$BW_ITERS" -F -p 18516)
  step "perftest $1: ${lat[*]}; ${bw[*]}"
  if [ "$EEL_VM_INDEX" = 1 ]; then
    serve_tries "$1" ib_write_lat "${lat[@]}"
    serve_tries "$1" ib_write_bw "${bw[@]}"
  else
    client_tries "$1" ib_write_lat lat_ok "${lat[@]}"
    client_tries "$1" ib_write_bw bw_rate_ok "${bw[@]}"
  fi
}
perftest 1

# ---- 4. eel-bench ----
step "eel-bench ${BENCH_ARGS[*]}"
bench_pair verbs:rxe0 18600 -v "${BENCH_ARGS[@]}"
# what the suite checks the run's provenance and eel-probe's map against:
# rdma-core's own word on the firmware (ibv_devinfo), the NUMA node of the
# function under eth0, eel-probe --json
ibv_devinfo -d rxe0 | awk '$1 == "fw_ver:" { print $2 }' >"$out/rxe0-fw_ver.txt"
cat "$(readlink -f /sys/class/net/eth0/device)/numa_node" >"$out/eth0-numa_node.txt"
"$B/eel-probe" --json >"$out/probe.json" || fail "eel-probe --json exited $?"

perftest 2

# ---- 6. a client that dies mid-run ----
# The server must end promptly with a non-zero exit (the peer watch, not its 60 s
# timeout), with one line that names the dead peer (bench/session.c server_done:
# a failure the client cannot be told of is said here, once).
step "eel-bench server, its client killed mid-run"
if [ "$EEL_VM_INDEX" = 1 ]; then
  t0=$(date +%s)
  rc=0 && timeout 120 "$B/eel-bench" -d verbs:rxe0 -p 18601 --timeout 60 >"$out/killed.out" 2>"$out/killed.err" || rc=$?
  dt=$(( $(date +%s) - t0 ))
  cat "$out/killed.err"
  [ $rc -ne 0 ] && [ $rc -ne 124 ] || fail "the server of a killed client exited $rc: wanted a prompt failure"
  [ $dt -lt 50 ] || fail "the server of a killed client took $dt s: its wait ran into the timeout instead of seeing the peer die"
  said=$(grep -Ev '^eel-bench: .*(waiting for|serving) a client' "$out/killed.err" || true)
  [ -n "$said" ] || fail "the server of a killed client said nothing"
  echo "$said" | grep -Eq "the peer's process is gone|the peer closed" ||
    fail "the server of a killed client said something else: $said"
  [ "$(echo "$said" | wc -l)" -eq 1 ] || fail "the server of a killed client printed more than one line: $said"
  echo "ok: killed client -> server exit $rc after ${dt}s, said: $said" | tee -a "$out/bad-input.txt"
else
  rc=0 && timeout -s KILL 6 "$B/eel-bench" -d verbs:rxe0 -p 18601 -t pingpong -n 1000000 -r 1 --warmup 0 \
    --timeout 60 "$peer" >/dev/null 2>&1 || rc=$?
  [ $rc = 137 ] || fail "the client to be killed exited $rc before it was killed"
fi
step "done"
