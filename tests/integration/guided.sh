#!/usr/bin/env bash
# guided.sh - guided exploration (runtime/rt_guide.c), with fixed seeds.
#   guided.sh determinism FIXED_PROG
#     the same seed gives the same schedules, mutants among them; --no-guide,
#     SCHEDFUZZ_GUIDE=0 and a pinned strategy are unguided
#   guided.sh corpus FIXED_PROG BUGGY_PROG SEEDS_DIR
#     --corpus writes every kept schedule, each replays, a second run loads
#     and runs them first, a fuzzers' corpus (seeds, afl-fuzz names, any
#     bytes) is accepted, and a failure found with a corpus is saved and
#     replays as without one
#   guided.sh reversals BUGGY_PROG
#     the reversal arm branches off the first schedule's execution: a bug
#     one race reversal away from it is found by the second schedule, an
#     explicit list, for each of three seeds, and replays
#   guided.sh cov_events FIXED_PROG
#     coverage looks at an execution's first SCHEDFUZZ_COV_EVENTS events:
#     a small program is under the default (the same features as with no
#     limit), a limit of 5 events leaves fewer, and a bad value is a
#     one-line setup error
. "$(dirname "$0")/lib.sh"

schedules() { grep '^schedfuzz: schedule [0-9]*: ' "$1"; }
guided_line() { grep '^guided: ' "$1"; }

determinism() {
	local prog=$1
	for r in 1 2; do
		"$SCHEDFUZZ" run -n 300 --seed 5 --keep-going --print-schedule -o "$WORK/out" -- "$prog" \
			>/dev/null 2>"$WORK/run$r" || fail "run $r: exit $? on a fixed program"
	done
	[ "$(schedules "$WORK/run1" | wc -l)" -eq 300 ] || fail "expected 300 schedule lines"
	diff <(schedules "$WORK/run1") <(schedules "$WORK/run2") >/dev/null ||
		fail "the same seed gave another schedule sequence"
	diff <(guided_line "$WORK/run1") <(guided_line "$WORK/run2") || fail "the guide's tally differs"
	guided_line "$WORK/run1"
	local mutated kept
	mutated=$(guided_line "$WORK/run1" | sed -n 's/.*mutated \([0-9]*\) .*/\1/p')
	kept=$(guided_line "$WORK/run1" | sed -n 's/^guided: corpus \([0-9]*\) .*/\1/p')
	[ "${mutated:-0}" -ge 10 ] || fail "no mutants ran ($mutated)"
	[ "${kept:-0}" -ge 2 ] || fail "the corpus kept $kept schedules"
	# Unguided: the old portfolio, by flag or by environment; a pinned strategy.
	"$SCHEDFUZZ" run -n 300 --seed 5 --keep-going --print-schedule --no-guide -o "$WORK/out" -- "$prog" \
		>/dev/null 2>"$WORK/flag" || fail "--no-guide run failed"
	SCHEDFUZZ_GUIDE=0 "$SCHEDFUZZ" run -n 300 --seed 5 --keep-going --print-schedule -o "$WORK/out" \
		-- "$prog" >/dev/null 2>"$WORK/env" || fail "SCHEDFUZZ_GUIDE=0 run failed"
	diff <(schedules "$WORK/flag") <(schedules "$WORK/env") >/dev/null ||
		fail "--no-guide and SCHEDFUZZ_GUIDE=0 differ"
	! guided_line "$WORK/flag" >/dev/null || fail "--no-guide was guided"
	! diff <(schedules "$WORK/flag") <(schedules "$WORK/run1") >/dev/null ||
		fail "guided and unguided gave the same sequence"
	"$SCHEDFUZZ" run -n 50 --seed 5 --keep-going --strategy pct:d=2 -o "$WORK/out" -- "$prog" \
		>/dev/null 2>"$WORK/pinned" || fail "pinned run failed"
	! guided_line "$WORK/pinned" >/dev/null || fail "a pinned strategy was guided"
	echo "deterministic: 300 schedules twice, the same; unguided differs"
}

cov_events() {
	local prog=$1
	features() { # features SCHEDFUZZ_COV_EVENTS
		SCHEDFUZZ_COV_EVENTS=$1 "$SCHEDFUZZ" run -n 30 --seed 5 --keep-going -o "$WORK/out" -- "$prog" \
			>/dev/null 2>"$WORK/ev.$1" || fail "SCHEDFUZZ_COV_EVENTS=$1: exit $?"
		guided_line "$WORK/ev.$1" | sed -n 's/.* features \([0-9]*\),.*/\1/p'
	}
	local all dflt few
	all=$(features 0) dflt=$(features "") few=$(features 5)
	echo "features: no limit $all, default $dflt, 5 events $few"
	[ -n "$all" ] && [ "$all" = "$dflt" ] || fail "the default limit changed a small program's features"
	[ -n "$few" ] && [ "$few" -gt 0 ] && [ "$few" -lt "$all" ] || fail "5 events gave $few features"
	SCHEDFUZZ_COV_EVENTS=many "$SCHEDFUZZ" run -n 1 -o "$WORK/out" -- "$prog" >/dev/null 2>"$WORK/bad"
	[ $? -eq 2 ] || fail "SCHEDFUZZ_COV_EVENTS=many: expected a setup error"
	grep -q "SCHEDFUZZ_COV_EVENTS=many is not a number" "$WORK/bad" || fail "no reason given"
}

corpus() {
	local fixed=$1 buggy=$2 seeds=$3 dir=$WORK/corpus
	"$SCHEDFUZZ" run -n 200 --seed 3 --keep-going --corpus "$dir" -o "$WORK/out" -- "$fixed" \
		>/dev/null 2>"$WORK/first" || fail "first run: exit $?"
	local n kept
	n=$(ls "$dir" | wc -l)
	kept=$(guided_line "$WORK/first" | sed -n 's/^guided: corpus \([0-9]*\) (0 loaded).*/\1/p')
	[ "$n" -ge 2 ] && [ "$n" = "$kept" ] || fail "corpus has $n files, the guide kept '$kept'"
	for f in "$dir"/*; do
		"$SCHEDFUZZ" replay "$f" -- "$fixed" >/dev/null 2>&1 || fail "$f does not replay cleanly"
	done
	# A second run loads them and runs them first, in name order.
	"$SCHEDFUZZ" run -n 100 --seed 4 --keep-going --print-schedule --corpus "$dir" -o "$WORK/out" \
		-- "$fixed" >/dev/null 2>"$WORK/second" || fail "second run: exit $?"
	guided_line "$WORK/second" | grep -q "($n loaded)" || fail "the second run did not load $n"
	local i=0
	for f in $(ls "$dir" | sort | head -n "$n"); do
		i=$((i + 1))
		[ $i -le "$n" ] || break
		want=$("$SCHEDFUZZ" show "$dir/$f" | sed 's/^[^:]*: //')
		got=$(schedules "$WORK/second" | sed -n "${i}p" | sed 's/^schedfuzz: schedule [0-9]*: //')
		[ "$want" = "$got" ] || fail "schedule $i is '$got', not $f's '$want'"
	done
	# A fuzzers' corpus: seed genomes, an afl-fuzz queue name, odd bytes.
	local fz=$WORK/fuzzers
	mkdir "$fz"
	cp "$seeds"/pct/* "$fz"/
	printf 'x' >"$fz/id:000000,time:0,execs:0,orig:short"
	head -c 200 /dev/zero | tr '\0' '\1' >"$fz/id:000001,src:000000,op:havoc"
	: >"$fz/empty"
	local files
	files=$(ls "$fz" | wc -l)
	"$SCHEDFUZZ" run -n 60 --seed 1 --keep-going --corpus "$fz" -o "$WORK/out" -- "$fixed" \
		>/dev/null 2>"$WORK/fz" || fail "a fuzzers' corpus: exit $?"
	guided_line "$WORK/fz" | grep -q "($files loaded)" || fail "not all $files fuzzer inputs loaded"
	# A failure found from a corpus is saved and replays as ever.
	"$SCHEDFUZZ" run -n 5000 --seed 1 --corpus "$dir" -o "$WORK/crashes" -- "$buggy" \
		>"$WORK/stdout" 2>"$WORK/bug"
	[ $? -eq 1 ] || { tail -20 "$WORK/bug"; fail "the bug was not found"; }
	grep -q "replay reproduced the failure" "$WORK/bug" || fail "the failure did not replay"
	local input
	input=$(tail -n 1 "$WORK/stdout")
	"$SCHEDFUZZ" replay "$input" -- "$buggy" >/dev/null 2>&1
	[ $? -eq 1 ] || fail "schedfuzz replay of $input did not fail"
	echo "corpus: $n kept, replayed, reloaded; $files fuzzer inputs loaded; the bug saved and replayed"
}

reversals() {
	local prog=$1 s plan
	for s in 1 2 3; do
		"$SCHEDFUZZ" run -n 100 --seed "$s" --print-schedule -o "$WORK/rev$s" -- "$prog" \
			>/dev/null 2>"$WORK/rev$s.log"
		[ $? -eq 1 ] || { tail -5 "$WORK/rev$s.log"; fail "seed $s: the bug was not found"; }
		grep -q "^schedfuzz: schedule 2 of 100 failed:" "$WORK/rev$s.log" ||
			fail "seed $s: $(grep -m1 '^schedfuzz: schedule [0-9]* of' "$WORK/rev$s.log")"
		plan=$(schedules "$WORK/rev$s.log" | sed -n 2p)
		case $plan in
		*": explicit decisions=[]"*) fail "seed $s: schedule 2 is DPOR's own default: $plan" ;;
		*": explicit decisions=["*) ;;
		*) fail "seed $s: schedule 2 is no reversal: $plan" ;;
		esac
		grep -q "replay reproduced the failure" "$WORK/rev$s.log" || fail "seed $s: no replay"
	done
	echo "reversals: found by schedule 2, an explicit list, for seeds 1-3; replayed"
}

case $1 in
determinism) determinism "$2" ;;
cov_events) cov_events "$2" ;;
reversals) reversals "$2" ;;
corpus) corpus "$2" "$3" "$4" ;;
*) fail "unknown check '$1'" ;;
esac
