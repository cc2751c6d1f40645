#!/usr/bin/env bash
# run_data.sh HARNESS FIXED PROGRAM: `schedfuzz run --data FILE` explores
# the schedules of one harness input. session_harness fails only when one
# user logs in on both threads at once: with data 07 07 the explorer finds
# it and saves genome + data, which replays; with 01 02 (two users) and on
# the fixed twin no schedule fails. A main() program refuses --data.
. "$(dirname "$0")/lib.sh"
harness=$1 fixed=$2 program=$3
printf '\x07\x07' >"$WORK/same"
printf '\x01\x02' >"$WORK/two"
"$SCHEDFUZZ" run -n 3000 --seed 1 --data "$WORK/same" -o "$WORK/out" -- "$harness" >"$WORK/run.log" 2>&1
[ $? -eq 1 ] || { tail -20 "$WORK/run.log"; fail "the explorer did not find the bug with data 07 07"; }
crash=$(ls "$WORK/out"/crash-* | head -1)
# A plan's genome is its 96-byte header; an explicit list of the reversal
# arm adds 5 bytes per decision.
size=$(stat -c %s "$crash")
[ "$size" -ge 98 ] && [ $(((size - 98) % 5)) -eq 0 ] ||
	fail "the crash file has $size bytes, not 96 + 5 per decision + 2"
cmp -s <(tail -c 2 "$crash") "$WORK/same" || fail "the crash file does not end with the data"
"$SCHEDFUZZ" replay "$crash" -- "$harness" >"$WORK/replay.log" 2>&1
[ $? -eq 1 ] || fail "the saved input does not replay"
grep -q "assertion failure" "$WORK/replay.log" || fail "the replay fails otherwise: $(grep ERROR "$WORK/replay.log")"
"$SCHEDFUZZ" run -n 1000 --seed 1 --data "$WORK/two" -o "$WORK/out2" -- "$harness" >"$WORK/two.log" 2>&1
[ $? -eq 0 ] || { tail -20 "$WORK/two.log"; fail "a failure with two different users"; }
"$SCHEDFUZZ" run -n 1000 --seed 1 --data "$WORK/same" -o "$WORK/out3" -- "$fixed" >"$WORK/fixed.log" 2>&1
[ $? -eq 0 ] || { tail -20 "$WORK/fixed.log"; fail "a failure of the fixed twin"; }
"$SCHEDFUZZ" run -n 10 --data "$WORK/same" -o "$WORK/out4" -- "$program" >"$WORK/main.log" 2>&1
[ $? -eq 2 ] && grep -q "is for harnesses" "$WORK/main.log" || fail "a main() program took --data: $(cat "$WORK/main.log")"
"$SCHEDFUZZ" run -n 10 --data "$WORK/missing" -- "$harness" >"$WORK/missing.log" 2>&1
[ $? -eq 2 ] && grep -q "cannot read" "$WORK/missing.log" || fail "a missing data file: $(cat "$WORK/missing.log")"
echo "run --data: found with 07 07 (crash = genome + data, replays); none with 01 02 or fixed"
