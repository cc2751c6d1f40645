#!/usr/bin/env bash
# portable.sh BUGS_DIR BUG...: a minimised reproducer's portable form
# replays on four builds of the same source (-O1 -g, where it was found;
# -O2 -gline-tables-only; the ASan mode; the AFL++ build) and fails there
# as it failed where it was made; on the fixed twin it passes and says
# which build it was made for. A build without line information is refused
# in one line. The binary-exact input, replayed on the fixed twin by
# `schedfuzz replay` and by the program itself, says it was made for
# another build.
. "$(dirname "$0")/lib.sh"
dir=$1
shift
cc=$SF_BIN/schedfuzz-cc
for bug in "$@"; do
	src=$dir/$bug.c d=$WORK/$bug
	mkdir -p "$d"
	"$cc" -O1 -g "$src" -o "$d/o1" && "$cc" -O2 -gline-tables-only "$src" -o "$d/o2" &&
		"$cc" -O1 -g -fsanitize=address "$src" -o "$d/asan" &&
		SCHEDFUZZ_ENGINE=afl "$cc" -O1 -g "$src" -o "$d/afl" &&
		"$cc" -O1 -g -DFIXED "$src" -o "$d/fixed" && "$cc" -O1 -g0 "$src" -o "$d/nolines" ||
		fail "$bug: a build failed"
	"$SCHEDFUZZ" run -n 20000 --seed 1 -o "$d/found" -- "$d/o1" >"$d/run.log" 2>&1
	[ $? -eq 1 ] || fail "$bug: not found"
	crash=$(ls "$d/found"/crash-* | head -1)
	min=$("$SCHEDFUZZ" min "$crash" -- "$d/o1" 2>"$d/min.log") || { cat "$d/min.log"; fail "$bug: min failed"; }
	[ -f "$min.portable" ] || { cat "$d/min.log"; fail "$bug: no portable form"; }
	kind=$(sed -n 's/^failure \([^:]*\):.*/\1/p' "$min.portable")
	[ -n "$kind" ] && grep -q '^at ' "$min.portable" || fail "$bug: $(cat "$min.portable")"
	for b in o1 o2 asan afl; do
		"$SCHEDFUZZ" replay --events 0 "$min.portable" -- "$d/$b" >"$d/$b.log" 2>&1
		[ $? -eq 1 ] || { tail -5 "$d/$b.log"; fail "$bug: the portable form does not fail on the $b build"; }
		grep -q "failed on this build too" "$d/$b.log" || fail "$bug ($b): no word on the build"
		# The same failure: its kind (an ASan build may also report what ASan saw first).
		grep -q "ERROR: $kind\|ERROR: sanitizer report" "$d/$b.log" ||
			fail "$bug: the $b build fails otherwise: $(grep ERROR "$d/$b.log")"
	done
	# --record on another build: the binary-exact input of that build.
	mem=1
	grep -q '^memory all' "$min.portable" && mem=2
	"$SCHEDFUZZ" replay --record "$d/asan.exact" "$min.portable" -- "$d/asan" >/dev/null 2>&1
	SCHEDFUZZ_MEMORY=$mem "$SCHEDFUZZ" replay "$d/asan.exact" -- "$d/asan" >/dev/null 2>&1
	[ $? -eq 1 ] || fail "$bug: the input recorded on the asan build does not replay there"
	"$SCHEDFUZZ" replay --record "$d/o2.exact" "$min.portable" -- "$d/o2" >/dev/null 2>&1
	SCHEDFUZZ_MEMORY=$mem "$SCHEDFUZZ" replay "$d/o2.exact" -- "$d/o2" >/dev/null 2>&1
	[ $? -eq 1 ] || fail "$bug: the input recorded on the o2 build does not replay there"
	# No false alarm, and the reason.
	"$SCHEDFUZZ" replay --events 0 "$min.portable" -- "$d/fixed" >"$d/fixed.log" 2>&1
	[ $? -eq 0 ] || fail "$bug: the portable form fails the fixed twin"
	grep -q "this input did not fail on this binary; it was made for build [0-9a-f]* (o1)" "$d/fixed.log" ||
		{ tail -3 "$d/fixed.log"; fail "$bug: no word on the build it was made for"; }
	"$SCHEDFUZZ" replay --events 0 "$min" -- "$d/fixed" >"$d/fixed_exact.log" 2>&1
	[ $? -eq 0 ] && grep -q "did not fail on this binary; it was made for build" "$d/fixed_exact.log" ||
		fail "$bug: the exact input on the fixed twin: $(tail -2 "$d/fixed_exact.log")"
	SCHEDFUZZ_INPUT=$min "$d/fixed" >"$d/own.log" 2>&1
	[ $? -eq 0 ] && grep -q "did not fail on this binary; it was made for build" "$d/own.log" ||
		fail "$bug: the program's own replay: $(cat "$d/own.log")"
	"$SCHEDFUZZ" replay "$min.portable" -- "$d/nolines" >"$d/nolines.log" 2>&1
	[ $? -eq 2 ] && [ "$(wc -l <"$d/nolines.log")" -eq 1 ] && grep -q "no line information" "$d/nolines.log" ||
		fail "$bug: a build without lines: $(cat "$d/nolines.log")"
	echo "$bug: $(grep -c '^at ' "$min.portable") anchored decisions; fails on o1, o2, asan, afl; passes fixed"
done
