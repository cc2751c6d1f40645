#!/usr/bin/env bash
# jobs.sh CASE PROG [FIXED] - `schedfuzz run --jobs 2`: one campaign, two
# explorers.
#   found PROG N    N distinct bugs (kind and site): each saved once, each
#                   replayed by the run and again in a fresh process
#   clean FIXED     a fixed twin: no failure in 2,000 schedules in all
#   killed PROG     SIGTERM once a bug is saved: the summary, the bug kept,
#                   no process of the run left
#   sync FIXED SEEDS  genomes copied into --corpus DIR during the run are run
#   races PROG      --races=report: both jobs meet the same pair of sites; it
#                   is saved and replayed once, and listed once
#   resume PROG     --state: a second run goes on (schedule numbers, counts),
#                   finds the bug again without saving it again; a state
#                   file of another kind is refused in one line
. "$(dirname "$0")/lib.sh"
case_=$1 prog=$2

run() { # run NAME ARGS... -- the run's stdout, stderr and status in $WORK/NAME.*
	local name=$1
	shift
	"$SCHEDFUZZ" run "$@" -- "$prog" >"$WORK/$name.out" 2>"$WORK/$name.err"
	echo $? >"$WORK/$name.rc"
}
rc() { cat "$WORK/$1.rc"; }
has() { grep -Eq -- "$2" "$WORK/$1.err" || { cat "$WORK/$1.err"; fail "$1: no '$2'"; }; }
saved() { find "$1" -name 'crash-*' | wc -l; }

case $case_ in
found)
	want=$3
	run found -n 2000 --seed 1 --jobs 2 --keep-going -o "$WORK/out"
	[ "$(rc found)" -eq 1 ] || { cat "$WORK/found.err"; fail "exit $(rc found), expected 1"; }
	has found "^schedfuzz: 2 jobs ran 2000 schedules \([0-9]+, [0-9]+\)"
	has found "^findings by kind and site: $want$"
	[ "$(saved "$WORK/out")" -eq "$want" ] || fail "$(saved "$WORK/out") inputs saved, expected $want"
	[ "$(wc -l <"$WORK/found.out")" -eq "$want" ] || fail "stdout: not $want paths"
	[ "$(grep -c '^schedfuzz: input saved to' "$WORK/found.err")" -eq "$want" ] ||
		fail "not $want inputs saved"
	[ "$(grep -c '^schedfuzz: replay reproduced the failure' "$WORK/found.err")" -eq "$want" ] ||
		fail "not $want replays that reproduced their failure"
	failures=$(sed -n 's|^failures: \([0-9]*\)/2000$|\1|p' "$WORK/found.err")
	counted=$(sed -n 's|^  \([0-9]*\) x .*|\1|p' "$WORK/found.err" | awk '{ s += $1 } END { print s + 0 }')
	[ "$failures" -eq "$counted" ] || fail "failures: $failures, the findings count $counted"
	for f in $(cat "$WORK/found.out"); do
		"$SCHEDFUZZ" replay "$f" -- "$prog" >"$WORK/replay.out" 2>&1
		r=$?
		[ $r -eq 1 ] || { cat "$WORK/replay.out"; fail "replay of $f: exit $r, expected 1"; }
		kind=$(grep -F ": $f" "$WORK/found.err" | sed 's|^  [0-9]* x \([a-z ]*\).*|\1|')
		grep -q "^==schedfuzz== ERROR: $kind" "$WORK/replay.out" ||
			fail "replay of $f is not a $kind"
	done
	echo "found: $want distinct bugs, each saved and replayed once, in 2000 schedules of 2 jobs"
	;;
clean)
	run clean -n 2000 --seed 1 --jobs 2 --keep-going -o "$WORK/out"
	[ "$(rc clean)" -eq 0 ] || { cat "$WORK/clean.err"; fail "exit $(rc clean), expected 0"; }
	has clean "^schedfuzz: 2 jobs ran 2000 schedules"
	has clean "^failures: 0/2000$"
	has clean "^schedfuzz: no failure in 2000 schedules \(seed 1, 2 jobs\)$"
	[ "$(saved "$WORK/out")" -eq 0 ] || fail "an input saved"
	echo "clean: 0 failures in 2000 schedules of 2 jobs"
	;;
killed)
	copy=$WORK/prog_$$
	cp "$prog" "$copy"
	prog=$copy
	running() { pgrep -f "^$copy" | wc -l; }
	"$SCHEDFUZZ" run -n 100000000 --seed 1 --jobs 2 --keep-going -o "$WORK/out" -- "$copy" \
		>"$WORK/killed.out" 2>"$WORK/killed.err" &
	pid=$!
	for _ in $(seq 600); do
		[ "$(saved "$WORK/out")" -ge 1 ] && break
		sleep 0.1
	done
	[ "$(saved "$WORK/out")" -ge 1 ] || { kill -KILL $pid; fail "nothing found in 60 s"; }
	sleep 1
	[ "$(running)" -ge 3 ] || fail "not two jobs and their explorer: $(running) processes"
	kill -TERM $pid
	wait $pid
	r=$?
	for _ in $(seq 50); do
		[ "$(running)" -eq 0 ] && break
		sleep 0.1
	done
	left=$(running)
	pkill -KILL -f "^$copy" 2>/dev/null
	[ "$left" -eq 0 ] || fail "$left processes of the run still there 5 s after it ended"
	[ $r -eq 1 ] || { cat "$WORK/killed.err"; fail "exit $r, expected 1 (found)"; }
	has killed "^schedfuzz: stopped by Terminated$"
	has killed "^schedfuzz: 2 jobs ran [0-9]+ schedules"
	has killed "^findings by kind and site: [1-9]"
	for f in $(cat "$WORK/killed.out"); do
		[ -s "$f" ] || fail "$f: printed, not kept"
		"$SCHEDFUZZ" replay "$f" -- "$copy" >/dev/null 2>&1
		[ $? -eq 1 ] || fail "$f does not replay its failure"
	done
	[ -n "$(cat "$WORK/killed.out")" ] || fail "no path printed"
	[ -z "$(find "$WORK/out" -name '.*')" ] || fail "a partial file left in the output"
	echo "killed: every process ended, the summary said, $(saved "$WORK/out") finding(s) kept"
	;;
resume)
	st=$WORK/state
	run first -n 300 --seed 1 --jobs 2 --keep-going --state "$st" -o "$WORK/out"
	[ "$(rc first)" -eq 1 ] || { cat "$WORK/first.err"; fail "first: exit $(rc first)"; }
	[ -s "$st" ] || fail "no state written"
	n1=$(sed -n 's|^  \([0-9]*\) x .*|\1|p' "$WORK/first.err")
	run second -n 300 --seed 1 --jobs 2 --keep-going --state "$st" -o "$WORK/out"
	[ "$(rc second)" -eq 1 ] || { cat "$WORK/second.err"; fail "second: exit $(rc second)"; }
	has second "^schedfuzz: 600 schedules in the campaign so far$"
	grep -q "^schedfuzz: input saved" "$WORK/second.err" && fail "the known bug saved again"
	n2=$(sed -n 's|^  \([0-9]*\) x .*|\1|p' "$WORK/second.err")
	[ "$n2" -gt "$n1" ] || fail "its count did not go on: $n1 then $n2"
	[ "$(saved "$WORK/out")" -eq 1 ] || fail "not one input saved"
	# One job: its schedules go on from where the file left them.
	rm -f "$st"
	run one -n 40 --seed 1 --no-guide --keep-going --print-schedule --state "$st" -o "$WORK/out"
	run two -n 40 --seed 1 --no-guide --keep-going --print-schedule --state "$st" -o "$WORK/out"
	has two "^schedfuzz: schedule 41: "
	grep -q "^schedfuzz: schedule 40: " "$WORK/two.err" && fail "schedule 40 ran again"
	plans() { sed -n 's|^schedfuzz: schedule [0-9]*: ||p' "$WORK/$1.err" | sort; }
	[ -z "$(comm -12 <(plans one) <(plans two))" ] || fail "a plan ran in both runs"
	# A search's state is no campaign's.
	run search -n 5 --strategy dpor --state "$WORK/search_state" -o "$WORK/out"
	run wrong -n 5 --state "$WORK/search_state" -o "$WORK/out"
	[ "$(rc wrong)" -eq 2 ] || fail "another state: exit $(rc wrong), expected 2"
	[ "$(wc -l <"$WORK/wrong.err")" -eq 1 ] || { cat "$WORK/wrong.err"; fail "not one line"; }
	has wrong "not a state of schedfuzz run's explorer"
	echo "resume: counts and schedule numbers go on, nothing saved twice"
	;;
sync)
	# Genomes written into the corpus directory while the run goes on
	# (another machine's, synced in) are read within 10 s and run.
	seeds=$3 dir=$WORK/corpus
	mkdir "$dir"
	"$SCHEDFUZZ" run -n 100000000 --seed 1 --jobs 2 --keep-going --print-schedule --corpus "$dir" \
		-o "$WORK/out" -- "$prog" >/dev/null 2>"$WORK/sync.err" &
	pid=$!
	sleep 1
	mkdir "$WORK/new"
	cp "$seeds"/pct/* "$WORK/new"/
	for f in "$WORK/new"/*; do cp "$f" "$dir/synced-$(basename "$f")"; done
	sleep 13
	kill -TERM $pid
	wait $pid
	r=$?
	[ $r -eq 0 ] || { tail "$WORK/sync.err"; fail "exit $r, expected 0"; }
	for f in "$WORK/new"/*; do
		want=$("$SCHEDFUZZ" show "$f" | sed 's/^[^:]*: //')
		grep -qF -- ": $want" "$WORK/sync.err" || fail "$(basename "$f") ($want) never ran"
	done
	echo "sync: $(ls "$WORK/new" | wc -l) genomes written into the corpus meanwhile all ran"
	;;
races)
	run races -n 300 --seed 1 --jobs 2 --races=report -o "$WORK/out"
	[ "$(rc races)" -eq 1 ] || { cat "$WORK/races.err"; fail "exit $(rc races), expected 1"; }
	has races "^schedfuzz: 2 jobs ran 300 schedules \([1-9][0-9]*, [1-9][0-9]*\)"
	n=$(find "$WORK/out" -name 'race-*' | wc -l)
	[ "$n" -eq 1 ] || { cat "$WORK/races.err"; fail "$n race-* inputs saved, expected 1"; }
	[ "$(grep -c 'raced: data race' "$WORK/races.err")" -eq 1 ] || fail "the pair reported twice"
	[ "$(grep -c '^schedfuzz: replay reproduced the race' "$WORK/races.err")" -eq 1 ] ||
		{ cat "$WORK/races.err"; fail "not one replay of the race"; }
	has races "^findings by kind and site: 1$"
	has races "^  [0-9]+ x data race [0-9a-f]{16}: $WORK/out/race-"
	SCHEDFUZZ_RACES=report "$SCHEDFUZZ" replay "$WORK"/out/race-* -- "$prog" >/dev/null 2>"$WORK/replay.err"
	grep -q "^WARNING: ThreadSanitizer: data race" "$WORK/replay.err" || fail "replay shows no race"
	echo "races: one pair, saved and replayed once by 2 jobs; $(grep -E '^  [0-9]+ x data race' "$WORK/races.err")"
	;;
*)
	fail "unknown case $case_"
	;;
esac
