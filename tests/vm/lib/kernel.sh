# SPDX-License-Identifier: MIT
# tests/vm/lib/kernel.sh — the guest kernel: Debian's own, taken without installing it
# (VM-RECIPE.md: `apt-get download`, `dpkg -x` into a cache, `depmod -b`). Sourced by run-vm.

# kernel_version: print the guest kernel's version (e.g. 6.1.0-NN-amd64).
# NN comes from linux-image-amd64's dependency, never hard-coded; it must equal the
# version of the installed linux-headers-amd64, because driver/ is built on the host
# against /usr/src/linux-headers-<kver> and insmod'ed in the guest.
kernel_version() {
  local headers image
  headers=$(dpkg-query -W -f='${Depends}' linux-headers-amd64 2>/dev/null \
            | grep -o 'linux-headers-[0-9][^ ,]*-amd64' | head -n1 | sed 's/^linux-headers-//') || true
  [ -n "$headers" ] || die "linux-headers-amd64 is not installed: $SETUP_HINT"
  image=$(_image_kver)
  if [ -z "$image" ] && [ "$(id -u)" -eq 0 ] && [ ! -e "$VM_DIR/kernel/$headers/.ready" ]; then
    # A machine with no package lists yet: refresh them once (Debian's archive only).
    say "apt knows no linux-image-amd64: running apt-get update"
    apt-get update -q >/dev/null 2>&1 || true
    image=$(_image_kver)
  fi
  if [ -z "$image" ]; then
    # No package lists, but this very kernel is already cached: use it.
    [ -e "$VM_DIR/kernel/$headers/.ready" ] && { echo "$headers"; return 0; }
    die "apt knows no linux-image-amd64 (no package lists?): run \`apt-get update\` then \`sudo tools/setup vm\`"
  fi
  [ "$image" = "$headers" ] || die "guest kernel $image (linux-image-amd64) differs from the installed headers $headers (linux-headers-amd64): run \`sudo apt-get install linux-headers-amd64\` to bring them to $image"
  [ -d "/usr/src/linux-headers-$image" ] || die "/usr/src/linux-headers-$image is missing: $SETUP_HINT"
  echo "$image"
}

# _image_kver: the version linux-image-amd64 depends on, from apt's lists. apt-cache
# takes 0.7 s here, so the answer is kept in build/vm/kernel/image-kver until apt's
# lists or dpkg's status change.
_image_kver() {
  local memo=$VM_DIR/kernel/image-kver v
  if [ -s "$memo" ] && [ -z "$(find /var/lib/apt/lists /var/lib/dpkg/status -newer "$memo" -print -quit 2>/dev/null)" ]; then
    cat "$memo"; return 0
  fi
  v=$(apt-cache depends linux-image-amd64 2>/dev/null \
      | sed -n 's/^ *Depends: linux-image-\([0-9].*-amd64\)$/\1/p' | head -n1)
  if [ -n "$v" ]; then mkdir -p "$VM_DIR/kernel" && echo "$v" >"$memo"; fi
  echo "$v"
}


# kernel_fetch KVER: make sure $VM_DIR/kernel/KVER holds the unpacked, depmod'ed kernel
# (downloaded once; a second run finds .ready and does nothing). Prints its root.
kernel_fetch() {
  local kver=$1 root=$VM_DIR/kernel/$1
  # .ready holds the number of files unpacked: a cache that lost some (a clean that
  # deletes *.ko under build/ ...) is unpacked again rather than half-used.
  if [ -e "$root/.ready" ] && [ "$(cat "$root/.ready")" != "$(_count_files "$root")" ]; then
    say "the kernel cache ${root#$REPO/} lost files: fetching it again"
    rm -f "$root/.ready"
  fi
  if [ ! -e "$root/.ready" ]; then
    mkdir -p "$VM_DIR/kernel"
    (
      flock 9   # two runs at once must not unpack into each other
      [ -e "$root/.ready" ] && exit 0
      rm -rf "$root" "$root.tmp" && mkdir -p "$root.tmp"
      say "downloading Debian's linux-image-$kver (once; cached in ${root#$REPO/})"
      ( cd "$root.tmp" && apt-get download -q "linux-image-$kver" ) >"$VM_DIR/kernel/download.log" 2>&1 \
        || { tail -n 5 "$VM_DIR/kernel/download.log" >&2
             die "could not download linux-image-$kver from Debian's archive: $SETUP_HINT (and check apt can reach the archive)"; }
      dpkg -x "$root.tmp"/linux-image-"$kver"_*.deb "$root.tmp" || die "dpkg -x of linux-image-$kver failed"
      rm -f "$root.tmp"/*.deb
      depmod -b "$root.tmp" "$kver" || die "depmod -b for $kver failed"
      [ -r "$root.tmp/boot/vmlinuz-$kver" ] || die "linux-image-$kver has no boot/vmlinuz-$kver"
      _extract_vmlinux "$root.tmp/boot/vmlinuz-$kver" "$root.tmp/vmlinux"
      _count_files "$root.tmp" >"$root.tmp/.ready" && mv "$root.tmp" "$root"
    ) 9>"$VM_DIR/kernel/.lock" || exit 1
  fi
  echo "$root"
}

_count_files() { find "$1" -type f ! -name .ready | wc -l; }

# kernel_modules ROOT KVER MODULE...: print the .ko files (relative to the kernel's
# module folder) to load, dependencies first, each once (modprobe --show-depends,
# with no host configuration: -C points at an empty folder).
kernel_modules() {
  local root=$1 kver=$2 m out line noconf
  shift 2
  noconf=$VM_DIR/kernel/empty-modprobe.d && mkdir -p "$noconf"
  for m in "$@"; do
    out=$(modprobe -C "$noconf" -d "$root" -S "$kver" --show-depends "$m" 2>&1) \
      || die "kernel module '$m' not found in $kver: $out"
    while read -r line; do
      case $line in
        insmod\ *) line=${line#insmod }; line=${line%% *}; echo "${line#$root/lib/modules/$kver/}" ;;
        builtin\ *) ;;   # built into the kernel: nothing to load
        *) die "unexpected modprobe output for '$m': $line" ;;
      esac
    done <<<"$out"
  done | awk '!seen[$0]++'
}

# _extract_vmlinux VMLINUZ OUT: the uncompressed ELF kernel. Debian's bzImage is
# xz-compressed, and unpacking it under TCG takes about 3 s of every boot; the ELF
# (CONFIG_PVH=y: it has the PVH entry note) boots directly with QEMU's -kernel, the
# kernel's first line then comes 0.5 s after QEMU starts. Without it run-vm falls back
# to the bzImage (slower, same kernel).
_extract_vmlinux() {
  local off
  off=$(LC_ALL=C grep -obUaP '\xFD7zXZ\x00' "$1" | head -n1 | cut -d: -f1) || true
  # (xz stops after its stream: tail then dies of SIGPIPE, which pipefail must not see)
  if [ -n "$off" ] && { tail -c +$((off + 1)) "$1" || :; } | xz -dc --single-stream >"$2.tmp" 2>/dev/null \
     && [ "$(head -c 4 "$2.tmp" | od -An -c | tr -d ' ')" = '177ELF' ]; then
    mv "$2.tmp" "$2"
  else
    rm -f "$2.tmp"
    say "could not unpack vmlinux from $1: booting the compressed kernel (about 3 s slower)"
  fi
}

# kernel_image ROOT KVER: what QEMU's -kernel boots.
kernel_image() {
  if [ -e "$1/vmlinux" ]; then echo "$1/vmlinux"; else echo "$1/boot/vmlinuz-$2"; fi
}
