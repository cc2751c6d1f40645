#!/usr/bin/env bash
# names_cancelled_owner.sh PROG: the deadlock of the cancel that leaks a
# lock names the cancelled thread, where it was cancelled, and that it
# still holds the lock main waits for.
. "$(dirname "$0")/../integration/lib.sh"
prog=$1
"$SCHEDFUZZ" run -n 10000 --seed 1 -o "$WORK/out" -- "$prog" >"$WORK/stdout" 2>"$WORK/stderr"
rc=$?
cat "$WORK/stderr"
[ "$rc" -eq 1 ] || fail "expected exit 1 (failure found), got $rc"
grep -Eq '^  T1 +finished: cancelled at cancel_leak\.c:[0-9]+; holds mutex M1 \(m\)' "$WORK/stderr" ||
	fail "the cancelled owner is not named among the threads"
grep -Eq '^==schedfuzz== T0 waits for lock mutex M1 \(m\) held by T1, which was cancelled at cancel_leak\.c:[0-9]+ holding it' \
	"$WORK/stderr" || fail "the deadlock does not say the owner was cancelled"
echo "the report names the cancelled owner"
