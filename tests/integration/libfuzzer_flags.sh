#!/usr/bin/env bash
# libfuzzer_flags.sh BUGGY FIXED SEEDS DICT: libFuzzer's flags on harnesses
# built with schedfuzz-cc behave as libFuzzer users expect.
. "$(dirname "$0")/lib.sh"
buggy=$1 fixed=$2 dict=$4
cd "$WORK"
# libFuzzer adds what it finds to the first corpus directory: fuzz copies.
cp -r "$3" seeds
seeds=$WORK/seeds

# -fork=2: worker processes fuzz; the first crash stops the campaign and
# is saved where -artifact_prefix says; it replays.
mkdir corpus
timeout 300 "$buggy" -fork=2 -seed=1 -max_total_time=240 -artifact_prefix="$WORK/" corpus "$seeds" \
	>fork.log 2>&1
crash=$(ls "$WORK"/crash-* 2>/dev/null | head -1)
[ -n "$crash" ] || { tail -20 fork.log; fail "-fork=2 found no crash"; }
grep -q 'INFO: -fork=2' fork.log || fail "-fork=2 did not run in fork mode"
echo "-fork=2: $(grep -c '#[0-9]*: cov' fork.log) status lines, crash $(basename "$crash")"
"$SCHEDFUZZ" replay "$crash" -- "$buggy" >replay.log 2>&1
[ $? -eq 1 ] || fail "the -fork=2 crash did not fail on replay"

# -minimize_crash=1 runs and leaves a crashing input.
timeout 300 "$buggy" -minimize_crash=1 -runs=300 -seed=1 -exact_artifact_path="$WORK/minimized" \
	"$crash" >min.log 2>&1
grep -q 'CRASH_MIN' min.log || { tail -10 min.log; fail "-minimize_crash=1 did not run"; }
echo "-minimize_crash=1: $(grep CRASH_MIN min.log | tail -1)"

# -jobs=2 -workers=2: two independent jobs, each with its own log, on the fixed twin.
timeout 300 "$fixed" -jobs=2 -workers=2 -runs=2000 -seed=1 >jobs.log 2>&1 ||
	{ tail -5 jobs.log; fail "-jobs=2 failed"; }
for j in 0 1; do
	grep -q 'Done 2000 runs' "fuzz-$j.log" || { tail -5 "fuzz-$j.log"; fail "job $j did not finish"; }
done
echo "-jobs=2: both jobs ran 2000 inputs, no crash"

# -dict, -timeout, -rss_limit_mb and -max_total_time together on the fixed twin.
mkdir corpus2
timeout 300 "$fixed" -dict="$dict" -timeout=10 -rss_limit_mb=512 -max_total_time=5 -runs=3000 -seed=1 \
	corpus2 "$seeds" >flags.log 2>&1 || { tail -5 flags.log; fail "the fixed twin failed"; }
grep -q 'Dictionary: [1-9][0-9]* entries' flags.log || fail "-dict was not loaded"
grep -Eq 'Done [0-9]+ runs' flags.log || fail "the run did not finish"
echo "-dict -timeout -rss_limit_mb -max_total_time: $(grep -o 'Dictionary: [0-9]* entries' flags.log), $(grep -Eo 'Done [0-9]+ runs' flags.log)"
