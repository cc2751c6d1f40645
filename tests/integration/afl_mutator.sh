#!/usr/bin/env bash
# afl_mutator.sh MUTATOR BUGGY FIXED SEEDS: the genome-aware AFL++ mutator.
# The program folds its counts into the file SCHEDFUZZ_ESTIMATES names;
# afl-fuzz loading the mutator finds the bug with the mutator's own inputs,
# with afl-fuzz's stages beside it and alone (AFL_CUSTOM_MUTATOR_ONLY), and
# every crash replays; the fixed twin saves none.
. "$(dirname "$0")/lib.sh"
mutator=$1 buggy=$2 fixed=$3 seeds=$4
command -v afl-fuzz >/dev/null || fail "afl-fuzz not found (scripts/setup.sh installs afl++)"
[ -f "$mutator" ] || fail "no mutator at $mutator"

# The runtime side: a run outside afl-fuzz writes its counts into the file.
python3 -c 'import struct,sys; open(sys.argv[1],"wb").write(struct.pack("<Q", 0x5346455354494d31) + bytes(1024))' "$WORK/est"
SCHEDFUZZ_ESTIMATES=$WORK/est "$fixed" || fail "the fixed program failed on its own"
events=$(python3 -c 'import struct,sys; print(struct.unpack_from("<Q", open(sys.argv[1],"rb").read(), 8)[0])' "$WORK/est")
[ "$events" -gt 10 ] || fail "the program left no event count in the estimates file ($events)"
echo "one run left events=$events in the estimates file"

export AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1
export AFL_CUSTOM_MUTATOR_LIBRARY=$mutator
fuzz() { # fuzz OUT PROG EXECS
	AFL_BENCH_UNTIL_CRASH=1 timeout 300 afl-fuzz -s 1 -i "$seeds" -o "$1" -E "$3" -- "$2" \
		>"$1.log" 2>&1 || { tail -20 "$1.log"; fail "afl-fuzz failed on $2"; }
	grep -q "installed successfully" "$1.log" || { tail -20 "$1.log"; fail "afl-fuzz did not load the mutator"; }
}
for mode in beside only; do
	if [ $mode = only ]; then export AFL_CUSTOM_MUTATOR_ONLY=1; fi
	fuzz "$WORK/$mode" "$buggy" 5000
	crash=$(ls "$WORK/$mode/default/crashes" | grep '^id:.*schedfuzz' | head -1)
	[ -n "$crash" ] || { ls "$WORK/$mode/default/crashes"; fail "no crash made by the mutator ($mode)"; }
	"$SCHEDFUZZ" replay "$WORK/$mode/default/crashes/$crash" -- "$buggy" >"$WORK/replay" 2>&1
	[ $? -eq 1 ] || { cat "$WORK/replay"; fail "crash $crash did not fail on replay"; }
	grep -q '==schedfuzz== ERROR: assertion failure' "$WORK/replay" || fail "no report replaying $crash"
	echo "$mode: $crash replays"
done

fuzz "$WORK/fixed" "$fixed" 3000
saved=$(ls "$WORK/fixed/default/crashes" | grep -c id: || true)
[ "$saved" -eq 0 ] || fail "the fixed twin crashed $saved times"
echo "fixed twin: 3000 executions with the mutator, no crash"
