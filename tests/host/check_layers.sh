#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tools/check-layers catches what it is for (ARCHITECTURE.md): on a copy of the tree,
# an include from bench/ into userlib/, one from a backend into another's
# folder, one from firmware/ out of it, and two files that call each other
# are each named, with exit 1; the tree as it is passes.
set -uo pipefail
cd "$(dirname "$0")/../.."
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
fail=0
cp -r include firmware userlib method bench tools "$d/"
mkdir -p "$d/build/obj"
"$d/tools/check-layers" >"$d/out" 2>&1 || { echo "FAILED: the tree as it is (no objects): $(cat "$d/out")"; fail=1; }
echo '#include "userlib/core/dev.h"' >>"$d/bench/cli.c"
echo '#include "userlib/dpdk/dpdk_port.h"' >>"$d/userlib/verbs/verbs_cq.c"
echo '#include "userlib/engine/engine.h"' >>"$d/firmware/fw_mr.c"
mkdir -p "$d/build/obj/bench"
printf 'int b(void);\nint a(void) { return b(); }\n' >"$d/a.c"
printf 'int a(void);\nint b(void) { return a() + 1; }\n' >"$d/b.c"
cc -c "$d/a.c" -o "$d/build/obj/bench/a.o" && cc -c "$d/b.c" -o "$d/build/obj/bench/b.o" || { echo "FAILED: cc"; exit 1; }
"$d/tools/check-layers" >"$d/out" 2>&1
rc=$?
cat "$d/out"
[ $rc -eq 1 ] || { echo "FAILED: exit $rc, not 1"; fail=1; }
for want in "bench/cli.c:.*includes userlib/core/dev.h" "userlib/verbs/verbs_cq.c:.*includes userlib/dpdk/dpdk_port.h" \
            "firmware/fw_mr.c:.*includes userlib/engine/engine.h" "a circle of calls: bench/a.c -> bench/b.c"; do
  grep -q "$want" "$d/out" || { echo "FAILED: not reported: $want"; fail=1; }
done
[ $fail -eq 0 ] && echo "ok: every planted wrong dependency named"
exit $fail
