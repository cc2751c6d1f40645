#!/usr/bin/env bash
# report_deep_calls.sh PROG: a hang report's call chains after deep
# recursions have returned (tests/reports/deep_calls.c). The thread whose
# recursion went round its ring of call sites shows only the call that is
# still there; the other shows both of its calls; neither shows the
# recursion's own site (dive, line 17).
. "$(dirname "$0")/lib.sh"
prog=$1
"$SCHEDFUZZ" run -n 5 --timeout 1 --seed 1 -o "$WORK/out" -- "$prog" >"$WORK/run.log" 2>&1
[ $? -eq 1 ] || fail "no hang found"
grep -q "^==schedfuzz== ERROR: hang" "$WORK/run.log" || fail "not a hang: $(grep '^==schedfuzz== ERROR' "$WORK/run.log")"
chains=$(grep "^ *called from " "$WORK/run.log")
echo "$chains"
[ "$(grep -c . <<<"$chains")" -eq 2 ] || fail "expected a call chain for each waiting thread"
grep -qx " *called from deep_calls.c:29" <<<"$chains" || fail "the deep thread's chain is not its one kept call"
grep -qx " *called from deep_calls.c:29 < deep_calls.c:42" <<<"$chains" || fail "the shallow thread's chain lost a call"
! grep -q "deep_calls.c:17" <<<"$chains" || fail "the recursion's site is named as a caller"
