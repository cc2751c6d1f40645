#!/usr/bin/env bash
# build.sh - builds schedfuzz's bundled harnesses the way OSS-Fuzz and
# ClusterFuzzLite build fuzzers: from $SRC into $OUT, with the compilers,
# flags and engine their builders set ($CC $CXX $CFLAGS $CXXFLAGS
# $LIB_FUZZING_ENGINE $FUZZING_ENGINE $SANITIZER $OUT $SRC $WORK).
#
# With SANITIZER=address the fuzzers are ASan builds, as OSS-Fuzz's default
# ones are: a use-after-free that an interleaving causes is ASan's report
# and our failure at once. For each harness in tests/harnesses/ it writes $OUT/<name> (built with
# schedfuzz-cc for the engine: libfuzzer, or afl in persistent mode),
# <name>_seed_corpus.zip (seeds/harnesses/<name>/), <name>.dict (genome
# tokens, which both engines pick up by that name) and <name>.options.
# schedfuzz itself (the wrappers, the runtime, the `schedfuzz` command,
# copied to $OUT for replaying crashes) is built first, without the
# fuzzing flags: our runtime must never be instrumented.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${OUT:?set OUT, the directory for the fuzzers}"
: "${CC:=clang-14}"
: "${CXX:=clang++-14}"
: "${CFLAGS:=}"
: "${CXXFLAGS:=}"
: "${LIB_FUZZING_ENGINE:=-fsanitize=fuzzer}"
: "${SANITIZER:=none}"
WORK=${WORK:-$(mktemp -d)}
mkdir -p "$OUT"

# The engine: OSS-Fuzz names it; otherwise $LIB_FUZZING_ENGINE tells.
engine=${FUZZING_ENGINE:-}
if [ -z "$engine" ]; then
	case $LIB_FUZZING_ENGINE in
	*AFL* | *afl*) engine=afl ;;
	*) engine=libfuzzer ;;
	esac
fi
case $engine in
libfuzzer | afl) ;;
*) echo "build.sh: FUZZING_ENGINE=$engine: schedfuzz builds libfuzzer and afl fuzzers" >&2; exit 1 ;;
esac

# $SANITIZER: address builds in schedfuzz's ASan mode (ASan beside our
# runtime), undefined adds UBSan in either mode; memory cannot be combined
# with controlled scheduling. Anything else (coverage, dataflow, ...) is
# taken out of the flags, with a note.
keep_sanitizers=false
case $SANITIZER in
none | thread | "") ;;
address | undefined) keep_sanitizers=true ;;
memory) echo "build.sh: SANITIZER=memory is not supported by schedfuzz (MemorySanitizer needs its own thread interceptors); use address" >&2; exit 1 ;;
*) echo "build.sh: SANITIZER=$SANITIZER is not combined with schedfuzz's instrumentation; building with schedfuzz's alone" >&2 ;;
esac
strip_sanitizers() {
	local out=() f
	for f in $1; do
		case $f in
		-fsanitize=fuzzer-no-link) out+=("$f") ;;
		-fsanitize=* | -fsanitize-address-* | -fsanitize-memory-* | -fno-sanitize-recover=*)
			if $keep_sanitizers; then out+=("$f"); fi ;;
		*) out+=("$f") ;;
		esac
	done
	echo "${out[*]:-}"
}
cflags=$(strip_sanitizers "$CFLAGS")

# schedfuzz itself, with the host's plain flags. With AFL++'s wrappers as
# CC (OSS-Fuzz's AFL builds: afl-clang-fast) it is built with the clang they
# run (AFL_CC, or clang): the wrappers would instrument our runtime too. The
# fuzzers below are still built through $CC.
host_cc=$CC host_cxx=$CXX
case $(basename "$CC") in
afl-*)
	host_cc=${AFL_CC:-$(command -v clang || command -v clang-14)}
	host_cxx=${AFL_CXX:-$(command -v clang++ || command -v clang++-14)}
	;;
esac
env -u CFLAGS -u CXXFLAGS -u LDFLAGS cmake -S "$top" -B "$WORK/schedfuzz" \
	-DCMAKE_BUILD_TYPE=RelWithDebInfo -DSCHEDFUZZ_BUILD_TESTS=OFF \
	-DCMAKE_C_COMPILER="$host_cc" -DSCHEDFUZZ_CLANG="$(command -v "$host_cc")" \
	-DSCHEDFUZZ_CLANGXX="$(command -v "$host_cxx")" >/dev/null
env -u CFLAGS -u CXXFLAGS -u LDFLAGS cmake --build "$WORK/schedfuzz" -j"$(nproc)" >/dev/null
bin=$WORK/schedfuzz/bin
cp "$bin/schedfuzz" "$OUT/schedfuzz"

for src in "$top"/tests/harnesses/*.c; do
	name=$(basename "$src" .c)
	# shellcheck disable=SC2086  # the flags are words
	SCHEDFUZZ_ENGINE=$engine SCHEDFUZZ_CLANG=$CC "$bin/schedfuzz-cc" $cflags -c "$src" -o "$WORK/$name.o"
	# shellcheck disable=SC2086
	SCHEDFUZZ_ENGINE=$engine SCHEDFUZZ_CLANG=$CC "$bin/schedfuzz-cc" $cflags "$WORK/$name.o" \
		$LIB_FUZZING_ENGINE -o "$OUT/$name"
	seeds=$top/seeds/harnesses/$name
	rm -f "$OUT/${name}_seed_corpus.zip"
	if [ -d "$seeds" ]; then
		(cd "$seeds" && cmake -E tar cf "$OUT/${name}_seed_corpus.zip" --format=zip -- *)
	fi
	cp "$top/seeds/schedfuzz.dict" "$OUT/$name.dict"
	cat >"$OUT/$name.options" <<OPTIONS
[libfuzzer]
# A schedule is a genome of 96 bytes, then the harness's data.
max_len = 4096
# schedfuzz reports a hang itself at 3/4 of this, with its interleaving.
timeout = 25

[asan]
# ASan keeps freed blocks poisoned in a quarantine of 256 MB by default,
# which is where a campaign's RSS grows. A use-after-free that an
# interleaving causes frees and uses the block within one execution, so a
# smaller quarantine still catches it, and the runtime empties it every
# 1,000 inputs (docs/cost.md, "Kernel threads kept across inputs").
quarantine_size_mb = 32
OPTIONS
	echo "build.sh: $OUT/$name ($engine)"
done
