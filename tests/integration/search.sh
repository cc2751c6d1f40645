#!/bin/bash
# search.sh - the systematic strategies on programs whose answers are known.
#   search.sh counts COUNTS      schedule counts worked out by hand
#   search.sh busy BUGGY FIXED   HaPSet guidance against plain DPOR
#   search.sh bounds PROG        a bug that needs 2 preemptions
#   search.sh resume COUNTS BUSY_FIXED  a search stopped and resumed
. "$(dirname "$0")/lib.sh"

# run OUT SPEC RUNS PROG [more schedfuzz run options]: the summary in OUT.
run() {
	local out=$1 spec=$2 runs=$3 prog=$4
	shift 4
	"$SCHEDFUZZ" run --strategy "$spec" -n "$runs" -o "$WORK/crashes" "$@" -- "$prog" \
		>"$out.paths" 2>"$out.err"
	local rc=$?
	# The summary is on stderr (after the reports), the saved paths on stdout.
	cat "$out.paths" "$out.err" >"$out"
	echo $rc
}

field() { sed -n "s/^$2: //p" "$1"; }

expect_count() {
	local case=$1 spec=$2 want=$3 prog=$4
	local rc
	rc=$(CASE=$case run "$WORK/out" "$spec" 100000 "$prog")
	[ "$rc" = 0 ] || fail "$case $spec: exit $rc: $(cat "$WORK/out.err")"
	[ "$(field "$WORK/out" schedules)" = "$want" ] ||
		fail "$case $spec: $(field "$WORK/out" schedules) schedules, expected $want"
	[ "$(field "$WORK/out" complete)" = yes ] || fail "$case $spec: not complete"
	echo "ok: $case $spec: $want schedules"
}

case $1 in
counts)
	prog=$2
	# main's steps: c1, c2 (creates), j1, j2 (joins); each thread a start,
	# then one step per write, its exit riding on the last. Without
	# reduction, with i of T1's k steps before c2 and r = k - i after:
	# j2 is last, and T1's rest plus j1 interleave with T2's k steps:
	# sum over r of C(r + 1 + k, k). k = 3: 35 + 20 + 10 + 4 = 69.
	expect_count independent dfs 69 "$prog"
	# k = 2 (one write each): 10 + 6 + 3 = 19.
	expect_count race dfs 19 "$prog"
	# Nothing conflicts: every interleaving is equivalent to the first.
	expect_count independent dpor 1 "$prog"
	expect_count two_locks dpor 1 "$prog"
	# One conflict, two orders of it.
	expect_count race dpor 2 "$prog"
	expect_count locked dpor 2 "$prog"
	# Three writes of x: 3! orders, and one execution that turns out
	# equivalent to an explored one after it started (a sleep set's).
	expect_count three dpor 7 "$prog"
	[ "$(field "$WORK/out" redundant)" = 1 ] || fail "three dpor: redundant $(field "$WORK/out" redundant)"
	# No preemption: main runs until it blocks in j1; then T1 or T2 runs
	# to its end. T1 first: main or T2 next (2); T2 first: T1 must run (1).
	expect_count independent icb:c=0 3 "$prog"
	;;
busy)
	buggy=$2 fixed=$3
	rc=$(run "$WORK/dpor" dpor 20000 "$fixed")
	[ "$rc" = 0 ] || fail "dpor on the fixed twin: exit $rc"
	rc=$(run "$WORK/guided" dpor+hapset 20000 "$fixed")
	[ "$rc" = 0 ] || fail "dpor+hapset on the fixed twin: exit $rc"
	d=$(field "$WORK/dpor" schedules)
	g=$(field "$WORK/guided" schedules)
	[ "$(field "$WORK/guided" complete)" = yes ] || fail "dpor+hapset did not complete"
	[ $((g * 20)) -le "$d" ] || fail "dpor+hapset explored $g schedules, dpor $d: not far fewer"
	echo "ok: fixed twin: dpor $d schedules, dpor+hapset $g"
	rc=$(run "$WORK/bug" dpor+hapset 20000 "$buggy")
	[ "$rc" = 1 ] || fail "dpor+hapset missed the planted bug (exit $rc)"
	grep -q "failed: assertion failure" "$WORK/bug.err" || fail "not the planted assertion"
	grep -q "replay reproduced the failure" "$WORK/bug.err" || fail "the failure did not replay"
	crash=$(grep '/crash-' "$WORK/bug" | head -1)
	"$SCHEDFUZZ" replay "$crash" -- "$buggy" >"$WORK/replay" 2>&1
	grep -q "assertion failure: 'y == 1'" "$WORK/replay" || fail "schedfuzz replay: no assertion"
	echo "ok: planted bug found by dpor+hapset at schedule $(field "$WORK/bug" first_failure), replayed"
	# HaPSets through a corpus: the first search fills it, the second
	# learns from it and has less left to explore, and still finds the bug.
	run "$WORK/c1" dpor+hapset 20000 "$buggy" --keep-going --corpus "$WORK/corpus" >/dev/null
	saved=$(ls "$WORK/corpus" | wc -l)
	[ "$saved" -gt 0 ] || fail "the guided search added nothing to the corpus"
	rc=$(run "$WORK/c2" dpor+hapset 20000 "$buggy" --keep-going --corpus "$WORK/corpus")
	[ "$rc" = 1 ] || fail "the bug was missed after learning from the corpus (exit $rc)"
	grep -q "learned [1-9][0-9]* HaPSet pairs from $saved inputs" "$WORK/c2.err" ||
		fail "no pairs learned from the corpus: $(cat "$WORK/c2.err")"
	[ "$(field "$WORK/c2" schedules)" -le "$(field "$WORK/c1" schedules)" ] ||
		fail "learning from the corpus explored more"
	echo "ok: corpus of $saved schedules taught the next search: $(field "$WORK/c1" schedules) -> $(field "$WORK/c2" schedules) schedules"
	;;
bounds)
	prog=$2
	rc=$(run "$WORK/c1" icb:c=1 100000 "$prog")
	[ "$rc" = 0 ] || fail "icb:c=1 reported a bug that needs 2 preemptions (exit $rc)"
	grep -qx "no bug reachable with ≤ 1 preemption at these scheduling points" "$WORK/c1" ||
		fail "no statement for bound 1"
	[ "$(field "$WORK/c1" complete)" = yes ] || fail "icb:c=1 not complete"
	rc=$(run "$WORK/c2" icb:c=2 100000 "$prog")
	[ "$rc" = 1 ] || fail "icb:c=2 missed the bug (exit $rc)"
	grep -q "≤ 2 preemptions" "$WORK/c2" && fail "bound 2 claimed complete despite its bug"
	grep -q "replay reproduced the failure" "$WORK/c2.err" || fail "the failure did not replay"
	first=$(field "$WORK/c2" first_failure)
	[ "$first" -gt "$(field "$WORK/c1" schedules)" ] || fail "found at $first, within bound 1's schedules"
	echo "ok: bound 1 complete in $(field "$WORK/c1" schedules) schedules; found in bound 2 at schedule $first"
	;;
resume)
	counts=$2 busy=$3
	CASE=independent run "$WORK/whole" icb:c=2 100000 "$counts" >/dev/null
	for n in 5 7 100000; do
		CASE=independent run "$WORK/part" icb:c=2 $n "$counts" --state "$WORK/icb.state" >/dev/null
	done
	[ "$(field "$WORK/part" schedules)" = "$(field "$WORK/whole" schedules)" ] ||
		fail "icb resumed: $(field "$WORK/part" schedules) schedules, in one go $(field "$WORK/whole" schedules)"
	[ "$(field "$WORK/part" complete)" = yes ] || fail "resumed icb not complete"
	run "$WORK/whole" dpor 100000 "$busy" >/dev/null
	for n in 1 1 50 100000; do
		run "$WORK/part" dpor $n "$busy" --state "$WORK/dpor.state" >/dev/null
	done
	[ "$(field "$WORK/part" schedules)" = "$(field "$WORK/whole" schedules)" ] ||
		fail "dpor resumed: $(field "$WORK/part" schedules) schedules, in one go $(field "$WORK/whole" schedules)"
	rc=$(run "$WORK/wrong" dfs 10 "$busy" --state "$WORK/dpor.state")
	[ "$rc" = 2 ] && grep -q "holds a search of strategy dpor, not dfs" "$WORK/wrong.err" ||
		fail "a state of another strategy was not refused: $(cat "$WORK/wrong.err")"
	printf 'garbage' >"$WORK/bad.state"
	rc=$(run "$WORK/bad" dpor 10 "$busy" --state "$WORK/bad.state")
	[ "$rc" = 2 ] && [ "$(wc -l <"$WORK/bad.err")" = 1 ] || fail "a damaged state: $(cat "$WORK/bad.err")"
	echo "ok: icb and dpor resumed to the same counts; wrong and damaged states refused in one line"
	;;
*)
	fail "unknown check $1"
	;;
esac
