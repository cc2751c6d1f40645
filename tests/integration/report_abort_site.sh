#!/usr/bin/env bash
# report_abort_site.sh PROG: a failure the program signals itself with
# abort() is located at its call in the program, in the report and in the
# replay, not in glibc's raise or pthread_kill.
. "$(dirname "$0")/lib.sh"
prog=$1
"$SCHEDFUZZ" run -n 2000 --seed 1 -o "$WORK/out" -- "$prog" >"$WORK/run.log" 2>&1
[ $? -eq 1 ] || fail "no failure found"
grep -q "^==schedfuzz== ERROR: fatal signal: abort() at abort_site.c:20" "$WORK/run.log" ||
	fail "the abort is located elsewhere: $(grep '^==schedfuzz== ERROR' "$WORK/run.log")"
! grep -q "pthread_kill\|raise.c" "$WORK/run.log" || fail "glibc's frames in the report"
crash=$(ls "$WORK/out"/crash-* | head -1)
"$SCHEDFUZZ" replay "$crash" -- "$prog" >"$WORK/replay.log" 2>&1
grep -q "abort_site.c:20" "$WORK/replay.log" || fail "the replay locates it elsewhere"
echo "abort() located at abort_site.c:20"
