#!/usr/bin/env bash
# afl_queue.sh INTERLEAVE_PROG BUGGY_PROG: afl-fuzz over main() programs
# built with SCHEDFUZZ_ENGINE=afl.
#  1. INTERLEAVE_PROG takes the same code path under every schedule: with
#     interleaving coverage off afl-fuzz queues nothing beyond the seeds;
#     with it on (the default) it queues inputs for new interleavings.
#  2. afl-fuzz finds the bug of BUGGY_PROG, and a saved crash replays.
. "$(dirname "$0")/lib.sh"
prog=$1 buggy=$2
command -v afl-fuzz >/dev/null || fail "afl-fuzz not found (scripts/setup.sh installs afl++)"
export AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1
mkdir "$WORK/seeds"
"$SCHEDFUZZ" genome --strategy random --seed 1 -o "$WORK/seeds/random" 2>/dev/null || fail "genome"
"$SCHEDFUZZ" genome --strategy pct:d=2 --seed 2 -o "$WORK/seeds/pct" 2>/dev/null || fail "genome"
fuzz() { # fuzz COVERAGE OUT PROG EXECS
	SCHEDFUZZ_COVERAGE=$1 timeout 300 afl-fuzz -s 1 -i "$WORK/seeds" -o "$2" -E "$4" -- "$3" \
		>"$2.log" 2>&1 || { tail -20 "$2.log"; fail "afl-fuzz failed (coverage $1)"; }
}
fuzz none "$WORK/none" "$prog" 500
fuzz both "$WORK/both" "$prog" 500
off=$(ls "$WORK/none/default/queue" | grep -c '+cov')
on=$(ls "$WORK/both/default/queue" | grep -c '+cov')
echo "queue entries with new coverage: coverage none $off, both $on"
[ "$off" -eq 0 ] || fail "afl-fuzz found new edges without interleaving coverage"
[ "$on" -ge 1 ] || fail "afl-fuzz queued no input for a new interleaving"

fuzz both "$WORK/bug" "$buggy" 3000
crash=$(ls "$WORK/bug/default/crashes"/id:* 2>/dev/null | head -1)
[ -n "$crash" ] || fail "afl-fuzz found no crash in $buggy"
echo "afl-fuzz crash: $(basename "$crash")"
"$SCHEDFUZZ" replay "$crash" -- "$buggy" >"$WORK/replay" 2>&1
[ $? -eq 1 ] || { cat "$WORK/replay"; fail "the saved crash did not fail on replay"; }
grep -q '==schedfuzz== ERROR' "$WORK/replay" || fail "no report on replay"
