#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/install/licence.sh — every source file names its licence (LICENSE):
# an SPDX-License-Identifier line among its first three lines, GPL-2.0 in the
# kernel module (driver/, Kbuild), MIT elsewhere (the module's ioctl header
# is both).
set -uo pipefail
cd "$(dirname "$0")/../.."
[ -s LICENSE ] || { echo "licence: no LICENSE file" >&2; exit 1; }
fail=0
while IFS= read -r f; do
  case $f in
    *.c|*.h|*.sh|*.py|*.mk|Makefile|Kbuild|*/Kbuild|*.map|*.pc.in) ;;
    *) head -c 2 "$f" | grep -q '#!' || continue ;;
  esac
  spdx=$(head -3 "$f" | sed -n 's/.*SPDX-License-Identifier: \(.*\)/\1/p' | sed 's/ *\*\/$//')
  case $f in
    driver/*|Kbuild) want="GPL-2.0" ;;
    include/eel/eel_pci_ioctl.h) want="(GPL-2.0 WITH Linux-syscall-note) OR MIT" ;;
    *) want="MIT" ;;
  esac
  if [ "$spdx" != "$want" ]; then
    echo "licence: $f: SPDX-License-Identifier is '${spdx:-missing}', not '$want'" >&2; fail=1
  fi
done < <(git ls-files 2>/dev/null || find . -type f -not -path './build/*' -not -path './.git/*' | sed 's|^\./||')
[ $fail = 0 ] && echo "licence: every source file carries its SPDX line (MIT; GPL-2.0 in the kernel module)"
exit $fail
