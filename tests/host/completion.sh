#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/host/completion.sh — eel-bench's bash completion (tools/completion/eel-bench)
# offers every option eel-bench accepts and nothing else, so the two cannot
# drift: the options of bench/cli.c's getopt table and string, of --help and of
# the man page (docs/man/eel-bench.1.md) are all offered; each one offered is
# accepted by the real eel-bench (a value-taking one asks for its value, a flag
# is taken); -t completes to cli.c's test names, -d soft to the softnic URIs.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
B=${EEL_BUILD:-build}
fail=0
bad() { echo "FAILED: $*"; fail=1; }

# shellcheck source=../../tools/completion/eel-bench
source tools/completion/eel-bench
complete -p eel-bench | grep -q -- '-F _eel_bench' || bad "the completion is not registered with complete -F"

# comp WORD...: what completing the last word offers, one a line, sorted
comp() {
  COMP_WORDS=(eel-bench "$@")
  COMP_CWORD=$#
  unset COMP_LINE COMP_POINT
  COMPREPLY=()
  _eel_bench
  printf '%s\n' "${COMPREPLY[@]}" | sed '/^$/d' | sort -u
}
same() {  # same WHAT WANT-FILE GOT-FILE
  if ! diff -u "$2" "$3" >/dev/null; then
    bad "$1:"; diff "$2" "$3" | sed -n 's/^</    missing:/p; s/^>/    extra:  /p'
  else
    echo "ok: $1 ($(wc -l <"$3") alike)"
  fi
}

d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

# What eel-bench accepts: the long options of cli_parse's table, the short ones of its getopt string.
sed -n '/^void cli_parse/,/^}/p' bench/cli.c >"$d/parse.c"
grep -o '{ "[a-z0-9-]*", [a-z_]*_argument' "$d/parse.c" | sed 's/{ "\(.*\)",.*/--\1/' | sort -u >"$d/long"
short=$(grep -o -e 'getopt_long(argc, argv, "[^"]*"' -e 'shortopts\[\] = "[^"]*"' "$d/parse.c" |
        sed 's/.*"\(.*\)"/\1/; s/^://; s/://g')
[ -n "$short" ] && [ -s "$d/long" ] || { bad "could not read bench/cli.c's options"; exit 1; }
sed 's/./-&\n/g' <<<"$short" | sed '/^$/d' | sort -u >"$d/short"
sort -u "$d/long" "$d/short" >"$d/accepted"

# (a) the completion offers exactly those
{ comp --; comp -; } | sort -u >"$d/offered"
same "options offered = options bench/cli.c accepts" "$d/accepted" "$d/offered"

# ... and so every option --help and the man page list
"$B/eel-bench" --help | grep -o -- '--[a-z][a-z0-9-]*' | sort -u >"$d/help"
grep -o -- '\*\*--[a-z][a-z0-9-]*' docs/man/eel-bench.1.md | sed 's/^\*\*//' | sort -u >"$d/man"
for src in help man; do
  missing=$(comm -23 "$d/$src" "$d/offered")
  # --help and the man page quote other programs' options too (--eal "--no-huge ...")
  missing=$(grep -vx -e '--no-huge' -e '--no-pci' <<<"$missing")
  [ -z "$missing" ] && echo "ok: every option of the $src text is offered ($(wc -l <"$d/$src"))" ||
    bad "the $src text lists options the completion does not offer: $missing"
done

# the man page is the option reference: it documents every long option cli.c accepts
missing=$(comm -23 "$d/long" "$d/man")
[ -z "$missing" ] && echo "ok: the man page documents every long option" ||
  bad "docs/man/eel-bench.1.md does not document: $missing"

# ... and the real eel-bench takes each one: a value-taking option alone asks for
# its value, a flag before a bogus option gets that option refused (no run starts)
before=$fail
while read -r o; do
  case $o in -h|--help|-V|--version) "$B/eel-bench" "$o" >/dev/null 2>&1 || bad "eel-bench $o: exit $?"; continue ;; esac
  if [[ " $(echo $_eel_bench_valued) " == *" $o "* ]]; then
    err=$(timeout 10 "$B/eel-bench" "$o" 2>&1 >/dev/null)
    [[ $err == *"option $o needs a value"* ]] || bad "eel-bench $o (the completion says it takes a value): $err"
  else
    err=$(timeout 10 "$B/eel-bench" "$o" --zz-no-such 2>&1 >/dev/null)
    [[ $err == *"unknown option '--zz-no-such'"* ]] || bad "eel-bench $o (the completion says it is a flag): $err"
  fi
done <"$d/offered"
[ $fail = "$before" ] && echo "ok: eel-bench accepts each option offered, with a value where the completion expects one"

# (b) -t completes to the test names of cli.c's tests()
sed -n '/^static uint32_t tests(/,/^}/p' bench/cli.c | grep -o 'strcmp(w, "[^"]*")' |
  sed 's/.*"\(.*\)".*/\1/' | sort -u >"$d/tests"
comp -t '' >"$d/t"
same "-t offers cli.c's test names" "$d/tests" "$d/t"
got=$(comp --test flood,pi | tr '\n' ' ')
[ "$got" = "flood,pingpong " ] && echo "ok: --test flood,pi -> $got" || bad "--test flood,pi offers '$got', want flood,pingpong"

# (c) -d soft completes to the softnic URIs
got=$(comp -d soft | tr '\n' ' ')
[ "$got" = "softnic softnic:inline softnic:thread " ] && echo "ok: -d soft -> $got" ||
  bad "-d soft offers '$got', want softnic softnic:inline softnic:thread"

# -d from a fake sysfs: verbs:<ibdev>, raw: and dpdk: of network functions only
mkdir -p "$d/sys/class/infiniband/mlx5_0" "$d/sys/bus/pci/devices/0000:3b:00.0" "$d/sys/bus/pci/devices/0000:00:1f.0"
echo 0x020000 >"$d/sys/bus/pci/devices/0000:3b:00.0/class"
echo 0x060100 >"$d/sys/bus/pci/devices/0000:00:1f.0/class"
got=$(EEL_COMP_SYS=$d/sys comp -d '' | tr '\n' ' ')
want="dpdk: dpdk:0000:3b:00.0 raw:0000:3b:00.0 softnic softnic:inline softnic:thread verbs:mlx5_0 "
[ "$got" = "$want" ] && echo "ok: -d from sysfs -> $got" || bad "-d from a fake sysfs offers '$got', want '$want'"

# as bash calls it, the line split at ':' and '=': only the text after the break is replaced
COMP_LINE="eel-bench -d softnic:th" COMP_POINT=23 COMP_WORDBREAKS=$' \t\n"\'><=;|&(:'
COMPREPLY=(); _eel_bench
[ "${COMPREPLY[*]}" = thread ] && echo "ok: a line 'eel-bench -d softnic:th' -> thread" ||
  bad "a line 'eel-bench -d softnic:th' offers '${COMPREPLY[*]}', want thread"
unset COMP_LINE COMP_POINT

# values of fixed sets, files for paths
[ "$(comp --bus none,pcie-gen5 | tr '\n' ' ')" = "none,pcie-gen5x16 " ] || bad "--bus none,pcie-gen5 does not complete to none,pcie-gen5x16"
[ "$(comp --flood-memory c | tr '\n' ' ')" = "cold " ] || bad "--flood-memory c does not complete to cold"
[ "$(comp --json tests/host/completion.s | tr '\n' ' ')" = "tests/host/completion.sh " ] || bad "--json does not complete file names"
[ -z "$(comp --iters '')" ] || bad "--iters offers something for a number"
echo "ok: --bus, --flood-memory, --json, --iters"
exit $fail
