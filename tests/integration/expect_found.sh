#!/usr/bin/env bash
# expect_found.sh PROG KIND_REGEX [RUNS [STRATEGY]]: exploring PROG (with
# that strategy pinned) finds a failure of that kind with a fixed seed,
# saves an input, and `schedfuzz replay` of the saved input in a fresh
# process, without the strategy option, fails again with the same report
# title and the same interleaving.
. "$(dirname "$0")/lib.sh"
prog=$1 kind=$2 runs=${3:-2000} strategy=${4:-}
"$SCHEDFUZZ" run -n "$runs" --seed 1 ${strategy:+--strategy "$strategy"} -o "$WORK/out" -- "$prog" \
	>"$WORK/stdout" 2>"$WORK/stderr"
rc=$?
cat "$WORK/stderr"
[ "$rc" -eq 1 ] || fail "expected exit 1 (failure found), got $rc"
grep -Eq "^==schedfuzz== ERROR: ($kind)" "$WORK/stderr" || fail "no '$kind' report"
grep -q "replay reproduced the failure" "$WORK/stderr" || fail "the explorer's replay differed"
if [ -n "$strategy" ]; then
	grep -q "^==schedfuzz== schedule: ${strategy%%:*} " "$WORK/stderr" ||
		fail "the report does not name the $strategy schedule"
fi
input=$(tail -n 1 "$WORK/stdout")
[ -f "$input" ] || fail "saved input '$input' missing"
"$SCHEDFUZZ" replay "$input" -- "$prog" >/dev/null 2>"$WORK/replay"
rc=$?
[ "$rc" -eq 1 ] || fail "replay exit $rc, expected 1"
diff <(grep '^==schedfuzz== ERROR' "$WORK/stderr" | sed 's/ on address .*//') \
     <(grep '^==schedfuzz== ERROR' "$WORK/replay" | sed 's/ on address .*//') ||
	fail "replay reported something else"
diff <(interleaving "$WORK/stderr") <(interleaving "$WORK/replay") || fail "replay interleaving differs"
echo "found and replayed: $(grep -m1 '^==schedfuzz== ERROR' "$WORK/stderr")"
