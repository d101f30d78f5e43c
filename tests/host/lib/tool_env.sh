# SPDX-License-Identifier: MIT
# tests/host/lib/tool_env.sh TOOL — sourced by the host tests of one of eel's
# programs (eel-report, eel-compare) after `set -uo pipefail`: B (the build),
# T (the program, $B/TOOL), a temporary folder $d gone at exit, fail=0, and the
# sanitizers' exit codes (86 ASan, 87 UBSan) so a report is never a pass.
B=${EEL_BUILD:-build}
T="$B/$1"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
export ASAN_OPTIONS=exitcode=86 UBSAN_OPTIONS=halt_on_error=1:exitcode=87
fail=0
[ -x "$T" ] || { echo "FAILED: no $T: run make all"; exit 1; }
