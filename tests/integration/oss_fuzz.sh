#!/usr/bin/env bash
# oss_fuzz.sh: scripts/oss-fuzz/build.sh run in an OSS-Fuzz-like
# environment, for the libFuzzer engine and for the AFL++ engine, and for
# libFuzzer with SANITIZER=address (OSS-Fuzz's default build). Each produces
# working fuzzers, seed corpora, dictionaries and options; the ASan build's
# fuzzers hold ASan and find account_harness's bug. The three share one
# $WORK, as OSS-Fuzz's rebuilds of a project do: build.sh builds schedfuzz
# itself without the fuzzing flags, so the first build (the ASan one,
# whose flags hold the others') builds it and the next two find it built.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
export AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1
build() { # build DIR ENGINE LIB_FUZZING_ENGINE CFLAGS SANITIZER
	mkdir -p "$WORK/$1/out" "$WORK/work"
	OUT=$WORK/$1/out WORK=$WORK/work SRC=$(dirname "$top") CC=clang-14 CXX=clang++-14 \
		CFLAGS="$4" CXXFLAGS="$4" LIB_FUZZING_ENGINE=$3 FUZZING_ENGINE=$2 SANITIZER=$5 \
		bash "$top/scripts/oss-fuzz/build.sh" >"$WORK/$1.log" 2>&1 ||
		{ tail -20 "$WORK/$1.log"; fail "build.sh failed for $1"; }
}
flags="-O1 -fno-omit-frame-pointer -gline-tables-only"
build asan libfuzzer -fsanitize=fuzzer \
	"$flags -fsanitize=address -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link" address
build libfuzzer libfuzzer -fsanitize=fuzzer "$flags -fsanitize=fuzzer-no-link" none
build afl afl /usr/lib/afl/libAFLDriver.a "$flags" none
# MemorySanitizer builds are refused in one line.
OUT=$WORK/msan SANITIZER=memory CFLAGS=-fsanitize=memory bash "$top/scripts/oss-fuzz/build.sh" \
	>"$WORK/msan.log" 2>&1 && fail "SANITIZER=memory was accepted"
[ "$(wc -l <"$WORK/msan.log")" -eq 1 ] && grep -q "SANITIZER=memory is not supported" "$WORK/msan.log" ||
	{ cat "$WORK/msan.log"; fail "SANITIZER=memory: no one-line reason"; }
for name in account_harness refcount_harness; do
	nm "$WORK/asan/out/$name" | grep -q " __asan_init" || fail "asan: $name has no ASan"
done
for engine in libfuzzer afl asan; do
	out=$WORK/$engine/out
	[ -x "$out/schedfuzz" ] || fail "$engine: no schedfuzz command in OUT"
	for src in "$top"/tests/harnesses/*.c; do
		name=$(basename "$src" .c)
		for f in "$name" "${name}_seed_corpus.zip" "$name.dict" "$name.options"; do
			[ -s "$out/$f" ] || fail "$engine: $f missing"
		done
		rm -rf "$WORK/seeds" && mkdir "$WORK/seeds"
		(cd "$WORK/seeds" && cmake -E tar xf "$out/${name}_seed_corpus.zip") || fail "bad zip"
		[ "$(ls "$WORK/seeds" | wc -l)" -ge 1 ] || fail "$engine: empty seed corpus"
		if [ "$engine" != afl ]; then
			"$out/$name" -runs=500 -seed=1 -dict="$out/$name.dict" "$WORK/seeds" >"$WORK/run.log" 2>&1
			grep -Eq 'Done 500 runs|ERROR: assertion failure' "$WORK/run.log" ||
				{ tail -5 "$WORK/run.log"; fail "$engine: $name did not run"; }
		else
			timeout 120 afl-fuzz -s 1 -i "$WORK/seeds" -o "$WORK/afl-$name" -x "$out/$name.dict" \
				-E 300 -- "$out/$name" >"$WORK/run.log" 2>&1 || { tail -5 "$WORK/run.log"; fail "afl-fuzz failed on $name"; }
			grep -q 'persistent' "$WORK/afl-$name/default/fuzzer_stats" || fail "$name: not persistent"
		fi
		echo "$engine: $name built and fuzzed ($(ls "$WORK/seeds" | wc -l) seeds)"
	done
done
# The ASan build finds account_harness's bug (an assertion) as the default
# one does, with ASan's runtime in the process.
mkdir "$WORK/account_seeds"
(cd "$WORK/account_seeds" && cmake -E tar xf "$WORK/asan/out/account_harness_seed_corpus.zip")
"$WORK/asan/out/account_harness" -runs=50000 -seed=1 -dict="$WORK/asan/out/account_harness.dict" \
	"$WORK/account_seeds" >"$WORK/asan-find.log" 2>&1
grep -q "^==schedfuzz== ERROR: assertion failure" "$WORK/asan-find.log" ||
	{ tail -5 "$WORK/asan-find.log"; fail "asan: account_harness's bug not found"; }
echo "asan: account_harness's bug found"

