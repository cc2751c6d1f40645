#!/usr/bin/env bash
# expect_timeout.sh PROG SITE: PROG never ends, with one thread running
# alone, which steps alone never call a hang. When the time runs out
# (--timeout 2) it is a hang all the same, whose report names SITE among
# the looping sites; the explorer's replay runs out of time again, and so
# does `schedfuzz replay` of the saved input.
. "$(dirname "$0")/lib.sh"
prog=$1 site=$2
"$SCHEDFUZZ" run -n 5 --timeout 2 --seed 1 -o "$WORK/out" -- "$prog" >"$WORK/stdout" 2>"$WORK/stderr"
rc=$?
cat "$WORK/stderr"
[ "$rc" -eq 1 ] || fail "expected exit 1 (failure found), got $rc"
grep -q "^==schedfuzz== ERROR: hang: still running after 2000 ms" "$WORK/stderr" ||
	fail "no out-of-time hang report"
sed -n '/^==schedfuzz== looping sites/,/^==schedfuzz== interleaving/p' "$WORK/stderr" |
	grep -q "$site" || fail "the looping sites do not name $site"
grep -q "replay reproduced the hang (it ran out of time again" "$WORK/stderr" ||
	fail "the explorer's replay did not run out of time again"
input=$(tail -n 1 "$WORK/stdout")
"$SCHEDFUZZ" replay --timeout 2 "$input" -- "$prog" >/dev/null 2>"$WORK/replay"
[ $? -eq 1 ] && grep -q "^==schedfuzz== ERROR: hang: still running after 2000 ms" "$WORK/replay" ||
	fail "schedfuzz replay did not run out of time"
echo "out of time and replayed: $(grep -m1 '^==schedfuzz== ERROR' "$WORK/stderr")"
