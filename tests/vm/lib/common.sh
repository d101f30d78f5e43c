# SPDX-License-Identifier: MIT
# tests/vm/lib/common.sh — shared by run-vm and its helpers (sourced, bash).
#
# Paths: everything the bench writes lives under $VM_DIR = <repo>/build/vm:
#   kernel/<kver>/      Debian's kernel package, unpacked (dpkg -x) and depmod'ed
#   initramfs/<hash>.cpio.gz   one initramfs per content (busybox + modules + init)
#   results/<name>/vmI/ what one run of one VM left (console.log, rc, output.log, out/)

VM_LIB=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$VM_LIB/../../.." && pwd)
VM_DIR=$REPO/build/vm

SETUP_HINT='run `sudo tools/setup vm`'

say() { echo "run-vm: $*" >&2; }
die() { echo "run-vm: $*" >&2; exit 1; }

# need CMD PACKAGE: fail in one line, with the fix, when a host tool is missing.
need() {
  command -v "$1" >/dev/null 2>&1 || die "$1 not found (Debian package $2): $SETUP_HINT"
}
