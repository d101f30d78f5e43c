#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/install/exports.sh — libeel.so exports the API of include/eel/ and
# nothing else (userlib/libeel.map): `nm -D --defined-only` lists exactly the
# functions the public headers declare (static inline ones aside; the kernel
# module's eel_pci_ioctl.h declares none), the SONAME is libeel.so.0, and the
# version script names the same functions.
set -euo pipefail
cd "$(dirname "$0")/../.."
B=${EEL_BUILD:-build}
so=$B/libeel.so
[ -e "$so" ] || { echo "exports: $so is missing: run make" >&2; exit 1; }

soname=$(readelf -d "$so" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
[ "$soname" = libeel.so.0 ] || { echo "exports: $so has SONAME '$soname', not libeel.so.0" >&2; exit 1; }

exported=$(nm -D --defined-only "$so" | awk '$3 != "EEL_0" { print $3 }' | sed 's/@.*//' | sort -u)
declared=$(python3 - include/eel/*.h <<'PY'
import re, sys
names = set()
for path in sys.argv[1:]:
    text = open(path).read()
    text = re.sub(r"#ifdef __cplusplus.*?#endif", " ", text, flags=re.S)   # extern "C" {, }
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r"^\s*#.*?(?<!\\)$", " ", text, flags=re.M)   # preprocessor lines
    # Drop the bodies of static inline functions and of structs/enums: what
    # remains at file level are declarations.
    out, depth, i = [], 0, 0
    while i < len(text):
        c = text[i]
        if c == "{": depth += 1
        elif c == "}": depth -= 1
        elif depth == 0: out.append(c)
        i += 1
    for stmt in "".join(out).split(";"):
        if "static" in stmt or "typedef" in stmt:
            continue
        m = re.search(r"\b(eel_\w+)\s*\(", stmt)
        if m:
            names.add(m.group(1))
print("\n".join(sorted(names)))
PY
)
mapped=$(sed -n 's/^[[:space:]]*\(eel_[a-z0-9_]*\);$/\1/p' userlib/libeel.map | sort -u)

fail=0
extra=$(comm -23 <(echo "$exported") <(echo "$declared"))
missing=$(comm -13 <(echo "$exported") <(echo "$declared"))
unmapped=$(comm -3 <(echo "$mapped") <(echo "$declared"))
[ -z "$extra" ] || { echo "exports: libeel.so exports what include/eel/ does not declare:" $extra >&2; fail=1; }
[ -z "$missing" ] || { echo "exports: include/eel/ declares what libeel.so does not export (add to userlib/libeel.map):" $missing >&2; fail=1; }
[ -z "$unmapped" ] || { echo "exports: userlib/libeel.map and include/eel/ differ:" $unmapped >&2; fail=1; }
[ $fail = 0 ] || exit 1
echo "exports: libeel.so (SONAME $soname) exports the $(echo "$declared" | wc -l) functions include/eel/ declares, nothing else"
