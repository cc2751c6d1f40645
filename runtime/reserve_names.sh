#!/usr/bin/env bash
# reserve_names.sh NM OBJCOPY ARCHIVE: the global names the archive
# defines for itself (rt, rt_init, cov_begin, read_whole_file ...) become
# __schedfuzz_NAME, a name the C standard reserves, in the archive a
# program links: so the program may define any name of its own, as it
# may beside libc. Left as they are: names that begin with an underscore
# (the TSan ABI, __wrap_main, sanitizer and engine hooks), the public API
# (schedfuzz_*), libFuzzer's (LLVMFuzzer*), the drivers' main, and weak
# definitions (the interposers, which a program's own definition must
# beat). Definitions and the archive's references to them are renamed
# together.
set -euo pipefail
nm=$1 objcopy=$2 archive=$3
map=$(mktemp)
trap 'rm -f "$map"' EXIT
"$nm" -g --defined-only "$archive" 2>/dev/null | awk 'NF == 3 && $2 ~ /^[TDBRC]$/ { print $3 }' |
	grep -Ev '^(_|schedfuzz_|LLVMFuzzer|main$)' | sort -u | awk '{ print $1, "__schedfuzz_" $1 }' >"$map" || true
[ -s "$map" ] || exit 0
"$objcopy" --redefine-syms="$map" "$archive"
