#!/usr/bin/env bash
# libfuzzer_timeout.sh HANG_HARNESS: a hang under libFuzzer's -timeout=2
# becomes our hang report (interleaving and genome) before libFuzzer's own
# timeout fires, both when the hang passes scheduling points and when a
# thread is stuck in a call the runtime does not control (then with its
# stack). Replayed, the spin (one thread running alone, never a hang by
# its steps) runs out of replay's --timeout the same way.
. "$(dirname "$0")/lib.sh"
prog=$1
cd "$WORK"
{ head -c 96 /dev/zero; printf S; } >spin
{ head -c 96 /dev/zero; printf B; } >block
timeout 60 "$prog" -timeout=2 spin >spin.log 2>&1
grep -q "==schedfuzz== ERROR: hang: still running after 1500 ms" spin.log || { tail -20 spin.log; fail "no hang report for the spin"; }
grep -q "==schedfuzz== schedule:" spin.log || fail "the hang report has no schedule"
grep -q "ALARM: working on the last Unit" spin.log && fail "libFuzzer's timeout fired first"
echo "spin: $(grep -o 'ERROR: hang: still running after [0-9]* ms' spin.log)"
timeout 60 "$prog" -timeout=2 block >block.log 2>&1
grep -q "==schedfuzz== ERROR: hang: T1 reached no scheduling point" block.log || { tail -20 block.log; fail "no hang report for the blocked thread"; }
grep -q "ALARM: working on the last Unit" block.log && fail "libFuzzer's timeout fired first"
grep -q "^==schedfuzz== stack of T1, outside the runtime's control:" block.log &&
	grep -A3 "^==schedfuzz== stack of T1" block.log | grep -q "hang_harness.c:29 in block" ||
	fail "no stack of the blocked thread"
echo "blocked: $(grep -o 'ERROR: hang: T1 reached no scheduling point since [^:]*' block.log)"
"$SCHEDFUZZ" replay --timeout 2 spin -- "$prog" >replay.log 2>&1
[ $? -eq 1 ] && grep -q "ERROR: hang: still running after 2000 ms" replay.log ||
	fail "the spin does not replay as a hang"
echo "replay: $(grep -o 'ERROR: hang: still running after [0-9]* ms' replay.log)"
