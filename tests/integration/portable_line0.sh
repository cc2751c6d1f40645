#!/usr/bin/env bash
# portable_line0.sh SOURCE: a minimised input whose only decision stands
# in code clang gave line 0 (the merged unlock of line0_unlock.c, checked
# to be line 0 on the -O1 -g build) has a portable form, anchored to the
# nearest earlier line of its function, and that form fails the same way
# on the -O2 -gline-tables-only, ASan and AFL++ builds.
. "$(dirname "$0")/lib.sh"
src=$1
cc=$SF_BIN/schedfuzz-cc
"$cc" -O1 -g "$src" -o "$WORK/o1" && "$cc" -O2 -gline-tables-only "$src" -o "$WORK/o2" &&
	"$cc" -O1 -g -fsanitize=address "$src" -o "$WORK/asan" &&
	SCHEDFUZZ_ENGINE=afl "$cc" -O1 -g "$src" -o "$WORK/afl" || fail "a build failed"
call=$(objdump -d --no-show-raw-insn "$WORK/o1" |
	awk '/<worker>:/ { on = 1 } on && /call.*<pthread_mutex_unlock/ { sub(":", "", $1); print $1; exit }')
[ -n "$call" ] || fail "no call of pthread_mutex_unlock in worker"
where=$(llvm-symbolizer-14 --obj="$WORK/o1" "0x$call" 2>/dev/null | sed -n 2p)
case $where in
*:0:0) ;;
*) fail "the worker's unlock is at $where, not line 0: this clang merges otherwise, the check proves nothing" ;;
esac
"$SCHEDFUZZ" run -n 2000 --seed 1 -o "$WORK/found" -- "$WORK/o1" >"$WORK/run.log" 2>&1
[ $? -eq 1 ] || fail "not found"
crash=$(ls "$WORK/found"/crash-* | head -1)
min=$("$SCHEDFUZZ" min "$crash" -- "$WORK/o1" 2>"$WORK/min.log") || { cat "$WORK/min.log"; fail "min failed"; }
[ -f "$min.portable" ] || { cat "$WORK/min.log"; fail "no portable form"; }
grep -E '^at pick before thread=1 line=.*line0_unlock.c:[0-9]+ .*event=unlock#1 ' "$min.portable" ||
	{ cat "$min.portable"; fail "the decision is not anchored before the worker's unlock"; }
for b in o1 o2 asan afl; do
	"$SCHEDFUZZ" replay --events 0 "$min.portable" -- "$WORK/$b" >"$WORK/$b.log" 2>&1
	[ $? -eq 1 ] || { tail -5 "$WORK/$b.log"; fail "the portable form does not fail on the $b build"; }
	grep -q "ERROR: assertion failure: 'ready'" "$WORK/$b.log" || fail "the $b build fails otherwise: $(grep ERROR "$WORK/$b.log")"
done
echo "a decision at line 0 ($where): anchored, fails on o1, o2, asan, afl"
