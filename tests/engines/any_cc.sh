#!/usr/bin/env bash
# any_cc.sh BUGGY_SOURCE: schedfuzz-cc keeps every memory access a
# scheduling point whatever compiler it runs (SCHEDFUZZ_CLANG: clang,
# clang-14, a path, AFL++'s afl-clang-fast), in the default mode and the ASan
# mode: each build's lost update is found within 3000 schedules on a fixed
# seed, with no access of the engine's own map among its events, and the fixed twin of the afl-clang-fast ASan build shows none.
. "$(dirname "$0")/../integration/lib.sh"
src=$1
found=0
for cc in clang clang-14 /usr/lib/llvm-14/bin/clang afl-clang-fast; do
	command -v "$cc" >/dev/null || { echo "skip $cc: not installed"; continue; }
	engine=standalone
	case $cc in afl-*) engine=afl ;; esac
	for mode in default address; do
		san=
		[ $mode = address ] && san=-fsanitize=address
		prog=$WORK/$(basename "$cc")-$mode
		SCHEDFUZZ_CLANG=$cc SCHEDFUZZ_ENGINE=$engine "$SF_BIN/schedfuzz-cc" -O1 $san "$src" -o "$prog" \
			>"$prog.cc.log" 2>&1 || { tail -5 "$prog.cc.log"; fail "$cc $mode: build failed"; }
		grep -q 'schedfuzz-cc:' "$prog.cc.log" && { cat "$prog.cc.log"; fail "$cc $mode: the wrapper complained"; }
		"$SCHEDFUZZ" run -n 3000 --seed 1 -o "$WORK/out" -- "$prog" >"$prog.log" 2>&1
		[ $? -eq 1 ] || { tail -3 "$prog.log"; fail "$cc $mode: the lost update was not found in 3000 schedules"; }
		# Only the program's accesses are events, not an engine's map or guards.
		"$SCHEDFUZZ" replay "$(tail -1 "$prog.log")" -- "$prog" >"$prog.replay" 2>&1
		grep -E '__afl_|sancov' "$prog.replay" && fail "$cc $mode: the engine's instrumentation shows as accesses"
		echo "$cc $mode ($engine): found, $(grep -o 'same interleaving, [0-9]* steps' "$prog.log")"
		found=$((found + 1))
	done
done
[ $found -ge 4 ] || fail "fewer than two compilers tried"
prog=$WORK/afl-fixed
SCHEDFUZZ_CLANG=afl-clang-fast SCHEDFUZZ_ENGINE=afl "$SF_BIN/schedfuzz-cc" -O1 -fsanitize=address -DFIXED \
	"$src" -o "$prog" >/dev/null 2>&1 || fail "the fixed twin did not build"
"$SCHEDFUZZ" run -n 500 --seed 1 -o "$WORK/out" -- "$prog" >"$prog.log" 2>&1 ||
	{ tail -3 "$prog.log"; fail "the fixed twin failed"; }
echo "afl-clang-fast address, fixed twin: $(tail -1 "$prog.log")"
