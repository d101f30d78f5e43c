#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/install/install.sh — eel installs like the libraries it sits beside
# (the top Makefile's install): `make install PREFIX=P` lays out the programs,
# headers, libeel.a, libeel.so.0, eel.pc, data files, man pages and the
# completion; a program built with `pkg-config --cflags --libs eel` alone
# (tests/install/put.c) links, shared and static, and puts 8 bytes on the
# software NIC; the installed eel-bench and eel-report find their data files
# at the installed place, not in this tree; `man eel-bench` works; DESTDIR
# stages under another root with eel.pc naming the final PREFIX; `make
# uninstall` leaves nothing behind.
set -uo pipefail
cd "$(dirname "$0")/../.."
B=${EEL_BUILD:-build}
T=$(mktemp -d /tmp/eel-install.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "install: $*" >&2; fail=1; }

P=$T/prefix
make -s BUILD=$B install PREFIX=$P >$T/install.log 2>&1 || { cat $T/install.log >&2; bad "make install PREFIX=$P failed"; exit 1; }
for f in bin/eel-bench bin/eel-report bin/eel-compare bin/eel-probe bin/eel-bind bin/eel-loss \
         include/eel/eel.h include/eel/cycles.h include/eel/stamps.h lib/libeel.a lib/libeel.so.0 lib/libeel.so \
         lib/pkgconfig/eel.pc share/eel/pcie_bench.csv share/eel/historical.csv share/eel/papers.md; do
  [ -e $P/$f ] || bad "make install did not install $f"
done
[ "$(readlink $P/lib/libeel.so.0)" = "$(basename $(readlink -f $B/libeel.so.0))" ] || bad "lib/libeel.so.0 is not a link to the versioned library"

# A lab's program, with pkg-config alone (no -I or -L of this tree).
export PKG_CONFIG_PATH=$P/lib/pkgconfig
cflags=$(pkg-config --cflags eel) && libs=$(pkg-config --libs eel) || bad "pkg-config knows no eel in $PKG_CONFIG_PATH"
grep -q -- "-include\|-march" <<<"$cflags" && bad "eel.pc's Cflags force flags on the program: $cflags"
# As the README says for a PREFIX outside the loader's paths: -Wl,-rpath (no LD_LIBRARY_PATH).
if cc -Wall -Wextra -Werror -o $T/put tests/install/put.c $cflags $libs -Wl,-rpath,$P/lib 2>$T/cc.log; then
  out=$(cd $T && timeout 60 ./put 2>&1) || bad "the program linked against libeel.so.0 failed: $out"
  grep -q "8 bytes landed" <<<"$out" || bad "the program's put did not land: $out"
  # the library the loader resolves, compared by the file it names (ldd may print another spelling of the path)
  lib=$(ldd $T/put | sed -n 's/^[[:space:]]*libeel\.so\.0 => \([^ ]*\) .*/\1/p')
  [ -n "$lib" ] && [ "$(readlink -f "$lib")" = "$(readlink -f $P/lib/libeel.so.0)" ] ||
    bad "the program does not load $P/lib/libeel.so.0: ldd says: $(ldd $T/put | grep -i eel)"
else
  bad "a program built with \`pkg-config --cflags --libs eel\` does not link: $(head -5 $T/cc.log)"
fi
static=$(pkg-config --static --libs eel | sed 's/ -leel / /')
if cc -Wall -Werror -o $T/put-static tests/install/put.c $cflags $P/lib/libeel.a $static 2>$T/cc.log; then
  out=$(cd $T && timeout 60 ./put-static 2>&1) || bad "the program linked against libeel.a failed: $out"
else
  bad "a program linked with libeel.a and \`pkg-config --static --libs eel\` does not link: $(head -5 $T/cc.log)"
fi

# The installed programs find their data at the installed place: copy the
# prefix where neither this tree nor a build/ is beside it.
mv $P $T/moved
out=$(cd $T && $T/moved/bin/eel-bench -t busmodel 2>&1) || bad "the installed eel-bench -t busmodel failed: $out"
grep -q "$T/moved/bin/../share/eel/pcie_bench.csv" <<<"$out" || bad "the installed eel-bench did not read the installed pcie_bench.csv: $(head -2 <<<"$out")"
mv $T/moved $P

# Man pages and the completion, as installed.
for m in eel-bench.1 eel-report.1 eel-compare.1 eel-probe.1 eel-bind.1 eel-loss.1 eel.7; do
  [ -s $P/share/man/man${m##*.}/$m ] || bad "man page $m was not installed"
done
if command -v man >/dev/null; then
  grep -q "eel-bench" <<<"$(MANPATH=$P/share/man man -P cat eel-bench 2>&1)" || bad "\`man eel-bench\` (MANPATH=$P/share/man) shows nothing"
fi
[ -s $P/share/bash-completion/completions/eel-bench ] || bad "the bash completion for eel-bench was not installed"

# DESTDIR: staged under another root, eel.pc names the final place.
make -s BUILD=$B install DESTDIR=$T/stage PREFIX=/opt/eel >$T/stage.log 2>&1 || bad "make install DESTDIR=... failed"
[ -x $T/stage/opt/eel/bin/eel-bench ] || bad "DESTDIR: bin/eel-bench not under the staging root"
grep -q "^prefix=/opt/eel$" $T/stage/opt/eel/lib/pkgconfig/eel.pc || bad "DESTDIR: eel.pc does not name PREFIX /opt/eel"

# Uninstall: nothing of eel is left.
make -s BUILD=$B uninstall PREFIX=$P >/dev/null 2>&1 || bad "make uninstall failed"
left=$(find $P -type f -o -type l)
[ -z "$left" ] || bad "make uninstall left: $left"

[ $fail = 0 ] && echo "install: PREFIX and DESTDIR layouts; pkg-config builds a program that puts on softnic (libeel.so.0 and libeel.a); data found where installed; man eel-bench; uninstall leaves nothing"
exit $fail
