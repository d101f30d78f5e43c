#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/host/conventions.sh — every program keeps the conventions of the tools
# it sits beside (README, Install): `--version` is one line, exit 0, naming the
# program, the release (include/eel/eel.h) and the git commit; `--help` fits a
# screen (at most 35 lines of at most 80 columns), exit 0, and ends pointing at
# the man page, which the build made ($(BUILD)/man) and man renders without a
# warning.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
B=${EEL_BUILD:-build}
# under ASan (build/asan): Open MPI's own allocations at eel-mpi's exit are not eel's leaks
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
fail=0
bad() { echo "FAILED: $*"; fail=1; }
release=$(sed -n 's/^#define EEL_VERSION "\(.*\)"/\1/p' include/eel/eel.h)
[ -n "$release" ] || { bad "no EEL_VERSION in include/eel/eel.h"; exit 1; }

# The installed programs: the build's copies (the scripts' have their version filled in),
# and the scripts as run from the source tree (they ask git). eel-pci-check: --version only.
for p in "$B/eel-bench" "$B/eel-report" "$B/eel-compare" "$B/eel-probe" "$B/eel-mpi" \
	 "$B/eel-bind" "$B/eel-loss" tools/eel-bind tools/eel-loss "$B/eel-pci-check"; do
  name=${p##*/}
  out=$(timeout 30 "$p" --version 2>&1); rc=$?
  if [ $rc -ne 0 ] || [ "$(wc -l <<<"$out")" -ne 1 ] ||
     ! [[ $out =~ ^$name\ ${release//./\\.}\ \(git\ [0-9a-zA-Z.-]+\)$ ]]; then
    bad "$p --version: exit $rc, '$out' (want one line: $name $release (git COMMIT))"
  else
    echo "ok: $p --version -> $out"
  fi
  [ "$name" = eel-pci-check ] && continue
  out=$(timeout 30 "$p" --help 2>/dev/null); rc=$?
  lines=$(wc -l <<<"$out")
  wide=$(awk 'length > 80' <<<"$out" | head -n 1)
  last=$(tail -n 1 <<<"$out")
  if [ $rc -ne 0 ] || [ "$lines" -gt 35 ] || [ -n "$wide" ] ||
     [ "$last" != "Full reference: man $name (or docs/man/$name.1.md)" ]; then
    bad "$p --help: exit $rc, $lines lines${wide:+, a line over 80 columns: $wide}, last line '$last'"
  else
    echo "ok: $p --help: $lines lines, within 80 columns, ends with: $last"
  fi
  page=$B/man/$name.1
  [ -f "docs/man/$name.1.md" ] || bad "no man page source docs/man/$name.1.md"
  [ -f "$page" ] || { bad "no $page: run make"; continue; }
done

# Every page renders without a warning from groff.
for page in "$B"/man/*.[0-9]; do
  warn=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
  [ -z "$warn" ] && echo "ok: $page renders without a warning" || bad "$page: $warn"
done
exit $fail
