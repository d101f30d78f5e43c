#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The instruction budget of an 8-byte put on softnic:inline (firmware/README.md,
# "Instruction budget"): tools/eel-cost --check under callgrind, over the
# valgrind build make test makes (build/valgrind). A benchmark whose figures
# are printed, failing only when a count is over the budget written there;
# then the counts are the same on a second run (nothing timed in them).
set -uo pipefail
cd "$(dirname "$0")/../.."
export EEL_COST_BUILD=${EEL_COST_BUILD:-build/valgrind}
fail=0
command -v valgrind >/dev/null || { echo "FAILED: no valgrind: run tools/setup build"; exit 1; }
[ -x "$EEL_COST_BUILD/tests/cost_drive" ] ||
  { echo "FAILED: no $EEL_COST_BUILD/tests/cost_drive: make BUILD=$EEL_COST_BUILD VALGRIND=1 $EEL_COST_BUILD/tests/cost_drive"; exit 1; }
if one=$(tools/eel-cost --check 200 2>&1); then
  echo "ok: within the budget"
else
  fail=1; echo "FAILED: over the budget"
fi
echo "$one"
two=$(tools/eel-cost 200 2>&1)
[ "$(grep "instructions a put" <<<"$one")" = "$(grep "instructions a put" <<<"$two")" ] && echo "ok: the same counts on a second run" ||
  { echo "FAILED: the counts moved between two runs:"; echo "$two"; fail=1; }
exit $fail
