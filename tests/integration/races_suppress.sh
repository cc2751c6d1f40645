#!/usr/bin/env bash
# races_suppress.sh PROG: PROG (races/relaxed.c) races between its
# producer and main. A ThreadSanitizer suppressions file naming the
# producer silences it, whether given by TSAN_OPTIONS or by
# SCHEDFUZZ_RACE_SUPPRESSIONS beside another file; --verbose names the
# rule that matched; a rule for another function leaves it reported.
. "$(dirname "$0")/lib.sh"
prog=$1
printf '# project suppressions\nrace:no_such_function\n' >"$WORK/other.supp"
printf 'race_top:^producer$\n' >"$WORK/tsan.supp"
TSAN_OPTIONS="suppressions=$WORK/tsan.supp" "$SCHEDFUZZ" run -n 60 --seed 1 -o "$WORK/a" -- "$prog" \
	>/dev/null 2>"$WORK/a.err"
rc=$?
cat "$WORK/a.err"
[ "$rc" -eq 0 ] || fail "TSAN_OPTIONS suppressions: exit $rc, expected 0"
! grep -q ThreadSanitizer "$WORK/a.err" || fail "a suppressed race was reported"
SCHEDFUZZ_RACE_SUPPRESSIONS="$WORK/other.supp:$WORK/tsan.supp" "$SCHEDFUZZ" run -n 60 --seed 1 \
	--verbose -o "$WORK/b" -- "$prog" >/dev/null 2>"$WORK/b.err"
rc=$?
[ "$rc" -eq 0 ] || { cat "$WORK/b.err"; fail "two files: exit $rc, expected 0"; }
grep -q "suppressed by race_top:^producer\$ ($WORK/tsan.supp)" "$WORK/b.err" ||
	fail "--verbose does not name the rule"
SCHEDFUZZ_RACE_SUPPRESSIONS="$WORK/other.supp" "$SCHEDFUZZ" run -n 60 --seed 1 -o "$WORK/c" \
	-- "$prog" >/dev/null 2>"$WORK/c.err"
rc=$?
[ "$rc" -eq 1 ] && grep -q "raced: data race" "$WORK/c.err" ||
	{ cat "$WORK/c.err"; fail "a rule for another function silenced the race (exit $rc)"; }
echo "suppressed by TSan's file and by ours; reported under another rule"
