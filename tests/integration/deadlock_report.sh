#!/usr/bin/env bash
# deadlock_report.sh PROG: the two-lock deadlock report names both threads,
# what each waits for and holds, and the cycle.
. "$(dirname "$0")/lib.sh"
prog=$1
"$SCHEDFUZZ" run -n 2000 --seed 1 -o "$WORK/out" -- "$prog" >/dev/null 2>"$WORK/stderr"
cat "$WORK/stderr"
r=$WORK/stderr
grep -q '^==schedfuzz== ERROR: deadlock: no thread can run' "$r" || fail "no deadlock title"
grep -Eq '^  T1 +blocked: waits for lock mutex M[12] \(lock_(a|b)\) at two_lock_deadlock.c:[0-9]+; holds mutex M[12] \(lock_(a|b)\)' "$r" || fail "T1 line"
grep -Eq '^  T2 +blocked: waits for lock mutex M[12] \(lock_(a|b)\) at two_lock_deadlock.c:[0-9]+; holds mutex M[12] \(lock_(a|b)\)' "$r" || fail "T2 line"
grep -Eq '^  T0 +blocked: waits for join T1' "$r" || fail "T0 line"
grep -Eq '^==schedfuzz== cycle: T[12] waits for lock mutex M[12] \(lock_[ab]\) held by T[12] waits for lock mutex M[12] \(lock_[ab]\) held by T[12]$' "$r" || fail "cycle line"
grep -q 'lock_a' <(grep '^==schedfuzz== cycle' "$r") && grep -q 'lock_b' <(grep '^==schedfuzz== cycle' "$r") || fail "cycle misses a lock"
echo "deadlock report complete"
