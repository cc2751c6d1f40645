#!/usr/bin/env bash
# expect_clean.sh PROG RUNS [STRATEGY]: RUNS schedules of PROG (with that
# strategy pinned), no report at all.
. "$(dirname "$0")/lib.sh"
prog=$1 runs=$2 strategy=${3:-}
"$SCHEDFUZZ" run -n "$runs" --seed 1 ${strategy:+--strategy "$strategy"} -o "$WORK/out" -- "$prog" \
	>"$WORK/stdout" 2>"$WORK/stderr"
rc=$?
cat "$WORK/stderr"
[ "$rc" -eq 0 ] || fail "expected no failure in $runs schedules${strategy:+ of $strategy}, exit $rc"
grep -q "no failure in $runs schedules" "$WORK/stderr" || fail "summary missing"
! ls "$WORK/out"/crash-* >/dev/null 2>&1 || fail "an input was saved"
