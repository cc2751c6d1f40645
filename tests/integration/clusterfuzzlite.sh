#!/usr/bin/env bash
# clusterfuzzlite.sh: docs/clusterfuzzlite's build.sh run as ClusterFuzzLite's
# and OSS-Fuzz's builders run it inside their image (no Docker here: the
# same environment, set by hand): the project in $SRC/tally, schedfuzz in
# $SRC/schedfuzz, ASan builds for libFuzzer (CC=clang) and for AFL++
# (CC=afl-clang-fast). The two builds share $WORK, so schedfuzz itself is
# built once. Each fuzzer finds tally's lost update and saves it, and the
# saved input replays the failure; the fixed tally fails in none of 2,000
# inputs.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
export AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1
src=$WORK/src
mkdir -p "$src" "$WORK/work"
cp -r "$top/docs/clusterfuzzlite" "$src/tally"
ln -s "$top" "$src/schedfuzz"
flags="-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION"
flags="$flags -fsanitize=address -fsanitize-address-use-after-scope"
build() { # build ENGINE CC CXX LIB_FUZZING_ENGINE EXTRA_CFLAGS
	local out=$WORK/$1 work=$WORK/work
	mkdir -p "$out"
	(cd "$src/tally" && SRC=$src OUT=$out WORK=$work CC=$2 CXX=$3 CFLAGS="$flags $5" \
		CXXFLAGS="$flags $5" LIB_FUZZING_ENGINE=$4 FUZZING_ENGINE=$1 SANITIZER=address \
		ARCHITECTURE=x86_64 bash "$src/tally/.clusterfuzzlite/build.sh") >"$WORK/$1.log" 2>&1 ||
		{ tail -20 "$WORK/$1.log"; fail "build.sh failed for $1"; }
	for f in fuzz_tally fuzz_tally_seed_corpus.zip fuzz_tally.dict schedfuzz; do
		[ -s "$WORK/$1/$f" ] || fail "$1: no $f in OUT"
	done
	nm "$WORK/$1/fuzz_tally" | grep -q " __asan_init" || fail "$1: fuzz_tally has no ASan"
	mkdir "$WORK/$1-seeds"
	(cd "$WORK/$1-seeds" && cmake -E tar xf "$WORK/$1/fuzz_tally_seed_corpus.zip") || fail "$1: bad zip"
}
# The saved input fails again, with the same assertion, in a fresh process.
replays() { # replays ENGINE INPUT
	"$WORK/$1/schedfuzz" replay "$2" -- "$WORK/$1/fuzz_tally" >"$WORK/$1-replay.log" 2>&1
	local st=$?
	[ "$st" -eq 1 ] && grep -q "ERROR: assertion failure" "$WORK/$1-replay.log" ||
		{ tail -5 "$WORK/$1-replay.log"; fail "$1: $2 did not replay the failure (exit $st)"; }
}

build libfuzzer clang clang++ -fsanitize=fuzzer -fsanitize=fuzzer-no-link
schedfuzz_built=$(stat -c %Y "$WORK/work/schedfuzz/bin/schedfuzz")
sleep 1
build afl afl-clang-fast afl-clang-fast++ /usr/lib/afl/libAFLDriver.a ""
[ "$(stat -c %Y "$WORK/work/schedfuzz/bin/schedfuzz")" = "$schedfuzz_built" ] ||
	fail "the AFL++ build built schedfuzz again"

mkdir "$WORK/lf-corpus"
"$WORK/libfuzzer/fuzz_tally" -runs=50000 -seed=1 -dict="$WORK/libfuzzer/fuzz_tally.dict" \
	-artifact_prefix="$WORK/lf-" "$WORK/lf-corpus" "$WORK/libfuzzer-seeds" >"$WORK/lf.log" 2>&1
grep -q "^==schedfuzz== ERROR: assertion failure" "$WORK/lf.log" ||
	{ tail -5 "$WORK/lf.log"; fail "libfuzzer: tally's lost update not found"; }
crash=$(ls "$WORK"/lf-crash-* 2>/dev/null | head -1)
[ -n "$crash" ] || fail "libfuzzer: no crash saved"
replays libfuzzer "$crash"
echo "libfuzzer: found, saved as $(basename "$crash"), replayed"

AFL_BENCH_UNTIL_CRASH=1 timeout 300 afl-fuzz -s 1 -i "$WORK/afl-seeds" -o "$WORK/afl-out" \
	-x "$WORK/afl/fuzz_tally.dict" -V 200 -- "$WORK/afl/fuzz_tally" >"$WORK/afl.log" 2>&1 ||
	{ tail -5 "$WORK/afl.log"; fail "afl-fuzz failed"; }
grep -q persistent "$WORK/afl-out/default/fuzzer_stats" || fail "afl: fuzz_tally is not persistent"
crash=$(ls "$WORK"/afl-out/default/crashes/id:* 2>/dev/null | head -1)
[ -n "$crash" ] || { tail -5 "$WORK/afl.log"; fail "afl: tally's lost update not found"; }
replays afl "$crash"
echo "afl: found, saved as $(basename "$crash"), replayed"

# The fixed twin, built with the wrappers build.sh built, as its fuzzer is.
bin=$WORK/work/schedfuzz/bin
SCHEDFUZZ_ENGINE=libfuzzer SCHEDFUZZ_CLANG=clang "$bin/schedfuzz-cc" -O1 -g -DTALLY_FIXED \
	"$src/tally/tally.c" "$src/tally/fuzz_tally.c" -fsanitize=fuzzer -o "$WORK/fixed" ||
	fail "the fixed tally did not build"
mkdir "$WORK/fixed-corpus"
"$WORK/fixed" -runs=2000 -seed=1 "$WORK/fixed-corpus" "$WORK/libfuzzer-seeds" >"$WORK/fixed.log" 2>&1 ||
	{ tail -5 "$WORK/fixed.log"; fail "the fixed tally failed"; }
grep -q "Done 2000 runs" "$WORK/fixed.log" || { tail -5 "$WORK/fixed.log"; fail "fixed: did not run"; }
echo "fixed: no failure in 2000 inputs"
