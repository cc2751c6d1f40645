#!/usr/bin/env bash
# exit_statistics.sh PROG RUNS THREADS: PROG leaves through exit() (or a
# return from main) with its threads unjoined; `schedfuzz run --keep-going`
# over RUNS schedules must find no failure and still measure what those
# executions did, as PCT's bound needs it: THREADS threads (main included)
# and a nonzero number of events. Statistics taken only when the last
# thread is joined would read 0 here.
. "$(dirname "$0")/lib.sh"
prog=$1 runs=$2 threads=$3
"$SCHEDFUZZ" run --keep-going -n "$runs" --seed 1 -o "$WORK/out" -- "$prog" \
	>"$WORK/stdout" 2>"$WORK/stderr"
rc=$?
cat "$WORK/stderr" "$WORK/stdout"
[ "$rc" -eq 0 ] || fail "expected no failure in $runs schedules, exit $rc"
grep -qx "failures: 0/$runs" "$WORK/stderr" || fail "no 'failures: 0/$runs' line"
n=$(sed -n 's/^threads: //p' "$WORK/stderr")
k=$(sed -n 's/^events: //p' "$WORK/stderr")
[ -n "$n" ] && [ -n "$k" ] || fail "no threads: or events: line"
[ "$n" -gt 0 ] || fail "threads: 0, the executions that ended in exit() were not measured"
[ "$k" -gt 0 ] || fail "events: 0, the executions that ended in exit() were not measured"
[ "$n" -eq "$threads" ] || fail "threads: $n, expected $threads (main and its unjoined threads)"
echo "measured through exit(): threads $n, events $k"
