#!/usr/bin/env bash
# package.sh BUILD_DIR: cmake --install schedfuzz into a fresh prefix, then
# build an out-of-tree project (tests/package) through find_package and
# schedfuzz_add_harness, with gcc as the project's compiler, and run what
# it built: a main() test, a libFuzzer harness and an afl-fuzz harness.
. "$(dirname "$0")/lib.sh"
build=$1
here=$(cd "$(dirname "$0")/.." && pwd)
cmake --install "$build" --prefix "$WORK/prefix" >"$WORK/install.log" 2>&1 || { cat "$WORK/install.log"; fail "install failed"; }
for f in bin/schedfuzz bin/schedfuzz-cc bin/schedfuzz-c++ lib/schedfuzz/libschedfuzz_rt.a \
	include/schedfuzz.h lib/cmake/schedfuzz/schedfuzzConfig.cmake share/schedfuzz/schedfuzz.dict; do
	[ -e "$WORK/prefix/$f" ] || fail "$f not installed"
done
CC=gcc cmake -S "$here/package" -B "$WORK/example" -DCMAKE_PREFIX_PATH="$WORK/prefix" >"$WORK/cfg.log" 2>&1 ||
	{ cat "$WORK/cfg.log"; fail "configuring the example failed"; }
cmake --build "$WORK/example" >"$WORK/build.log" 2>&1 || { tail -20 "$WORK/build.log"; fail "building the example failed"; }
cd "$WORK/example"
"$WORK/prefix/bin/schedfuzz" run -n 2000 -o crashes -- ./tally_test >run.log 2>&1
[ $? -eq 1 ] && grep -q "replay reproduced the failure" run.log || { tail run.log; fail "tally_test: no bug found"; }
./tally_fuzzer -runs=20000 -seed=1 >fuzz.log 2>&1
grep -q "ERROR: assertion failure: 'total == a_n + b_n'" fuzz.log || { tail fuzz.log; fail "tally_fuzzer: no bug found"; }
strings tally_fuzzer_afl | grep -q '##SIG_AFL_PERSISTENT##' || fail "tally_fuzzer_afl is not an AFL++ persistent harness"
echo "installed package: the example's three targets build; the test and the harness find the bug"
