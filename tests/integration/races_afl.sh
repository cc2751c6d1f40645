#!/usr/bin/env bash
# races_afl.sh HARNESS FIXED: afl-fuzz over a harness built for AFL++
# (persistent mode; the harness races only on inputs it must find) with
# SCHEDFUZZ_RACES=fail keeps the racing input as a
# crash, and `schedfuzz replay --races=fail` of it reports the same pair of
# sites the fuzzer's run reported; the fixed twin saves no crash.
. "$(dirname "$0")/lib.sh"
harness=$1 fixed=$2
command -v afl-fuzz >/dev/null || fail "afl-fuzz not found (scripts/setup.sh installs afl++)"
export AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1
export SCHEDFUZZ_RACES=fail
# A seed is a genome then the harness's data (`schedfuzz seed`).
mkdir "$WORK/data" && printf 'ab' >"$WORK/data/one"
"$SCHEDFUZZ" seed --data "$WORK/data" -o "$WORK/seeds" >/dev/null || fail "schedfuzz seed failed"
fuzz() { # fuzz OUT PROG EXECS
	AFL_BENCH_UNTIL_CRASH=1 timeout 300 afl-fuzz -s 1 -t 10000 -i "$WORK/seeds" -o "$1" -E "$3" \
		-- "$2" >"$1.log" 2>&1 || { tail -20 "$1.log"; fail "afl-fuzz failed on $2"; }
}
fuzz "$WORK/bug" "$harness" 3000
crash=$(ls "$WORK/bug/default/crashes"/id:* 2>/dev/null | head -n 1)
[ -n "$crash" ] || fail "afl-fuzz kept no crash in 3,000 executions"
"$SCHEDFUZZ" replay --races=fail "$crash" -- "$harness" >/dev/null 2>"$WORK/replay"
rc=$?
[ "$rc" -eq 1 ] || { cat "$WORK/replay"; fail "replay exit $rc, expected 1"; }
grep -q "^WARNING: ThreadSanitizer: data race" "$WORK/replay" || fail "no race report on replay"
grep -q "^SUMMARY: ThreadSanitizer: data race harness.c:2[0-9] in worker" "$WORK/replay" ||
	{ cat "$WORK/replay"; fail "the replayed race is not the tally's"; }
# The same input replays the same pair, twice over.
"$SCHEDFUZZ" replay --races=fail "$crash" -- "$harness" >/dev/null 2>"$WORK/again"
key() { grep -m1 '^==schedfuzz== race key' "$1" | cut -d: -f1; }
[ "$(key "$WORK/replay")" = "$(key "$WORK/again")" ] || fail "two replays raced otherwise"
fuzz "$WORK/fixed" "$fixed" 1000
saved=$(ls "$WORK/fixed/default/crashes" | grep -c id: || true)
[ "$saved" -eq 0 ] || fail "the fixed twin crashed $saved times"
echo "afl-fuzz kept the race ($(basename "$crash")) and replay reproduced $(key "$WORK/replay")"
