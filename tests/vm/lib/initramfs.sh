# SPDX-License-Identifier: MIT
# tests/vm/lib/initramfs.sh — the guest's initramfs: static busybox, the .ko files to
# load (in order) and tests/vm/lib/init as /init. Built once per content: its name is
# the hash of everything that goes in, so a second run with the same modules reuses it.
# Sourced by run-vm.

# initramfs_build KROOT KVER MODFILE...: prints the path of the cached initramfs.
initramfs_build() {
  local kroot=$1 kver=$2 hash out tmp m
  shift 2
  hash=$( { echo "$kver"; printf '%s\n' "$@"; sha256sum /bin/busybox "$VM_LIB/init"; } \
          | sha256sum | cut -c1-16 )
  out=$VM_DIR/initramfs/$hash.cpio.gz
  if [ ! -e "$out" ]; then
    mkdir -p "$VM_DIR/initramfs"
    tmp=$(mktemp -d "$VM_DIR/initramfs/build.XXXXXX")
    mkdir -p "$tmp"/{bin,dev,proc,sys,mnt,lib/modules}
    cp /bin/busybox "$tmp/bin/busybox"
    cp "$VM_LIB/init" "$tmp/init" && chmod 755 "$tmp/init"
    for m in "$@"; do
      mkdir -p "$tmp/lib/modules/$(dirname "$m")"
      cp "$kroot/lib/modules/$kver/$m" "$tmp/lib/modules/$m"
      echo "$m" >>"$tmp/modules.order"
    done
    touch "$tmp/modules.order"
    # gzip -1: the guest unpacks it under TCG, where a stronger level costs more than it saves.
    ( cd "$tmp" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -1 ) >"$tmp.cpio.gz" \
      || die "could not build the initramfs"
    mv "$tmp.cpio.gz" "$out" && rm -rf "$tmp"
  fi
  echo "$out"
}
