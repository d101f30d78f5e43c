# SPDX-License-Identifier: MIT
# tests/vm/lib/siw.sh — Soft-iWARP (siw) for the guest kernel, built here: Debian's
# kernel is configured without it (# CONFIG_RDMA_SIW is not set), so suite-siw.sh
# builds drivers/infiniband/sw/siw out of tree from Debian's linux-source package
# of the very version of the guest's linux-image, against the installed headers
# (as driver/ is built), and the guest insmods it. Sourced after common.sh,
# kernel.sh and linux-source.sh.

# siw_build KVER: print the path of siw.ko for KVER, building it once (cached in
# build/vm/siw/KVER; about 10 s, after linux_source's download).
siw_build() {
  local kver=$1 dir=$VM_DIR/siw/$1 src
  if [ -s "$dir/siw.ko" ]; then echo "$dir/siw.ko"; return 0; fi
  [ -d "/usr/src/linux-headers-$kver" ] || die "/usr/src/linux-headers-$kver is missing: $SETUP_HINT"
  src=$(linux_source "$kver")/drivers/infiniband/sw/siw
  rm -rf "$dir.tmp" && mkdir -p "$dir.tmp" && cp -r "$src" "$dir.tmp/siw"
  say "building siw for $kver (once; cached in ${dir#$REPO/})"
  make -C "/usr/src/linux-headers-$kver" M="$dir.tmp/siw" CONFIG_RDMA_SIW=m modules >"$dir.tmp/build.log" 2>&1 ||
    { tail -n 20 "$dir.tmp/build.log" >&2; die "siw did not build against linux-headers-$kver (log above)"; }
  mkdir -p "$dir" && cp "$dir.tmp/siw/siw.ko" "$dir/siw.ko" && rm -rf "$dir.tmp"
  echo "$dir/siw.ko"
}
