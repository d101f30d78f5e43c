#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Bad input: one clear line on stderr naming the problem (and the fix), a
# non-zero exit, never a hang, and nothing half-written.
set -uo pipefail
B=${EEL_BUILD:-build}
out=$(mktemp -d)
trap 'kill -9 $(jobs -p) 2>/dev/null; rm -rf "$out"' EXIT
fail=0

expect() {  # expect EXIT-CODE 'text in the message' ARGS...
  local code=$1 text=$2; shift 2
  timeout 30 "$B/eel-bench" "$@" >"$out/stdout" 2>"$out/stderr"
  local rc=$?
  local lines
  lines=$(wc -l <"$out/stderr")
  if [ $rc -ne "$code" ] || ! grep -qF -- "$text" "$out/stderr" || [ "$lines" -ne 1 ]; then
    echo "FAILED: eel-bench $*: exit $rc (want $code), $lines line(s):"; sed 's/^/    /' "$out/stderr"
    fail=1
  else
    echo "ok: $* -> $(head -c 160 "$out/stderr")"
  fi
}

expect 1 "unknown NIC type 'foo'" -d foo -t pingpong
expect 1 "unknown option 'bogus' for softnic" -d 'softnic?bogus=1'
expect 1 "give a probability" -d 'softnic?drop=2'
expect 1 "unknown mode 'sideways'" -d 'softnic:sideways'
expect 1 "use recovery=gbn (go-back-N) or recovery=sr" -d 'softnic?recovery=fast'
expect 2 "--sizes: size 12 is not a multiple of 8" --sizes 12,24
expect 2 "--bulk-sizes: size 12 is not a multiple of 8" --bulk-sizes 8,12
# the fits need 3 sizes (a line's 2 parameters and one more) and room for 20 random sizes between
# (Taboada et al. 2003): fewer printed errors of 0% and nan% on no size, as if valid
expect 2 "--bulk-sizes: 1 size from 8 to 8 B: the fits need 3 sizes or more" -t bulk --bulk-sizes 8 --bulk-reps 3
expect 2 "--bulk-sizes: 2 sizes from 8 to 16 B: the fits need 3 sizes or more" -t bulk --bulk-sizes 8,16
expect 2 "the largest at least 184 B, e.g. --bulk-sizes 8,96,184" -t bulk --bulk-sizes 8,16,24
expect 2 "--sizes 7 is out of range" --sizes 7..64
expect 2 "--sizes 0 is out of range" --sizes 0..64
expect 2 "out of range" --depths 0
expect 2 "--iters 0 is out of range" -n 0
expect 2 "--runs 0 is out of range" -r 0
expect 2 "--iters: 'ten' is not a whole number" -n ten
expect 2 "unknown option '--bogus'" --bogus
expect 2 "unknown test 'nonsense'" -t nonsense
expect 2 "--cpu 1,1: both ends of the pair on one core" --cpu 1,1 -t pingpong
# a core outside this process's affinity: refused with the options (the pair's
# server failed at its pinning and the client died of SIGPIPE, exit 141)
expect 2 "--cpu: this process may not run on core 4095: give cores it may use (0" --cpu 0,4095 -t pingpong
expect 2 "--cpu: this process may not run on core 4095" --cpu 4095 -t pingpong
# the fix a too-shallow queue suggests runs: its sq_depth replaced, not added twice
expect 1 "-d 'softnic?mtu=4096&sq_depth=32&seed=1')" -t flood -r 1 --flood-msgs 200 --depths 32 \
  -d 'softnic?mtu=4096&sq_depth=16&seed=1'
timeout 30 "$B/eel-bench" -t flood -r 1 --flood-msgs 200 --depths 32 -q --json "$out/sq.json" \
  -d 'softnic?mtu=4096&sq_depth=32&seed=1' 2>"$out/stderr" ||
  { echo "FAILED: the suggested -d 'softnic?mtu=4096&sq_depth=32&seed=1' did not run:"; cat "$out/stderr"; fail=1; }
expect 2 "--json and --csv both write $out/same: the second would replace the first" --quick -t pingpong --json "$out/same" --csv "$out/same"
[ -e "$out/same" ] && { echo "FAILED: --json and --csv on one path left $out/same"; fail=1; }
expect 2 "--json and --csv both write $out/same: the second would replace the first" --quick -t pingpong --json "$out/same" --csv "$out/./same"
[ -e "$out/same" ] && { echo "FAILED: --json and --csv on one path (two spellings) left $out/same"; fail=1; }
expect 2 "--csv $out: is a folder: give a file name inside it, e.g. run.csv" --quick -t pingpong --csv "$out"
expect 2 "--json $out: is a folder: give a file name inside it, e.g. run.json" --quick -t pingpong --json "$out"
expect 2 "needs a value" --json
expect 2 "give --json FILE" -q
expect 2 "unexpected argument" host1 host2
expect 2 "a queue depth is larger" --depths 1,8 --flood-msgs 4
# a range's end is one of its values, and a list has no empty value (8..100
# ran 8..64; 8,,16 ran 8,16; membus and membus-local are one bus)
expect 2 "--sizes 8..100: 100 is not 8 times a power of 2: write 8..64 or 8..128" --sizes 8..100 -t flood
expect 2 "--bulk-sizes 8..4096: 4096 is not 8 times a power of 4: write 8..2048 or 8..8192" --bulk-sizes 8..4096 -t bulk
expect 2 "--sizes: an empty value in the list" --sizes 8,,16 -t flood
expect 2 "--depths: an empty value in the list" --depths 1,8, -t flood
expect 2 "--bus: 'membus-local' is named twice (membus is membus-local's old name)" --bus none,membus,membus-local
expect 2 "--bus none,,cxl: an empty name in the list" --bus none,,cxl
# a URI option's value: no sign, no space, not empty (bus= was no bus)
expect 1 "option mtu=+4096: give a whole number from 256 to 8192" -d 'softnic?mtu=+4096' -t pingpong
expect 1 "option 'mtu= 4096' in 'softnic?mtu= 4096': a space around the value: write mtu=VALUE" -d 'softnic?mtu= 4096' -t pingpong
expect 1 "option 'bus=' in 'softnic?bus=' has no value: give one (bus=VALUE)" -d 'softnic?bus=' -t pingpong
expect 2 "needs more than 8 GiB of buffers" --sizes 8..1073741824 -t flood
# a path that cannot be written is found before anything is measured (-n 10^7:
# the run would take minutes; the 30 s timeout of expect would say so)
expect 2 "json /nonexistent/dir/r.json: its folder does not exist" -t pingpong -n 10000000 -r 10 --json /nonexistent/dir/r.json
[ ! -e /nonexistent/dir/r.json ] || { echo "FAILED: half-written JSON"; fail=1; }

# a peer that is not there, and a peer that is not eel-bench
port=$((20000 + RANDOM % 20000))
expect 1 "cannot reach the eel-bench server" --timeout 2 -p $port -t pingpong 127.0.0.1
# ... and nobody on the very port the kernel gives the client's own connect:
# the connect joins itself (TCP's simultaneous open), and a client that took
# that for its server spoke eel with itself ("cannot open the peer's wire").
# In a network namespace of its own whose local ports are that port and the
# next, a connect joins itself at once or within a few tries (88e737a's build
# failed it 5 runs in 5); the client must keep trying until its timeout and
# then say that nobody is there (refused: the port it joined stays taken).
selfp=$((33000 + RANDOM % 20000))
ns=
for u in "unshare -n" "unshare -rn"; do $u true 2>/dev/null && { ns=$u; break; }; done
if [ -z "$ns" ]; then
  echo "FAILED: the self-connect case needs a network namespace (unshare -n as root, or unshare -rn)"; fail=1
else
  $ns sh -c "ip link set lo up && echo '$selfp $((selfp + 1))' >/proc/sys/net/ipv4/ip_local_port_range &&
    exec timeout 30 '$B/eel-bench' --timeout 2 -p $selfp -t pingpong 127.0.0.1" >"$out/self.out" 2>"$out/self.err"
  rc=$?
  if [ "$rc" = 1 ] && [ "$(wc -l <"$out/self.err")" -eq 1 ] &&
     grep -qF "cannot reach the eel-bench server at 127.0.0.1:$selfp (Connection refused)" "$out/self.err"; then
    echo "ok: -p $selfp, among the client's two local ports, nobody there -> $(head -c 120 "$out/self.err")"
  else
    echo "FAILED: eel-bench -p $selfp, among the client's two local ports, nobody there (exit $rc):"
    sed 's/^/    /' "$out/self.err"; fail=1
  fi
fi
printf 'HTTP/1.0 200 OK\r\n\r\nhello\r\n' | busybox nc -l -p $((port + 1)) >/dev/null 2>&1 &
sleep 0.3
expect 1 "does not speak eel" --timeout 5 -p $((port + 1)) -t pingpong 127.0.0.1

# an eel peer of another protocol version (userlib/core/oob.c's hello: header
# "EELO", type 1, then protocol, byte order, version string)
python3 - "$((port + 2))" <<'PY' &
import socket, struct, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(1); c, _ = s.accept()
c.sendall(struct.pack("<IHHI", 0x4f4c4545, 1, 0, 24) + struct.pack("<II16s", 99, 0x01020304, b"9.9.9"))
c.recv(4096); c.close()
PY
sleep 0.3
expect 1 "the peer runs eel 9.9.9 (protocol 99)" --timeout 5 -p $((port + 2)) -t pingpong 127.0.0.1

# thread mode on too few cores is refused with the way out; with enough, it runs
if [ "$(nproc)" -lt 4 ]; then
  expect 1 "oversubscribe=1" -d softnic:thread -t pingpong -n 100 -r 1
fi
exit $fail
