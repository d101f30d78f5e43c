#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/hostile/inputs.sh — docs/security.md: inputs that are not
# regular files, parameters that would change meaning on the way, output and
# resource errors. Each case: one line naming the problem, a non-zero exit,
# never a hang (every run under timeout) or a signal; or handled as it should.
set -uo pipefail
B=${EEL_BUILD:-build}
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
fail=0
bad() { echo "FAILED: $*"; fail=1; }
# refuse 'text' PROGRAM ARGS...: exit 1 or 2 within 20 s, one line on stderr holding text, no escape
refuse() {
  local text=$1; shift
  timeout 20 "$@" >"$d/out" 2>"$d/err" </dev/null
  local rc=$?
  if [ $rc -ne 1 ] && [ $rc -ne 2 ] || [ "$(wc -l <"$d/err")" -ne 1 ] || ! grep -qF -- "$text" "$d/err" ||
     grep -q $'\x1b' "$d/err"; then
    bad "$(printf '%q ' "${@#"$B/"}"): exit $rc (124: hung), want 1 or 2 and one line with '$text':"
    sed 's/^/    /' "$d/err" | cat -v | head -5
  else
    echo "ok: $(printf '%q ' "${@#"$B/"}")-> $(cat "$d/err")"
  fi
}
mkfifo "$d/fifo"
: >"$d/empty"
printf 'bus = none\nread_rtt_ns = 500\n' >"$d/none.bus"
printf 'bus = pcie-gen3x8\nkind = coherent\n' >"$d/coherent.bus"
printf '# nothing but a comment\n' >"$d/comment.bus"
pp=(-t pingpong -n 100 -r 1 --warmup 10)

echo "-- class 3: inputs that are not regular files"
refuse "is a FIFO, not a regular file" "$B/eel-bench" "${pp[@]}" --bus "$d/fifo"
refuse "is a folder" "$B/eel-bench" "${pp[@]}" --bus /
refuse "is empty" "$B/eel-bench" "${pp[@]}" --bus "$d/empty"
refuse "is a character device" "$B/eel-bench" "${pp[@]}" --bus /dev/null
refuse "no key = value line" "$B/eel-bench" "${pp[@]}" --bus "$d/comment.bus"
refuse "is a FIFO, not a regular file" "$B/eel-bench" "${pp[@]}" -d "softnic:inline?bus=$d/fifo"
refuse "is a FIFO, not a regular file" "$B/eel-bench" -t busmodel --bus-data "$d/fifo"
refuse "is a character device" "$B/eel-bench" -t busmodel --bus-data /dev/zero
refuse "is a FIFO, not a regular file" "$B/eel-probe" --dump "$d/fifo"
refuse "is a character device" "$B/eel-probe" --dump /dev/zero
timeout 60 "$B/eel-bench" "${pp[@]}" -n 300 -q --json "$d/run.json" || bad "eel-bench could not make a run"
refuse "is a FIFO, not a regular file" "$B/eel-report" --historical "$d/fifo" -o "$d/rep" "$d/run.json"
refuse "is a character device" "$B/eel-report" --historical /dev/zero -o "$d/rep" "$d/run.json"
if command -v mpirun >/dev/null && [ -x "$B/eel-mpi" ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  # Open MPI's own allocations are never freed (as tests/host/mpi_eel_mpi.sh)
  export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
  MPI=(mpirun --oversubscribe --bind-to none -np 2 "$B/eel-mpi" --sizes 0,8 --reps 5 --pp-iters 100)
  printf '8 1.0 inf\n1048576 1000 0.01\n' >"$d/np.inf"
  # mpirun adds its own lines about a failed job: eel-mpi's is the one checked
  for c in "fifo:is a FIFO, not a regular file" "/dev/zero:is a character device" "np.inf:not finite"; do
    f=${c%%:*}; [ "${f#/}" = "$f" ] && f=$d/$f
    timeout 120 "${MPI[@]}" --netpipe "$f" >"$d/out" 2>"$d/err" </dev/null; rc=$?
    if [ $rc -eq 0 ] || [ $rc -eq 124 ] || [ "$(grep -c '^eel-mpi: ' "$d/err")" -ne 1 ] || ! grep -qF "${c#*:}" "$d/err" ||
       grep -q "MPI's send modes" "$d/out"; then
      bad "eel-mpi --netpipe $f: exit $rc (124: hung), or measured first:"; grep -v '^ *$' "$d/err" | head -3 | sed 's/^/    /'
    else
      echo "ok: eel-mpi --netpipe $f -> $(grep '^eel-mpi: ' "$d/err")"
    fi
  done
else
  echo "skipped: eel-mpi --netpipe (no mpirun)"
fi

echo "-- class 4: parameters that change meaning on the way"
refuse "without & ? = # % or spaces" "$B/eel-bench" "${pp[@]}" --bus 'none&drop=0.2'
refuse "bus parameters without a bus" "$B/eel-bench" "${pp[@]}" --bus "$d/none.bus"
refuse "a coherent bus without link_gbs" "$B/eel-bench" "${pp[@]}" --bus "$d/coherent.bus"
refuse "a coherent bus without link_gbs" "$B/eel-bench" "${pp[@]}" -d 'softnic:inline?bus=pcie-gen3x8&kind=coherent'
refuse "--json with busmodel and other tests" "$B/eel-bench" -t busmodel,pingpong --json "$d/bm.json"
timeout 20 "$B/eel-bench" -t busmodel -q --json "$d/bm.json" >/dev/null 2>"$d/err" || bad "-t busmodel --json: exit $?"
if jq -e '.schema == "eel.busmodel" and .schema_version == 2 and (.figures | length) > 0' "$d/bm.json" >/dev/null 2>&1; then
  echo "ok: -t busmodel --json writes an eel.busmodel document"
else
  bad "-t busmodel --json wrote no eel.busmodel document"
fi

echo "-- class 5: output and resource errors"
refuse "No space left on device" "$B/eel-bench" -t busmodel -q --json /dev/full
refuse "writing the standard output failed" sh -c "exec '$B/eel-bench' -t busmodel >/dev/full"
refuse "writing the standard output failed" sh -c "exec '$B/eel-compare' '$d/run.json' '$d/run.json' >/dev/full"
rm -rf "$d/rep"
refuse "writing the standard output failed" sh -c "exec '$B/eel-report' -o '$d/rep' '$d/run.json' >/dev/full"
long=$(printf 'a%.0s' $(seq 300))
refuse "longer than NAME_MAX" "$B/eel-bench" "${pp[@]}" -q --json "$d/$long.json"
# the mode of an existing file is kept; a new file gets 0666 less the umask
printf '{}' >"$d/mode.json"; chmod 600 "$d/mode.json"
(umask 022; timeout 60 "$B/eel-bench" "${pp[@]}" -q --json "$d/mode.json" >/dev/null)
[ "$(stat -c %a "$d/mode.json")" = 600 ] && [ "$(jq -r .schema "$d/mode.json")" = eel.run ] &&
  echo "ok: --json keeps a 0600 file 0600" ||
  bad "--json made a 0600 file $(stat -c %a "$d/mode.json")"
(umask 077; timeout 60 "$B/eel-bench" "${pp[@]}" -q --json "$d/new.json" >/dev/null)
[ "$(stat -c %a "$d/new.json")" = 600 ] && echo "ok: a new --json file under umask 077 is 0600" ||
  bad "a new --json file under umask 077 is $(stat -c %a "$d/new.json")"
# a FIFO whose reader leaves: EPIPE said, not death by SIGPIPE (the reader
# shrinks the pipe to one page, reads 10 bytes of the ~14 KB document and goes)
python3 - "$d/fifo" "$d/ready" <<'PY' &
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_NONBLOCK)
fcntl.fcntl(fd, 1031, 4096)   # F_SETPIPE_SZ
open(sys.argv[2], "w").close()
for _ in range(1200):
    try:
        if os.read(fd, 10):
            break
    except BlockingIOError:
        pass
    time.sleep(0.05)
os.close(fd)
PY
reader=$!
for _ in $(seq 100); do [ -e "$d/ready" ] && break; sleep 0.05; done
refuse "Broken pipe" "$B/eel-bench" "${pp[@]}" -n 300 -q --json "$d/fifo"
kill "$reader" 2>/dev/null; wait "$reader" 2>/dev/null
# out of memory: one line from each end (the pair's two processes), never a crash
# (not under ASan: its shadow memory needs more address space than any of these)
oom_sizes="16000 30000 60000 100000"
if grep -q libasan <<<"$(ldd "$B/eel-bench" 2>/dev/null)"; then
  echo "skipped: the ulimit -v cases (an ASan build)"; oom_sizes=
fi
for v in $oom_sizes; do
  (ulimit -v $v; timeout 60 "$B/eel-bench" -t decompose -n 300 -r 2 --warmup 30 >/dev/null 2>"$d/err"); rc=$?
  if [ $rc -ne 1 ] || [ "$(grep -c "out of memory" "$d/err")" -ne "$(wc -l <"$d/err")" ] || [ ! -s "$d/err" ] ||
     [ "$(wc -l <"$d/err")" -gt 2 ]; then
    bad "-t decompose under ulimit -v $v: exit $rc:"; sed 's/^/    /' "$d/err" | head -3
  else
    echo "ok: -t decompose under ulimit -v $v -> $(head -1 "$d/err")"
  fi
done
# eel-compare: a document's text reaches the terminal escaped
jq '.nic.name = "x\u001b[2Jy" | .created = "\u001b[31m"' "$d/run.json" >"$d/esc.json"
timeout 20 "$B/eel-compare" "$d/run.json" "$d/esc.json" >"$d/out" 2>&1
grep -q $'\x1b' "$d/out" && bad "eel-compare printed an escape sequence from a document" ||
  echo "ok: eel-compare prints a document's nic.name and created escaped"
# eel-report: a NUL in a string refused; a run whose figures are all 0 or null still reported
jq '.nic.name = "a\u0000b"' "$d/run.json" >"$d/nul.json"
refuse "holds a NUL character" "$B/eel-report" -o "$d/nulrep" "$d/nul.json"
for z in 0 null; do
  jq "(.. | numbers) |= $z | .schema_version = 7" "$d/run.json" >"$d/z.json"
  rm -rf "$d/zrep"
  if timeout 60 "$B/eel-report" -o "$d/zrep" "$d/z.json" >"$d/out" 2>"$d/err" && grep -q "not measured" "$d/out" &&
     [ -s "$d/zrep/index.html" ]; then
    echo "ok: a run whose figures are all $z gives a report saying they are not measured"
  else
    bad "eel-report of a run whose figures are all $z:"; sed 's/^/    /' "$d/err" | head -3
  fi
done
exit $fail
