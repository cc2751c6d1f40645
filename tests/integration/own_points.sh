#!/usr/bin/env bash
# own_points.sh OWN_REUSE PRIVATE_LOOP: memory only one thread touches is
# no scheduling point (docs/cost.md). A schedule of each strategy that uses
# the ownership model replayed (PCTVB counts every access of its variables,
# so its plans keep every access a point):
# private_loop's two threads, 2,000,000 private heap accesses each, reach
# fewer than 1,000 points (the ticks), and every access is one with
# SCHEDFUZZ_MEMORY=2; own_reuse's second worker, looping over a block the
# first one freed, reaches fewer than 200; stack_tick's two threads,
# 12,000,000 private accesses in all, two thirds on their stacks, reach
# their ticks (12,000,000 / RT_OWN_TICK = 732) wherever the count ends.
# A replay of an execution longer than its trace keeps counts every event.
. "$(dirname "$0")/lib.sh"
reuse=$1 loop=$2 tick=$3
steps() { sed -n 's/^==schedfuzz== \([0-9]*\) steps, .*/\1/p' "$1"; }
for s in random pct:d=3 rpro:d=4,r=5; do
	"$SCHEDFUZZ" genome --strategy "$s" --seed 1 -o "$WORK/g" >/dev/null || fail "genome $s"
	"$SCHEDFUZZ" replay --events 1 "$WORK/g" -- "$loop" 1000000 >"$WORK/out" 2>"$WORK/err" ||
		fail "$s: private_loop failed: $(cat "$WORK/err")"
	own=$(steps "$WORK/err")
	[ -n "$own" ] && [ "$own" -lt 1000 ] || fail "$s: private_loop took ${own:-?} points, expected < 1000"
	SCHEDFUZZ_MEMORY=2 "$SCHEDFUZZ" replay --events 1 "$WORK/g" -- "$loop" 10000 >"$WORK/out" 2>"$WORK/err" ||
		fail "$s: private_loop with SCHEDFUZZ_MEMORY=2 failed"
	all=$(steps "$WORK/err")
	[ -n "$all" ] && [ "$all" -ge 40000 ] || fail "$s: SCHEDFUZZ_MEMORY=2 gave ${all:-?} points, expected >= 40000"
	"$SCHEDFUZZ" replay --events 1 "$WORK/g" -- "$reuse" >"$WORK/out" 2>"$WORK/err" ||
		fail "$s: own_reuse failed: $(cat "$WORK/err")"
	grep -qx reused "$WORK/out" || fail "$s: the second worker did not get the freed block back"
	n=$(steps "$WORK/err")
	[ -n "$n" ] && [ "$n" -lt 200 ] || fail "$s: own_reuse took ${n:-?} points, expected < 200"
	"$SCHEDFUZZ" replay --events 1 "$WORK/g" -- "$tick" >"$WORK/out" 2>"$WORK/err" ||
		fail "$s: stack_tick failed: $(cat "$WORK/err")"
	ticks=$(steps "$WORK/err")
	[ -n "$ticks" ] && [ "$ticks" -ge 700 ] && [ "$ticks" -lt 1000 ] ||
		fail "$s: stack_tick took ${ticks:-?} points, expected its 732 ticks and a few more"
	if [ "$s" = random ]; then
		# Longer than the trace keeps (2^20 events): replay's lanes still
		# say how many there were in all.
		SCHEDFUZZ_MEMORY=2 "$SCHEDFUZZ" replay --events 3 "$WORK/g" -- "$loop" 200000 >"$WORK/out" \
			2>"$WORK/err" || fail "$s: a long private_loop failed"
		long=$(steps "$WORK/err")
		shown=$(sed -n 's/.*interleaving in thread lanes: the last 3 of \([0-9]*\) events.*/\1/p' "$WORK/err")
		[ -n "$shown" ] && [ "$shown" -ge "$long" ] ||
			fail "lanes say ${shown:-?} events of an execution of $long steps"
	fi
	echo "$s: private_loop $own points of its own, $all with every access; own_reuse $n; stack_tick $ticks"
done
