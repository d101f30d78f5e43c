# tests/vm/lib/siw.sh — Soft-iWARP (siw) for the guest kernel, built here: Debian's
# kernel is configured without it (# CONFIG_RDMA_SIW is not set), so suite-siw.sh
# builds drivers/infiniband/sw/siw out of tree from Debian's linux-source package
# of the very version of the guest's linux-image, against the installed headers
# (as driver/ is built), and the guest insmods it. Sourced after common.sh and
# kernel.sh.

# siw_build KVER: print the path of siw.ko for KVER, building it once (cached in
# build/vm/siw/KVER; about 20 s and a 140 MB download from Debian's archive).
siw_build() {
  local kver=$1 dir=$VM_DIR/siw/$1 ver series src
  if [ -s "$dir/siw.ko" ]; then echo "$dir/siw.ko"; return 0; fi
  # the source of the very upload the guest's image comes from
  ver=$(apt-cache policy "linux-image-$kver" 2>/dev/null | awk '/Candidate:/ { print $2; exit }')
  [ -n "$ver" ] && [ "$ver" != "(none)" ] || die "apt knows no linux-image-$kver: run \`apt-get update\`"
  series=$(echo "$kver" | sed 's/^\([0-9]*\.[0-9]*\)\..*/\1/')
  [ -d "/usr/src/linux-headers-$kver" ] || die "/usr/src/linux-headers-$kver is missing: $SETUP_HINT"
  rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
  say "building siw for $kver from Debian's linux-source-$series $ver (once; cached in ${dir#$REPO/})"
  ( cd "$dir.tmp" && apt-get download -q "linux-source-$series=$ver" ) >"$dir.tmp/download.log" 2>&1 ||
    { tail -n 5 "$dir.tmp/download.log" >&2
      die "could not download linux-source-$series=$ver from Debian's archive (check apt can reach it)"; }
  ( cd "$dir.tmp" &&
    dpkg-deb --fsys-tarfile linux-source-"$series"_*.deb | tar -x "./usr/src/linux-source-$series.tar.xz" &&
    tar -xJf "usr/src/linux-source-$series.tar.xz" "linux-source-$series/drivers/infiniband/sw/siw" ) ||
    die "could not unpack drivers/infiniband/sw/siw from linux-source-$series"
  src=$dir.tmp/linux-source-$series/drivers/infiniband/sw/siw
  make -C "/usr/src/linux-headers-$kver" M="$src" CONFIG_RDMA_SIW=m modules >"$dir.tmp/build.log" 2>&1 ||
    { tail -n 20 "$dir.tmp/build.log" >&2; die "siw did not build against linux-headers-$kver (log above)"; }
  mkdir -p "$dir" && cp "$src/siw.ko" "$dir/siw.ko" && rm -rf "$dir.tmp"
  echo "$dir/siw.ko"
}
