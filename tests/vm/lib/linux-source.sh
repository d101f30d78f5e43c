# SPDX-License-Identifier: MIT
# tests/vm/lib/linux-source.sh — the parts of Debian's kernel source eel needs,
# from the linux-source package of the very upload the guest's linux-image comes
# from: drivers/infiniband/sw/siw (Debian's kernel is built without siw:
# siw.sh builds it) and checkpatch.pl with its data files (`make checkpatch`;
# they are not in linux-headers). Sourced after common.sh and kernel.sh.

LINUX_SOURCE_PARTS=(drivers/infiniband/sw/siw scripts/checkpatch.pl scripts/spelling.txt
                    scripts/const_structs.checkpatch)

# linux_source KVER: print the directory holding those parts for KVER, fetched
# once (cached in build/vm/linux-source/KVER: a 140 MB download, ~10 s unpacking).
linux_source() {
  local kver=$1 dir=$VM_DIR/linux-source/$1 ver series p parts=()
  if [ -e "$dir/.ready" ]; then echo "$dir"; return 0; fi
  ver=$(apt-cache policy "linux-image-$kver" 2>/dev/null | awk '/Candidate:/ { print $2; exit }')
  [ -n "$ver" ] && [ "$ver" != "(none)" ] || die "apt knows no linux-image-$kver: run \`apt-get update\`"
  series=$(echo "$kver" | sed 's/^\([0-9]*\.[0-9]*\)\..*/\1/')
  for p in "${LINUX_SOURCE_PARTS[@]}"; do parts+=("linux-source-$series/$p"); done
  rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
  say "fetching Debian's linux-source-$series $ver for siw and checkpatch (once; cached in ${dir#$REPO/})"
  ( cd "$dir.tmp" && apt-get download -q "linux-source-$series=$ver" ) >"$dir.tmp/download.log" 2>&1 ||
    { tail -n 5 "$dir.tmp/download.log" >&2
      die "could not download linux-source-$series=$ver from Debian's archive (check apt can reach it)"; }
  ( cd "$dir.tmp" &&
    dpkg-deb --fsys-tarfile linux-source-"$series"_*.deb | tar -x "./usr/src/linux-source-$series.tar.xz" &&
    tar -xJf "usr/src/linux-source-$series.tar.xz" --strip-components=1 "${parts[@]}" ) ||
    die "could not unpack ${LINUX_SOURCE_PARTS[*]} from linux-source-$series"
  rm -rf "$dir.tmp/usr" "$dir.tmp"/*.deb "$dir.tmp/download.log"
  touch "$dir.tmp/.ready"
  rm -rf "$dir" && mv "$dir.tmp" "$dir"
  echo "$dir"
}
