#!/usr/bin/env bash
# afl_tools.sh MAIN_PROG HARNESS CRASHY_HARNESS SEEDS: afl-showmap, afl-cmin
# and afl-tmin on binaries built with SCHEDFUZZ_ENGINE=afl, a main()
# program and a persistent-mode harness: the map holds edges and
# interleaving features, cmin keeps a corpus, tmin keeps a crash crashing.
. "$(dirname "$0")/lib.sh"
prog=$1 harness=$2 crashy=$3 seeds=$4
export AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_NO_AFFINITY=1 AFL_QUIET=1
for bin in "$prog" "$harness"; do
	seed=$(ls "$seeds"/* | head -1)
	afl-showmap -q -o "$WORK/map" -- "$bin" <"$seed" >/dev/null 2>&1
	tuples=$(wc -l <"$WORK/map")
	echo "afl-showmap $(basename "$bin"): $tuples map entries"
	[ "$tuples" -ge 3 ] || fail "afl-showmap saw $tuples map entries for $bin"
done
# afl-cmin refuses directories under /tmp unless told: the test's are private.
AFL_ALLOW_TMP=1 afl-cmin -i "$seeds" -o "$WORK/cmin" -- "$harness" >"$WORK/cmin.log" 2>&1 ||
	{ tail -5 "$WORK/cmin.log"; fail "afl-cmin failed"; }
kept=$(ls "$WORK/cmin" | wc -l)
echo "afl-cmin: kept $kept of $(ls "$seeds" | wc -l) seeds"
[ "$kept" -ge 1 ] || fail "afl-cmin kept nothing"

# A crash to minimise: afl-fuzz finds one in the buggy harness.
AFL_BENCH_UNTIL_CRASH=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 timeout 300 \
	afl-fuzz -s 1 -i "$seeds" -o "$WORK/out" -E 20000 -- "$crashy" >"$WORK/fuzz.log" 2>&1 ||
	fail "afl-fuzz failed"
crash=$(ls "$WORK/out/default/crashes"/id:* | head -1)
[ -n "$crash" ] || fail "no crash to minimise"
afl-tmin -i "$crash" -o "$WORK/tmin" -- "$crashy" >"$WORK/tmin.log" 2>&1 ||
	{ tail -5 "$WORK/tmin.log"; fail "afl-tmin failed"; }
echo "afl-tmin: $(stat -c %s "$crash") -> $(stat -c %s "$WORK/tmin") bytes"
"$SCHEDFUZZ" replay "$WORK/tmin" -- "$crashy" >"$WORK/replay" 2>&1
[ $? -eq 1 ] || { tail -5 "$WORK/replay"; fail "afl-tmin's output does not fail on replay"; }
echo "afl-tmin's output replays as a failure"
