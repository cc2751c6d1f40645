#!/usr/bin/env bash
# minimize.sh PROG: schedfuzz min on a crash the explorer found. The
# minimised input fails the same way, replays identically (two replays
# print the same interleaving), and has no more preemptions and decisions
# than the original.
. "$(dirname "$0")/lib.sh"
prog=$1
"$SCHEDFUZZ" run -n 5000 --seed 3 -o "$WORK/out" -- "$prog" >"$WORK/run.log" 2>&1
[ $? -eq 1 ] || fail "the explorer found no failure"
crash=$(ls "$WORK/out"/crash-* | head -1)
out=$("$SCHEDFUZZ" min "$crash" -- "$prog" 2>"$WORK/min.log") || { cat "$WORK/min.log"; fail "schedfuzz min failed"; }
[ "$out" = "$crash.min" ] && [ -f "$out" ] || fail "schedfuzz min printed '$out'"
cat "$WORK/min.log"
read -r p0 d0 < <(sed -n 's/.*original.*: \([0-9]*\) preemptions, [0-9]* decisions (\([0-9]*\) not the default).*/\1 \2/p' "$WORK/min.log")
read -r p1 d1 < <(sed -n 's/.*minimised in.*: \([0-9]*\) preemptions, [0-9]* decisions (\([0-9]*\) not the default).*/\1 \2/p' "$WORK/min.log")
[ -n "$p0" ] && [ -n "$p1" ] || fail "no counts in the output"
[ "$p1" -le "$p0" ] && [ "$d1" -le "$d0" ] || fail "minimised $p1/$d1 is not below the original $p0/$d0"
first=$(head -1 "$WORK/min.log" | sed 's/^schedfuzz: //')
for k in 1 2; do
	"$SCHEDFUZZ" replay --events 0 "$out" -- "$prog" >"$WORK/replay$k" 2>&1
	[ $? -eq 1 ] || fail "the minimised input does not fail"
done
grep -qF "ERROR: $first" "$WORK/replay1" || fail "the minimised input fails differently: $(grep ERROR "$WORK/replay1")"
sed -n '/interleaving in thread lanes/,$p' "$WORK/replay1" >"$WORK/lanes1"
sed -n '/interleaving in thread lanes/,$p' "$WORK/replay2" >"$WORK/lanes2"
[ -s "$WORK/lanes1" ] || fail "replay printed no lanes"
cmp -s "$WORK/lanes1" "$WORK/lanes2" || fail "two replays of the minimised input differ"
echo "minimised: preemptions $p0 -> $p1, decisions $d0 -> $d1; two replays identical"
