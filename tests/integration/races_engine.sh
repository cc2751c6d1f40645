#!/usr/bin/env bash
# races_engine.sh HARNESS FIXED: a libFuzzer harness whose workers race
# crashes with SCHEDFUZZ_RACES=fail, libFuzzer keeps the input, and
# `schedfuzz replay --races=fail` of it reports the same race; without
# SCHEDFUZZ_RACES the harness is quiet (an engine detects nothing unless
# asked); the fixed twin runs the same campaign clean.
. "$(dirname "$0")/lib.sh"
harness=$1 fixed=$2
cd "$WORK"
SCHEDFUZZ_RACES=fail "$harness" -runs=3000 -seed=1 >out 2>err
rc=$?
[ "$rc" -ne 0 ] || { cat err; fail "no crash from the race in 3,000 runs"; }
grep -q "^WARNING: ThreadSanitizer: data race" err || { cat err; fail "no race report"; }
crash=$(ls crash-* 2>/dev/null | head -n 1)
[ -n "$crash" ] || fail "libFuzzer kept no input"
grep -q "replay: schedfuzz replay --races=fail " err || fail "the replay line lacks --races=fail"
"$SCHEDFUZZ" replay --races=fail "$crash" -- "$harness" >/dev/null 2>replay
rc=$?
[ "$rc" -eq 1 ] || { cat replay; fail "replay exit $rc, expected 1"; }
key() { grep -m1 '^==schedfuzz== race key' "$1"; }
[ "$(key err)" = "$(key replay)" ] || fail "replay raced otherwise: $(key replay) vs $(key err)"
rm -f crash-*
"$harness" -runs=300 -seed=1 >out 2>quiet || { cat quiet; fail "without SCHEDFUZZ_RACES: a crash"; }
! grep -q ThreadSanitizer quiet || fail "an engine reported a race unasked"
SCHEDFUZZ_RACES=fail "$fixed" -runs=3000 -seed=1 >out 2>fixed.err ||
	{ cat fixed.err; fail "the fixed twin crashed"; }
echo "libFuzzer kept the race and replay reproduced it: $(key err)"
