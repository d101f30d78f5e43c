# tests/host/lib/compare_env.sh — sourced by eel-compare's host tests
# (tests/host/compare_*.sh) after `set -uo pipefail`: gives B (the build), C
# (eel-compare), a temporary folder $d gone at exit, fail=0, the sanitizers'
# exit codes, and bad 'text' ARGS...: eel-compare ARGS must exit 2 with one
# line on stderr holding text, nothing on stdout, no sanitizer report.
B=${EEL_BUILD:-build}
C="$B/eel-compare"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
export ASAN_OPTIONS=exitcode=86 UBSAN_OPTIONS=halt_on_error=1:exitcode=87
fail=0
[ -x "$C" ] || { echo "FAILED: no $C: run make all"; exit 1; }

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
