#!/usr/bin/env bash
# own_points.sh OWN_REUSE PRIVATE_LOOP STACK_TICK PCTVB_GENOME: memory only
# one thread touches is no scheduling point (docs/cost.md). A schedule of
# the walk, PCT and RPRO replayed:
# private_loop's two threads, 2,000,000 private heap accesses each, reach
# fewer than 1,000 points (the ticks), every access is one with
# SCHEDFUZZ_MEMORY=2, and none is with SCHEDFUZZ_MEMORY=0 (no tick either:
# there the check passes every access, on the map's one cell); own_reuse's
# second worker, looping over a block the first one freed, reaches fewer
# than 200; stack_tick's two threads, 12,000,000 private accesses in all,
# two thirds on their stacks, reach their ticks (12,000,000 / RT_OWN_TICK
# = 732) wherever the count ends,
# and the random walk switches at none of them (at a tick it keeps the
# current thread: it used to switch at about half of them).
# A replay of an execution longer than its trace keeps counts every event.
# PCTVB counts every access of its variables: a plan that names them by id
# keeps only their memory shared, so private_loop with the global it reads
# once per thread named reaches fewer than 1,000 points, and with its
# buffers' allocation site named, every access to them is one (up to
# 65,536 accesses past its last change point, where it retires); a plan
# that names a rank finds no variable there (no memory two threads touch)
# and reaches only the ticks.
. "$(dirname "$0")/lib.sh"
reuse=$1 loop=$2 tick=$3 pctvb_genome=$4
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
	SCHEDFUZZ_MEMORY=0 "$SCHEDFUZZ" replay --events 1 "$WORK/g" -- "$loop" 1000000 >"$WORK/out" 2>"$WORK/err" ||
		fail "$s: private_loop with SCHEDFUZZ_MEMORY=0 failed"
	none=$(steps "$WORK/err")
	[ -n "$none" ] && [ "$none" -lt 50 ] || fail "$s: SCHEDFUZZ_MEMORY=0 gave ${none:-?} points, expected no ticks"
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
		switches=$(sed -n 's/^==schedfuzz== [0-9]* steps, \([0-9]*\) preemption.*/\1/p' "$WORK/err")
		[ -n "$switches" ] && [ "$switches" -lt 10 ] ||
			fail "the walk switched ${switches:-?} times in stack_tick's $ticks points, at its ticks"
		# Longer than the trace keeps (2^20 events): replay's lanes still
		# say how many there were in all.
		SCHEDFUZZ_MEMORY=2 "$SCHEDFUZZ" replay --events 3 "$WORK/g" -- "$loop" 200000 >"$WORK/out" \
			2>"$WORK/err" || fail "$s: a long private_loop failed"
		long=$(steps "$WORK/err")
		shown=$(sed -n 's/.*interleaving in thread lanes: the last 3 of \([0-9]*\) events.*/\1/p' "$WORK/err")
		[ -n "$shown" ] && [ "$shown" -ge "$long" ] ||
			fail "lanes say ${shown:-?} events of an execution of $long steps"
	fi
	echo "$s: private_loop $own points of its own, $all with every access, $none with none; own_reuse $n; stack_tick $ticks"
done

off=$(nm "$loop" | awk '$3 == "iterations" { print $1 }')
[ -n "$off" ] || fail "no symbol 'iterations' in $loop"
"$pctvb_genome" "$WORK/g" "0x$off:3" || fail "pctvb_genome global"
"$SCHEDFUZZ" replay --events 1 "$WORK/g" -- "$loop" 1000000 >"$WORK/out" 2>"$WORK/err" ||
	fail "pctvb naming a global: private_loop failed: $(cat "$WORK/err")"
grep -q "vars=\[global@0x0*${off#"${off%%[!0]*}"}/3\]" "$WORK/err" || fail "the replay names another plan: $(grep 'schedule:' "$WORK/err")"
global=$(steps "$WORK/err")
[ -n "$global" ] && [ "$global" -lt 1000 ] || fail "pctvb naming a global: ${global:-?} points, expected < 1000"
# The buffers' allocation site: where calloc returns to in work(), the
# same offset the runtime records (a variable nobody shares, so the
# explorer never offers it, but a plan may name it).
site=$(objdump -d --no-show-raw-insn "$loop" | awk '/^[0-9a-f]+ <work>:/ { w = 1; next }
	/^$/ { w = 0 } w && prev ~ /call.*<calloc/ { sub(":", "", $1); print "heap@0x" $1; exit }
	w { prev = $0 }')
[ -n "$site" ] || fail "no call of calloc in work() of $loop"
"$pctvb_genome" "$WORK/g" "$((0x80000000 | ${site#heap@}))" || fail "pctvb_genome heap"
"$SCHEDFUZZ" replay --events 1 "$WORK/g" -- "$loop" 10000 >"$WORK/out" 2>"$WORK/err" ||
	fail "pctvb naming $site: private_loop failed: $(cat "$WORK/err")"
heap=$(steps "$WORK/err")
[ -n "$heap" ] && [ "$heap" -ge 40000 ] || fail "pctvb naming $site: ${heap:-?} points, expected >= 40000"
# ... until the variable retires: past 65,536 accesses (SF_VAR_MAX_ACCESSES)
# with its one change point fired, its memory is private again, so ten
# times the iterations reach about 65,536 points, not ten times as many.
"$pctvb_genome" "$WORK/g" "$((0x80000000 | ${site#heap@})):1000" || fail "pctvb_genome heap"
"$SCHEDFUZZ" replay --events 1 "$WORK/g" -- "$loop" 100000 >"$WORK/out" 2>"$WORK/err" ||
	fail "pctvb naming $site, 100,000 iterations: private_loop failed: $(cat "$WORK/err")"
retired=$(steps "$WORK/err")
[ -n "$retired" ] && [ "$retired" -ge 65536 ] && [ "$retired" -lt 100000 ] ||
	fail "pctvb naming $site, 100,000 iterations: ${retired:-?} points, expected 65,536 to 100,000"
"$SCHEDFUZZ" genome --strategy pctvb:d=2,v=1 --seed 1 -o "$WORK/g" >/dev/null 2>&1 || fail "genome pctvb"
"$SCHEDFUZZ" replay --events 1 "$WORK/g" -- "$loop" 1000000 >"$WORK/out" 2>"$WORK/err" ||
	fail "pctvb naming a rank: private_loop failed: $(cat "$WORK/err")"
rank=$(steps "$WORK/err")
[ -n "$rank" ] && [ "$rank" -lt 1000 ] || fail "pctvb naming a rank: ${rank:-?} points, expected < 1000"
echo "pctvb: private_loop $global points with a global named, $heap with $site ($retired with ten times the iterations), $rank with a rank"
