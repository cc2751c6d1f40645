#!/usr/bin/env bash
# races_report_mode.sh PROG: PROG races and never fails otherwise. The
# report mode (SCHEDFUZZ_RACES=report in the test's environment) saves one race-* input for the pair, replays it,
# goes on to the end of the runs and exits 1 with the count; --races=off
# reports nothing and exits 0.
. "$(dirname "$0")/lib.sh"
prog=$1
"$SCHEDFUZZ" run -n 300 --seed 1 -o "$WORK/out" -- "$prog" >"$WORK/stdout" 2>"$WORK/stderr"
rc=$?
cat "$WORK/stderr"
[ "$rc" -eq 1 ] || fail "expected exit 1 (a race reported), got $rc"
[ "$(ls "$WORK/out"/race-* 2>/dev/null | wc -l)" -eq 1 ] || fail "expected one race-* input"
grep -q "replay reproduced the race" "$WORK/stderr" || fail "the race was not replayed"
grep -q "^schedfuzz: 1 data race (pairs of sites) in [0-9]* of 300 schedules" "$WORK/stderr" ||
	fail "no summary of the races"
! grep -q "failed:" "$WORK/stderr" || fail "a race in report mode is no failure"
"$SCHEDFUZZ" replay "$WORK/out"/race-* -- "$prog" >/dev/null 2>"$WORK/replay"
grep -q "^WARNING: ThreadSanitizer: data race" "$WORK/replay" || fail "replay shows no race"
"$SCHEDFUZZ" run -n 300 --seed 1 --races=off -o "$WORK/off" -- "$prog" >/dev/null 2>"$WORK/off.err"
rc=$?
[ "$rc" -eq 0 ] || { cat "$WORK/off.err"; fail "--races=off: exit $rc"; }
! grep -q "ThreadSanitizer" "$WORK/off.err" || fail "--races=off reported a race"
echo "report mode: $(grep -m1 'data race (pairs' "$WORK/stderr")"
