# SPDX-License-Identifier: MIT
# tests/vm/lib/guest-checks.sh — sourced by a guest script that prints one line
# per check (guest-module.sh, guest-raw.sh); it sets SYS (/sys/bus/pci) and OUT
# (a folder for logs) and reads $fails at its end:
#   section TEXT             a heading, with the seconds since the guest began
#   ok TEXT, bad TEXT        a check passed, failed (bad counts it in $fails)
#   is WHAT GOT WANTED       ok when GOT is WANTED, else bad
#   run WHAT CMD...          CMD must exit 0; its output goes to the log, indented
#   driver_of ADDR, override_of ADDR, state_of ADDR
#                            PCI function ADDR's driver, driver_override, both
#   refuse WHAT REGEX ADDR CMD...
#                            CMD fails with one stderr line matching REGEX (a
#                            program's or the library's message is one line) and
#                            leaves function ADDR (if not "-") as it found it
fails=0
section() { echo "== $* (at ${SECONDS}s)"; }
ok() { echo "ok    $*"; }
bad() { echo "FAIL  $*"; fails=$((fails + 1)); }
is() { if [ "$2" = "$3" ]; then ok "$1"; else bad "$1: got '$2', expected '$3'"; fi; }
run() {
  local what=$1; shift
  if "$@" > "$OUT/last.log" 2>&1; then ok "$what"; else bad "$what (exit $?)"; fi
  sed 's/^/      /' "$OUT/last.log"
}
driver_of() { local l; l=$(readlink "$SYS/devices/$1/driver" 2>/dev/null) && echo "${l##*/}"; }
override_of() { local o; o=$(cat "$SYS/devices/$1/driver_override"); [ "$o" = "(null)" ] && o=""; echo "$o"; }
state_of() { echo "driver=$(driver_of "$1") override=$(override_of "$1")"; }

refuse() {
  local what=$1 re=$2 addr=$3 before after rc lines; shift 3
  [ "$addr" != - ] && before=$(state_of "$addr")
  "$@" > "$OUT/stdout.log" 2> "$OUT/stderr.log"; rc=$?
  lines=$(wc -l < "$OUT/stderr.log")
  echo "      \$ ${*: -3} -> exit $rc: $(cat "$OUT/stderr.log")"
  if [ $rc = 0 ]; then bad "$what: exit 0"; return; fi
  if [ "$lines" != 1 ] || ! grep -Eq -- "$re" "$OUT/stderr.log"; then
    bad "$what: wanted one line matching /$re/"; return
  fi
  if [ "$addr" != - ]; then
    after=$(state_of "$addr")
    [ "$before" = "$after" ] || { bad "$what: left $addr changed ($before -> $after)"; return; }
  fi
  ok "$what"
}
