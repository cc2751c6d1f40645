#!/usr/bin/env bash
# libfuzzer_timeout.sh HANG_HARNESS: a hang under libFuzzer's -timeout=2
# becomes our hang report (interleaving and genome) before libFuzzer's own
# timeout fires, both when the hang passes scheduling points and when a
# thread is stuck in a call the runtime does not control.
. "$(dirname "$0")/lib.sh"
prog=$1
cd "$WORK"
{ head -c 96 /dev/zero; printf S; } >spin
{ head -c 96 /dev/zero; printf B; } >block
# The step limit is lifted so that only time can end the spin.
SCHEDFUZZ_MAX_STEPS=1000000000000 timeout 60 "$prog" -timeout=2 spin >spin.log 2>&1
grep -q "==schedfuzz== ERROR: hang: still running after 1500 ms" spin.log || { tail -20 spin.log; fail "no hang report for the spin"; }
grep -q "==schedfuzz== schedule:" spin.log || fail "the hang report has no schedule"
grep -q "ALARM: working on the last Unit" spin.log && fail "libFuzzer's timeout fired first"
echo "spin: $(grep -o 'ERROR: hang: still running after [0-9]* ms' spin.log)"
timeout 60 "$prog" -timeout=2 block >block.log 2>&1
grep -q "==schedfuzz== ERROR: hang: T1 reached no scheduling point" block.log || { tail -20 block.log; fail "no hang report for the blocked thread"; }
grep -q "ALARM: working on the last Unit" block.log && fail "libFuzzer's timeout fired first"
echo "blocked: $(grep -o 'ERROR: hang: T1 reached no scheduling point for [0-9]* ms' block.log)"
# Replayed, the spin is a hang again (now by the step limit).
"$SCHEDFUZZ" replay spin -- "$prog" >replay.log 2>&1
[ $? -eq 1 ] && grep -q "ERROR: hang: no end after" replay.log || fail "the spin does not replay as a hang"
echo "replay: $(grep -o 'ERROR: hang: no end after [0-9]* scheduling points' replay.log)"
