#!/usr/bin/env bash
# afl_persistent.sh BUGGY FIXED SEEDS DICT: afl-fuzz over a libFuzzer-style
# harness built with SCHEDFUZZ_ENGINE=afl runs it in persistent mode with
# shared-memory test cases, finds its bug (which needs both data and a
# schedule), and every crash it saves replays; the fixed twin saves none.
. "$(dirname "$0")/lib.sh"
buggy=$1 fixed=$2 seeds=$3 dict=$4
command -v afl-fuzz >/dev/null || fail "afl-fuzz not found (scripts/setup.sh installs afl++)"
export AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1
fuzz() { # fuzz OUT PROG EXECS
	AFL_BENCH_UNTIL_CRASH=1 timeout 300 afl-fuzz -s 1 -i "$seeds" -o "$1" -x "$dict" -E "$3" -- "$2" \
		>"$1.log" 2>&1 || { tail -20 "$1.log"; fail "afl-fuzz failed on $2"; }
}
fuzz "$WORK/bug" "$buggy" 20000
mode=$(sed -n 's/^target_mode *: //p' "$WORK/bug/default/fuzzer_stats")
echo "afl-fuzz target mode: $mode"
case $mode in *persistent*shmem_testcase*deferred*) ;; *) fail "not persistent with shared memory: $mode" ;; esac
n=0
for crash in "$WORK/bug/default/crashes"/id:*; do
	[ -e "$crash" ] || fail "afl-fuzz found no crash in $buggy"
	"$SCHEDFUZZ" replay "$crash" -- "$buggy" >"$WORK/replay" 2>&1
	[ $? -eq 1 ] || { cat "$WORK/replay"; fail "crash $(basename "$crash") did not fail on replay"; }
	grep -q '==schedfuzz== ERROR: assertion failure' "$WORK/replay" || fail "no report replaying $crash"
	n=$((n + 1))
done
echo "$n crashes saved, all replay: first $(ls "$WORK/bug/default/crashes" | grep id: | head -1)"

fuzz "$WORK/fixed" "$fixed" 3000
saved=$(ls "$WORK/fixed/default/crashes" | grep -c id: || true)
[ "$saved" -eq 0 ] || fail "the fixed twin crashed $saved times"
echo "fixed twin: 3000 executions, no crash"
