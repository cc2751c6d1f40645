#!/usr/bin/env bash
# own_straddle.sh SOURCE: an unaligned access across two granules is a
# scheduling point when either of them is not the thread's own, and no
# point when both are (rt_own_mine's paired load of two cells). SOURCE
# marks each access of main "point" or "pass"; a replay's events must
# hold exactly the first, with the check inline and with the hooks called.
. "$(dirname "$0")/lib.sh"
src=$1
cd "$WORK" || fail "no scratch directory"
cp "$src" own_straddle.c
"$SF_BIN/schedfuzz-cc" -O1 -g own_straddle.c -o inline || fail "cannot build inline"
SCHEDFUZZ_INLINE=0 "$SF_BIN/schedfuzz-cc" -O1 -g own_straddle.c -o called || fail "cannot build with calls"
"$SCHEDFUZZ" genome --strategy pct:d=3 --seed 1 -o g >/dev/null 2>&1 || fail "genome"
points=$(grep -n '/\* point:' own_straddle.c | cut -d: -f1)
passes=$(grep -n '/\* pass:' own_straddle.c | cut -d: -f1)
[ "$(echo "$points" | wc -l)" -eq 2 ] && [ "$(echo "$passes" | wc -l)" -eq 6 ] ||
	fail "SOURCE marks $(echo "$points" | wc -l) points and $(echo "$passes" | wc -l) passes, expected 2 and 6"
for b in inline called; do
	"$SCHEDFUZZ" replay --events 1000 g -- "./$b" >out 2>err || fail "$b: replay failed: $(cat err)"
	for l in $points; do
		grep -q "own_straddle\.c:$l (main)" err ||
			fail "$b: line $l ($(sed -n "${l}p" own_straddle.c | sed 's/^\s*//')) is no point"
	done
	for l in $passes; do
		grep -q "own_straddle\.c:$l (main)" err &&
			fail "$b: line $l ($(sed -n "${l}p" own_straddle.c | sed 's/^\s*//')) is a point"
	done
	echo "$b: lines $(echo $points) are points, $(echo $passes) are not"
done
exit 0
