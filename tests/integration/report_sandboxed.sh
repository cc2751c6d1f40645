#!/usr/bin/env bash
# report_sandboxed.sh PROG: a program that forbids itself open and exec
# once it runs still gets its report (sites as module+offset, and the
# reason llvm-symbolizer could not run), replay draws its lanes with
# file:line (symbolized from outside the program, from a trace opened
# before it ran), and min records and shrinks its schedule.
. "$(dirname "$0")/lib.sh"
prog=$1
"$SCHEDFUZZ" run -n 2000 --seed 1 -o "$WORK/out" -- "$prog" >"$WORK/run.log" 2>&1
[ $? -eq 1 ] || { cat "$WORK/run.log"; fail "no failure found"; }
grep -q "^==schedfuzz== ERROR: assertion failure" "$WORK/run.log" || fail "no assertion report"
grep -q "could not run here (Operation not permitted" "$WORK/run.log" ||
	fail "the report does not say why sites have no file:line"
grep -q "read 4 bytes .*$(basename "$prog")+0x" "$WORK/run.log" || fail "no module+offset sites"
crash=$(ls "$WORK/out"/crash-* | head -1)
"$SCHEDFUZZ" replay "$crash" -- "$prog" >"$WORK/replay.log" 2>&1
[ $? -eq 1 ] || fail "replay did not fail"
grep -q "| sandboxed.c:4[0-9] (worker)" "$WORK/replay.log" || { cat "$WORK/replay.log"; fail "replay drew no symbolized lanes"; }
"$SCHEDFUZZ" min "$crash" -- "$prog" >"$WORK/min.out" 2>"$WORK/min.log" || { cat "$WORK/min.log"; fail "min failed"; }
grep -q "minimised in" "$WORK/min.log" || fail "min did not shrink the schedule"
echo "sandboxed program: reported, replayed with lanes, minimised"
