#!/usr/bin/env bash
# oss_fuzz.sh: scripts/oss-fuzz/build.sh run in an OSS-Fuzz-like
# environment, for the libFuzzer engine and for the AFL++ engine. Each
# produces working fuzzers, seed corpora, dictionaries and options.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
export AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1
build() { # build ENGINE LIB_FUZZING_ENGINE CFLAGS
	mkdir -p "$WORK/$1/out" "$WORK/$1/work"
	OUT=$WORK/$1/out WORK=$WORK/$1/work SRC=$(dirname "$top") CC=clang-14 CXX=clang++-14 \
		CFLAGS="$3" CXXFLAGS="$3" LIB_FUZZING_ENGINE=$2 FUZZING_ENGINE=$1 SANITIZER=none \
		bash "$top/scripts/oss-fuzz/build.sh" >"$WORK/$1.log" 2>&1 ||
		{ tail -20 "$WORK/$1.log"; fail "build.sh failed for $1"; }
}
build libfuzzer -fsanitize=fuzzer "-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=fuzzer-no-link"
build afl /usr/lib/afl/libAFLDriver.a "-O1 -fno-omit-frame-pointer -gline-tables-only"
for engine in libfuzzer afl; do
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
		if [ "$engine" = libfuzzer ]; then
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
