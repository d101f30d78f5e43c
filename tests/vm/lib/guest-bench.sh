# SPDX-License-Identifier: MIT
# tests/vm/lib/guest-bench.sh — sourced by a guest script of a two-VM suite
# (which sets B, out, me and peer):
#   fail TEXT, step TEXT     end the guest with TEXT; say TEXT with the uptime
#   wait_active DEV          port 1 of RDMA device DEV becomes ACTIVE within 5 s, or fail
#   bench_pair URI PORT ARGS...
# VM1 runs eel-bench's server on URI; VM0 its client, with --verify and
# --json $out/eel.json, trying again while the server is not up yet. Each
# end's output is kept in $out (eel-bench-server.txt, eel-bench.txt) and
# shown; a non-zero exit of either ends the guest through fail().
fail() { echo "$me: FAIL: $*" >&2; exit 1; }
step() { echo "$me: [up $(cut -d' ' -f1 /proc/uptime) s] $*"; }

wait_active() {  # wait_active DEV: its port comes up (after `rdma link add`)
  for _ in $(seq 50); do
    rdma link show "$1/1" 2>/dev/null | grep -q 'state ACTIVE' && return 0
    sleep 0.1
  done
  fail "$1 did not become ACTIVE: $(rdma link show 2>&1)"
}

bench_pair() {
  local uri=$1 port=$2 rc try
  shift 2
  if [ "$EEL_VM_INDEX" = 1 ]; then
    rc=0 && timeout 400 "$B/eel-bench" -d "$uri" -p "$port" --timeout 60 >"$out/eel-bench-server.txt" 2>&1 || rc=$?
    cat "$out/eel-bench-server.txt"
    [ $rc = 0 ] || fail "eel-bench server exited $rc"
    return 0
  fi
  for try in $(seq 60); do
    rc=0 && timeout 400 "$B/eel-bench" -d "$uri" -p "$port" --verify --json "$out/eel.json" "$@" "$peer" \
      >"$out/eel-bench.txt" 2>&1 || rc=$?
    [ $rc = 0 ] && break
    grep -q "cannot reach the eel-bench server" "$out/eel-bench.txt" || break
    sleep 1
  done
  cat "$out/eel-bench.txt"
  [ $rc = 0 ] || fail "eel-bench client exited $rc (with --verify: every put checked byte for byte)"
}
