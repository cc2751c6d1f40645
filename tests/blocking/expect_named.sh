#!/usr/bin/env bash
# expect_named.sh PROG KIND WAIT RUNS [TIMEOUT]: exploring PROG (seed 1,
# RUNS schedules, --timeout TIMEOUT seconds if given) reports a failure of
# KIND (a regex of the title) in which a blocked thread "waits for" what
# the regex WAIT matches: a wait in the kernel named by what it is.
. "$(dirname "$0")/../integration/lib.sh"
prog=$1 kind=$2 wait=$3 runs=$4 timeout=${5:-}
"$SCHEDFUZZ" run -n "$runs" --seed 1 ${timeout:+--timeout "$timeout"} -o "$WORK/out" -- "$prog" \
	>"$WORK/stdout" 2>"$WORK/stderr"
rc=$?
cat "$WORK/stderr"
[ "$rc" -eq 1 ] || fail "expected exit 1 (failure found), got $rc"
grep -Eq "^==schedfuzz== ERROR: ($kind)" "$WORK/stderr" || fail "no '$kind' report"
grep -Eq "^  T[0-9]+ +blocked: waits for ($wait)" "$WORK/stderr" || fail "no thread waits for '$wait'"
echo "named: $(grep -Em1 "waits for ($wait)" "$WORK/stderr")"
