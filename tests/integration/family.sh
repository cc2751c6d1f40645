#!/usr/bin/env bash
# family.sh found|clean PROG N RUNS [STRATEGY]: a scalable family
# (tests/families/) run with N threads. found: exploring it with a fixed
# seed finds an assertion failure within RUNS schedules, and the saved
# input replays the same interleaving in a fresh process. clean: RUNS
# schedules of the fixed twin, no report at all.
. "$(dirname "$0")/lib.sh"
mode=$1 prog=$2 n=$3 runs=$4 strategy=${5:-}
"$SCHEDFUZZ" run -n "$runs" --seed 1 ${strategy:+--strategy "$strategy"} -o "$WORK/out" -- \
	"$prog" "$n" >"$WORK/stdout" 2>"$WORK/stderr"
rc=$?
cat "$WORK/stderr"
if [ "$mode" = clean ]; then
	[ "$rc" -eq 0 ] || fail "expected no failure in $runs schedules with $n threads, exit $rc"
	grep -q "no failure in $runs schedules" "$WORK/stderr" || fail "summary missing"
	! ls "$WORK/out"/crash-* >/dev/null 2>&1 || fail "an input was saved"
	exit 0
fi
[ "$rc" -eq 1 ] || fail "expected exit 1 (failure found) with $n threads, got $rc"
grep -Eq "^==schedfuzz== ERROR: assertion failure" "$WORK/stderr" || fail "no assertion report"
grep -q "replay reproduced the failure" "$WORK/stderr" || fail "the explorer's replay differed"
input=$(tail -n 1 "$WORK/stdout")
[ -f "$input" ] || fail "saved input '$input' missing"
"$SCHEDFUZZ" replay "$input" -- "$prog" "$n" >/dev/null 2>"$WORK/replay"
[ $? -eq 1 ] || fail "replay did not fail"
diff <(interleaving "$WORK/stderr") <(interleaving "$WORK/replay") || fail "replay interleaving differs"
echo "found and replayed with $n threads: $(grep -m1 '^==schedfuzz== ERROR' "$WORK/stderr")"
