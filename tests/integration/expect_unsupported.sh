#!/usr/bin/env bash
# expect_unsupported.sh PROG CALL: exploring PROG stops at once with one
# line saying that CALL is unsupported in a controlled thread, and a
# setup-error exit.
. "$(dirname "$0")/lib.sh"
prog=$1 call=$2
"$SCHEDFUZZ" run -n 10 -o "$WORK/out" -- "$prog" >/dev/null 2>"$WORK/stderr"
rc=$?
cat "$WORK/stderr"
[ "$rc" -eq 2 ] || fail "expected exit 2, got $rc"
[ "$(wc -l <"$WORK/stderr")" -eq 1 ] || fail "expected exactly one line"
grep -q "unsupported in a controlled thread: $call (" "$WORK/stderr" || fail "reason missing"
echo "refused in one line: $call"
