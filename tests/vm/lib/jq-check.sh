# SPDX-License-Identifier: MIT
# tests/vm/lib/jq-check.sh — sourced by a suite that checks a guest's JSON
# (after defining its die):
#   JQ_FILE=path/to/run.json JQ_WHO=suite-x; check 'jq expression that must be true' 'what it means'
# A false expression ends the suite through die, naming the check and the file.
check() {
  jq -e "$1" "$JQ_FILE" >/dev/null || die "$2 ($1 is false in $JQ_FILE)"
  echo "$JQ_WHO: ok: $2"
}
