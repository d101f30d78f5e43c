#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/install/build_without.sh — DPDK, rdma-core, PMIx and Open MPI's mpicc
# are optional at build time (the top Makefile's "Optional dependencies"):
# eel builds with each hidden (from pkg-config, tests/install/pkg-config-hiding,
# or MPICC), the build leaves out only that part and says so
# ($(BUILD)/features, eel-bench --help, the error when the part is asked
# for, naming `tools/setup GROUP`), and the software NIC still measures.
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=build/without
fail=0
bad() { echo "build-without: $*" >&2; fail=1; }

# build NAME MAKE-ARGS...: a build of `all` into $ROOT/NAME with the dependency hidden.
build() {
  local name=$1; shift
  if ! make -s -j2 BUILD=$ROOT/$name "$@" all >$ROOT/$name.log 2>&1; then
    bad "the build without $name failed (log: $ROOT/$name.log):"; tail -5 $ROOT/$name.log >&2; return 1
  fi
}

# expect_in TEXT NEEDLE WHAT
expect_in() { grep -qF -- "$2" <<<"$1" || bad "$3: '$2' not in: $(head -c 400 <<<"$1")"; }

# A short ping-pong on the software NIC: the build still measures.
measures() {
  local b=$ROOT/$1 out
  out=$(timeout 120 $b/eel-bench -t pingpong -n 1 --iters 2000 2>&1) || { bad "$1: softnic ping-pong failed: $out"; return; }
  expect_in "$out" "EEL" "$1: the ping-pong's table"
}

mkdir -p $ROOT
PC=$PWD/tests/install/pkg-config-hiding

# DPDK and rdma-core: the backend is dropped, --help and its URI say how to get it.
for dep in dpdk:libdpdk verbs:"libibverbs librdmacm"; do
  name=${dep%%:*} pcs=${dep#*:}
  EEL_HIDE_PC=$pcs build $name PKG_CONFIG=$PC || continue
  b=$ROOT/$name
  expect_in "$(cat $b/features)" "without: $name" "$name: $b/features"
  expect_in "$($b/eel-bench --help 2>&1)" "lacks the $name backend: run \`sudo tools/setup $name\`" "$name: eel-bench --help"
  uri=$name:0000:00:03.0; [ $name = verbs ] && uri=verbs:rxe0
  out=$($b/eel-bench -d $uri -t pingpong -n 1 2>&1); rc=$?
  [ $rc -ne 0 ] || bad "$name: eel-bench -d $uri exited 0 in a build without it"
  expect_in "$out" "built without the $name backend" "$name: eel-bench -d $uri"
  expect_in "$out" "tools/setup $name" "$name: eel-bench -d $uri"
  [ "$(wc -l <<<"$out")" -eq 1 ] || bad "$name: eel-bench -d $uri said more than one line: $out"
  lib=librte_eal; [ $name = verbs ] && lib=libibverbs
  grep -q "$lib" <<<"$(ldd $b/eel-bench)" && bad "$name: eel-bench still links $lib"
  measures $name
done

# PMIx: eel-bench builds without launched mode; under a launcher it says so.
EEL_HIDE_PC=pmix build pmix PKG_CONFIG=$PC && {
  b=$ROOT/pmix
  expect_in "$(cat $b/features)" "without: launch" "pmix: $b/features"
  expect_in "$($b/eel-bench --help 2>&1)" "lacks launched mode" "pmix: eel-bench --help"
  out=$(PMIX_RANK=0 PMIX_NAMESPACE=eel-test timeout 20 $b/eel-bench 2>&1); rc=$?
  [ $rc -ne 0 ] || bad "pmix: eel-bench under a launcher exited 0 in a build without PMIx"
  expect_in "$out" "built without PMIx" "pmix: eel-bench under a launcher"
  expect_in "$out" "tools/setup mpi" "pmix: eel-bench under a launcher"
  out=$($b/eel-bench -t allpairs 2>&1) && bad "pmix: -t allpairs exited 0"
  expect_in "$out" "built without PMIx" "pmix: eel-bench -t allpairs"
  grep -q pmix <<<"$(ldd $b/eel-bench)" && bad "pmix: eel-bench still links PMIx"
  measures pmix
}

# Open MPI's mpicc: eel-mpi is not built, everything else is.
build mpi MPICC=/nonexistent/mpicc && {
  b=$ROOT/mpi
  expect_in "$(cat $b/features)" "without: eel-mpi" "mpi: $b/features"
  [ -e $b/eel-mpi ] && bad "mpi: eel-mpi was built without mpicc"
  for p in eel-bench eel-report eel-compare eel-probe; do [ -x $b/$p ] || bad "mpi: $p was not built"; done
}

# Everything hidden at once: the smallest build a fresh machine can make.
EEL_HIDE_PC="libdpdk libibverbs librdmacm pmix" build none PKG_CONFIG=$PC MPICC=/nonexistent/mpicc && {
  expect_in "$(cat $ROOT/none/features)" "without: dpdk eel-mpi launch verbs" "none: features"
  measures none
}

[ $fail = 0 ] && echo "build-without: DPDK, rdma-core, PMIx and mpicc each optional: each build leaves out its part, says so, and measures on softnic"
exit $fail
