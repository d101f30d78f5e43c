# SPDX-License-Identifier: MIT
# tests/host/lib/compare_env.sh — sourced by eel-compare's host tests
# (tests/host/compare_*.sh) after `set -uo pipefail`: gives B (the build), C
# (eel-compare), a temporary folder $d gone at exit, fail=0, the sanitizers'
# exit codes, and bad 'text' ARGS...: eel-compare ARGS must exit 2 with one
# line on stderr holding text, nothing on stdout, no sanitizer report.
. "$(dirname "${BASH_SOURCE[0]}")/tool_env.sh" eel-compare
C=$T

bad() {
  local text=$1; shift
  "$C" "$@" >"$d/out" 2>"$d/err"
  local rc=$? n
  n=$(wc -l <"$d/err")
  if [ $rc -ne 2 ] || ! grep -qF -- "$text" "$d/err" || [ "$n" -ne 1 ] || [ -s "$d/out" ] ||
     grep -qE 'AddressSanitizer|runtime error' "$d/err"; then
    echo "FAILED: eel-compare $*: exit $rc (want 2), $n line(s):"; sed 's/^/    | /' "$d/err" "$d/out"; fail=1
  else
    echo "ok: bad input -> $(cat "$d/err")"
  fi
}
