#!/usr/bin/env bash
# compare_results.sh PROG...: the comparison functions give libc's answers
# in every build (default mode, afl, ASan mode), run plainly and, for the
# default mode, under a few explored schedules.
. "$(dirname "$0")/../integration/lib.sh"
for prog in "$@"; do
	out=$("$prog") || fail "$(basename "$prog"): $out"
	echo "$(basename "$prog"): $out"
done
"$SCHEDFUZZ" run -n 20 --seed 1 -- "$1" >"$WORK/run.log" 2>&1 || { cat "$WORK/run.log"; fail "wrong answers under schedfuzz run"; }
echo "$(basename "$1") under schedfuzz run: $(tail -1 "$WORK/run.log")"
