#!/usr/bin/env bash
# unsupported.sh PROG: a call the runtime cannot model gives one line and a
# setup-error exit, both when exploring and when replaying.
. "$(dirname "$0")/lib.sh"
prog=$1
"$SCHEDFUZZ" run -n 10 -o "$WORK/out" -- "$prog" >/dev/null 2>"$WORK/stderr"
rc=$?
cat "$WORK/stderr"
[ "$rc" -eq 2 ] || fail "expected exit 2, got $rc"
[ "$(wc -l <"$WORK/stderr")" -eq 1 ] || fail "expected exactly one line"
grep -q 'unsupported in a controlled thread: pthread_cancel' "$WORK/stderr" || fail "reason missing"
"$SCHEDFUZZ" run -n 10 -- /bin/true 2>"$WORK/notours"
[ $? -eq 2 ] && grep -q 'not built with schedfuzz-cc' "$WORK/notours" || fail "foreign binary accepted"
"$SCHEDFUZZ" run -n ten -- "$prog" 2>/dev/null
[ $? -eq 2 ] || fail "bad -n accepted"
echo "clear one-line errors"
