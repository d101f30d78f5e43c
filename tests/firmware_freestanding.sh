#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The firmware builds freestanding for an embedded core (riscv64, no libc):
# it reaches its host only through its HAL (firmware/README.md, ARCHITECTURE.md).
# Its only undefined symbols may be the four a freestanding C environment must
# provide (GCC manual, "Standards": memcpy, memmove, memset, memcmp).
set -euo pipefail
cd "$(dirname "$0")/.."
cc=riscv64-unknown-elf-gcc
command -v $cc >/dev/null || { echo "no $cc: run sudo tools/setup build"; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for f in firmware/*.c; do
  $cc -std=c11 -ffreestanding -nostdlib -fno-builtin -O2 -Wall -Wextra -Werror -Wno-unused-parameter \
      -march=rv64imac -mabi=lp64 -Iinclude -c "$f" -o "$out/$(basename "$f" .c).o"
done
riscv64-unknown-elf-ld -r -o "$out/firmware.o" "$out"/*.o
undef=$(riscv64-unknown-elf-nm -u "$out/firmware.o" | awk '{print $2}' | grep -vxE 'memcpy|memmove|memset|memcmp' || true)
if [ -n "$undef" ]; then
  echo "firmware/ needs symbols its HAL does not provide: $undef"
  exit 1
fi
size=$(riscv64-unknown-elf-size "$out/firmware.o" | awk 'NR==2{print $1+$2+$3}')
echo "firmware builds freestanding for riscv64: $size bytes (text+data+bss), no libc"
