#!/usr/bin/env bash
# oss_fuzz_afl_cc.sh: OSS-Fuzz's AFL++ build as its builders run it
# (CC=afl-clang-fast, libAFLDriver.a, SANITIZER=address) through
# scripts/oss-fuzz/build.sh: the fuzzers keep their memory scheduling
# points, and afl-fuzz finds account_harness's lost update (a race on
# shared data that needs both the input and the interleaving); the crash
# replays with the schedfuzz copied to $OUT.
. "$(dirname "$0")/../integration/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
command -v afl-clang-fast >/dev/null || fail "afl-clang-fast not found (scripts/setup.sh installs afl++)"
export AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1
out=$WORK/out
mkdir -p "$out" "$WORK/work"
flags="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address -fsanitize-address-use-after-scope"
OUT=$out WORK=$WORK/work SRC=$(dirname "$top") CC=afl-clang-fast CXX=afl-clang-fast++ \
	CFLAGS="$flags" CXXFLAGS="$flags" LIB_FUZZING_ENGINE=/usr/lib/afl/libAFLDriver.a \
	FUZZING_ENGINE=afl SANITIZER=address bash "$top/scripts/oss-fuzz/build.sh" >"$WORK/build.log" 2>&1 ||
	{ tail -20 "$WORK/build.log"; fail "build.sh failed with CC=afl-clang-fast"; }
h=$out/account_harness
nm "$h" | grep -q ' __asan_init' || fail "no ASan in $h"
nm "$h" | grep -q ' __sanitizer_cov_load4' || fail "no memory-access callbacks in $h"
nm "$h" | grep -q ' __afl_area_ptr' || fail "no AFL++ runtime in $h"
mkdir "$WORK/seeds"
(cd "$WORK/seeds" && cmake -E tar xf "$out/account_harness_seed_corpus.zip")
AFL_BENCH_UNTIL_CRASH=1 timeout 300 afl-fuzz -s 1 -i "$WORK/seeds" -o "$WORK/afl" -x "$out/account_harness.dict" \
	-E 30000 -- "$h" >"$WORK/afl.log" 2>&1 || { tail -20 "$WORK/afl.log"; fail "afl-fuzz failed"; }
crash=$(ls "$WORK/afl/default/crashes"/id:* 2>/dev/null | head -1)
[ -n "$crash" ] || fail "afl-fuzz found no crash in 30000 executions"
"$out/schedfuzz" replay "$crash" -- "$h" >"$WORK/replay" 2>&1
[ $? -eq 1 ] && grep -q '==schedfuzz== ERROR: assertion failure' "$WORK/replay" ||
	{ tail -20 "$WORK/replay"; fail "the crash did not replay"; }
echo "CC=afl-clang-fast SANITIZER=address: account_harness's lost update found after" \
	"$(sed -n 's/^execs_done *: //p' "$WORK/afl/default/fuzzer_stats") executions, and replayed"
