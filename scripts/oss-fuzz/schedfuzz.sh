# schedfuzz.sh - sourced by a project's OSS-Fuzz or ClusterFuzzLite build.sh:
# builds schedfuzz itself (once per $WORK) and turns the builder's
# environment into schedfuzz's. Afterwards $CC and $CXX are schedfuzz's
# wrappers, which compile with the builder's compiler for the builder's
# engine; $CFLAGS and $CXXFLAGS hold only the sanitizers schedfuzz
# combines with; $OUT/schedfuzz replays crashes; $SCHEDFUZZ_SRC is the
# checkout (its seeds/ and dictionary).
#
# It honours what the builders set: $CC $CXX $CFLAGS $CXXFLAGS
# $LIB_FUZZING_ENGINE $FUZZING_ENGINE $SANITIZER $OUT $WORK. With
# SANITIZER=address the fuzzers are ASan builds, as OSS-Fuzz's default
# ones are: a use-after-free that an interleaving causes is ASan's report
# and our failure at once. schedfuzz itself is built without the fuzzing
# flags: our runtime must never be instrumented.
# shellcheck shell=bash
SCHEDFUZZ_SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
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
SCHEDFUZZ_ENGINE=${FUZZING_ENGINE:-}
if [ -z "$SCHEDFUZZ_ENGINE" ]; then
	case $LIB_FUZZING_ENGINE in
	*AFL* | *afl*) SCHEDFUZZ_ENGINE=afl ;;
	*) SCHEDFUZZ_ENGINE=libfuzzer ;;
	esac
fi
case $SCHEDFUZZ_ENGINE in
libfuzzer | afl) ;;
*) echo "build.sh: FUZZING_ENGINE=$SCHEDFUZZ_ENGINE: schedfuzz builds libfuzzer and afl fuzzers" >&2; exit 1 ;;
esac

# $SANITIZER: address builds in schedfuzz's ASan mode (ASan beside our
# runtime), undefined adds UBSan in either mode; memory cannot be combined
# with controlled scheduling. Anything else (coverage, dataflow, ...) is
# taken out of the flags, with a note.
schedfuzz_keep_sanitizers=false
case $SANITIZER in
none | thread | "") ;;
address | undefined) schedfuzz_keep_sanitizers=true ;;
memory) echo "build.sh: SANITIZER=memory is not supported by schedfuzz (MemorySanitizer needs its own thread interceptors); use address" >&2; exit 1 ;;
*) echo "build.sh: SANITIZER=$SANITIZER is not combined with schedfuzz's instrumentation; building with schedfuzz's alone" >&2 ;;
esac
schedfuzz_strip_sanitizers() {
	local out=() f
	for f in $1; do
		case $f in
		-fsanitize=fuzzer-no-link) out+=("$f") ;;
		-fsanitize=* | -fsanitize-address-* | -fsanitize-memory-* | -fno-sanitize-recover=*)
			if $schedfuzz_keep_sanitizers; then out+=("$f"); fi ;;
		*) out+=("$f") ;;
		esac
	done
	echo "${out[*]:-}"
}

# schedfuzz itself, with the host's plain flags. With AFL++'s wrappers as
# CC (OSS-Fuzz's AFL builds: afl-clang-fast) it is built with the clang they
# run (AFL_CC, or clang): the wrappers would instrument our runtime too. The
# fuzzers are still compiled by $CC, through schedfuzz's wrappers.
schedfuzz_host_cc=$CC schedfuzz_host_cxx=$CXX
case $(basename "$CC") in
afl-*)
	schedfuzz_host_cc=${AFL_CC:-$(command -v clang || command -v clang-14)}
	schedfuzz_host_cxx=${AFL_CXX:-$(command -v clang++ || command -v clang++-14)}
	;;
esac
env -u CFLAGS -u CXXFLAGS -u LDFLAGS cmake -S "$SCHEDFUZZ_SRC" -B "$WORK/schedfuzz" \
	-DCMAKE_BUILD_TYPE=RelWithDebInfo -DSCHEDFUZZ_BUILD_TESTS=OFF \
	-DCMAKE_C_COMPILER="$schedfuzz_host_cc" -DSCHEDFUZZ_CLANG="$(command -v "$schedfuzz_host_cc")" \
	-DSCHEDFUZZ_CLANGXX="$(command -v "$schedfuzz_host_cxx")" >/dev/null
env -u CFLAGS -u CXXFLAGS -u LDFLAGS cmake --build "$WORK/schedfuzz" -j"$(nproc)" >/dev/null
SCHEDFUZZ_BIN=$WORK/schedfuzz/bin
cp "$SCHEDFUZZ_BIN/schedfuzz" "$OUT/schedfuzz"

# From here on the wrappers are the compilers; they run the builder's.
export SCHEDFUZZ_ENGINE SCHEDFUZZ_CLANG=$CC SCHEDFUZZ_CLANGXX=$CXX
export CC=$SCHEDFUZZ_BIN/schedfuzz-cc CXX=$SCHEDFUZZ_BIN/schedfuzz-c++
CFLAGS=$(schedfuzz_strip_sanitizers "$CFLAGS")
CXXFLAGS=$(schedfuzz_strip_sanitizers "$CXXFLAGS")
export CFLAGS CXXFLAGS
