#!/bin/bash
# Writes the C initializer of the syscall name table ([nr] = "name",)
# from the C library's kernel headers (Debian: linux-libc-dev,
# <asm/unistd.h>), so the names match the architecture built for.
# Usage: gen-syscall-names.sh CC > syscall_names.h
set -euo pipefail
echo '#include <asm/unistd.h>' | "${1:-cc}" -dM -E -x c - |
	sed -n 's/^#define __NR_\([a-z0-9_]*\) \([0-9][0-9]*\)$/[\2] = "\1",/p' | sort -t'[' -k2 -n
